"""The SDK's low-level ``Server`` wired to ``BridgeApp``: list tools, call tools, listen.

On stdio it serves only what the lean path (``stdio_server.py``, ``hot_methods.py``) leaves to it, through
``SdkBackend``; over HTTP (``http.py``) it serves everything.

Thin by design: it translates between MCP shapes and the app; what a tool does
is decided in ``dispatch``. Announcing a tool-list change reaches both eras: a
``notifications/tools/list_changed`` for handshake clients and a
``ToolsListChanged`` event on the ``subscriptions/listen`` bus for 2026-07-28.
Pushed Godot errors reach clients through ``error_feed`` (log notifications and
``godot://errors`` updates); on stdio the front loads this path when the first one arrives.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import anyio
from mcp.server.caching import CacheHint
from mcp.server.lowlevel import NotificationOptions, Server
from mcp.server.models import InitializationOptions
from mcp.server.subscriptions import InMemorySubscriptionBus, ListenHandler, ToolsListChanged
from mcp.shared.exceptions import MCPError
from mcp.shared.jsonrpc_dispatcher import JSONRPCDispatcher
from mcp_types import (
    INVALID_PARAMS,
    METHOD_NOT_FOUND,
    ServerTasksCapability,
    SetLevelRequestParams,
    SubscribeRequestParams,
    UnsubscribeRequestParams,
)

from godot_bridge import __version__
from godot_bridge.app import INSTRUCTIONS, BridgeApp
from godot_bridge.editor.pushed_errors import ERRORS_URI
from godot_bridge.consent.caller import InputRequired, InvalidAnswer
from godot_bridge.mcp.elicitation import caller, keep_answers
from godot_bridge.mcp.content import CONTENT_CACHE_HINTS, content_handlers
from godot_bridge.mcp.era_router import EraRouter
from godot_bridge.mcp.error_feed import ErrorFeed, ErrorListen
from godot_bridge.mcp.peers import Peer
from godot_bridge.mcp.protocol import (
    LATEST_HANDSHAKE,
    MODERN_VERSIONS,
    SERVER_NAME,
    SERVER_TITLE,
    TASKS_HANDSHAKE_CAPABILITY,
    TOOLS_LIST_CACHE_SCOPE,
    TOOLS_LIST_TTL_MS,
    call_result,
    client_name,
    tools_result,
)
from godot_bridge.mcp.sealed_state import SealedState
from godot_bridge.mcp.stdio_sdk import QueueLines, WireIn, WireOut, settle_cancelled
from godot_bridge.mcp.tasks import TaskListen, Tasks
from godot_bridge.tools.dispatch import UnknownTool

if TYPE_CHECKING:
    from godot_bridge.mcp.stdio_server import StdioServer

log = logging.getLogger(__name__)

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


def _peer(ctx: Any) -> Peer:
    """The client this request is from (``EraRouter`` hands it to the runner as its lifespan state)."""
    peer = ctx.lifespan_context
    assert isinstance(peer, Peer), "EraRouter serves every request with its peer"
    return peer


def _needs_standing(peer: Peer, method: str) -> None:
    if not peer.standing:
        raise MCPError(METHOD_NOT_FOUND, f"{method} needs a session: this request came without Mcp-Session-Id, so "
                       "no stream outlives it to carry what it asks for. Send the Mcp-Session-Id the initialize "
                       f"answer gave, subscribe on a 2026-07-28 subscriptions/listen, or read {ERRORS_URI} again")


def build_server(app: BridgeApp, bus: InMemorySubscriptionBus, feed: ErrorFeed | None = None) -> Server[Any]:
    async def list_tools(ctx: Any, params: Any) -> dict[str, Any]:
        modern = ctx.protocol_version in MODERN_VERSIONS
        tools = _peer(ctx).tools_for(modern)
        tools.listed()  # a re-list discover_tools may be waiting for
        return tools_result(app.tools(tools), modern)

    async def call_tool(ctx: Any, params: Any) -> dict[str, Any]:
        async def progress(done: float, total: float | None, message: str | None) -> None:
            await ctx.session.report_progress(done, total, message)

        peer = _peer(ctx)
        modern = ctx.protocol_version in MODERN_VERSIONS
        tools = peer.tools_for(modern)
        if tools.client is None and peer.standing:  # a 2026-07-28 client says who it is on each request
            tools.client = client_name(ctx.params if isinstance(ctx.params, Mapping) else None)
        try:
            outcome = await app.call_tool(params.name, params.arguments, tools, progress,
                                          caller(ctx, params, peer))
        except (UnknownTool, InvalidAnswer) as exc:
            raise MCPError(INVALID_PARAMS, str(exc)) from None
        except InputRequired as asked:  # a 2026-07-28 client is asked through the answer itself
            return asked.result()
        return call_result(outcome, modern)

    if feed is None:  # no transport pumps it (tests building a bare server)
        feed = ErrorFeed(app.errors, bus)
    tasks = Tasks(app.jobs, app.job_runner, app.dispatch)

    async def set_level(ctx: Any, params: SetLevelRequestParams) -> dict[str, Any]:
        peer = _peer(ctx)
        _needs_standing(peer, "logging/setLevel")
        peer.min_level = params.level
        log.info("client log level: %s", params.level)
        return {}

    # Any URI may be subscribed to (a client may watch what it likes); only godot://errors changes
    # while the bridge runs, so only it is ever announced.
    async def subscribe(ctx: Any, params: SubscribeRequestParams) -> dict[str, Any]:
        peer = _peer(ctx)
        _needs_standing(peer, "resources/subscribe")
        peer.subscribed.add(str(params.uri))
        return {}

    async def unsubscribe(ctx: Any, params: UnsubscribeRequestParams) -> dict[str, Any]:
        peer = _peer(ctx)
        _needs_standing(peer, "resources/unsubscribe")
        peer.subscribed.discard(str(params.uri))
        return {}

    server: Server[Any] = Server(
        SERVER_NAME,
        version=__version__,
        title=SERVER_TITLE,
        instructions=INSTRUCTIONS,
        # tools/list: see protocol.TOOLS_LIST_TTL_MS. server/discover: never reused (its answer is cheap).
        cache_hints={"tools/list": CacheHint(TOOLS_LIST_TTL_MS, TOOLS_LIST_CACHE_SCOPE),
                     "server/discover": CacheHint(0, "private"),
                     **CONTENT_CACHE_HINTS},
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        on_subscriptions_listen=TaskListen(ErrorListen(ListenHandler(bus), feed), tasks),
        on_subscribe_resource=subscribe,
        on_unsubscribe_resource=unsubscribe,
        **content_handlers(app.resources, app.prompts, app.completions),
    )
    # Registered here, not as on_set_logging_level: that keyword warns (logging is deprecated in
    # 2026-07-28), yet handshake clients still use it and the capability is derived from it.
    server.add_request_handler("logging/setLevel", SetLevelRequestParams, set_level)
    # The SDK wraps every request in an OpenTelemetry span; we export no traces, and the
    # middleware was ~10% of per-call CPU in the benchmark profile.
    server.middleware.clear()
    # 2026-07-28 answers reach the consent gate as sent: one it cannot use is a tool result, not -32602.
    server.middleware.append(keep_answers)
    # 2026-07-28 input_required answers carry a requestState only this process can read.
    server.middleware.append(SealedState())
    tasks.install(server)  # MCP tasks in both eras: its middleware, the tasks/* methods, the extension
    return server


def initialization_options(server: Server[Any]) -> InitializationOptions:
    """What the handshake era's ``initialize`` answers: the derived capabilities, plus ``tasks``."""
    options = server.create_initialization_options(NotificationOptions(tools_changed=True))
    options.capabilities.tasks = ServerTasksCapability.model_validate(TASKS_HANDSHAKE_CAPABILITY)
    # The bridge declares no experimental capability. mcp 2.3 then leaves `experimental` out;
    # 2.0-2.2 answer an empty `"experimental": {}`. Cleared here, the answer is the same bytes at
    # every mcp the range allows, and the lean path's (hot_methods.py) stays equal to it.
    options.capabilities.experimental = None
    return options


class SdkBackend:
    """The SDK path behind the lean front (``stdio_server.py``): every line the lean path declines.

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
                                handshake_version=front.handshake_version or LATEST_HANDSHAKE,
                                client_params=front.handshake_params)
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
        return self._front.handshake_seen or self.router.handshake_seen

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
