"""The SDK's low-level ``Server`` wired to ``BridgeApp``: list tools, call tools, listen.

On stdio it serves only what the lean path (``stdio/lean_answers.py``) leaves to it, through
``stdio/sdk_path.py``; over HTTP (``http/server.py``) it serves everything.

Thin by design: it translates between MCP shapes and the app; what a tool does
is decided in ``dispatch``. Announcing a tool-list change reaches both eras: a
``notifications/tools/list_changed`` for handshake clients and a
``ToolsListChanged`` event on the ``subscriptions/listen`` bus for 2026-07-28.
Pushed Godot errors reach clients through ``error_feed`` (log notifications and
``godot://errors`` updates); on stdio the first one loads this path (``stdio/sdk_loader.py``).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from contextvars import ContextVar
from typing import Any

from mcp.server.caching import CacheHint
from mcp.server.lowlevel import NotificationOptions, Server
from mcp.server.models import InitializationOptions
from mcp.server.subscriptions import InMemorySubscriptionBus, ListenHandler
from mcp.shared.exceptions import MCPError
from mcp_types import (
    METHOD_NOT_FOUND,
    ServerTasksCapability,
    SetLevelRequestParams,
    SubscribeRequestParams,
    UnsubscribeRequestParams,
)

from godot_bridge import __version__
from godot_bridge.app import INSTRUCTIONS, BridgeApp
from godot_bridge.editor.pushed_errors import ERRORS_URI
from godot_bridge.mcp.core.calls import CallPath, CallRefused, Route, ToolCall
from godot_bridge.mcp.core.elicitation import caller, keep_answers
from godot_bridge.mcp.core.eras import is_modern_version
from godot_bridge.mcp.core.content_handlers import CONTENT_CACHE_HINTS, content_handlers
from godot_bridge.mcp.core.error_feed import ErrorFeed, ErrorListen
from godot_bridge.mcp.core.peers import Peer
from godot_bridge.mcp.core.protocol import (
    SERVER_NAME,
    SERVER_TITLE,
    TASKS_HANDSHAKE_CAPABILITY,
    TOOLS_LIST_CACHE_SCOPE,
    TOOLS_LIST_TTL_MS,
    tools_result,
)
from godot_bridge.mcp.core.sealed_state import SealedState
from godot_bridge.mcp.core.tasks import NOT_A_TASK, TaskListen, Tasks

log = logging.getLogger(__name__)

# The tools/call being served on the SDK path, as ``route_call`` read it for its handler.
_CALL: ContextVar[ToolCall | None] = ContextVar("godot_bridge_tool_call", default=None)


def _peer(ctx: Any) -> Peer:
    """The client this request is from (``EraRouter`` hands it to the runner as its lifespan state)."""
    peer = ctx.lifespan_context
    assert isinstance(peer, Peer), "EraRouter serves every request with its peer"
    return peer


def _standing_peer(ctx: Any, method: str) -> Peer:
    """The client of a request for something only a channel that outlives it can carry (log
    notifications, resource updates); refused without one."""
    peer = _peer(ctx)
    if not peer.standing:
        raise MCPError(METHOD_NOT_FOUND, f"{method} needs a session: this request came without Mcp-Session-Id, so "
                       "no stream outlives it to carry what it asks for. Send the Mcp-Session-Id the initialize "
                       f"answer gave, subscribe on a 2026-07-28 subscriptions/listen, or read {ERRORS_URI} again")
    return peer


class SdkHandlers:
    """What the SDK's ``Server`` calls for the bridge: each method one handler or middleware."""

    def __init__(self, app: BridgeApp, tasks: Tasks) -> None:
        self.app, self.tasks = app, tasks
        self.calls = CallPath(app)

    async def list_tools(self, ctx: Any, params: Any) -> dict[str, Any]:
        modern = is_modern_version(ctx.protocol_version)
        tools = _peer(ctx).tools_for(modern)
        tools.listed()  # a re-list discover_tools may be waiting for
        return tools_result(self.app.tools(tools), modern)

    async def route_call(self, ctx: Any, call_next: Any) -> Any:
        """Server middleware, the innermost: a ``tools/call`` is read once (``calls.py``) and routed;
        one that runs as a task is answered here (the SDK's result sieve refuses a task result from
        the call-tool handler), any other reaches ``call_tool`` with what was read."""
        if ctx.method != "tools/call" or not isinstance(ctx.params, Mapping):
            return await call_next(ctx)
        call = self.calls.read(ctx.params, is_modern_version(ctx.protocol_version))
        peer = _peer(ctx)
        tools = peer.tools_for(call.modern)
        if self.calls.route(call, tools) is Route.TASK:
            tool = self.calls.task_tool(call, tools)
            assert tool is not None  # what made the route a task
            return self.tasks.start(ctx, call, tool, peer)
        if call.wants_task and not call.modern and isinstance(call.target, str) and \
                self.app.surface.find(call.target) is not None:
            # 2025-11-25 asked for a task of a tool that never is one. (2026-07-28: the server decides,
            # a plain call; an unknown tool gets its error from the call.)
            raise MCPError(METHOD_NOT_FOUND, NOT_A_TASK.format(name=call.target))
        kept = _CALL.set(call)
        try:
            return await call_next(ctx)
        finally:
            _CALL.reset(kept)

    async def call_tool(self, ctx: Any, params: Any) -> dict[str, Any]:
        async def progress(done: float, total: float | None, message: str | None) -> None:
            await ctx.session.report_progress(done, total, message)

        peer = _peer(ctx)
        call = _CALL.get()
        assert call is not None, "route_call reads every tools/call before its handler"
        try:
            return await self.calls.run(call, peer, progress, caller(ctx, params, peer))
        except CallRefused as exc:
            raise MCPError(exc.code, exc.message) from None

    @staticmethod
    async def set_level(ctx: Any, params: SetLevelRequestParams) -> dict[str, Any]:
        _standing_peer(ctx, "logging/setLevel").min_level = params.level
        log.info("client log level: %s", params.level)
        return {}

    # Any URI may be subscribed to (a client may watch what it likes); only godot://errors changes
    # while the bridge runs, so only it is ever announced.
    @staticmethod
    async def subscribe(ctx: Any, params: SubscribeRequestParams) -> dict[str, Any]:
        _standing_peer(ctx, "resources/subscribe").subscribed.add(str(params.uri))
        return {}

    @staticmethod
    async def unsubscribe(ctx: Any, params: UnsubscribeRequestParams) -> dict[str, Any]:
        _standing_peer(ctx, "resources/unsubscribe").subscribed.discard(str(params.uri))
        return {}


