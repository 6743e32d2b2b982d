"""MCP over stdio: newline-delimited JSON-RPC, both eras on one pipe.

We own the line codec (``sdk_lines.py``, instead of the SDK's ``stdio_server``) because the
SDK drops unparsable lines and batches silently, while the seeds require -32700 and
-32600 answers with ``id: null``; line I/O is ``pipes.py``. stdout is reserved for
protocol messages: fd 1 is pointed at stderr while we serve, so a stray print cannot
corrupt the wire.

End of input: requests still running get ``EOF_GRACE_S`` to be answered (a piped batch
expects its answers); then the dispatcher answers what is left with "Connection closed".
An open ``subscriptions/listen`` stream is not waited for.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Awaitable, Callable
from typing import Any, BinaryIO

import anyio
from mcp.shared.jsonrpc_dispatcher import JSONRPCDispatcher
from mcp.shared.message import SessionMessage
from mcp_types import PARSE_ERROR, JSONRPCError, JSONRPCRequest, JSONRPCResponse

from godot_bridge.mcp.stdio.sdk_lines import classify_line, encode_message, error
from godot_bridge.mcp.stdio.pipes import LineReader, LineWriter, claim_stdout, open_reader, open_writer
from godot_bridge.mcp.stdio.pending_requests import EOF_GRACE_S, STREAMING_METHODS, Unanswered

log = logging.getLogger(__name__)


class _Lines:
    """stdin and the wire as one line-I/O object (reader and writer picked independently)."""

    def __init__(self, reader: LineReader, writer: LineWriter) -> None:
        self._reader, self._writer = reader, writer
        self.readline = reader.readline
        self.write = writer.write
        self.flush = writer.flush

    def close(self) -> None:
        self._reader.close()
        self._writer.close()


class WireOut:
    """The dispatcher's write stream: each message goes straight to the pipe (no writer task hop)."""

    def __init__(self, lines: LineWriter, unanswered: Unanswered) -> None:
        self._lines, self._unanswered = lines, unanswered

    async def send(self, msg: SessionMessage) -> None:
        message = msg.message
        data = encode_message(message)
        if data is None:
            return  # logged by the codec; nothing writable was left
        try:
            await self._lines.write(data)
        except (OSError, RuntimeError) as exc:  # client gone: the dispatcher treats this as a closed stream
            raise anyio.BrokenResourceError from exc
        if isinstance(message, JSONRPCResponse | JSONRPCError) and message.id is not None:
            self._unanswered.finished(message.id)

    async def aclose(self) -> None:
        return None

    async def __aenter__(self) -> WireOut:
        return self

    async def __aexit__(self, *exc: object) -> None:
        return None


class WireIn:
    """The dispatcher's read stream: one parsed message per line; bad lines are answered here."""

    def __init__(self, lines: LineReader, out: WireOut, unanswered: Unanswered, *, grace: bool = True) -> None:
        self._lines, self._out, self._unanswered = lines, out, unanswered
        # False when the lean front already gave requests their grace at end of input.
        self._grace = grace

    def __aiter__(self) -> WireIn:
        return self

    async def __anext__(self) -> SessionMessage:
        while line := await self._lines.readline():
            try:
                answer, item = classify_line(line)
            except Exception:  # noqa: BLE001 - no input may end the server; the codec should have caught it
                log.exception("unexpected failure decoding an input line")
                answer, item = error(None, PARSE_ERROR, "Parse error: the line could not be decoded"), None
            if answer is not None:
                await self._out.send(SessionMessage(answer))
            if item is not None:
                if isinstance(item.message, JSONRPCRequest) and item.message.method not in STREAMING_METHODS:
                    self._unanswered.started(item.message.id)
                return item
        # End of input: answer what is already running (a piped batch of requests expects
        # its answers) before the dispatcher cancels in-flight work.
        if not self._grace:
            raise StopAsyncIteration
        if self._unanswered.count:
            log.info("end of input with %d request(s) unanswered; waiting up to %g s", self._unanswered.count, EOF_GRACE_S)
        with anyio.move_on_after(EOF_GRACE_S):
            await self._unanswered.idle.wait()
        raise StopAsyncIteration

    async def receive(self) -> SessionMessage:
        try:
            return await self.__anext__()
        except StopAsyncIteration:
            raise anyio.EndOfStream from None

    async def aclose(self) -> None:
        return None

    async def __aenter__(self) -> WireIn:
        return self

    async def __aexit__(self, *exc: object) -> None:
        return None


def settle_cancelled(handle_request: Any, unanswered: Unanswered) -> Any:
    """``handle_request`` that counts a request the client cancelled as settled (it is never answered)."""

    async def on_request(dctx: Any, method: str, params: Any) -> dict[str, Any]:
        try:
            return await handle_request(dctx, method, params)
        finally:
            # The dispatcher checks the same flag before writing, however the handler ended.
            cancel_requested = getattr(dctx, "cancel_requested", None)
            if cancel_requested is not None and cancel_requested.is_set() and method not in STREAMING_METHODS:
                unanswered.finished(dctx.request_id)

    return on_request


class QueueLines:
    """Lines the lean front handed over, as the SDK path's line reader."""

    def __init__(self, receive: Any) -> None:
        self._receive = receive

    async def readline(self) -> bytes:
        try:
            return await self._receive.receive()  # type: ignore[no-any-return]
        except (anyio.EndOfStream, anyio.ClosedResourceError):
            return b""

    def close(self) -> None:
        self._receive.close()


async def serve_stdio(
    make_handlers: Callable[[JSONRPCDispatcher[Any]], tuple[Any, Any]],
    *,
    stdin: BinaryIO | None = None,
    stdout: BinaryIO | None = None,
    on_ready: Callable[[JSONRPCDispatcher[Any]], Awaitable[None]] | None = None,
) -> None:
    """Serve until stdin closes. ``make_handlers(dispatcher)`` returns ``(on_request, on_notify)``.

    The dispatcher reads from and writes to the pipe directly: no reader or writer task sits
    between them, which saves two event-loop hops on every call (measured in bench/).
    """
    wire = stdout or claim_stdout()
    # The writer first: nothing may read input before we know where answers go.
    writer = await open_writer(wire)
    lines = _Lines(await open_reader(stdin or sys.stdin.buffer), writer)
    unanswered = Unanswered()
    out = WireOut(lines, unanswered)
    dispatcher: JSONRPCDispatcher[Any] = JSONRPCDispatcher(WireIn(lines, out, unanswered), out)  # type: ignore[arg-type]
    handle_request, on_notify = make_handlers(dispatcher)

    on_request = settle_cancelled(handle_request, unanswered)

    async with anyio.create_task_group() as tg:
        if on_ready is not None:
            tg.start_soon(on_ready, dispatcher)
        await dispatcher.run(on_request, on_notify)
        with anyio.move_on_after(5):  # answers written but still buffered must reach the client
            await lines.flush()
        tg.cancel_scope.cancel()
    lines.close()
