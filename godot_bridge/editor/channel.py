"""One authenticated WebSocket conversation with a toolkit server (contract C1, C2, C5).

A ``WsChannel`` is a single connection: open it (socket, then the first-frame
auth handshake), send requests over it, and it reports when it closes. It never
reconnects by itself; ``EditorLink`` and ``RuntimeLink`` own that policy.

Frames are one JSON object each. Replies and ``_queued``/``_executing`` go to the
``RpcCorrelator``; everything unsolicited (``{"notification": ...}`` broadcasts)
goes to ``on_push``.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import orjson

from godot_bridge.editor.rpc import Kind, OnProgress, PendingCall, RpcCorrelator
from godot_bridge.errors import PeerError, ToolError

if TYPE_CHECKING:
    from websockets.asyncio.client import ClientConnection


class _NotYetRaised(PeerError):
    """Stands in for websockets' ConnectionClosed until the first dial imports websockets."""


# websockets is imported by the first dial, not at start-up (it is off the first
# answer). Nothing can raise ConnectionClosed before a connection exists, so until then the
# name may stand for a class nothing raises.
ConnectionClosed: type[Exception] = _NotYetRaised


def _load_websockets() -> None:
    global ConnectionClosed
    from websockets.exceptions import ConnectionClosed as closed

    ConnectionClosed = closed

log = logging.getLogger(__name__)

HOST = "127.0.0.1"
POLICY_VIOLATION = 1008
# Screenshots travel inline as base64; the toolkit's own buffer (ws_buffer_kb) is the real
# ceiling, this one only stops a runaway peer from exhausting memory.
MAX_FRAME = 256 * 1024 * 1024
# The toolkit sizes each peer's inbound buffer from mcp_toolkit/limits/ws_buffer_kb (1024 KiB unless
# meta.set_limits changed it); Godot drops a larger frame without a trace, so we refuse it first.
DEFAULT_INBOUND_LIMIT = 1024 * 1024

TokenProvider = Callable[[], tuple[str, str]]  # -> (token, where it came from, for messages)


class NotDelivered(ToolError):
    """The request could not be written: the editor never saw it, so it is safe to retry."""