def build_server(app: BridgeApp, bus: InMemorySubscriptionBus, feed: ErrorFeed | None = None) -> Server[Any]:
    if feed is None:  # no transport pumps it (tests building a bare server)
        feed = ErrorFeed(app.errors, bus)
    tasks = Tasks(app.jobs, app.job_runner)
    handlers = SdkHandlers(app, tasks)
    server: Server[Any] = Server(
        SERVER_NAME,
        version=__version__,
        title=SERVER_TITLE,
        instructions=INSTRUCTIONS,
        # tools/list: see protocol.TOOLS_LIST_TTL_MS. server/discover: never reused (its answer is cheap).
        cache_hints={"tools/list": CacheHint(TOOLS_LIST_TTL_MS, TOOLS_LIST_CACHE_SCOPE),
                     "server/discover": CacheHint(0, "private"),
                     **CONTENT_CACHE_HINTS},
        on_list_tools=handlers.list_tools,
        on_call_tool=handlers.call_tool,
        on_subscriptions_listen=TaskListen(ErrorListen(ListenHandler(bus), feed), tasks),
        on_subscribe_resource=handlers.subscribe,
        on_unsubscribe_resource=handlers.unsubscribe,
        **content_handlers(app.resources, app.prompts, app.completions),
    )
    # Registered here, not as on_set_logging_level: that keyword warns (logging is deprecated in
    # 2026-07-28), yet handshake clients still use it and the capability is derived from it.
    server.add_request_handler("logging/setLevel", SetLevelRequestParams, handlers.set_level)
    # The SDK wraps every request in an OpenTelemetry span; we export no traces, and the
    # middleware was ~10% of per-call CPU in the benchmark profile.
    server.middleware.clear()
    # 2026-07-28 answers reach the consent gate as sent: one it cannot use is a tool result, not -32602.
    server.middleware.append(keep_answers)
    # 2026-07-28 input_required answers carry a requestState only this process can read.
    server.middleware.append(SealedState())
    tasks.install(server)  # MCP tasks in both eras: the tasks/* methods, the extension
    server.middleware.append(handlers.route_call)  # last: it reads the call as the handler gets it
    return server


def initialization_options(server: Server[Any]) -> InitializationOptions:
    """What the handshake era's ``initialize`` answers: the derived capabilities, plus ``tasks``."""
    options = server.create_initialization_options(NotificationOptions(tools_changed=True))
    options.capabilities.tasks = ServerTasksCapability.model_validate(TASKS_HANDSHAKE_CAPABILITY)
    # The bridge declares no experimental capability. mcp 2.3 then leaves `experimental` out;
    # 2.0-2.2 answer an empty `"experimental": {}`. Cleared here, the answer is the same bytes at
    # every mcp the range allows, and the lean path's (stdio/sdk_layout.py) stays equal to it.
    options.capabilities.experimental = None
    return options
