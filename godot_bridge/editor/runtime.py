"""The running game's channel (Mode B, contract C1, C2, C20).

Unlike the editor channel there is no reconnect loop: a game is either running
or not. The port comes from a pin (``--runtime-port`` / ``GODOT_MCP_RUNTIME_PORT``)
or from the registry entry's ``runtime_port`` (which the reader only reports while
the game's ``runtime_pid`` lives). Every way of not reaching the game becomes
GAME_NOT_RUNNING. A ``ping`` heartbeat notices a game that hangs or vanishes
without closing its socket; the editor's ``game_stopped`` push, or the registry
clearing ``runtime_port``, tears the channel down straight away.

The game pushes too (``errors.reported``): ``on_push`` hears every unsolicited frame, and
``on_open`` is told of each new connection with the registry entry it was dialled from
(a new game process starts a new error session).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from godot_bridge import __version__
from godot_bridge.config import Settings
from godot_bridge.editor import token as tokens
from godot_bridge.editor.channel import NotDelivered, WsChannel
from godot_bridge.editor.registry import RegistryEntry
from godot_bridge.editor.rpc import OnProgress, PendingCall
from godot_bridge.editor.timing import Timing
from godot_bridge.errors import ToolError

log = logging.getLogger(__name__)


def _not_running(message: str) -> ToolError:
    return ToolError("GAME_NOT_RUNNING", message)


def _drop_error(call: PendingCall, reason: str) -> ToolError:
    return _not_running(
        f"the game's connection closed ({reason}) while '{call.method}' was running; the game stopped or crashed"
    )


class RuntimeLink:
    def __init__(
        self,
        settings: Settings,
        timing: Timing,
        registry_file: Path,
        *,
        lookup: Callable[[], RegistryEntry | None],
        on_push: Callable[[dict[str, Any]], None] | None = None,
        on_open: Callable[[WsChannel, RegistryEntry | None], None] | None = None,
    ) -> None:
        self.settings = settings
        self.timing = timing
        self.registry_file = registry_file
        self.project = str(settings.project_path)
        self._lookup = lookup
        self._on_push = on_push
        self._on_open = on_open
        self._channel: WsChannel | None = None
        self._heartbeat: asyncio.Task[None] | None = None
        self._lock = asyncio.Lock()

    def live(self) -> WsChannel | None:
        ch = self._channel
        return ch if ch is not None and ch.is_open else None

    @property
    def port(self) -> int | None:
        ch = self.live()
        return ch.port if ch is not None else None

    def target(self, entry: RegistryEntry | None) -> int | None:
        """The port to dial: the pin, else the registry's live runtime_port."""
        if self.settings.runtime_port is not None:
            return self.settings.runtime_port
        return entry.runtime_port if entry is not None else None

    async def ensure(self) -> WsChannel:
        ch = self.live()
        if ch is not None:
            return ch
        async with self._lock:
            ch = self.live()
            if ch is not None:
                return ch
            entry = self._lookup()
            port = self.target(entry)
            if port is None:
                raise _not_running(
                    f"no game is running for {self.project} (the registry shows no live runtime_port)"
                )
            origin = "pinned" if self.settings.runtime_port is not None else "from the registry"
            ch = WsChannel(label="game", port=port, default_timeout=self.timing.call_timeout, drop_error=_drop_error,
                           on_push=self._on_push)

            def read_token() -> tuple[str, str]:
                value, source = tokens.load(
                    self.settings.token_path, entry, project=self.project, registry_file=self.registry_file
                )
                return value, source.describe()

            try:
                await ch.open(
                    read_token,
                    __version__,
                    connect_timeout=self.timing.connect_timeout,
                    auth_timeout=self.timing.auth_timeout,
                )
            except ToolError as err:
                if err.code == "AUTH_FAILED":
                    raise  # the token problem is the actionable part, not "is the game running"
                raise _not_running(f"cannot reach the game on port {port} ({origin}): {err.message}") from None
            log.info("connected to the running game on port %s", port)
            self._channel = ch
            self._heartbeat = asyncio.create_task(self._beat(ch), name="godot-bridge runtime heartbeat")
            if self._on_open is not None:
                try:
                    self._on_open(ch, entry)
                except Exception:  # bookkeeping must not cost the caller its channel
                    log.exception("runtime on_open callback failed")
            return ch

    async def request(
        self,
        method: str,
        params: dict[str, Any] | None = None,
        timeout: float | None = None,
        *,
        on_progress: OnProgress | None = None,
    ) -> Any:
        ch = await self.ensure()
        try:
            return await ch.request(method, params, timeout, on_progress=on_progress)
        except NotDelivered:
            raise _not_running(f"the game's connection closed before '{method}' was sent") from None

    async def _beat(self, ch: WsChannel) -> None:
        """One ping per interval; ``heartbeat_misses`` consecutive misses close the channel."""
        interval = self.timing.heartbeat_interval
        misses = 0
        while ch.is_open:
            started = time.monotonic()
            try:
                await ch.request("ping", {}, timeout=interval)
                misses = 0
            except ToolError:
                misses += 1
                log.debug("game heartbeat missed (%d/%d)", misses, self.timing.heartbeat_misses)
                if misses >= self.timing.heartbeat_misses:
                    log.warning("the game missed %d heartbeats; dropping its channel", misses)
                    await ch.aclose(graceful=False)
                    return
            rest = interval - (time.monotonic() - started)
            if rest > 0:
                try:
                    await asyncio.wait_for(ch.closed.wait(), rest)
                except TimeoutError:
                    pass

    async def drop(self, reason: str, only: WsChannel | None = None) -> None:
        """Close the channel (game stopped, or the registry moved the runtime).

        ``only``: close it only if it is still that channel (a newer game may have connected since).
        """
        if only is not None and self._channel is not only:
            return
        ch, self._channel = self._channel, None
        hb, self._heartbeat = self._heartbeat, None
        if hb is not None:
            hb.cancel()
        if ch is not None and ch.is_open:
            log.info("closing the game channel on port %s: %s", ch.port, reason)
            await ch.aclose()

    async def aclose(self) -> None:
        await self.drop("bridge shutting down")