def encode(frame: dict[str, Any]) -> str:
    try:
        return json.dumps(frame, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise ToolError("INVALID_PARAMS", f"the arguments cannot be sent as JSON: {exc}") from exc


def encode_request(frame: dict[str, Any], label: str, limit: int) -> bytes:
    """A request frame as UTF-8, refused (never sent) when it cannot be encoded or exceeds ``limit`` bytes."""
    text = encode(frame)
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError as exc:
        # A lone surrogate: sending it would break the frame, and with it every call in flight.
        raise ToolError(
            "INVALID_PARAMS",
            f"the arguments contain text that is not valid Unicode (a lone surrogate at character {exc.start})",
        ) from None
    if len(data) > limit:
        raise ToolError(
            "REQUEST_TOO_LARGE",
            f"'{frame.get('method')}' is {len(data)} bytes, above the {label}'s inbound buffer of {limit} bytes "
            f"({limit // 1024} KiB); Godot would drop it without a reply, so it was not sent",
            hint="Send less per call (split a batch, write a long file in parts), or raise the buffer: set "
            "GODOT_MCP_WS_BUFFER_LIMIT=<KiB> (64-65536) in the bridge's environment and restart the bridge.",
            extra={"size_bytes": len(data), "limit_bytes": limit},
        )
    return data


def describe_close(code: int | None, reason: str | None) -> str:
    if code is None:
        return "connection lost"
    if code == 1006:
        return "connection lost (code 1006)"
    return f"code {code}" + (f" '{reason}'" if reason else "")


class WsChannel:
    def __init__(
        self,
        *,
        label: str,
        port: int,
        default_timeout: float,
        on_push: Callable[[dict[str, Any]], None] | None = None,
        on_round_trip: Callable[[], None] | None = None,
        drop_error: Callable[[PendingCall, str], ToolError] | None = None,
    ) -> None:
        self.label = label  # "editor" or "runtime", for messages and logs
        self.port = port
        self.url = f"ws://{HOST}:{port}"
        self.ack: dict[str, Any] = {}
        # Largest frame the peer accepts; the owner updates it when it learns the real buffer size.
        self.inbound_limit = DEFAULT_INBOUND_LIMIT
        self.closed = asyncio.Event()
        self.close_description = ""
        self._rpc = RpcCorrelator(default_timeout=default_timeout)
        self._on_push = on_push
        self._on_round_trip = on_round_trip
        self._drop_error = drop_error or self._default_drop_error
        self._ws: ClientConnection | None = None
        self._reader: asyncio.Task[None] | None = None
        self._background: set[asyncio.Task[Any]] = set()

    @property
    def is_open(self) -> bool:
        return self._ws is not None and not self.closed.is_set()

    # -- opening -------------------------------------------------------------

    async def open(self, token: TokenProvider, client_version: str, *, connect_timeout: float, auth_timeout: float) -> dict[str, Any]:
        """Connect and authenticate; returns the ack. Raises CONNECT_FAILED or AUTH_FAILED."""
        _load_websockets()
        from websockets.asyncio.client import connect
        from websockets.exceptions import InvalidHandshake, InvalidURI

        try:
            ws = await connect(
                self.url,
                open_timeout=connect_timeout,
                proxy=None,  # localhost only: an HTTP(S)_PROXY in the environment must not apply
                compression=None,
                ping_interval=None,  # a busy editor cannot answer pings; a stall is not a drop
                close_timeout=1,
                max_size=MAX_FRAME,
            )
        except (OSError, TimeoutError, InvalidHandshake, InvalidURI) as exc:
            raise ToolError("CONNECT_FAILED", f"nothing accepted a WebSocket on {self.url} ({_oserror_text(exc)})") from exc
        try:
            value, where = token()
            self.ack = await self._authenticate(ws, value, where, client_version, auth_timeout)
        except BaseException:
            await _abort(ws)
            raise
        self._ws = ws
        self._reader = asyncio.create_task(self._read(ws), name=f"godot-bridge {self.label} reader")
        return self.ack

    async def _authenticate(self, ws: ClientConnection, token: str, where: str, version: str, limit: float) -> dict[str, Any]:
        try:
            await ws.send(encode({"auth": token, "version": version}))
            async with asyncio.timeout(limit):
                while True:
                    raw = await ws.recv()
                    reply = _decode(raw)
                    if isinstance(reply, dict) and "notification" in reply:
                        continue  # a broadcast raced the ack; the ack is still to come
                    break
        except TimeoutError:
            raise ToolError(
                "CONNECT_FAILED",
                f"{self.url} accepted the connection but sent no auth ack within {limit:g} s "
                f"(is it the godot_mcp_toolkit {self.label}? is the editor frozen?)",
            ) from None
        except ConnectionClosed as exc:
            code = exc.rcvd.code if exc.rcvd else None
            reason = exc.rcvd.reason if exc.rcvd else ""
            if code == POLICY_VIOLATION and "timeout" in reason:
                raise ToolError(
                    "AUTH_FAILED",
                    f"the {self.label} on port {self.port} closed the handshake with 'auth timeout' "
                    "before our token arrived",
                    hint="The editor was too slow to read the handshake or the bridge stalled; retry.",
                ) from None
            if code == POLICY_VIOLATION:
                raise ToolError(
                    "AUTH_FAILED",
                    f"the {self.label} on port {self.port} rejected the token from {where} "
                    f"(close 1008 '{reason or 'invalid token'}')",
                    hint="The token file is stale or belongs to another editor. Restart the editor (or re-enable "
                    "the plugin) so it writes a fresh token; if GODOT_MCP_TOKEN_PATH is set, check it points "
                    "at this editor's token.",
                ) from None
            raise ToolError(
                "CONNECT_FAILED",
                f"the {self.label} on port {self.port} closed the connection during the auth handshake "
                f"({describe_close(code, reason)})",
            ) from None
        if not isinstance(reply, dict) or reply.get("authed") is not True:
            raise ToolError(
                "CONNECT_FAILED",
                f"{self.url} answered the auth handshake with {str(reply)[:200]!r} instead of an ack "
                "(is it the godot_mcp_toolkit?)",
            )
        return reply

    # -- traffic -------------------------------------------------------------

    async def _read(self, ws: ClientConnection) -> None:
        try:
            async for raw in ws:
                message = _decode(raw)
                kind = self._rpc.handle(message)
                if kind is Kind.PUSH and self._on_push is not None:
                    try:
                        self._on_push(message)
                    except Exception:  # a bad push handler must not kill the connection
                        log.exception("%s push handler failed", self.label)
                elif kind is Kind.INVALID:
                    log.debug("%s sent an unrecognised frame: %.200s", self.label, raw)
        except ConnectionClosed:
            pass
        except Exception:  # pragma: no cover - defensive: keep the close bookkeeping below
            log.exception("%s reader failed", self.label)
        finally:
            self.close_description = describe_close(ws.close_code, ws.close_reason)
            self._rpc.fail_all(lambda call: self._drop_error(call, self.close_description))
            self.closed.set()

    async def request(
        self,
        method: str,
        params: dict[str, Any] | None = None,
        timeout: float | None = None,
        *,
        on_progress: OnProgress | None = None,
    ) -> Any:
        """Send one request and await its result. Cancelling the awaiting task sends ``_cancel``.

        ``on_progress`` hears the toolkit's ``_queued`` / ``_executing`` for this request."""
        ws = self._ws
        if ws is None or self.closed.is_set():
            raise NotDelivered("DISCONNECTED", f"the {self.label} connection is closed")
        call, frame = self._rpc.request(method, params, timeout, on_progress)
        try:
            # Bytes sent as a text frame: encoded once, measured exactly, and checked before sending.
            await ws.send(encode_request(frame, self.label, self.inbound_limit), text=True)
        except ConnectionClosed:
            self._rpc.discard(call)
            raise NotDelivered("DISCONNECTED", f"the {self.label} connection closed before '{method}' was sent") from None
        except BaseException:
            self._rpc.discard(call)
            raise
        try:
            result = await self._rpc.wait(call)
        except asyncio.CancelledError:
            self._send_cancel(call)
            raise
        except ToolError as err:
            if err.code == "TIMEOUT" and not self.closed.is_set():
                # We stopped waiting; tell the editor so a queued command does not run unseen later.
                self._send_cancel(call)
            raise
        if self._on_round_trip is not None:
            self._on_round_trip()
        return result

    def _send_cancel(self, call: PendingCall) -> None:
        ws = self._ws
        if ws is None or self.closed.is_set():
            return
        # Fire-and-forget: the caller is being cancelled and must not wait on the socket.
        task = asyncio.create_task(_quiet_send(ws, encode(RpcCorrelator.cancel_frame(call))))
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def _default_drop_error(self, call: PendingCall, reason: str) -> ToolError:
        return ToolError(
            "DISCONNECTED",
            f"the {self.label} connection closed ({reason}) while '{call.method}' was in flight",
        )

    async def aclose(self, *, graceful: bool = True) -> None:
        """Close the connection; ``graceful=False`` drops it at once (a hung peer cannot answer a close)."""
        ws = self._ws
        if ws is not None:
            await _abort(ws, graceful=graceful)
        if self._reader is not None:
            try:
                await self._reader
            except asyncio.CancelledError:
                pass
        for task in list(self._background):
            task.cancel()
        self.closed.set()


def _decode(raw: str | bytes) -> Any:
    # orjson parses a large frame (a scene tree) in about half json's time; what it
    # refuses (NaN, a lone surrogate, an integer beyond 64 bits) json may still read, as before;
    # strict=False takes the raw control characters an older toolkit's JSON.stringify leaves in
    # strings (dropping that frame would leave its call without an answer).
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError:
        pass
    try:
        return json.loads(raw, strict=False)
    except (ValueError, UnicodeDecodeError, RecursionError):  # a frame nested too deep is just unreadable
        return None


async def _quiet_send(ws: ClientConnection, text: str) -> None:
    try:
        await ws.send(text)
    except (ConnectionClosed, OSError):
        pass


async def _abort(ws: ClientConnection, graceful: bool = False) -> None:
    try:
        if graceful:
            await ws.close()
        else:
            ws.transport.abort()
    except Exception:  # closing a socket that is already gone is not an error worth reporting
        pass


def _oserror_text(exc: BaseException) -> str:
    if isinstance(exc, ConnectionRefusedError):
        return "connection refused"
    if isinstance(exc, TimeoutError):
        return "timed out"
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror.lower()
    return str(exc) or type(exc).__name__
