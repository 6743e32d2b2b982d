"""The bridge's one door to Godot: what it knows of the editor, and its links to the editor and the game.

``EditorBridge`` is what the app, dispatch and the resources hold. It owns an ``EditorLink``
(reconnecting editor connection), a ``RuntimeLink`` (the running game, on demand) and a
``RegistryWatcher``, and keeps what the bridge knows of the editor: the registry's ports, the
Godot version and extension commands (``EditorFacts``, editor/facts.py), the limits it asks of
it (editor/limits.py) and the language server's verdict it shows (editor/lsp_status.py).
Moving a call is the ``Forwarder``'s (editor/forwarder.py): ``call``, ``ready`` and ``forward``
are its.

Pushed errors (``errors.reported`` from either channel, ``game_crashed`` from the editor)
go to the ``ErrorStore``. So that a game's errors arrive without any runtime tool being
called, the game's channel is opened as soon as the registry publishes its port.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from godot_bridge.config import Settings
from godot_bridge.editor import limits
from godot_bridge.editor.pushed_errors import CRASHED, REPORTED, ErrorStore
from godot_bridge.editor.screenshot_store import ImageStore
from godot_bridge.editor.autolaunch import AutoLaunch
from godot_bridge.editor.channel import WsChannel
from godot_bridge.editor.facts import EditorFacts, commands
from godot_bridge.editor.forward import ToolLike
from godot_bridge.editor.forwarder import Forwarder
from godot_bridge.editor.link import EditorLink
from godot_bridge.editor.lsp_status import LspStatus
from godot_bridge.editor.registry import RegistryEntry, registry_path
from godot_bridge.editor.rpc import OnProgress
from godot_bridge.editor.runtime import RuntimeLink
from godot_bridge.editor.timing import Timing
from godot_bridge.editor.watch import RegistryWatcher
from godot_bridge.errors import ToolError
from godot_bridge.tools.catalogue import Catalogue
from godot_bridge.tools.channels import EDITOR
from godot_bridge.tools.progress import ProgressFn
from godot_bridge.tools.results import ToolOutcome

log = logging.getLogger(__name__)

# Contract methods the bridge itself uses on every connection (not tools: those are catalogue data).
EXTENSIONS_LIST = "extensions.list"
EXTENSIONS_CHANGED = "extensions.changed"


class EditorBridge:
    def __init__(
        self,
        settings: Settings,
        *,
        catalogue: Catalogue,
        on_change: Callable[[], None] | None = None,
        on_connect: Callable[[], Awaitable[Any]] | None = None,
        timing: Timing | None = None,
        registry_file: Path | None = None,
        images: ImageStore | None = None,
        errors: ErrorStore | None = None,
    ) -> None:
        self.settings = settings
        self.errors = errors if errors is not None else ErrorStore()
        self.timing = timing or Timing()
        self.registry_file = registry_file or registry_path(dict(settings.env) or None)
        self.facts = EditorFacts(on_change)
        self._on_connect = on_connect
        self._lsp = LspStatus()
        self._seen_ports: tuple[int | None, int | None] | None = None
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
        # Screenshots kept for image_response_mode link; the app shares the store with the resources.
        self.forwarder = Forwarder(self._editor, self._runtime, settings=lambda: self.settings, facts=self.facts,
                                   images=images if images is not None else ImageStore(),
                                   game_log=catalogue.handling("game_log"))

    # -- what the bridge knows of the editor -------------------------------------

    @property
    def godot_version(self) -> tuple[int, int] | None:
        return self.facts.version

    @property
    def godot_version_text(self) -> str | None:
        return self.facts.version_text

    @property
    def headless(self) -> bool | None:
        return self.facts.headless

    @property
    def extension_commands(self) -> list[dict[str, Any]]:
        return self.facts.extensions

    @property
    def connected(self) -> bool:
        return self._editor.live() is not None

    @property
    def editor_port(self) -> int | None:
        return self._editor.port

    @property
    def runtime_port(self) -> int | None:
        return self._runtime.port

    @property
    def images(self) -> ImageStore:
        return self.forwarder.images

    @property
    def autolaunch(self) -> AutoLaunch | None:
        """GODOT_MCP_AUTOLAUNCH (editor/autolaunch.py); the composition root sets it, tests may leave it out."""
        return self.forwarder.autolaunch

    @autolaunch.setter
    def autolaunch(self, value: AutoLaunch | None) -> None:
        self.forwarder.autolaunch = value

    # -- moving a call is the forwarder's: the door hands it on ------------------

    async def call(self, method: str, params: dict[str, Any] | None = None, *, channel: str = EDITOR,
                   timeout: float | None = None, on_progress: OnProgress | None = None) -> Any:
        """The raw toolkit result of one request; raises ToolError."""
        return await self.forwarder.call(method, params, channel=channel, timeout=timeout, on_progress=on_progress)

    async def ready(self, tool: ToolLike, args: dict[str, Any]) -> None:
        """Raise what a call of ``tool`` would fail with before the toolkit runs it (``Forwarder.ready``)."""
        await self.forwarder.ready(tool, args)

    async def forward(self, tool: ToolLike, args: dict[str, Any], progress: ProgressFn | None = None) -> ToolOutcome:
        """A catalogue tool call forwarded and its result shaped; never raises ToolError (``Forwarder.forward``)."""
        return await self.forwarder.forward(tool, args, progress)

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

    def update_settings(self, settings: Settings) -> None:
        """A configuration reload: pins and the token path apply from the next connect; changed
        limits are sent to a connected editor at once."""
        old, self.settings = self.settings, settings
        self._editor.settings = settings
        self._runtime.settings = settings
        asked = limits.limits(settings)
        if asked and asked != limits.limits(old):
            ch = self._editor.live()
            if ch is not None:
                self._spawn(limits.send_limits(ch, asked, self.timing.setup_timeout))

    # -- events from the links and the watcher -----------------------------------

    def on_entry(self, entry: RegistryEntry | None) -> None:
        """Every registry read: the registry's version counts until a live ack says otherwise."""
        if entry is None or not entry.godot_version:
            return
        live = self._editor.live()
        if live is not None and isinstance(live.ack.get("godot_version"), str):
            return
        self.facts.set_version(entry.godot_version, "registry")

    async def after_auth(self, ch: WsChannel, entry: RegistryEntry | None) -> bool:
        """Setup on a fresh connection; True when it must be reopened (a new buffer size applies only then)."""
        ack = ch.ack
        self.facts.headless = ack["headless"] if isinstance(ack.get("headless"), bool) else None
        if isinstance(ack.get("godot_version"), str):
            self.facts.set_version(ack["godot_version"], "editor handshake")
        elif entry is not None and entry.godot_version:
            self.facts.set_version(entry.godot_version, "registry")
        t = self.timing.setup_timeout
        asked = limits.limits(self.settings)
        if asked:
            if await limits.send_limits(ch, asked, t):
                return True
        try:
            reply = await ch.request(EXTENSIONS_LIST, {}, timeout=t)
            listed = commands(reply.get("commands") if isinstance(reply, dict) else None)
            if listed is not None:
                self.facts.set_extensions(listed)
        except ToolError as err:
            log.warning("could not list editor extensions: %s", err.message)
        self._lsp.new_session()
        if self._lsp.status is not None:
            await self._lsp.push(ch, t)
        if self._on_connect is not None:
            # e.g. a fresh LSP verdict for the dock; in the background so the first call is not delayed.
            self._spawn(self._on_connect())
        return False

    def on_push(self, message: dict[str, Any]) -> None:
        name = message.get("notification") or message.get("method")
        if name == EXTENSIONS_CHANGED:
            self.facts.merge_extensions(message.get("params"))
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
        self.forwarder.registry_changed()

    # -- LSP status (contract C15) ---------------------------------------------

    async def send_lsp_status(self, status: dict[str, Any]) -> None:
        """Tell the editor the LSP verdict; de-duplicated, and re-sent after a reconnect."""
        self._lsp.status = dict(status)
        ch = self._editor.live()
        if ch is not None:
            await self._lsp.push(ch, self.timing.setup_timeout)
