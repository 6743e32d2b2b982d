"""The SDK path of the stdio transport: every line the lean path (``server.py``) leaves to the SDK.

Built on first need, its module imported off the event loop (``sdk_loader.py``): the SDK's
JSON-RPC dispatcher reads the lines the lean path hands over, in order, and writes its answers
to the same pipe; ``EraRouter`` (core) serves each request in its era with the core's SDK server.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import anyio
from mcp.server.subscriptions import InMemorySubscriptionBus, ToolsListChanged
from mcp.shared.jsonrpc_dispatcher import JSONRPCDispatcher

from godot_bridge.mcp.core.era_router import EraRouter
from godot_bridge.mcp.core.error_feed import ErrorFeed
from godot_bridge.mcp.core.eras import LATEST_HANDSHAKE
from godot_bridge.mcp.core.sdk_server import build_server, initialization_options
from godot_bridge.mcp.stdio.sdk_dispatch import QueueLines, WireIn, WireOut, settle_cancelled

if TYPE_CHECKING:
    from godot_bridge.mcp.stdio.server import StdioServer

# How long a tool-list change waits for a 2026-07-28 client's first subscriptions/listen stream.
FIRST_LISTENER_WAIT_S = 2.0


class ListeningBus(InMemorySubscriptionBus):
    """The SDK's bus, saying when its first listener (a listen stream) subscribed."""

    def __init__(self) -> None:
        super().__init__()
        self.listening = anyio.Event()

    def subscribe(self, listener: Any) -> Any:
        unsubscribe = super().subscribe(listener)
        self.listening.set()
        return unsubscribe


class SdkBackend:
    """The SDK path behind the lean front (``server.py``): every line the lean path declines.

    Built on first need (its module is imported off the event loop); reads the lines the front
    hands over, in order, and writes its answers to the same pipe.
    """

    def __init__(self, front: StdioServer) -> None:
        self.bus = ListeningBus()
        # Created before the front lets go of the errors it kept while this path loaded (no await between).
        self.errors = ErrorFeed(front.app.errors, self.bus)
        self.server = build_server(front.app, self.bus, self.errors)
        self._front = front
        init_options = initialization_options(self.server)
        self._send, receive = anyio.create_memory_object_stream[bytes](math.inf)
        out = WireOut(front.writer, front.unanswered)
        wire_in = WireIn(QueueLines(receive), out, front.unanswered, grace=False)
        self.dispatcher: JSONRPCDispatcher[Any] = JSONRPCDispatcher(wire_in, out)  # type: ignore[arg-type]
        # The handshake era continues where the lean path left it (the version an initialize it served negotiated).
        self.router = EraRouter(self.server, self.dispatcher, init_options, front.peer,
                                handshake_version=front.handshake.version or LATEST_HANDSHAKE,
                                client_params=front.handshake.params)
        self._unanswered = front.unanswered
        # The stdio client's standing channel is this pipe, once it has sent initialize.
        front.peer.notify = self.dispatcher.notify
        front.peer.ready = self._handshake_ready
        self.errors.add(front.peer)

    @property
    def handshake_seen(self) -> bool:
        return self.router.handshake_seen

    def feed(self, line: bytes) -> None:
        self._send.send_nowait(line)

    def end(self) -> None:
        self._send.close()

    def _handshake_ready(self) -> bool:
        return self._front.handshake.seen or self.router.handshake_seen

    async def run(self) -> None:
        async with anyio.create_task_group() as tg:
            tg.start_soon(self.errors.run)
            await self.dispatcher.run(settle_cancelled(self.router.on_request, self._unanswered), self.router.on_notify)
            tg.cancel_scope.cancel()

    async def publish_list_changed(self) -> None:
        # A change made while the first listen stream was still on its way (the SDK path loads for
        # that very request) would reach nobody: wait, briefly, for a stream to hear it.
        with anyio.move_on_after(FIRST_LISTENER_WAIT_S):
            await self.bus.listening.wait()
        await self.bus.publish(ToolsListChanged())
