"""MCP over Streamable HTTP: ``POST /mcp``, stateless, both eras decided per request.

Every POST is one exchange: the body is checked (http_headers.py holds the rules),
then served by a fresh ``EraRouter`` (eras.py, the same per-request era routing the
stdio transport uses) whose outbound is this exchange's response. All clients share
the one ``BridgeApp`` and so the one editor connection.

A response is ``application/json`` unless something must travel before it (progress,
a handshake-era ``tools/list_changed`` the call itself caused, ``subscriptions/listen``
events) and the client accepts ``text/event-stream``; then it becomes an SSE stream.
"""

from __future__ import annotations

import contextvars
import json
import logging
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import anyio
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
from mcp.server.lowlevel import NotificationOptions, Server
from mcp.server.models import InitializationOptions
from mcp.server.runner import modern_error_data
from mcp.server.subscriptions import InMemorySubscriptionBus, ToolsListChanged
from mcp.shared.exceptions import NoBackChannelError
from mcp.shared.transport_context import TransportContext
from mcp_types import (
    INVALID_REQUEST,
    PARSE_ERROR,
    JSONRPCNotification,
    JSONRPCRequest,
    jsonrpc_message_adapter,
)
from pydantic import ValidationError
from starlette.applications import Starlette
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

from godot_bridge import __version__
from godot_bridge.app import BridgeApp
from godot_bridge.mcp import http_headers as rules
from godot_bridge.mcp.eras import EraRouter
from godot_bridge.mcp.error_feed import ErrorFeed
from godot_bridge.mcp.peers import Peer
from godot_bridge.mcp.server import build_server

log = logging.getLogger(__name__)

DEFAULT_PORT = 8765
# A tools/call can carry a whole script or image, but an HTTP body is held in memory at once.
MAX_BODY = 64 * 1024 * 1024
# A silent SSE stream gets a comment line this often, so proxies do not drop it as idle.
KEEPALIVE_S = 15.0
_SSE_HEADERS = [
    (b"content-type", b"text/event-stream"),
    (b"cache-control", b"no-cache, no-transform"),
    (b"x-accel-buffering", b"no"),
]


@dataclass(frozen=True)
class HttpOptions:
    host: str = "127.0.0.1"
    port: int = DEFAULT_PORT
    token: str | None = None  # bearer token every /mcp request must carry (None: no auth)
    allowed_origins: frozenset[str] = frozenset()
    max_body: int = MAX_BODY
    keepalive_s: float = KEEPALIVE_S


# -- one exchange's response channel ------------------------------------------------------


@dataclass
class _Exchange:
    """What a POST sends back: notifications first (if the client reads SSE), then one answer."""

    streams_notes: bool
    send: MemoryObjectSendStream[bytes | dict[str, Any]] = field(init=False)
    recv: MemoryObjectReceiveStream[bytes | dict[str, Any]] = field(init=False)

    def __post_init__(self) -> None:
        # Buffered, so a synchronous list-changed announcement can be queued without awaiting.
        self.send, self.recv = anyio.create_memory_object_stream[bytes | dict[str, Any]](256)

    def note_nowait(self, method: str, params: Mapping[str, Any] | None) -> None:
        if not self.streams_notes:
            return
        try:
            self.send.send_nowait(_note(method, params))
        except (anyio.WouldBlock, anyio.ClosedResourceError, anyio.BrokenResourceError):
            log.debug("dropped %s: the response stream is full or finished", method)

    async def note(self, method: str, params: Mapping[str, Any] | None) -> None:
        if not self.streams_notes:
            return
        try:
            await self.send.send(_note(method, params))
        except (anyio.ClosedResourceError, anyio.BrokenResourceError):
            log.debug("dropped %s: the response stream is finished", method)


def _note(method: str, params: Mapping[str, Any] | None) -> bytes:
    message = JSONRPCNotification(jsonrpc="2.0", method=method, params=dict(params) if params is not None else None)
    return _sse(message.model_dump(mode="json", by_alias=True, exclude_none=True))


def _sse(message: Mapping[str, Any]) -> bytes:
    return b"event: message\r\ndata: " + json.dumps(message, separators=(",", ":")).encode() + b"\r\n\r\n"


# The exchange of the handshake-era request running in this task: a tool list change it
# causes (discover_tools) is announced on its own response stream, the only channel a
# stateless handshake client has. 2026-07-28 clients hear it on subscriptions/listen.
_CURRENT: contextvars.ContextVar[_Exchange | None] = contextvars.ContextVar("godot_bridge_http_exchange",
                                                                           default=None)


