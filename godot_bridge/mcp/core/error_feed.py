"""Pushed Godot errors to MCP clients, in both eras.

The ``ErrorStore`` (``pushed_errors``) says what is new and that something changed;
this module turns that into what each era can receive:

* **log notifications** (``notifications/message``, level ``error`` or ``warning``,
  logger ``godot.game`` / ``godot.editor``, ``data`` a compact entry), once per new
  error; a repeat only raises its count, which the resource shows, so it sends none.
  Handshake era: to each client with a standing channel (stdio once it has sent
  ``initialize``, an HTTP session's GET stream), filtered by its own ``logging/setLevel``.
  2026-07-28: logging is a per-request opt-in
  (``_meta["io.modelcontextprotocol/logLevel"]``) and travels only on the stream of the
  request that opted in, so a ``subscriptions/listen`` carrying that key receives them.
* **resource updates** for ``godot://errors``: handshake era after that client's
  ``resources/subscribe``; 2026-07-28 on listen streams whose filter names the URI.
  Several changes in a burst become one update (it means "read again").

A handshake request outside an HTTP session has no standing stream, so it cannot subscribe
and is told so (``sdk_server.py``); 2026-07-28 listen streams work over HTTP as on stdio.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import anyio
from mcp.server.connection import allowed_log_levels
from mcp.server.subscriptions import ListenHandler, ResourceUpdated, SubscriptionBus
from mcp.shared.subscriptions import SUBSCRIPTION_ID_META_KEY
from mcp_types import LoggingMessageNotification, LoggingMessageNotificationParams

from godot_bridge.editor.pushed_errors import ERRORS_URI, ErrorEntry, ErrorStore
from godot_bridge.mcp.core.listen import AckWatch, beside
from godot_bridge.mcp.core.peers import Notify, Peer

log = logging.getLogger(__name__)

# RFC 5424 order, as MCP's LoggingLevel lists it.
LEVELS = ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")
LOGGERS = {"game": "godot.game", "editor": "godot.editor"}
SUMMARY_LOGGER = "godot"
LOGS_PER_BATCH = 10  # a frame that reports a hundred new errors is summed up after this many
STACK_FRAMES_IN_LOG = 5  # the full stack is in godot://errors
BACKLOG = 256  # log events waiting for a slow client; beyond this the oldest go


@dataclass(frozen=True)
class LogEvent:
    level: str
    logger: str
    data: dict[str, Any]

    def params(self) -> dict[str, Any]:
        return {"level": self.level, "logger": self.logger, "data": self.data}


def log_events(new: list[ErrorEntry]) -> list[LogEvent]:
    """One event per new entry, the rest of a large batch summed up in one more."""
    events = [LogEvent(e.severity, LOGGERS[e.source], e.as_dict(stack_frames=STACK_FRAMES_IN_LOG))
              for e in new[:LOGS_PER_BATCH]]
    rest = new[LOGS_PER_BATCH:]
    if rest:
        level = "error" if any(e.severity == "error" for e in rest) else "warning"
        events.append(LogEvent(level, SUMMARY_LOGGER, {
            "message": f"{len(rest)} more new errors/warnings; read {ERRORS_URI} for all of them",
            "more": len(rest)}))
    return events


def at_least(level: str, minimum: str) -> bool:
    return LEVELS.index(level) >= LEVELS.index(minimum)


class ErrorFeed:
    """One per transport: the pump from the store to every handshake-era peer and listen stream."""

    def __init__(self, store: ErrorStore, bus: SubscriptionBus) -> None:
        self.store = store
        self.bus = bus
        self._peers: set[Peer] = set()  # handshake-era clients with a standing channel
        self._logs: deque[LogEvent] = deque(maxlen=BACKLOG)
        self._dirty = False
        self._wake = asyncio.Event()
        self._log_listeners: set[Callable[[LogEvent], None]] = set()
        store.on_change(self._changed)

    def add(self, peer: Peer) -> None:
        self._peers.add(peer)

    def remove(self, peer: Peer) -> None:
        self._peers.discard(peer)

    # -- from the store to the clients --------------------------------------------------

    def backlog(self, new: list[ErrorEntry]) -> None:
        """Errors that arrived before this feed existed (stdio loads it when the first one comes)."""
        self._changed(new)

    def _changed(self, new: list[ErrorEntry]) -> None:
        # Synchronous (the store is fed by the WebSocket reader); the pump does the I/O.
        self._logs.extend(log_events(new))
        self._dirty = True
        self._wake.set()

    def listen_logs(self, listener: Callable[[LogEvent], None]) -> Callable[[], None]:
        self._log_listeners.add(listener)
        return lambda: self._log_listeners.discard(listener)

    async def run(self) -> None:
        """Deliver until cancelled."""
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._logs:
                await self._deliver_log(self._logs.popleft())
            if self._dirty:
                self._dirty = False
                await self.bus.publish(ResourceUpdated(uri=ERRORS_URI))
                for peer in list(self._peers):
                    notify = peer.channel()
                    if notify is not None and ERRORS_URI in peer.subscribed:
                        await _quiet(notify, "notifications/resources/updated", {"uri": ERRORS_URI})

    async def _deliver_log(self, event: LogEvent) -> None:
        for listener in list(self._log_listeners):
            listener(event)
        for peer in list(self._peers):
            notify = peer.channel()
            if notify is not None and at_least(event.level, peer.min_level):
                await _quiet(notify, "notifications/message", event.params())


async def _quiet(notify: Notify, method: str, params: Mapping[str, Any]) -> None:
    try:
        await notify(method, params)
    except (anyio.BrokenResourceError, anyio.ClosedResourceError, OSError) as exc:
        log.debug("%s not delivered: %s", method, exc)


# -- 2026-07-28: log messages on listen streams ------------------------------------------------------


class ErrorListen:
    """``subscriptions/listen``: the SDK's handler, plus log messages when the request opted in.

    The ack stays the first frame: log messages wait until it has been written.
    """

    def __init__(self, inner: ListenHandler, feed: ErrorFeed) -> None:
        self.inner = inner
        self.feed = feed

    async def __call__(self, ctx: Any, params: Any) -> Any:
        raw = ctx.params if isinstance(ctx.params, Mapping) else {}
        meta = raw.get("_meta") if isinstance(raw.get("_meta"), Mapping) else None
        levels = allowed_log_levels(ctx.protocol_version, meta)
        if not levels & {"error", "warning"}:
            return await self.inner(ctx, params)
        watch = AckWatch(ctx.session)
        send, recv = anyio.create_memory_object_stream[LogEvent](BACKLOG)

        def take(event: LogEvent) -> None:
            if event.level in levels:
                try:
                    send.send_nowait(event)
                except anyio.WouldBlock:
                    log.debug("listen stream %r: log backlog full, dropped one", ctx.request_id)

        stop = self.feed.listen_logs(take)

        async def forward() -> None:
            await watch.acked.wait()
            stamp = {SUBSCRIPTION_ID_META_KEY: ctx.request_id}
            async for event in recv:
                note = LoggingMessageNotification(params=LoggingMessageNotificationParams(
                    level=event.level, logger=event.logger, data=event.data, _meta=stamp))  # type: ignore[arg-type]
                await ctx.session.send_notification(note, related_request_id=ctx.request_id)

        try:
            return await beside(self.inner, ctx, params, watch, forward)
        finally:
            stop()
            send.close()
            recv.close()
