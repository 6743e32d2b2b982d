"""The editor connection's lifecycle: discovery, connect, reconnect, rediscovery (C1, C2, C10, C16).

Policy, in one place:

* Port precedence: a pin (``--editor-port`` / ``GODOT_MCP_EDITOR_PORT``, held in
  ``Settings.editor_port``) > the registry entry's ``port`` > 6550.
* The registry and the token are re-read on every attempt, so an editor that
  restarted on another port, or wrote a fresh token, is picked up.
* Background reconnect with backoff 1 s -> 60 s (doubling), reset by a successful
  round trip rather than by a mere open (a peer that accepts then drops must not
  reset it).
* A call before the first connection fails fast (one immediate attempt, then
  CONNECT_FAILED). After a drop a call waits up to ``reconnect_wait`` for the
  editor to come back, then DISCONNECTED. Auth/token errors are not transient and
  are reported at once.
* When an attempt fails, the registry is read again; if it now names another port
  the attempt is retried there once. With a pin, a registry that names another
  port turns the failure into a precise desync message.
* Without a pin, the registry naming a new port abandons the old one at once: an
  attempt still waiting there is cut short and a channel open there is dropped (a
  frozen editor accepts TCP and answers nothing, so waiting would cost a timeout).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from godot_bridge import __version__
from godot_bridge.config import Settings
from godot_bridge.editor import token as tokens
from godot_bridge.editor.channel import NotDelivered, WsChannel
from godot_bridge.editor.registry import RegistryEntry, location_note, project_key, read_registry, registry_problem
from godot_bridge.editor.rpc import OnProgress, PendingCall
from godot_bridge.editor.timing import Timing
from godot_bridge.errors import BRIDGE_HINTS, ToolError
from godot_bridge.tools.toolkit_consts import toolkit_int

log = logging.getLogger(__name__)

# The first port of the toolkit's band (contract C1): where an editor listens when nothing says.
DEFAULT_EDITOR_PORT = toolkit_int("transport/mcp_server.gd", "PORT_MIN")


@runtime_checkable
class LinkListener(Protocol):
    """What the editor link tells its owner: one interface instead of loose callbacks."""

    def on_push(self, message: dict[str, Any]) -> None:
        """An unsolicited message from the editor (extensions.changed, game_stopped, ...)."""

    def on_entry(self, entry: RegistryEntry | None) -> None:
        """The project's registry entry as just read (None: no entry)."""

    async def after_auth(self, ch: WsChannel, entry: RegistryEntry | None) -> bool:
        """Setup on a fresh, authenticated connection, before any tool call can use it.

        True when the connection must be reopened for its setup to take effect (a new buffer size)."""


def registry_note(path: Path) -> str:
    """Why the registry gave us nothing, for error messages (the reader only logs it once)."""
    return registry_problem(path) or "the project has no entry in it"


def pin_origin(settings: Settings, name: str = "GODOT_MCP_EDITOR_PORT", flag: str = "--editor-port", pin: int | None = None) -> str:
    """Where a pinned port came from, for the desync message."""
    pin = settings.editor_port if pin is None else pin
    raw = str(settings.env.get(name, "")).strip()
    if raw.isdigit() and int(raw) == pin:
        return f"{name}={raw}"
    return f"{flag} {pin}"


