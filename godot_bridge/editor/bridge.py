"""The bridge's one door to Godot: the editor channel, the game channel, and the registry watch.

``EditorBridge`` is what dispatch calls. It owns an ``EditorLink`` (reconnecting
editor connection), a ``RuntimeLink`` (the running game, on demand) and a
``RegistryWatcher``; it routes each catalogue tool to the right one, shapes the
reply (contract C3), and keeps the two facts the tool surface depends on: the
Godot version (registry first, then the auth ack) and the extension command list
(``extensions.list`` after auth, ``extensions.changed`` pushes). ``on_change`` fires
whenever either changes so the surface can rebuild ``tools/list``.

Pushed errors (``errors.reported`` from either channel, ``game_crashed`` from the editor)
go to the ``ErrorStore``. So that a game's errors arrive without any runtime tool being
called, the game's channel is opened as soon as the registry publishes its port.

Forwarding never raises ``ToolError``: every failure comes back as an ``isError``
outcome in the toolkit's ``{success:false, error, code, hint?}`` envelope.
Cancellation (the MCP layer cancelling the handler task) propagates, after the
channel has sent ``_cancel`` for the in-flight request.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from godot_bridge.config import Settings
from godot_bridge.editor import screenshots
from godot_bridge.editor.screenshot_store import ImageStore
from godot_bridge.editor.pushed_errors import CRASHED, REPORTED, ErrorStore
from godot_bridge.editor.autolaunch import AutoLaunch
from godot_bridge.editor.channel import DEFAULT_INBOUND_LIMIT, WsChannel, encode_request
from godot_bridge.editor.forward import (
    CHANNEL_ALIASES,
    CRASH_CONTEXT_CODES,
    EDITOR,
    RUNTIME,
    ToolLike,
    crash_lines,
    route,
    shape,
    timeout_seconds,
    toolkit_failure_code,
)
from godot_bridge.editor.link import EditorLink
from godot_bridge.editor.registry import RegistryEntry, registry_path
from godot_bridge.editor.rpc import OnProgress
from godot_bridge.editor.runtime import RuntimeLink
from godot_bridge.editor.timing import Timing
from godot_bridge.editor.watch import RegistryWatcher
from godot_bridge.errors import ToolError
from godot_bridge.tools import results
from godot_bridge.tools.catalogue import Catalogue, load_catalogue
from godot_bridge.tools.progress import ProgressFn, WaitReporter
from godot_bridge.tools.results import ToolOutcome

log = logging.getLogger(__name__)

_VERSION = re.compile(r"^\s*(\d+)\.(\d+)")
# Contract methods the bridge itself uses on every connection (not tools: those are catalogue data).
EXTENSIONS_LIST = "extensions.list"
EXTENSIONS_CHANGED = "extensions.changed"
# Request ids count up from 1 (editor/rpc.py); a frame measured with this one is never shorter.
LONGEST_ID = 2**53


def parse_version(text: Any) -> tuple[int, int] | None:
    """'4.5.1', '4.5-stable', '4.5.stable.official' -> (4, 5)."""
    match = _VERSION.match(text) if isinstance(text, str) else None
    return (int(match.group(1)), int(match.group(2))) if match else None


def _commands(raw: Any) -> list[dict[str, Any]] | None:
    if not isinstance(raw, list):
        return None
    return [c for c in raw if isinstance(c, dict) and isinstance(c.get("method"), str)]


class EditorBridge:
    def __init__(
        self,
        settings: Settings,
        *,
        on_change: Callable[[], None] | None = None,
        on_connect: Callable[[], Awaitable[Any]] | None = None,
        timing: Timing | None = None,
        registry_file: Path | None = None,
        catalogue: Catalogue | None = None,
        images: ImageStore | None = None,
        errors: ErrorStore | None = None,
    ) -> None:
        self.settings = settings
        # Screenshots kept for image_response_mode link; the app shares it with the resources.
        self.images = images if images is not None else ImageStore()
        self.errors = errors if errors is not None else ErrorStore()
        # The catalogue names the tool that reads the game's log; its method also explains crashes.
        log_tool = (catalogue or load_catalogue()).handling("game_log")
        self._game_log_method = log_tool.method if log_tool is not None else None
        self._game_log_tool = log_tool.name if log_tool is not None else "the game log"
        self.timing = timing or Timing()
        self.registry_file = registry_file or registry_path(dict(settings.env) or None)
        self._on_change = on_change
        self._on_connect = on_connect
        self._version: tuple[int, int] | None = None
        self.godot_version_text: str | None = None
        self.headless: bool | None = None
        # GODOT_MCP_AUTOLAUNCH (editor/autolaunch.py); the composition root sets it, tests may leave it out.
        self.autolaunch: AutoLaunch | None = None
        self._extensions: list[dict[str, Any]] = []
        self._lsp_status: dict[str, Any] | None = None
        self._lsp_sent: tuple[Any, ...] | None = None
        self._seen_ports: tuple[int | None, int | None] | None = None
        self._registry_event = asyncio.Event()
        self._background: set[asyncio.Task[Any]] = set()
        self._started = False
        # This object is the link's LinkListener: on_push, on_entry, after_auth below.
        self._editor = EditorLink(settings, self.timing, self.registry_file, listener=self)
        self._runtime = RuntimeLink(settings, self.timing, self.registry_file, lookup=self._editor.lookup,
                                    on_push=self._on_game_push, on_open=self._on_game_open)
        self._watcher = RegistryWatcher(
            self.registry_file,
            self._on_registry_change,
            debounce_ms=self.timing.watch_debounce_ms,
            poll_interval=self.timing.watch_poll,
            force_polling=self.timing.force_polling,
        )

    # -- public state --------------------------------------------------------

    @property
    def godot_version(self) -> tuple[int, int] | None:
        return self._version

    @property
    def extension_commands(self) -> list[dict[str, Any]]:
        return [dict(c) for c in self._extensions]

    @property
    def connected(self) -> bool:
        return self._editor.live() is not None

    @property
    def editor_port(self) -> int | None:
        return self._editor.port

    @property
    def runtime_port(self) -> int | None:
        return self._runtime.port

    # -- lifecycle -----------------------------------------------------------

    def read_registry(self) -> RegistryEntry | None:
        """The registry may already know the Godot version: the surface can gate tools before connecting."""
        try:
            return self._editor.lookup()
        except Exception:
            log.exception("initial registry read failed")
            return None

    async def start(self) -> None:
        """Start connecting and watching in the background; never raises, returns at once."""
        if self._started:
            return
        self._started = True
        entry = self.read_registry()
        if entry is not None and self._runtime.target(entry) is not None:
            self._spawn(self._connect_game())  # a game already running: hear its errors
        self._editor.start()
        self._watcher.start()

    async def aclose(self) -> None:
        await self._watcher.aclose()
        await self._runtime.aclose()
        await self._editor.aclose()
        for task in list(self._background):
            task.cancel()
        if self._background:
            await asyncio.gather(*self._background, return_exceptions=True)

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def _fire_change(self) -> None:
        if self._on_change is None:
            return
        try:
            self._on_change()
        except Exception:
            log.exception("on_change callback failed")

    def update_settings(self, settings: Settings) -> None:
        """A configuration reload: pins and the token path apply from the next connect; changed
        limits are sent to a connected editor at once."""
        old, self.settings = self.settings, settings
        self._editor.settings = settings
        self._runtime.settings = settings
        limits = self._limits()
        if limits and limits != self._limits(old):
            ch = self._editor.live()
            if ch is not None:
                self._spawn(self._send_limits(ch, limits))

    def _limits(self, settings: Settings | None = None) -> dict[str, int]:
        settings = settings or self.settings
        return {
            key: value
            for key, value in (
                ("script_read_cap_kb", settings.script_read_limit_kb),
                ("ws_buffer_kb", settings.ws_buffer_limit_kb),
            )
            if value is not None
        }

    async def _send_limits(self, ch: WsChannel, limits: dict[str, int]) -> bool:
        """Send the limits; True when the reply says a new buffer size applies only after a reconnect."""
        try:
            reply = await ch.request("meta.set_limits", limits, timeout=self.timing.setup_timeout)
        except ToolError as err:
            log.warning("could not apply limits %s: %s", limits, err.message)
            return False
        return self._learn_buffer(ch, reply)

    # -- facts: version, extensions -------------------------------------------

    def _set_version(self, text: str, source: str) -> None:
        parsed = parse_version(text)
        if parsed is None:
            log.warning("unparseable Godot version %r from the %s", text, source)
            return
        self.godot_version_text = text
        if parsed != self._version:
            log.info("Godot version %s (from the %s)", text, source)
            self._version = parsed
            self._fire_change()

    def on_entry(self, entry: RegistryEntry | None) -> None:
        """Every registry read: the registry's version counts until a live ack says otherwise."""
        if entry is None or not entry.godot_version:
            return
        live = self._editor.live()
        if live is not None and isinstance(live.ack.get("godot_version"), str):
            return
        self._set_version(entry.godot_version, "registry")

    def _set_extensions(self, commands: list[dict[str, Any]]) -> None:
        if commands != self._extensions:
            self._extensions = commands
            log.info("editor extensions: %d command(s)", len(commands))
            self._fire_change()

    def _merge_extensions(self, params: Any) -> None:
        params = params if isinstance(params, dict) else {}
        removed = {m for m in params.get("removed") or [] if isinstance(m, str)}
        merged = [c for c in self._extensions if c["method"] not in removed]
        for cmd in _commands(params.get("commands")) or []:
            at = next((i for i, c in enumerate(merged) if c["method"] == cmd["method"]), None)
            if at is None:
                merged.append(cmd)
            else:
                merged[at] = cmd
        self._set_extensions(merged)

    # -- events from the links and the watcher -----------------------------------

    async def after_auth(self, ch: WsChannel, entry: RegistryEntry | None) -> bool:
        """Setup on a fresh connection; True when it must be reopened (a new buffer size applies only then)."""
        ack = ch.ack
        self.headless = ack["headless"] if isinstance(ack.get("headless"), bool) else None
        if isinstance(ack.get("godot_version"), str):
            self._set_version(ack["godot_version"], "editor handshake")
        elif entry is not None and entry.godot_version:
            self._set_version(entry.godot_version, "registry")
        t = self.timing.setup_timeout
        limits = self._limits()
        if limits:
            if await self._send_limits(ch, limits):
                return True
        try:
            reply = await ch.request(EXTENSIONS_LIST, {}, timeout=t)
            commands = _commands(reply.get("commands") if isinstance(reply, dict) else None)
            if commands is not None:
                self._set_extensions(commands)
        except ToolError as err:
            log.warning("could not list editor extensions: %s", err.message)
        self._lsp_sent = None  # a new editor session has not seen our LSP verdict
        if self._lsp_status is not None:
            await self._push_lsp(ch)
        if self._on_connect is not None:
            # e.g. a fresh LSP verdict for the dock; in the background so the first call is not delayed.
            self._spawn(self._on_connect())
        return False

    @staticmethod
    def _learn_buffer(ch: WsChannel, reply: Any) -> bool:
        """This connection's inbound buffer from a meta.set_limits reply; True when a new size awaits a reconnect.

        The editor sizes a peer's buffer when it accepts it, so ``previous`` is this connection's
        and ``applied`` is the next one's.
        """
        def kb(key: str) -> int | None:
            part = reply.get(key) if isinstance(reply, dict) else None
            value = part.get("ws_buffer_kb") if isinstance(part, dict) else None
            return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None

        previous, applied = kb("previous"), kb("applied")
        if previous is not None:
            ch.inbound_limit = previous * 1024
        elif applied is not None:
            return False  # an editor that does not say what it had: keep the default
        return previous is not None and applied is not None and applied != previous

    def on_push(self, message: dict[str, Any]) -> None:
        name = message.get("notification") or message.get("method")
        if name == EXTENSIONS_CHANGED:
            self._merge_extensions(message.get("params"))
        elif name == "game_stopped":
            self._spawn(self._runtime.drop("the editor reported game_stopped"))
        elif name in (REPORTED, CRASHED):
            self.errors.push(name, message.get("params"), channel="editor")
            if name == CRASHED:
                self._spawn(self._runtime.drop("the editor reported game_crashed"))
        else:
            log.debug("editor push %r ignored", name)

    def _on_game_push(self, message: dict[str, Any]) -> None:
        name = message.get("notification") or message.get("method")
        if name == REPORTED:
            self.errors.push(name, message.get("params"), channel="game")
        else:
            log.debug("game push %r ignored", name)

    def _on_game_open(self, ch: WsChannel, entry: RegistryEntry | None) -> None:
        # A game process is told apart by its port and pid: its error ids start again at 1.
        pid = entry.runtime_pid if entry is not None else None
        self.errors.new_game_session((ch.port, pid))

    async def _connect_game(self) -> None:
        """Open the game's channel now (its pushes only reach a connected bridge); quiet on failure."""
        try:
            await self._runtime.ensure()
        except ToolError as err:
            log.debug("game channel not opened yet: %s", err.message)

    def _on_registry_change(self) -> None:
        entry = self._editor.lookup()
        ports = (entry.port if entry else None, entry.runtime_port if entry else None)
        if ports != self._seen_ports:
            before = self._seen_ports or (None, None)
            self._seen_ports = ports
            editor_port, runtime_port = ports
            if editor_port != before[0] and editor_port is not None:
                self._editor.retarget(editor_port)
            if runtime_port != before[1]:
                log.info("registry: runtime_port %s -> %s", before[1], runtime_port)
                live_rt = self._runtime.live()
                if live_rt is not None and self.settings.runtime_port is None and live_rt.port != runtime_port:
                    self._spawn(self._runtime.drop("the registry no longer lists its port", only=live_rt))
                if runtime_port is not None:
                    self._spawn(self._connect_game())
        # Wake anyone waiting for the registry (game_start waiting for the runtime).
        event, self._registry_event = self._registry_event, asyncio.Event()
        event.set()

    # -- LSP status (contract C15) ---------------------------------------------

    async def send_lsp_status(self, status: dict[str, Any]) -> None:
        """Tell the editor the LSP verdict; de-duplicated, and re-sent after a reconnect."""
        self._lsp_status = dict(status)
        ch = self._editor.live()
        if ch is not None:
            await self._push_lsp(ch)

    async def _push_lsp(self, ch: WsChannel) -> None:
        status = self._lsp_status or {}
        key = (status.get("state"), status.get("host"), status.get("port"))
        if key == self._lsp_sent:
            return
        self._lsp_sent = key
        try:
            await ch.request("editor.set_lsp_status", status, timeout=self.timing.setup_timeout)
        except ToolError as err:
            self._lsp_sent = None
            log.debug("editor.set_lsp_status failed: %s", err.message)

    # -- calls -------------------------------------------------------------------

    async def call(
        self,
        method: str,
        params: dict[str, Any] | None = None,
        *,
        channel: str = EDITOR,
        timeout: float | None = None,
        on_progress: OnProgress | None = None,
    ) -> Any:
        """The raw toolkit result of one request; raises ToolError."""
        resolved = CHANNEL_ALIASES.get(channel)
        if resolved == RUNTIME:
            return await self._runtime.request(method, params, timeout, on_progress=on_progress)
        if resolved == EDITOR:
            return await self._editor.request(method, params, timeout, on_progress=on_progress)
        raise ToolError("INTERNAL", f"unknown channel {channel!r} for {method}")

    async def ready(self, tool: ToolLike, args: dict[str, Any]) -> None:
        """Raise what a call of ``tool`` would fail with before the toolkit runs it: no game running
        (GAME_NOT_RUNNING), no editor to reach and none to start, a request its channel cannot take
        (REQUEST_TOO_LARGE; INVALID_PARAMS for text JSON cannot carry). Only connects; sends nothing.
        Asked before the person is (consent/gate.py): a yes to a call that cannot run asks for nothing."""
        if tool.channel not in (EDITOR, RUNTIME) or not tool.method:
            return
        channel, params, _ = self._request(tool, args)
        if channel == RUNTIME:
            ch = await self._runtime.ensure()
            limit, label = ch.inbound_limit, ch.label
        else:
            try:
                ch = await self._editor.ensure()
                limit, label = ch.inbound_limit, ch.label
            except ToolError as err:
                if self.autolaunch is None or not self.autolaunch.would_launch(err):
                    raise
                # The editor it would start takes what the bridge asks of it, else the toolkit's default.
                limit, label = (self.settings.ws_buffer_limit_kb or DEFAULT_INBOUND_LIMIT // 1024) * 1024, EDITOR
        # The frame forward() sends, with the longest id a request gets: never smaller than the real one.
        encode_request({"jsonrpc": "2.0", "id": LONGEST_ID, "method": tool.method, "params": params}, label, limit)

    def _request(self, tool: ToolLike, args: dict[str, Any]) -> tuple[str, dict[str, Any], screenshots.LinkPlan | None]:
        """(channel, params, screenshot link plan) of the request forwarding a call of ``tool`` sends."""
        channel, params = route(tool, args)
        link: screenshots.LinkPlan | None = None
        if "image_result" in tool.handling:
            params, link = screenshots.toolkit_params(params, self.settings.image_mode)
        return channel, params, link

    async def forward(self, tool: ToolLike, args: dict[str, Any], progress: ProgressFn | None = None) -> ToolOutcome:
        """Forward a catalogue tool call and shape its result (never raises ToolError).

        ``progress`` (the client asked for progress) hears every wait: the tool's catalogue ``wait_message``,
        a command queued in the editor, and game_start waiting for the runtime channel.

        ``args`` arrive guarded: dispatch checks every path once, on the validated arguments, before
        anything of the call leaves (safety/pathguard.py ``CallGuard``); checking again here would
        resolve each path on disk twice."""
        try:
            if not tool.method:
                raise ToolError("INTERNAL", f"{tool.name} has no toolkit method to forward")
            channel, params, link = self._request(tool, args)
            return await self._forward(
                tool.method,
                params,
                channel,
                timeout_seconds(tool, args),
                tool.success_hint,
                handling=frozenset(tool.handling),
                wait_message=tool.wait_message,
                wait_for_runtime=args.get("wait_for_runtime") is not False,
                progress=progress,
                link=link,
            )
        except ToolError as err:
            return results.failure(err)
        except Exception as exc:
            log.exception("%s failed inside the bridge", tool.name)
            return results.failure(ToolError("INTERNAL", f"{tool.name} failed inside the bridge: {exc}"))

    async def _forward(
        self,
        method: str,
        params: dict[str, Any],
        channel: str,
        timeout: float | None,
        success_hint: str | None,
        *,
        handling: frozenset[str],
        wait_message: str | None = None,
        wait_for_runtime: bool = True,
        progress: ProgressFn | None = None,
        link: screenshots.LinkPlan | None = None,
    ) -> ToolOutcome:
        async with WaitReporter(progress) as waits:
            return await self._forward_reporting(method, params, channel, timeout, success_hint,
                                                 handling, wait_message, wait_for_runtime, waits, link)

    async def _forward_reporting(
        self,
        method: str,
        params: dict[str, Any],
        channel: str,
        timeout: float | None,
        success_hint: str | None,
        handling: frozenset[str],
        own_wait: str | None,
        wait_for_runtime: bool,
        waits: WaitReporter,
        link: screenshots.LinkPlan | None = None,
    ) -> ToolOutcome:
        if "game_log" in handling and channel == RUNTIME:
            channel = await self._log_channel()
        if own_wait is not None:
            waits.waiting(own_wait)

        def on_rpc(state: str, note: dict[str, Any]) -> None:
            # The toolkit parks a command behind the one holding its lane (_queued), then runs it;
            # a long command may count its way through (_progress: e.g. test suites done of all).
            if state == "_progress":
                counted = _counted(note)
                if counted is not None:
                    waits.counted(*counted)
            elif state == "_queued":
                waits.waiting(f"'{method}' is queued in the editor behind another command")
            elif own_wait is not None:
                waits.waiting(own_wait)
            else:
                waits.done()

        try:
            payload = await self._call_or_launch(method, params, channel, timeout, on_rpc, waits)
        except ToolError as err:
            raise await self._explain(err, channel) from None
        waits.done()
        succeeded = isinstance(payload, dict) and payload.get("success") is not False
        if "lists_extensions" in handling and succeeded:
            commands = _commands(payload.get("commands"))
            if commands is not None:
                self._set_extensions(commands)
        if "starts_game" in handling and wait_for_runtime and succeeded:
            payload = await self._report_runtime(payload, waits)
        if channel == RUNTIME and toolkit_failure_code(payload) in CRASH_CONTEXT_CODES:
            lines = await self._crash_context()
            if lines:
                payload = {**payload, "crash_context": lines}
        if link is not None:
            preview = None
            if link.thumbnail is not None and succeeded:
                preview = await self._preview(method, link.thumbnail, channel, timeout)
            return screenshots.link_result(payload, self.images, channel, preview)
        return shape(payload, success_hint, image="image_result" in handling)

    async def _call_or_launch(self, method: str, params: dict[str, Any], channel: str, timeout: float | None,
                              on_rpc: OnProgress, waits: WaitReporter) -> Any:
        """The call; when no editor answers and GODOT_MCP_AUTOLAUNCH is on, start one first, then call again."""
        try:
            return await self.call(method, params, channel=channel, timeout=timeout, on_progress=on_rpc)
        except ToolError as err:
            if self.autolaunch is None or CHANNEL_ALIASES.get(channel) != EDITOR:
                raise
            problem = await self.autolaunch.recover(err, waits)
            if problem is not None:
                raise problem from None
        return await self.call(method, params, channel=channel, timeout=timeout, on_progress=on_rpc)

    async def _preview(self, method: str, params: dict[str, Any], channel: str, timeout: float | None) -> Any:
        """The thumbnail's capture; its failure is reported in the result's metadata, never raised."""
        try:
            return await self.call(method, params, channel=channel, timeout=timeout)
        except ToolError as err:
            return {"success": False, "error": err.message, "code": err.code}

    async def _log_channel(self) -> str:
        """The game log reads the game while one runs, else the editor's copy of the last session."""
        if self._runtime.live() is not None:
            return RUNTIME
        try:
            await self._runtime.ensure()
            return RUNTIME
        except ToolError as err:
            if err.code == "GAME_NOT_RUNNING":
                return EDITOR
            raise

    async def _explain(self, err: ToolError, channel: str) -> ToolError:
        """Runtime failures get the game's last log lines; explaining must never make things worse."""
        if channel != RUNTIME or err.code not in CRASH_CONTEXT_CODES or "crash_context" in err.extra:
            return err
        lines = await self._crash_context()
        if lines:
            err.extra = {**err.extra, "crash_context": lines}
        return err

    async def _crash_context(self) -> list[str]:
        # The editor keeps the game's output (its copy survives a crashed game). The whole fetch,
        # including a connect if the editor link is still coming up, is bounded by one short limit.
        limit = self.timing.crash_context_timeout
        if self._game_log_method is None:
            return []
        try:
            request = self._editor.request(self._game_log_method, {"limit": 40}, timeout=limit)
            reply = await asyncio.wait_for(request, limit)
        except (ToolError, TimeoutError):
            return []
        except Exception:
            log.exception("crash-context fetch failed")
            return []
        return crash_lines(reply)

    async def _report_runtime(self, payload: dict[str, Any], waits: WaitReporter) -> dict[str, Any]:
        """game_start: wait (bounded) for the game's runtime channel and say whether it came up."""
        wait = self.timing.runtime_wait
        deadline = time.monotonic() + wait
        last: ToolError | None = None
        while True:
            event = self._registry_event
            try:
                ch = await self._runtime.ensure()
                return {**payload, "runtime_connected": True, "runtime_port": ch.port}
            except ToolError as err:
                last = err
                if err.code != "GAME_NOT_RUNNING":
                    break
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                break
            waits.waiting(f"waiting for the game's runtime channel to come up (at most {wait:g} s)")
            try:
                # The registry watch wakes us as soon as the game publishes runtime_port.
                await asyncio.wait_for(event.wait(), min(self.timing.reconnect_poll, remaining))
            except TimeoutError:
                pass
        detail = last.message if last else "unknown"
        return {
            **payload,
            "runtime_connected": False,
            "runtime_detail": f"the game's runtime channel did not come up within {wait:g} s ({detail}); "
            f"runtime tools report GAME_NOT_RUNNING until it does. Check {self._game_log_tool} for a crash.",
        }


def _counted(note: dict[str, Any]) -> tuple[float, float, str] | None:
    """A ``_progress`` notification's (progress, total, message); None when it is malformed."""
    progress, total, message = note.get("progress"), note.get("total"), note.get("message", "")
    numbers = all(isinstance(v, int | float) and not isinstance(v, bool) for v in (progress, total))
    if not numbers or not isinstance(message, str):
        log.debug("ignoring a malformed _progress notification: %s", note)
        return None
    return float(progress), float(total), message