@dataclass
class _HttpDispatchContext:
    """The SDK's ``DispatchContext`` for one POST; it is also the connection's outbound."""

    exchange: _Exchange
    request_id: Any
    progress_token: Any
    headers: Mapping[str, str]
    message_metadata: Any = None
    cancel_requested: anyio.Event = field(default_factory=anyio.Event)
    can_send_request: bool = False  # stateless: the server never sends requests to the client

    @property
    def transport(self) -> TransportContext:
        return TransportContext(kind="streamable-http", can_send_request=False, headers=self.headers)

    async def send_raw_request(self, method: str, params: Mapping[str, Any] | None, opts: Any = None) -> dict[str, Any]:
        raise NoBackChannelError(method)

    async def notify(self, method: str, params: Mapping[str, Any] | None, opts: Any = None) -> None:
        await self.exchange.note(method, params)

    async def progress(self, progress: float, total: float | None = None, message: str | None = None) -> None:
        if self.progress_token is None:
            return
        params: dict[str, Any] = {"progressToken": self.progress_token, "progress": progress}
        if total is not None:
            params["total"] = total
        if message is not None:
            params["message"] = message
        await self.notify("notifications/progress", params)


# -- the ASGI application -------------------------------------------------------------------


def _error(rid: Any, code: int, message: str, data: Any = None) -> dict[str, Any]:
    error: dict[str, Any] = {"code": code, "message": message}
    if data is not None:
        error["data"] = data
    return {"jsonrpc": "2.0", "id": rid, "error": error}


def _json(status: int, message: Mapping[str, Any] | None, headers: Mapping[str, str] | None = None) -> Response:
    if message is None:
        return Response(status_code=status, headers=dict(headers or {}))
    return Response(json.dumps(message, separators=(",", ":")), status_code=status,
                    media_type="application/json", headers=dict(headers or {}))


def _refused(rid: Any, refusal: rules.Refusal, headers: Mapping[str, str] | None = None) -> Response:
    return _json(refusal.status, _error(rid, refusal.code, refusal.message, refusal.data), headers)


class _TooLarge(Exception):
    pass


async def _read_body(request: Request, limit: int) -> bytes:
    """The body, refusing early once it passes ``limit`` (Content-Length can lie)."""
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise _TooLarge
        chunks.append(chunk)
    return b"".join(chunks)


