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
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from godot_bridge import __version__
from godot_bridge.config import Settings
from godot_bridge.editor import token as tokens
from godot_bridge.editor.channel import NotDelivered, WsChannel
from godot_bridge.editor.registry import RegistryEntry, project_key, read_registry, registry_problem
from godot_bridge.editor.rpc import PendingCall
from godot_bridge.editor.timing import Timing
from godot_bridge.errors import BRIDGE_HINTS, ToolError

log = logging.getLogger(__name__)

DEFAULT_EDITOR_PORT = 6550

AfterAuth = Callable[[WsChannel, RegistryEntry | None], Awaitable[None]]


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
        *,
        on_push: Callable[[dict[str, Any]], None],
        on_entry: Callable[[RegistryEntry | None], None],
        after_auth: AfterAuth,
    ) -> None:
        self.settings = settings
        self.timing = timing
        self.registry_file = registry_file
        self.project = str(settings.project_path)
        self._key = project_key(settings.project_path)
        self._on_push = on_push
        self._on_entry = on_entry
        self._after_auth = after_auth
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

    # -- state ---------------------------------------------------------------

    def live(self) -> WsChannel | None:
        ch = self._channel
        return ch if ch is not None and ch.is_open else None

    @property
    def port(self) -> int | None:
        return self._channel.port if self._channel is not None else None

    def lookup(self) -> RegistryEntry | None:
        entry = read_registry(self.registry_file).get(self._key)
        self._on_entry(entry)
        return entry

    def kick(self) -> None:
        """Cut the backoff sleep short (the registry changed, or a call is waiting)."""
        self._wake.set()

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
                raise self._target_error(err, fresh.port, "from the registry") from None
        if entry and entry.port:
            raise self._target_error(first, port, "from the registry") from None
        raise self._target_error(
            first, port, f"the default; {registry_note(self.registry_file)} ({self.registry_file})"
        ) from None

    def _target_error(self, err: ToolError, port: int, origin: str) -> ToolError:
        if err.code != "CONNECT_FAILED":
            return err
        return ToolError(
            "CONNECT_FAILED",
            f"cannot reach the Godot editor for {self.project} on port {port} ({origin}): {err.message}",
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
        def read_token() -> tuple[str, str]:
            value, source = tokens.load(
                self.settings.token_path, entry, project=self.project, registry_file=self.registry_file
            )
            return value, source.describe()

        ch = WsChannel(
            label="editor",
            port=port,
            default_timeout=self.timing.call_timeout,
            on_push=self._on_push,
            on_round_trip=self._reset_backoff,
            drop_error=_drop_error,
        )
        ack = await ch.open(
            read_token, __version__, connect_timeout=self.timing.connect_timeout, auth_timeout=self.timing.auth_timeout
        )
        log.info(
            "connected to the Godot editor on port %s (Godot %s, plugin %s%s)",
            port,
            ack.get("godot_version", "?"),
            ack.get("version", "?"),
            ", headless" if ack.get("headless") else "",
        )
        try:
            # Before the channel is published, so no tool call overtakes meta.set_limits.
            await self._after_auth(ch, entry)
        except Exception:  # housekeeping must never cost us the connection
            log.exception("post-connect setup failed")
        self._channel = ch
        self.ever_connected = True
        self._connected.set()

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

    async def request(self, method: str, params: dict[str, Any] | None = None, timeout: float | None = None) -> Any:
        """Send on the editor channel; a request that provably never left is retried once."""
        for attempt in (1, 2):
            ch = await self.ensure()
            try:
                return await ch.request(method, params, timeout)
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