class EditorLink:
    def __init__(
        self,
        settings: Settings,
        timing: Timing,
        registry_file: Path,
        listener: LinkListener,
    ) -> None:
        self.settings = settings
        self.timing = timing
        self.registry_file = registry_file
        self.project = str(settings.project_path)
        self._key = project_key(settings.project_path)
        self._listener = listener
        self._channel: WsChannel | None = None
        self._lock = asyncio.Lock()
        self._wake = asyncio.Event()
        self._connected = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._closing = False
        self._backoff = timing.backoff_initial
        self._quiet_failures = False  # log the first failure of a streak at WARNING, the rest at DEBUG
        self.ever_connected = False
        self.last_error: ToolError | None = None
        self._finished_attempts = 0
        self._opening_port: int | None = None  # the port an attempt is dialling right now
        self._moved_to: int | None = None  # set when the registry names another port mid-attempt
        self._moved = asyncio.Event()
        self._closings: set[asyncio.Task[None]] = set()

    # -- state ---------------------------------------------------------------

    def live(self) -> WsChannel | None:
        ch = self._channel
        return ch if ch is not None and ch.is_open else None

    @property
    def port(self) -> int | None:
        return self._channel.port if self._channel is not None else None

    def lookup(self) -> RegistryEntry | None:
        entry = read_registry(self.registry_file).get(self._key)
        self._listener.on_entry(entry)
        return entry

    def kick(self) -> None:
        """Cut the backoff sleep short (the registry changed, or a call is waiting)."""
        self._wake.set()

    def retarget(self, port: int) -> None:
        """The registry now names ``port`` for this project's editor: abandon any other port at once.

        A frozen editor accepts TCP and never answers, so an attempt on its port would wait out the
        auth timeout, and a channel to it would hold every call until its timeout. Neither applies
        to a pinned port (the pin wins over the registry).
        """
        if self.settings.editor_port is None and not self._closing:
            if self._opening_port is not None and self._opening_port != port:
                log.info("registry moved the editor to port %s; abandoning the attempt on %s", port, self._opening_port)
                self._moved_to = port
                self._moved.set()
            live = self.live()
            if live is not None and live.port != port:
                log.warning("registry moved the editor to port %s; dropping the connection on %s", port, live.port)
                closing = asyncio.get_running_loop().create_task(live.aclose(graceful=False))
                self._closings.add(closing)
                closing.add_done_callback(self._closings.discard)
        live = self.live()
        if live is None or live.port != port:
            self.kick()

    def _reset_backoff(self) -> None:
        self._backoff = self.timing.backoff_initial

    # -- lifecycle -----------------------------------------------------------

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="godot-bridge editor link")

    async def aclose(self) -> None:
        self._closing = True
        self._wake.set()
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass
            self._task = None
        if self._channel is not None:
            await self._channel.aclose()

    async def _run(self) -> None:
        while not self._closing:
            await self.try_connect()
            ch = self.live()
            if ch is not None:
                await ch.closed.wait()
                self._connected.clear()
                if self._closing:
                    return
                log.warning("editor connection on port %s dropped (%s); reconnecting", ch.port, ch.close_description)
            delay = self._backoff
            self._backoff = min(self._backoff * 2, self.timing.backoff_max)
            # A kick that arrived while we were connecting still counts: clear only after waking.
            try:
                await asyncio.wait_for(self._wake.wait(), delay)
            except TimeoutError:
                pass
            self._wake.clear()

    # -- connecting ----------------------------------------------------------

    async def try_connect(self) -> ToolError | None:
        """One attempt (plus the rediscovery retry); None when connected afterwards.

        A caller that queued behind an attempt already in flight takes that attempt's outcome
        instead of starting another: a frozen editor must cost one auth timeout, not two.
        """
        seen = self._finished_attempts
        async with self._lock:
            if self.live() is not None:
                return None
            if self._closing:
                return ToolError("DISCONNECTED", "the bridge is shutting down", hint="")
            if self._finished_attempts != seen and self.last_error is not None:
                return self.last_error
            try:
                await self._connect()
            except ToolError as err:
                self.last_error = err
                level = logging.DEBUG if self._quiet_failures else logging.WARNING
                log.log(level, "editor connect failed: %s", err.message)
                self._quiet_failures = True
                return err
            finally:
                self._finished_attempts += 1
            self._quiet_failures = False
            self.last_error = None
            return None

    async def _connect(self) -> None:
        entry = self.lookup()
        pin = self.settings.editor_port
        if pin is not None:
            try:
                await self._open(pin, entry)
            except ToolError as err:
                fresh = self.lookup()
                if err.code in ("CONNECT_FAILED", "AUTH_FAILED") and fresh and fresh.port and fresh.port != pin:
                    raise self._desync_error(pin, fresh.port, err) from None
                raise self._target_error(err, pin, f"pinned by {pin_origin(self.settings)}") from None
            return
        port = entry.port if entry and entry.port else DEFAULT_EDITOR_PORT
        try:
            await self._open(port, entry)
            return
        except ToolError as err:
            if err.code != "CONNECT_FAILED":
                raise
            first = err
        fresh = self.lookup()
        if fresh and fresh.port and fresh.port != port:
            log.info("editor for %s moved from port %s to %s; retrying there", self.project, port, fresh.port)
            try:
                await self._open(fresh.port, fresh)
                return
            except ToolError as err:
                if err.code != "CONNECT_FAILED":
                    raise
                raise self._target_error(err, fresh.port, f"from the registry {self.registry_file}") from None
        if entry and entry.port:
            raise self._target_error(first, port, f"from the registry {self.registry_file}") from None
        where = ", ".join(filter(None, [str(self.registry_file), location_note(dict(self.settings.env) or None)]))
        raise self._target_error(first, port, f"the default; {registry_note(self.registry_file)}: {where}") from None

    def _target_error(self, err: ToolError, port: int, origin: str) -> ToolError:
        if err.code != "CONNECT_FAILED":
            return err
        # Say which folder the bridge took for the project and whether it holds one: a client started
        # in a repository root with the project below it is the common reason nothing answers.
        return ToolError(
            "CONNECT_FAILED",
            f"cannot reach the Godot editor for {self.project} on port {port} ({origin}): {err.message}. "
            f"Project folder: {self.settings.project_note()}",
        )

    def _desync_error(self, pin: int, registry_port: int, err: ToolError) -> ToolError:
        origin = pin_origin(self.settings)
        return ToolError(
            "CONNECT_FAILED",
            f"editor port desync: the bridge is pinned to port {pin} by {origin}, but the registry "
            f"({self.registry_file}) says the editor for {self.project} listens on port {registry_port}; "
            f"the pinned port failed: {err.message}",
            hint=f"Make both sides agree: remove {origin.split('=')[0].split(' ')[0]} so the bridge follows the "
            f"registry, or start the editor with GODOT_MCP_EDITOR_PORT={pin} as well.",
        )

    async def _open(self, port: int, entry: RegistryEntry | None) -> None:
        # A second round only when setup asks for it: meta.set_limits changed the inbound buffer,
        # which the editor applies to connections accepted from then on.
        for _ in range(2):
            ch = await self._open_channel(port, entry)
            try:
                # Before the channel is published, so no tool call overtakes meta.set_limits.
                reopen = await self._listener.after_auth(ch, entry)
            except Exception:  # housekeeping must never cost us the connection
                log.exception("post-connect setup failed")
                reopen = False
            if not reopen:
                break
            log.info("reconnecting to the editor on port %s so its new buffer size applies", port)
            await ch.aclose()
        self._channel = ch
        self.ever_connected = True
        self._connected.set()

    async def _open_channel(self, port: int, entry: RegistryEntry | None) -> WsChannel:
        def read_token() -> tuple[str, str]:
            value, source = tokens.load(
                self.settings.token_path, entry, project=self.project, registry_file=self.registry_file
            )
            return value, source.describe()

        ch = WsChannel(
            label="editor",
            port=port,
            default_timeout=self.timing.call_timeout,
            on_push=self._listener.on_push,
            on_round_trip=self._reset_backoff,
            drop_error=_drop_error,
        )
        ack = await self._race_registry(
            port,
            ch.open(read_token, __version__, connect_timeout=self.timing.connect_timeout, auth_timeout=self.timing.auth_timeout),
        )
        log.info(
            "connected to the Godot editor on port %s (Godot %s, plugin %s%s)",
            port,
            ack.get("godot_version", "?"),
            ack.get("version", "?"),
            ", headless" if ack.get("headless") else "",
        )
        return ch

    async def _race_registry(self, port: int, opening: Awaitable[dict[str, Any]]) -> dict[str, Any]:
        """Open, unless the registry names another port first (then CONNECT_FAILED, and _connect moves on)."""
        self._opening_port, self._moved_to = port, None
        self._moved.clear()
        attempt = asyncio.ensure_future(opening)
        moved = asyncio.ensure_future(self._moved.wait())
        try:
            await asyncio.wait({attempt, moved}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            self._opening_port = None
            moved.cancel()
            abandoned = not attempt.done()
            if abandoned:
                attempt.cancel()  # WsChannel.open aborts its socket when cancelled
        if abandoned:
            try:
                await attempt
            except asyncio.CancelledError:
                pass
            except ToolError:
                pass  # it failed on its own while being abandoned; the move is the better reason
            raise ToolError(
                "CONNECT_FAILED",
                f"port {port} did not finish the handshake and the registry now names port {self._moved_to}",
            )
        return attempt.result()

    # -- calls ---------------------------------------------------------------

    async def ensure(self) -> WsChannel:
        """A live channel, connecting (cold) or waiting for a reconnect (hot) as the policy says."""
        ch = self.live()
        if ch is not None:
            return ch
        if self._closing:
            raise ToolError("DISCONNECTED", "the bridge is shutting down", hint="")
        if not self.ever_connected:
            err = await self.try_connect()
            ch = self.live()
            if ch is not None:
                return ch
            raise err or ToolError("CONNECT_FAILED", "the editor closed the connection right after the handshake")
        deadline = time.monotonic() + self.timing.reconnect_wait
        err = None
        while True:
            err = await self.try_connect()
            ch = self.live()
            if ch is not None:
                return ch
            if err is not None and err.code != "CONNECT_FAILED":
                raise err
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                last = f" Last attempt: {err.message}" if err else ""
                raise ToolError(
                    "DISCONNECTED",
                    f"the editor connection dropped and did not come back within {self.timing.reconnect_wait:g} s.{last}",
                    hint=BRIDGE_HINTS["DISCONNECTED"],
                )
            try:
                await asyncio.wait_for(self._connected.wait(), min(self.timing.reconnect_poll, remaining))
            except TimeoutError:
                pass

    async def request(
        self,
        method: str,
        params: dict[str, Any] | None = None,
        timeout: float | None = None,
        *,
        on_progress: OnProgress | None = None,
    ) -> Any:
        """Send on the editor channel; a request that provably never left is retried once."""
        for attempt in (1, 2):
            ch = await self.ensure()
            try:
                return await ch.request(method, params, timeout, on_progress=on_progress)
            except NotDelivered as err:
                if attempt == 2:
                    raise ToolError("DISCONNECTED", err.message) from None
        raise AssertionError("unreachable")  # pragma: no cover


def _drop_error(call: PendingCall, reason: str) -> ToolError:
    return ToolError(
        "DISCONNECTED",
        f"the editor connection closed ({reason}) while '{call.method}' was running; "
        "it may or may not have been applied",
        hint="Check the editor (it may have crashed or been closed) and inspect the project state "
        "before retrying a change.",
    )
