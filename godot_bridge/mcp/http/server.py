"""MCP over Streamable HTTP: ``POST /mcp``, both eras decided per request.

Every POST is one exchange: the body is checked (headers.py holds the rules),
then served by a fresh ``EraRouter`` (core/era_router.py, the same per-request era routing the
stdio transport uses) whose outbound is this exchange's response. All clients share
the one ``BridgeApp`` and so the one editor connection.

A handshake-era ``initialize`` opens a session (sessions.py): the client's own tool
list, log level and subscriptions, and its standing stream at ``GET /mcp``; ``DELETE /mcp``
ends it. Requests outside a session (every 2026-07-28 request, a handshake request without
``Mcp-Session-Id``) are served statelessly, as one shared client (core/peers.py).

A response is ``application/json`` unless something must travel before it (progress,
a handshake-era ``tools/list_changed`` the call itself caused, ``subscriptions/listen``
events) and the client accepts ``text/event-stream``; then it becomes an SSE stream.
"""

from __future__ import annotations

import asyncio
import contextvars
import hashlib
import json
import logging
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import anyio
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
from mcp.server.lowlevel import Server
from mcp.server.models import InitializationOptions
from mcp.server.runner import modern_error_data
from mcp.server.subscriptions import InMemorySubscriptionBus, ToolsListChanged
from mcp.shared.exceptions import MCPError, NoBackChannelError
from mcp.shared.transport_context import TransportContext
from mcp_types import (
    INTERNAL_ERROR,
    INVALID_REQUEST,
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
from godot_bridge.errors import ProtocolError
from godot_bridge.mcp.core import message_check
from godot_bridge.mcp.http import headers as rules
from godot_bridge.mcp.core.era_router import EraRouter
from godot_bridge.mcp.core.error_feed import ErrorFeed
from godot_bridge.mcp.http.config import HttpOptions
from godot_bridge.mcp.http.sessions import SESSION_HEADER, SESSION_NOT_FOUND, Session, SessionStore
from godot_bridge.mcp.core.peers import Peer
from godot_bridge.mcp.core.eras import ALL_VERSIONS, LATEST_HANDSHAKE
from godot_bridge.mcp.core.protocol import client_name
from godot_bridge.mcp.core.sdk_server import build_server, initialization_options
from godot_bridge.mcp.core import json_input
from godot_bridge.mcp.core.json_input import request_id

log = logging.getLogger(__name__)

_SSE_HEADERS = [
    (b"content-type", b"text/event-stream"),
    (b"cache-control", b"no-cache, no-transform"),
    (b"x-accel-buffering", b"no"),
]


# -- one exchange's response channel ------------------------------------------------------


@dataclass
class _Exchange:
    """What a POST sends back: notifications first (if the client reads SSE), then one answer."""

    streams_notes: bool
    # The handshake-era client whose request this is: a list change of its own that the request
    # causes travels here. None for 2026-07-28 requests (they hear changes on subscriptions/listen).
    peer: Peer | None = None
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


# The exchange of the request running in this task: a change of its client's tool list that it
# causes (discover_tools) is announced on its own response stream when that stream is SSE (for a
# client outside a session, the only channel it has); otherwise on the session's standing stream.
_CURRENT: contextvars.ContextVar[_Exchange | None] = contextvars.ContextVar("godot_bridge_http_exchange",
                                                                           default=None)
LIST_CHANGED = "notifications/tools/list_changed"


def _heard_by_its_request(peer: Peer) -> bool:
    """Announce a list change of ``peer`` on the response stream of the request causing it, if it can carry it."""
    exchange = _CURRENT.get()
    if exchange is None or exchange.peer is not peer or not exchange.streams_notes:
        return False
    exchange.note_nowait(LIST_CHANGED, None)
    return True


@dataclass
class _HttpDispatchContext:
    """The SDK's ``DispatchContext`` for one POST; it is also the connection's outbound."""

    exchange: _Exchange
    request_id: Any
    progress_token: Any
    headers: Mapping[str, str]
    # The handshake-era session the request belongs to: the only place an answer to a request we
    # send the client (a question for the person) can come back to.
    session: Session | None = None
    message_metadata: Any = None
    cancel_requested: anyio.Event = field(default_factory=anyio.Event)

    @property
    def can_send_request(self) -> bool:
        """A request to the client rides this request's own SSE stream, and the client posts its answer
        in the same session: without a session, or a client that reads no stream, there is no way back."""
        return self.session is not None and not self.session.ended and self.exchange.streams_notes

    @property
    def transport(self) -> TransportContext:
        return TransportContext(kind="streamable-http", can_send_request=self.can_send_request, headers=self.headers)

    async def send_raw_request(self, method: str, params: Mapping[str, Any] | None, opts: Any = None) -> dict[str, Any]:
        if not self.can_send_request or self.session is None:
            raise NoBackChannelError(method)
        rid, answer = self.session.expect_answer()
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": rid, "method": method}
        if params is not None:
            message["params"] = dict(params)
        timeout = opts.get("timeout") if isinstance(opts, Mapping) else None
        try:
            await self.exchange.send.send(_sse(message))
            with anyio.fail_after(timeout):
                reply = await answer
        except BaseException:
            # Given up (cancelled, timed out, the session ended): the client withdraws its question.
            self.exchange.note_nowait("notifications/cancelled", {"requestId": rid, "reason": "no longer needed"})
            raise
        finally:
            self.session.forget_answer(rid)
        error = reply.get("error")
        if isinstance(error, Mapping):
            raise MCPError(int(error.get("code", INTERNAL_ERROR)), str(error.get("message", "")), error.get("data"))
        result = reply.get("result")
        return dict(result) if isinstance(result, Mapping) else {}

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


class _TooLarge(ProtocolError):
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
                 app: BridgeApp, feed: ErrorFeed, stateless: Peer) -> None:
        self.server, self.init_options, self.options = server, init_options, options
        self.app, self.feed = app, feed
        # Every request outside a session is this one client: one shared tool list, no standing stream.
        self.stateless = stateless
        self.sessions = SessionStore(idle_s=options.session_idle_s, max_sessions=options.max_sessions,
                                     on_end=self._session_ended)
        self._endings: set[asyncio.Task[None]] = set()

    def _session_ended(self, session: Session) -> None:
        self.feed.remove(session.peer)
        # Its jobs end with it (a reconnect of its stream does not end it; DELETE or expiry does).
        task = asyncio.get_running_loop().create_task(self.app.jobs.end_owner(session.peer.tools.owner))
        self._endings.add(task)
        task.add_done_callback(self._endings.discard)

    # A plain ASGI callable (not a request function), so SSE can be streamed by hand; Starlette
    # calls it for every method on /mcp and the transport rules run in seed order.
    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        request = Request(scope, receive)
        response = await self._gate(request)
        if response is None:
            if request.method == "POST":
                response = await self._post(request, scope, receive, send)
            else:
                response = await self._session_call(request, scope, receive, send)
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
            # GET (the standing stream) and DELETE are a session's; without one there is nothing to
            # GET (2026-07-28 listens with subscriptions/listen) and nothing to end.
            if request.method in ("GET", "DELETE") and SESSION_HEADER in request.headers:
                return None
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
            decoded = json_input.load(body, "body")
        except message_check.Dropped:  # a notification nested too deep: answered with nothing
            return Response(status_code=202)
        except message_check.Refused as exc:
            # Not JSON, or a batch nested too deep: refused before dispatch (400). A message nested too
            # deep is answered with its id, as a verdict on it in its era.
            self._settle(exc, request.headers)
            status = 400 if exc.rid is None else \
                rules.error_status(exc.code, rules.declares_modern("", None, request.headers))
            return _json(status, _error(exc.rid, exc.code, exc.message))
        if isinstance(decoded, list):
            return _json(400, _error(None, INVALID_REQUEST, "Invalid Request: JSON-RPC batches are not supported"))
        headers = {k: v for k, v in request.headers.items()}
        raw_headers = request.headers.items()
        if isinstance(decoded, dict) and "id" not in decoded and isinstance(decoded.get("method"), str):
            # A notification is answered with nothing, unless its headers do not mirror it.
            refusal = rules.notification_refusal(decoded, headers, raw_headers)
            if refusal is not None:
                return _refused(None, refusal)
            return self._unknown_session(None, decoded, headers) or Response(status_code=202)
        try:
            message_check.check(decoded)
        except message_check.Refused as exc:
            self._settle(exc, headers)
            # A verdict on a message, not a transport refusal: its code's status in its era (seed 000).
            method = decoded.get("method") if isinstance(decoded, dict) else None
            modern = isinstance(method, str) and rules.declares_modern(method, decoded.get("params"), headers)
            return _json(rules.error_status(exc.code, modern), _error(exc.rid, exc.code, exc.message))
        except message_check.Dropped:  # notifications were answered above; kept so no exception escapes
            return Response(status_code=202)
        try:
            message = jsonrpc_message_adapter.validate_python(decoded, by_name=False)
        except (ValidationError, RecursionError):  # message_check.check passed it: a rule of the SDK's we do not know of
            rid = request_id(decoded)
            # A verdict on a message, not a transport refusal: 200 in either era (seed 000).
            return _json(200, _error(rid, INVALID_REQUEST, "Invalid Request: not a JSON-RPC 2.0 request"))
        if not isinstance(message, JSONRPCRequest):
            # The client's answer to a question we sent on a request's stream; any other is ignored.
            session = self._session_of(headers)
            if session is not None:
                session.answered(decoded)
            return Response(status_code=202)
        return await self._request(message, decoded, headers, raw_headers, scope, receive, send)

    async def _request(self, message: JSONRPCRequest, decoded: dict[str, Any], headers: dict[str, str],
                       raw_headers: Any, scope: Scope, receive: Receive, send: Send) -> Response | None:
        method, params, rid = message.method, message.params, message.id
        modern = rules.declares_modern(method, params, headers)
        refusal = rules.modern_refusal(decoded, headers, raw_headers) if modern else rules.handshake_refusal(headers)
        if refusal is not None:
            return _refused(rid, refusal)
        session: Session | None = None
        if not modern:
            unknown = self._unknown_session(rid, decoded, headers)
            if unknown is not None:
                return unknown
            session = self._open_session() if method == "initialize" else self._session_of(headers)
        sse = rules.accepts_sse(headers.get("accept"))
        if method == "subscriptions/listen" and not sse:
            return _json(406, _error(rid, INVALID_REQUEST,
                                     "Not Acceptable: subscriptions/listen answers with text/event-stream"))
        peer = session.peer if session is not None else self.stateless
        exchange = _Exchange(streams_notes=sse, peer=None if modern else peer)
        meta = params.get("_meta") if isinstance(params, dict) else None
        dctx = _HttpDispatchContext(exchange, rid, meta.get("progressToken") if isinstance(meta, dict) else None,
                                    headers, session=session)
        version = session.version if session is not None else None
        router = EraRouter(self.server, dctx, self.init_options, peer,  # type: ignore[arg-type]
                           handshake_version=version or LATEST_HANDSHAKE,
                           client_params=session.client_params if session is not None else None)
        opened = {"Mcp-Session-Id": session.id} if session is not None and method == "initialize" else {}
        try:
            await self._respond(router, dctx, message, modern, scope, receive, send, opened)
        finally:
            if session is not None:
                self._after(session, router, method)
        return None

    # -- sessions (handshake era) ----------------------------------------------------------

    def _open_session(self) -> Session:
        """A new client: its own tool list, and a standing stream its notifications wait for."""
        tools = self.app.tool_list()
        peer = Peer(tools, standing=True)
        session = self.sessions.open(peer)
        peer.notify = session.notify
        tools.on_change = lambda: _heard_by_its_request(peer) or session.push(LIST_CHANGED)
        self.feed.add(peer)
        return session

    def _settle(self, refused: message_check.Refused, headers: Mapping[str, str]) -> None:
        """A malformed answer to a question we asked on a session's stream: the question ends now, with
        an answer that says it could not be read (never a wait for one that already came)."""
        session = self._session_of(headers) if refused.in_place is not None else None
        if session is not None and refused.in_place is not None:
            session.answered(refused.in_place)

    def _session_of(self, headers: Mapping[str, str]) -> Session | None:
        sid = headers.get(SESSION_HEADER)
        return self.sessions.get(sid) if sid is not None else None

    def _unknown_session(self, rid: Any, decoded: Any, headers: Mapping[str, str]) -> Response | None:
        """404 for a handshake-era message naming a session that ended, expired or never was.

        ``initialize`` opens a new one whatever it carries; 2026-07-28 messages have no sessions."""
        sid = headers.get(SESSION_HEADER)
        if sid is None or not isinstance(decoded, dict) or decoded.get("method") == "initialize":
            return None
        method, params = decoded.get("method"), decoded.get("params")
        if isinstance(method, str) and rules.declares_modern(method, params, headers):
            return None
        if self.sessions.get(sid) is not None:
            return None
        return _json(404, _error(rid, SESSION_NOT_FOUND, "Session not found: it ended or expired (or never "
                                 "existed); send initialize again, without Mcp-Session-Id"))

    def _after(self, session: Session, router: EraRouter, method: str) -> None:
        if method == "initialize":
            version, client_params = router.handshake
            if client_params is None:  # the initialize failed: nothing was opened
                self.sessions.end(session.id, reason="its initialize failed")
                return
            session.version, session.client_params = version, client_params
            session.peer.tools.client = client_name(client_params)
        if not session.ended:
            self.sessions.touch(session)

    async def _session_call(self, request: Request, scope: Scope, receive: Receive, send: Send) -> Response | None:
        """``GET /mcp`` opens a session's standing stream; ``DELETE /mcp`` ends the session."""
        sid = request.headers[SESSION_HEADER]
        if request.method == "DELETE":
            if self.sessions.end(sid):
                return Response(status_code=200)
            return _json(404, _error(None, SESSION_NOT_FOUND, "Session not found: it already ended or expired"))
        session = self.sessions.get(sid)
        if session is None:
            return _json(404, _error(None, SESSION_NOT_FOUND, "Session not found: it ended or expired; "
                                     "send initialize again, without Mcp-Session-Id"))
        if not rules.accepts_sse(request.headers.get("accept")):
            return _json(406, _error(None, INVALID_REQUEST, "Not Acceptable: GET /mcp answers with text/event-stream"))
        if session.stream_open:
            return _json(409, _error(None, INVALID_REQUEST, "Conflict: this session's stream is already open"))
        await self._standing_stream(session, receive, send)
        return None

    async def _standing_stream(self, session: Session, receive: Receive, send: Send) -> None:
        """Everything the session is told without asking, until the client leaves or the session ends."""
        session.stream_open = True
        try:
            async with anyio.create_task_group() as tg:
                async def watch_disconnect() -> None:
                    while (await receive())["type"] != "http.disconnect":
                        pass
                    tg.cancel_scope.cancel()

                tg.start_soon(watch_disconnect)
                await send({"type": "http.response.start", "status": 200, "headers": _SSE_HEADERS})
                while not session.ended:
                    message = await session.next_message(self.options.keepalive_s)
                    body = _sse(message) if message is not None else b": keepalive\r\n\r\n"
                    await send({"type": "http.response.body", "body": body, "more_body": True})
                await send({"type": "http.response.body", "body": b"", "more_body": False})
                tg.cancel_scope.cancel()
        finally:
            session.stream_open = False
            if not session.ended:
                self.sessions.touch(session)

    async def _respond(self, router: EraRouter, dctx: _HttpDispatchContext, message: JSONRPCRequest, modern: bool,
                       scope: Scope, receive: Receive, send: Send, headers: Mapping[str, str]) -> None:
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

        token = _CURRENT.set(exchange)
        try:
            async with exchange.recv, anyio.create_task_group() as tg:
                tg.start_soon(run_handler)
                tg.start_soon(watch_disconnect, tg.cancel_scope)
                await self._stream(exchange, modern, scope, receive, send, headers)
                tg.cancel_scope.cancel()
        finally:
            _CURRENT.reset(token)

    async def _stream(self, exchange: _Exchange, modern: bool, scope: Scope, receive: Receive, send: Send,
                      headers: Mapping[str, str]) -> None:
        """JSON when the answer comes first; otherwise commit to SSE and stream until the answer."""
        wait = self.options.keepalive_s if exchange.streams_notes else None
        item = await _next(exchange.recv, wait)
        if isinstance(item, dict):
            status = rules.error_status(item["error"]["code"], modern) if "error" in item else 200
            await _json(status, item, headers)(scope, receive, send)
            return
        if item is _CLOSED:
            return
        extra = [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in headers.items()]
        await send({"type": "http.response.start", "status": 200, "headers": _SSE_HEADERS + extra})
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
        "supportedProtocolVersions": list(ALL_VERSIONS),
        # Handshake-era clients get a session from initialize; 2026-07-28 requests are stateless.
        "transport": {"type": "streamable-http", "endpoint": "/mcp", "sessions": True},
        "capabilities": capabilities,
        "authentication": {"required": options.token is not None, "schemes": ["bearer"] if options.token else []},
    }


