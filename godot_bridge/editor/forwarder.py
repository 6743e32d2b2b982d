"""Moving one tool call to Godot and its answer back (contract C3, C8): the one forwarder.

A call is first made a ``ForwardPlan`` (``plan``): the method, the params the toolkit gets, the
channel (tools/channels.py), the timeout, and the catalogue ``handling`` that asks for more than
sending it. ``Forwarder.forward`` sends a plan on its channel, reports its waits and shapes the
reply. What each ``handling`` adds is one row of ``HOOKS``, at the stage it acts on:

* ``prepare``: the plan, before anything is sent (``image_result``: the screenshot's params and link);
* ``before``: just before sending (``game_log``: the game while one runs, else the editor's copy);
* ``after``: on a success (``lists_extensions``: learn the list; ``starts_game``: wait for the game);
* ``result``: the MCP result (``image_result``: an image, or a link to the kept one).

Whatever the handling, a runtime failure is explained with the game's last log lines (crash
context), and a call no editor answers may start one first (GODOT_MCP_AUTOLAUNCH).

Forwarding never raises ``ToolError``: every failure comes back as an ``isError`` outcome in the
toolkit's ``{success:false, error, code, hint?}`` envelope. Cancellation (the MCP layer cancelling
the handler task) propagates, after the channel has sent ``_cancel`` for the in-flight request.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any

from godot_bridge.config import Settings
from godot_bridge.editor import screenshots
from godot_bridge.editor.screenshot_store import ImageStore
from godot_bridge.editor.autolaunch import AutoLaunch
from godot_bridge.editor.channel import DEFAULT_INBOUND_LIMIT, encode_request
from godot_bridge.editor.facts import EditorFacts, commands
from godot_bridge.editor.forward import (
    CRASH_CONTEXT_CODES,
    ToolLike,
    crash_lines,
    route,
    shape,
    timeout_seconds,
    toolkit_failure_code,
)
from godot_bridge.editor.link import EditorLink
from godot_bridge.editor.rpc import OnProgress
from godot_bridge.editor.runtime import RuntimeLink
from godot_bridge.editor.timing import Timing
from godot_bridge.errors import ToolError
from godot_bridge.tools import results
from godot_bridge.tools.catalogue import ToolDef
from godot_bridge.tools.channels import CHANNEL_ALIASES, EDITOR, RUNTIME
from godot_bridge.tools.progress import ProgressFn, WaitReporter
from godot_bridge.tools.results import ToolOutcome

# The editor side logs under one name, whichever of its modules speaks.
log = logging.getLogger("godot_bridge.editor.bridge")
# Request ids count up from 1 (editor/rpc.py); a frame measured with this one is never shorter.
LONGEST_ID = 2**53
# How many of the game's log lines the crash context asks for (it keeps the most telling few).
CRASH_LOG_LIMIT = 40


# Not frozen (every call builds one, and a frozen dataclass pays a setattr per field); a hook that
# changes the plan returns a new one (``dataclasses.replace``).
@dataclass(slots=True)
class ForwardPlan:
    """One call as it is sent: built once (``plan``), read by every stage and hook."""

    method: str
    params: dict[str, Any]
    channel: str
    timeout: float | None = None
    success_hint: str | None = None
    handling: tuple[str, ...] = ()
    # The catalogue's wait_message: what the call waits for, told to a client that asked for progress.
    wait_message: str | None = None
    # game_start's wait_for_runtime: wait for the game's channel after starting it.
    wait_for_runtime: bool = True
    # image_response_mode link: how the screenshot is kept and linked (editor/screenshots.py).
    link: screenshots.LinkPlan | None = None


def plan(tool: ToolLike, args: dict[str, Any], settings: Settings) -> ForwardPlan:
    """The request forwarding a call of ``tool`` sends; raises ToolError for a call it cannot send."""
    if not tool.method:
        raise ToolError("INTERNAL", f"{tool.name} has no toolkit method to forward")
    channel, params = route(tool, args)
    made = ForwardPlan(
        tool.method,
        params,
        channel,
        timeout_seconds(tool, args),
        tool.success_hint,
        handling=tuple(tool.handling),
        wait_message=getattr(tool, "wait_message", None),
        wait_for_runtime=args.get("wait_for_runtime") is not False,
    )
    for hook in hooks_of(made.handling):
        if hook.prepare is not None:
            made = hook.prepare(made, settings)
    return made


class Forwarder:
    """Sends calls on the editor's or the game's link; one ``forward`` for every catalogue tool."""

    def __init__(self, editor: EditorLink, runtime: RuntimeLink, *, settings: Callable[[], Settings],
                 facts: EditorFacts, images: ImageStore, game_log: ToolDef | None) -> None:
        self._editor = editor
        self._runtime = runtime
        self._settings = settings
        self.facts = facts
        self.images = images
        # The catalogue names the tool that reads the game's log; its method also explains crashes.
        self._game_log_method = game_log.method if game_log is not None else None
        self._game_log_tool = game_log.name if game_log is not None else "the game log"
        # GODOT_MCP_AUTOLAUNCH (editor/autolaunch.py); the composition root sets it, tests may leave it out.
        self.autolaunch: AutoLaunch | None = None
        self._registry_event = asyncio.Event()

    @property
    def timing(self) -> Timing:
        return self._editor.timing

    def registry_changed(self) -> None:
        """Wake whoever waits for the registry (game_start waiting for the game's port)."""
        event, self._registry_event = self._registry_event, asyncio.Event()
        event.set()

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
        request = plan(tool, args, self._settings())
        if request.channel == RUNTIME:
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
                kb = self._settings().ws_buffer_limit_kb or DEFAULT_INBOUND_LIMIT // 1024
                limit, label = kb * 1024, EDITOR
        # The frame forward() sends, with the longest id a request gets: never smaller than the real one.
        frame = {"jsonrpc": "2.0", "id": LONGEST_ID, "method": request.method, "params": request.params}
        encode_request(frame, label, limit)

    async def forward(self, tool: ToolLike, args: dict[str, Any], progress: ProgressFn | None = None) -> ToolOutcome:
        """Forward a catalogue tool call and shape its result (never raises ToolError).

        ``progress`` (the client asked for progress) hears every wait: the tool's catalogue ``wait_message``,
        a command queued in the editor, and game_start waiting for the runtime channel.

        ``args`` arrive guarded: dispatch checks every path once, on the validated arguments, before
        anything of the call leaves (safety/pathguard.py ``CallGuard``); checking again here would
        resolve each path on disk twice."""
        try:
            request = plan(tool, args, self._settings())
            async with WaitReporter(progress) as waits:
                return await self.send(request, waits)
        except ToolError as err:
            return results.failure(err)
        except Exception as exc:
            log.exception("%s failed inside the bridge", tool.name)
            return results.failure(ToolError("INTERNAL", f"{tool.name} failed inside the bridge: {exc}"))

    async def send(self, request: ForwardPlan, waits: WaitReporter) -> ToolOutcome:
        """Send one plan and shape its reply; raises ToolError (with crash context for the game's)."""
        hooks = hooks_of(request.handling)
        for hook in hooks:
            if hook.before is not None:
                request = await hook.before(self, request)
        if request.wait_message is not None:
            waits.waiting(request.wait_message)
        try:
            payload = await self._call_or_launch(request, self._on_rpc(request, waits), waits)
        except ToolError as err:
            raise await self._explain(err, request.channel) from None
        waits.done()
        if isinstance(payload, dict) and payload.get("success") is not False:
            for hook in hooks:
                if hook.after is not None:
                    payload = await hook.after(self, request, payload, waits)
        if request.channel == RUNTIME and toolkit_failure_code(payload) in CRASH_CONTEXT_CODES:
            lines = await self._crash_context()
            if lines:
                payload = {**payload, "crash_context": lines}
        for hook in hooks:
            if hook.result is not None:
                return await hook.result(self, request, payload)
        return shape(payload, request.success_hint)

    @staticmethod
    def _on_rpc(request: ForwardPlan, waits: WaitReporter) -> OnProgress:
        def on_rpc(state: str, note: dict[str, Any]) -> None:
            # The toolkit parks a command behind the one holding its lane (_queued), then runs it;
            # a long command may count its way through (_progress: e.g. test suites done of all).
            if state == "_progress":
                counted = _counted(note)
                if counted is not None:
                    waits.counted(*counted)
            elif state == "_queued":
                waits.waiting(f"'{request.method}' is queued in the editor behind another command")
            elif request.wait_message is not None:
                waits.waiting(request.wait_message)
            else:
                waits.done()

        return on_rpc

    async def _call_or_launch(self, request: ForwardPlan, on_rpc: OnProgress, waits: WaitReporter) -> Any:
        """The call; when no editor answers and GODOT_MCP_AUTOLAUNCH is on, start one first, then call again."""
        method, params, channel, timeout = request.method, request.params, request.channel, request.timeout
        try:
            return await self.call(method, params, channel=channel, timeout=timeout, on_progress=on_rpc)
        except ToolError as err:
            if self.autolaunch is None or CHANNEL_ALIASES.get(channel) != EDITOR:
                raise
            problem = await self.autolaunch.recover(err, waits)
            if problem is not None:
                raise problem from None
        return await self.call(method, params, channel=channel, timeout=timeout, on_progress=on_rpc)

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
            request = self._editor.request(self._game_log_method, {"limit": CRASH_LOG_LIMIT}, timeout=limit)
            reply = await asyncio.wait_for(request, limit)
        except (ToolError, TimeoutError):
            return []
        except Exception:
            log.exception("crash-context fetch failed")
            return []
        return crash_lines(reply)

    # -- the hooks of HOOKS ---------------------------------------------------------

    async def _log_channel(self, request: ForwardPlan) -> ForwardPlan:
        """game_log: the game's log reads the game while one runs, else the editor's copy of the last session."""
        if request.channel != RUNTIME or self._runtime.live() is not None:
            return request
        try:
            await self._runtime.ensure()
            return request
        except ToolError as err:
            if err.code == "GAME_NOT_RUNNING":
                return replace(request, channel=EDITOR)
            raise

    async def _learn_extensions(self, _request: ForwardPlan, payload: dict[str, Any],
                                _waits: WaitReporter) -> dict[str, Any]:
        """lists_extensions: the reply's commands are the editor's extension tools."""
        listed = commands(payload.get("commands"))
        if listed is not None:
            self.facts.set_extensions(listed)
        return payload

    async def _report_runtime(self, request: ForwardPlan, payload: dict[str, Any],
                              waits: WaitReporter) -> dict[str, Any]:
        """starts_game: wait (bounded) for the game's runtime channel and say whether it came up."""
        if not request.wait_for_runtime:
            return payload
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

    async def _image_result(self, request: ForwardPlan, payload: Any) -> ToolOutcome:
        """image_result: the screenshot as an image block, or kept and linked (with its thumbnail's capture)."""
        link = request.link
        if link is None:
            return shape(payload, request.success_hint, image=True)
        preview = None
        if link.thumbnail is not None and isinstance(payload, dict) and payload.get("success") is not False:
            preview = await self._preview(request, link.thumbnail)
        return screenshots.link_result(payload, self.images, request.channel, preview)

    async def _preview(self, request: ForwardPlan, params: dict[str, Any]) -> Any:
        """The thumbnail's capture; its failure is reported in the result's metadata, never raised."""
        try:
            return await self.call(request.method, params, channel=request.channel, timeout=request.timeout)
        except ToolError as err:
            return {"success": False, "error": err.message, "code": err.code}


def _image_params(request: ForwardPlan, settings: Settings) -> ForwardPlan:
    """image_result: the capture's params for the response mode, and how a link keeps it."""
    params, link = screenshots.toolkit_params(request.params, settings.image_mode)
    return replace(request, params=params, link=link)


@dataclass(frozen=True)
class Hook:
    """What one catalogue ``handling`` adds to forwarding, by stage (module docstring)."""

    prepare: Callable[[ForwardPlan, Settings], ForwardPlan] | None = None
    before: Callable[[Forwarder, ForwardPlan], Awaitable[ForwardPlan]] | None = None
    after: Callable[[Forwarder, ForwardPlan, dict[str, Any], WaitReporter], Awaitable[dict[str, Any]]] | None = None
    result: Callable[[Forwarder, ForwardPlan, Any], Awaitable[ToolOutcome]] | None = None


# Every catalogue ``handling`` (tools/catalogue.py ``Handling``), in the order its stages run.
HOOKS: dict[str, Hook] = {
    # The caller's channel argument picks the channel: ``plan`` routes it (tools/channels.py).
    "channel_arg": Hook(),
    "image_result": Hook(prepare=_image_params, result=Forwarder._image_result),
    "game_log": Hook(before=Forwarder._log_channel),
    "lists_extensions": Hook(after=Forwarder._learn_extensions),
    "starts_game": Hook(after=Forwarder._report_runtime),
}


@functools.cache
def hooks_of(handling: tuple[str, ...]) -> tuple[Hook, ...]:
    """The rows of ``HOOKS`` a call's handling names, in the table's order."""
    return tuple(hook for kind, hook in HOOKS.items() if kind in handling)


def _counted(note: dict[str, Any]) -> tuple[float, float, str] | None:
    """A ``_progress`` notification's (progress, total, message); None when it is malformed."""
    progress, total, message = note.get("progress"), note.get("total"), note.get("message", "")
    numbers = all(isinstance(v, int | float) and not isinstance(v, bool) for v in (progress, total))
    if not numbers or not isinstance(message, str):
        log.debug("ignoring a malformed _progress notification: %s", note)
        return None
    return float(progress), float(total), message
