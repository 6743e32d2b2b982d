"""MCP over stdio: newline-delimited JSON-RPC, both eras on one pipe.

We own the line codec (instead of the SDK's ``stdio_server``) because the SDK
drops unparsable lines and batches silently, while the seeds require -32700 and
-32600 answers with ``id: null``. stdout is reserved for protocol messages: fd 1
is pointed at stderr while we serve, so a stray print cannot corrupt the wire.
"""

from __future__ import annotations

import json
import logging
import os
import sys
from collections.abc import Awaitable, Callable
from typing import Any, BinaryIO

import anyio
from mcp.shared.jsonrpc_dispatcher import JSONRPCDispatcher
from mcp.shared.message import SessionMessage
from mcp_types import INVALID_REQUEST, PARSE_ERROR, ErrorData, JSONRPCError, jsonrpc_message_adapter
from pydantic import ValidationError

log = logging.getLogger(__name__)


def claim_stdout() -> BinaryIO:
    """A private handle on the real stdout; fd 1 itself now writes to stderr."""
    sys.stdout.flush()
    wire = os.dup(1)
    os.dup2(2, 1)
    return os.fdopen(wire, "wb", buffering=0)


def classify_line(line: bytes) -> SessionMessage | JSONRPCError | None:
    """Decode one stdin line into a message, or the error to answer it with (None: blank line)."""
    text = line.strip()
    if not text:
        return None
    try:
        obj = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError):
        return _error(None, PARSE_ERROR, "Parse error: the line is not valid JSON")
    if isinstance(obj, list):
        return _error(None, INVALID_REQUEST, "Invalid Request: JSON-RPC batches are not supported")
    try:
        return SessionMessage(jsonrpc_message_adapter.validate_python(obj, by_name=False))
    except ValidationError:
        rid = obj.get("id") if isinstance(obj, dict) else None
        if isinstance(rid, bool) or not isinstance(rid, str | int):
            rid = None
        return _error(rid, INVALID_REQUEST, "Invalid Request: not a JSON-RPC 2.0 message")


def _error(rid: Any, code: int, message: str) -> JSONRPCError:
    return JSONRPCError(jsonrpc="2.0", id=rid, error=ErrorData(code=code, message=message))


async def serve_stdio(
    make_handlers: Callable[[JSONRPCDispatcher[Any]], tuple[Any, Any]],
    *,
    stdin: BinaryIO | None = None,
    stdout: BinaryIO | None = None,
    on_ready: Callable[[JSONRPCDispatcher[Any]], Awaitable[None]] | None = None,
) -> None:
    """Serve until stdin closes. ``make_handlers(dispatcher)`` returns ``(on_request, on_notify)``."""
    stdin = stdin or sys.stdin.buffer
    wire = stdout or claim_stdout()
    in_send, in_recv = anyio.create_memory_object_stream[SessionMessage | Exception](64)
    out_send, out_recv = anyio.create_memory_object_stream[SessionMessage](64)
    dispatcher: JSONRPCDispatcher[Any] = JSONRPCDispatcher(in_recv, out_send)
    on_request, on_notify = make_handlers(dispatcher)
    reader = anyio.wrap_file(stdin)

    async def read_lines() -> None:
        async with in_send:
            async for line in reader:
                item = classify_line(line)
                if isinstance(item, JSONRPCError):
                    await out_send.send(SessionMessage(item))
                elif item is not None:
                    await in_send.send(item)

    drained = anyio.Event()

    async def write_lines() -> None:
        try:
            async with out_recv:
                async for msg in out_recv:
                    data = msg.message.model_dump_json(by_alias=True, exclude_unset=True).encode("utf-8") + b"\n"
                    # A thread, because a slow client must not stall the event loop on a full pipe.
                    await anyio.to_thread.run_sync(wire.write, data)
        finally:
            drained.set()

    async with anyio.create_task_group() as tg:
        tg.start_soon(write_lines)
        tg.start_soon(read_lines)
        if on_ready is not None:
            tg.start_soon(on_ready, dispatcher)
        await dispatcher.run(on_request, on_notify)
        # run() closed the write side: let every queued answer reach the client first.
        with anyio.move_on_after(5):
            await drained.wait()
        tg.cancel_scope.cancel()