def principal_owner(token: str | None) -> str:
    """Who owns the jobs of requests outside any session: the principal of the bridge's token."""
    if token is None:
        return "principal:anonymous"
    return "principal:" + hashlib.sha256(token.encode()).hexdigest()[:24]


def build_http_app(app: BridgeApp, options: HttpOptions) -> Starlette:
    """The ASGI app: ``/mcp``, the server card, and a lifespan that owns the editor link."""
    bus = InMemorySubscriptionBus()
    feed = ErrorFeed(app.errors, bus)
    server = build_server(app, bus, feed)
    init_options = initialization_options(server)
    # Requests outside a session are one client: the principal the bearer token authenticates.
    owner = principal_owner(options.token)
    stateless = Peer(app.tool_list(owner=owner), standing=False, fixed=app.tool_list(owner, fixed=True))
    mcp = McpHttp(server, init_options, options, app, feed, stateless)
    send_announce, recv_announce = anyio.create_memory_object_stream[None](16)

    def announce() -> None:
        # Sync (surface changes): 2026-07-28 listen streams hear every change of the list their
        # requests see (the configuration, extensions, the version: never a request's side effect).
        try:
            send_announce.send_nowait(None)
        except anyio.WouldBlock:
            pass  # announcements are already queued and unsent; one more says nothing new

    # A handshake request outside a session hears a change it caused on its own stream.
    stateless.tools.on_change = lambda: _heard_by_its_request(stateless)
    assert stateless.fixed is not None
    stateless.fixed.on_change = announce

    async def announcer() -> None:
        async with recv_announce:
            async for _ in recv_announce:
                await bus.publish(ToolsListChanged())

    async def sweeper() -> None:
        # Lookups expire sessions too; this frees the ones nobody asks about.
        while True:
            await anyio.sleep(max(1.0, min(60.0, options.session_idle_s / 4)))
            mcp.sessions.sweep()

    @asynccontextmanager
    async def lifespan(_: Starlette) -> AsyncIterator[None]:
        async with anyio.create_task_group() as tg:
            tg.start_soon(announcer)
            tg.start_soon(feed.run)
            tg.start_soon(sweeper)
            await app.start()
            try:
                yield
            finally:
                mcp.sessions.close()  # standing streams end, so the server can stop
                tg.cancel_scope.cancel()
                with anyio.CancelScope(shield=True):
                    await app.aclose()

    routes = [
        Route("/mcp", mcp, methods=None),
        Route("/.well-known/mcp.json", mcp.card, methods=["GET"]),
        Route("/.well-known/mcp/server-card.json", mcp.card, methods=["GET"]),
    ]
    starlette = Starlette(routes=routes, lifespan=lifespan)
    # Standing streams never finish on their own: the server ends the sessions as it starts to stop.
    starlette.state.stopping = mcp.sessions.close
    return starlette


async def run_http(app: BridgeApp, options: HttpOptions, sockets: list[Any] | None = None) -> None:
    """Serve until interrupted (SIGINT/SIGTERM stop uvicorn gracefully)."""
    import uvicorn

    asgi = build_http_app(app, options)

    class Server(uvicorn.Server):
        async def shutdown(self, sockets: list[Any] | None = None) -> None:
            asgi.state.stopping()  # before uvicorn waits for open responses to finish
            await super().shutdown(sockets)

    config = uvicorn.Config(asgi, host=options.host, port=options.port,
                            log_config=None, access_log=False, lifespan="on", timeout_graceful_shutdown=3)
    await Server(config).serve(sockets=sockets)