class McpHttp:
    """The ``/mcp`` endpoint and the server card, over one ``BridgeApp``."""

    def __init__(self, server: Server[Any], init_options: InitializationOptions, options: HttpOptions,
                 stateless: Peer) -> None:
        self.server, self.init_options, self.options = server, init_options, options
        # Every request outside a session is this one client: one shared tool list, no standing stream.
        self.stateless = stateless

    # A plain ASGI callable (not a request function), so SSE can be streamed by hand; Starlette
    # calls it for every method on /mcp and the transport rules run in seed order.
    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        request = Request(scope, receive)
        response = await self._gate(request)
        if response is None:
            response = await self._post(request, scope, receive, send)
        if response is not None:
            await response(scope, receive, send)

    async def _gate(self, request: Request) -> Response | None:
        """Origin (first: a rejected origin argues about nothing), auth, method, content type, size."""
        if not rules.origin_allowed(request.headers.get("origin"), self.options.allowed_origins):
            return _json(403, _error(None, rules.ORIGIN_NOT_ALLOWED, "Origin not allowed"))
        if self.options.token is not None and not rules.bearer_ok(request.headers.get("authorization"),
                                                                  self.options.token):
            return _json(401, _error(None, INVALID_REQUEST, "Unauthorized: a bearer token is required"),
                         {"WWW-Authenticate": 'Bearer realm="godot-bridge"'})
        if request.method != "POST":
            # Stateless and no standalone SSE stream: nothing to GET, no session to DELETE.
            return Response(status_code=405, headers={"Allow": "POST"})
        if not rules.is_json_content_type(request.headers.get("content-type")):
            return _json(415, _error(None, INVALID_REQUEST, "Unsupported Media Type: send application/json"))
        length = request.headers.get("content-length")
        if length is None:
            return _json(411, _error(None, INVALID_REQUEST, "Length Required: send Content-Length"))
        if not length.isdigit():
            return _json(400, _error(None, INVALID_REQUEST, "Bad Request: malformed Content-Length"))
        if int(length) > self.options.max_body:
            return self._too_large()
        return None

    def _too_large(self) -> Response:
        limit = self.options.max_body
        return _json(413, _error(None, INVALID_REQUEST, f"Payload Too Large: the limit is {limit} bytes"))

    async def _post(self, request: Request, scope: Scope, receive: Receive, send: Send) -> Response | None:
        try:
            body = await _read_body(request, self.options.max_body)
        except ClientDisconnect:
            return None  # nobody is left to answer
        except _TooLarge:
            return self._too_large()
        try:
            decoded = json.loads(body)
        except (ValueError, RecursionError):  # bad JSON or UTF-8, huge int literals, deep nesting
            return _json(400, _error(None, PARSE_ERROR, "Parse error: the body is not valid JSON"))
        if isinstance(decoded, list):
            return _json(400, _error(None, INVALID_REQUEST, "Invalid Request: JSON-RPC batches are not supported"))
        headers = {k: v for k, v in request.headers.items()}
        raw_headers = request.headers.items()
        if isinstance(decoded, dict) and "id" not in decoded and isinstance(decoded.get("method"), str):
            # A notification is answered with nothing, unless its headers do not mirror it.
            refusal = rules.notification_refusal(decoded, headers, raw_headers)
            return _refused(None, refusal) if refusal is not None else Response(status_code=202)
        try:
            message = jsonrpc_message_adapter.validate_python(decoded, by_name=False)
        except (ValidationError, RecursionError):
            rid = decoded.get("id") if isinstance(decoded, dict) else None
            if isinstance(rid, bool) or not isinstance(rid, str | int):
                rid = None
            # A verdict on a message, not a transport refusal: 200 in either era (seed 000).
            return _json(200, _error(rid, INVALID_REQUEST, "Invalid Request: not a JSON-RPC 2.0 request"))
        if not isinstance(message, JSONRPCRequest):
            return Response(status_code=202)  # a response to a request we never send: accepted, ignored
        return await self._request(message, decoded, headers, raw_headers, scope, receive, send)

    async def _request(self, message: JSONRPCRequest, decoded: dict[str, Any], headers: dict[str, str],
                       raw_headers: Any, scope: Scope, receive: Receive, send: Send) -> Response | None:
        method, params, rid = message.method, message.params, message.id
        modern = rules.declares_modern(method, params, headers)
        refusal = rules.modern_refusal(decoded, headers, raw_headers) if modern else rules.handshake_refusal(headers)
        if refusal is not None:
            return _refused(rid, refusal)
        sse = rules.accepts_sse(headers.get("accept"))
        if method == "subscriptions/listen" and not sse:
            return _json(406, _error(rid, INVALID_REQUEST,
                                     "Not Acceptable: subscriptions/listen answers with text/event-stream"))
        exchange = _Exchange(streams_notes=sse)
        meta = params.get("_meta") if isinstance(params, dict) else None
        dctx = _HttpDispatchContext(exchange, rid, meta.get("progressToken") if isinstance(meta, dict) else None,
                                    headers)
        router = EraRouter(self.server, dctx, self.init_options, self.stateless)  # type: ignore[arg-type]
        await self._respond(router, dctx, message, modern, scope, receive, send)
        return None

    async def _respond(self, router: EraRouter, dctx: _HttpDispatchContext, message: JSONRPCRequest, modern: bool,
                       scope: Scope, receive: Receive, send: Send) -> None:
        exchange = dctx.exchange

        async def run_handler() -> None:
            async with exchange.send:
                try:
                    result = await router.on_request(dctx, message.method, message.params)  # type: ignore[arg-type]
                    answer: dict[str, Any] = {"jsonrpc": "2.0", "id": message.id, "result": result}
                except Exception as exc:
                    data = modern_error_data(exc)
                    answer = _error(message.id, data.code, data.message, data.data)
                await exchange.send.send(answer)

        async def watch_disconnect(scope_to_cancel: anyio.CancelScope) -> None:
            while (await receive())["type"] != "http.disconnect":
                pass
            scope_to_cancel.cancel()  # the client left: stop its handler, nobody reads the answer

        token = _CURRENT.set(None if modern else exchange)
        try:
            async with exchange.recv, anyio.create_task_group() as tg:
                tg.start_soon(run_handler)
                tg.start_soon(watch_disconnect, tg.cancel_scope)
                await self._stream(exchange, modern, scope, receive, send)
                tg.cancel_scope.cancel()
        finally:
            _CURRENT.reset(token)

    async def _stream(self, exchange: _Exchange, modern: bool, scope: Scope, receive: Receive, send: Send) -> None:
        """JSON when the answer comes first; otherwise commit to SSE and stream until the answer."""
        wait = self.options.keepalive_s if exchange.streams_notes else None
        item = await _next(exchange.recv, wait)
        if isinstance(item, dict):
            status = rules.error_status(item["error"]["code"], modern) if "error" in item else 200
            await _json(status, item)(scope, receive, send)
            return
        if item is _CLOSED:
            return
        await send({"type": "http.response.start", "status": 200, "headers": _SSE_HEADERS})
        while not isinstance(item, dict) and item is not _CLOSED:
            body = b": keepalive\r\n\r\n" if item is None else item  # None: the wait timed out
            await send({"type": "http.response.body", "body": body, "more_body": True})
            item = await _next(exchange.recv, self.options.keepalive_s)
        final = _sse(item) if isinstance(item, dict) else b""  # _CLOSED: the handler is gone
        await send({"type": "http.response.body", "body": final, "more_body": False})

    async def card(self, request: Request) -> Response:
        if not rules.origin_allowed(request.headers.get("origin"), self.options.allowed_origins):
            return _json(403, _error(None, rules.ORIGIN_NOT_ALLOWED, "Origin not allowed"))
        capabilities = self.init_options.capabilities.model_dump(mode="json", by_alias=True, exclude_none=True)
        return JSONResponse(server_card(self.options, capabilities))


