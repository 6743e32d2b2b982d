"""The SDK's low-level ``Server`` wired to ``BridgeApp``: list tools, call tools, listen.

Thin by design: it translates between MCP shapes and the app; what a tool does
is decided in ``dispatch``. Announcing a tool-list change reaches both eras: a
``notifications/tools/list_changed`` for handshake clients and a
``ToolsListChanged`` event on the ``subscriptions/listen`` bus for 2026-07-28.
Pushed Godot errors reach clients through ``error_feed`` (log notifications and
``godot://errors`` updates).
"""

from __future__ import annotations

import logging
from typing import Any

import anyio
from mcp.server.caching import CacheHint
from mcp.server.lowlevel import NotificationOptions, Server
from mcp.server.subscriptions import InMemorySubscriptionBus, ListenHandler, ToolsListChanged
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS, SetLevelRequestParams, SubscribeRequestParams, UnsubscribeRequestParams
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from godot_bridge import __version__
from godot_bridge.app import INSTRUCTIONS, BridgeApp
from godot_bridge.dispatch import UnknownTool
from godot_bridge.mcp.content import CONTENT_CACHE_HINTS, content_handlers
from godot_bridge.mcp.eras import EraRouter
from godot_bridge.mcp.error_feed import ErrorFeed, ErrorListen
from godot_bridge.mcp.stdio import serve_stdio

log = logging.getLogger(__name__)


def build_server(app: BridgeApp, bus: InMemorySubscriptionBus, feed: ErrorFeed | None = None) -> Server[Any]:
    def complete(ctx: Any, result: dict[str, Any]) -> dict[str, Any]:
        # 2026-07-28 results must say they are complete; handshake results must not carry it.
        if ctx.protocol_version in MODERN_PROTOCOL_VERSIONS:
            result["resultType"] = "complete"
        return result

    async def list_tools(ctx: Any, params: Any) -> dict[str, Any]:
        return complete(ctx, {"tools": app.tools()})

    async def call_tool(ctx: Any, params: Any) -> dict[str, Any]:
        async def progress(done: float, total: float | None, message: str | None) -> None:
            await ctx.session.report_progress(done, total, message)

        try:
            outcome = await app.call_tool(params.name, params.arguments, progress)
        except UnknownTool as exc:
            raise MCPError(INVALID_PARAMS, str(exc)) from None
        result: dict[str, Any] = {"content": outcome.content, "isError": outcome.is_error}
        structured = outcome.structured
        if structured is not None:
            if not isinstance(structured, dict) and ctx.protocol_version not in MODERN_PROTOCOL_VERSIONS:
                # Handshake-era structuredContent must be an object.
                structured = {"result": structured}
            result["structuredContent"] = structured
        return complete(ctx, result)

    if feed is None:  # no transport pumps it (tests building a bare server): no standing stream either
        feed = ErrorFeed(app.errors, bus, standing=False)

    async def set_level(ctx: Any, params: SetLevelRequestParams) -> dict[str, Any]:
        feed.set_level(params.level)
        return {}

    async def subscribe(ctx: Any, params: SubscribeRequestParams) -> dict[str, Any]:
        feed.subscribe(str(params.uri))
        return {}

    async def unsubscribe(ctx: Any, params: UnsubscribeRequestParams) -> dict[str, Any]:
        feed.unsubscribe(str(params.uri))
        return {}

    server: Server[Any] = Server(
        "godot-bridge",
        version=__version__,
        title="Godot Bridge",
        instructions=INSTRUCTIONS,
        # Never reuse: the list changes with discover_tools, the editor version and extensions.
        cache_hints={"tools/list": CacheHint(0, "private"), "server/discover": CacheHint(0, "private"),
                     **CONTENT_CACHE_HINTS},
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        on_subscriptions_listen=ErrorListen(ListenHandler(bus), feed),
        on_subscribe_resource=subscribe,
        on_unsubscribe_resource=unsubscribe,
        **content_handlers(app.resources, app.prompts),
    )
    # Registered here, not as on_set_logging_level: that keyword warns (logging is deprecated in
    # 2026-07-28), yet handshake clients still use it and the capability is derived from it.
    server.add_request_handler("logging/setLevel", SetLevelRequestParams, set_level)
    # The SDK wraps every request in an OpenTelemetry span; we export no traces, and the
    # middleware was ~10% of per-call CPU in the benchmark profile.
    server.middleware.clear()
    return server


async def run_stdio(app: BridgeApp) -> None:
    bus = InMemorySubscriptionBus()
    feed = ErrorFeed(app.errors, bus, standing=True)
    server = build_server(app, bus, feed)
    init_options = server.create_initialization_options(NotificationOptions(tools_changed=True))
    router: EraRouter | None = None
    send_announce, recv_announce = anyio.create_memory_object_stream[None](16)

    def make_handlers(dispatcher: Any) -> tuple[Any, Any]:
        nonlocal router
        router = EraRouter(server, dispatcher, init_options)
        return router.on_request, router.on_notify

    def announce() -> None:
        # Called from sync code (surface changes); the announcer task does the I/O.
        try:
            send_announce.send_nowait(None)
        except anyio.WouldBlock:
            pass  # announcements are already queued and unsent; one more would say nothing new

    app.on_list_changed(announce)

    def handshake_ready() -> bool:
        return router is not None and router.handshake_seen

    async def announcer(dispatcher: Any) -> None:
        await app.start()
        async with anyio.create_task_group() as tg, recv_announce:
            tg.start_soon(feed.run, dispatcher.notify, handshake_ready)
            async for _ in recv_announce:
                await bus.publish(ToolsListChanged())
                if handshake_ready():
                    await dispatcher.notify("notifications/tools/list_changed", None)

    try:
        await serve_stdio(make_handlers, on_ready=announcer)
    finally:
        with anyio.CancelScope(shield=True):
            await app.aclose()