_CLOSED: Any = object()


async def _next(recv: MemoryObjectReceiveStream[Any], timeout: float | None) -> Any:
    """The next queued item; None when ``timeout`` passed first; _CLOSED once the handler is gone."""
    with anyio.move_on_after(timeout):
        try:
            return await recv.receive()
        except anyio.EndOfStream:
            return _CLOSED
    return None


def server_card(options: HttpOptions, capabilities: dict[str, Any]) -> dict[str, Any]:
    """``/.well-known/mcp.json``: who we are and every version we speak, newest first."""
    return {
        "name": "godot-bridge",
        "title": "Godot Bridge",
        "version": __version__,
        "description": "Drives a live Godot 4 editor and the game it runs.",
        "supportedProtocolVersions": list(rules.ALL_VERSIONS),
        "transport": {"type": "streamable-http", "endpoint": "/mcp", "sessions": False},
        "capabilities": capabilities,
        "authentication": {"required": options.token is not None, "schemes": ["bearer"] if options.token else []},
    }


def handshake_options(init: InitializationOptions) -> InitializationOptions:
    """What a handshake-era HTTP client is offered: no subscriptions and no log messages, as no
    stream outlives its request to carry them (2026-07-28 clients get both on subscriptions/listen)."""
    caps = init.capabilities
    resources = caps.resources.model_copy(update={"subscribe": False}) if caps.resources is not None else None
    return init.model_copy(update={"capabilities": caps.model_copy(update={"resources": resources, "logging": None})})


def build_http_app(app: BridgeApp, options: HttpOptions) -> Starlette:
    """The ASGI app: ``/mcp``, the server card, and a lifespan that owns the editor link."""
    bus = InMemorySubscriptionBus()
    feed = ErrorFeed(app.errors, bus)
    server = build_server(app, bus, feed)
    init_options = handshake_options(server.create_initialization_options(NotificationOptions(tools_changed=True)))
    stateless = Peer(app.tool_list(), standing=False)
    mcp = McpHttp(server, init_options, options, stateless)
    send_announce, recv_announce = anyio.create_memory_object_stream[None](16)

    def announce() -> None:
        # Sync (surface changes); the handshake request that caused it hears it on its own stream.
        exchange = _CURRENT.get()
        if exchange is not None:
            exchange.note_nowait("notifications/tools/list_changed", None)
        try:
            send_announce.send_nowait(None)
        except anyio.WouldBlock:
            pass  # announcements are already queued and unsent; one more says nothing new

    stateless.tools.on_change = announce

    async def announcer() -> None:
        async with recv_announce:
            async for _ in recv_announce:
                await bus.publish(ToolsListChanged())

    @asynccontextmanager
    async def lifespan(_: Starlette) -> AsyncIterator[None]:
        async with anyio.create_task_group() as tg:
            tg.start_soon(announcer)
            tg.start_soon(feed.run)
            await app.start()
            try:
                yield
            finally:
                tg.cancel_scope.cancel()
                with anyio.CancelScope(shield=True):
                    await app.aclose()

    routes = [
        Route("/mcp", mcp, methods=None),
        Route("/.well-known/mcp.json", mcp.card, methods=["GET"]),
        Route("/.well-known/mcp/server-card.json", mcp.card, methods=["GET"]),
    ]
    return Starlette(routes=routes, lifespan=lifespan)


async def run_http(app: BridgeApp, options: HttpOptions, sockets: list[Any] | None = None) -> None:
    """Serve until interrupted (SIGINT/SIGTERM stop uvicorn gracefully)."""
    import uvicorn

    config = uvicorn.Config(build_http_app(app, options), host=options.host, port=options.port,
                            log_config=None, access_log=False, lifespan="on", timeout_graceful_shutdown=3)
    await uvicorn.Server(config).serve(sockets=sockets)
