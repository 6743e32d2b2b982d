"""One stdio line in, one stdio line out: the JSON-RPC codec, hardened against hostile input.

Nothing a client sends may end the process. Three inputs used to:

* nesting deep enough to exhaust Python's recursion (``[[[[…]]]]``, in the line or in
  ``params``) - we refuse any message nested deeper than ``MAX_DEPTH`` before anything
  recursive (validation, the SDK, ``json.dumps`` towards the editor) sees it;
* lone surrogates (``"\\ud800"``) echoed back in an id, a method or a tool name - UTF-8 cannot
  encode them, so the answer is written with JSON ``\\uXXXX`` escapes instead, which is how the
  client sent them;
* anything else that cannot be serialized - logged, and answered with -32603 when it was
  an answer to a request, never raised.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from mcp_types import (
    INTERNAL_ERROR,
    INVALID_REQUEST,
    ErrorData,
    JSONRPCError,
    JSONRPCMessage,
    JSONRPCRequest,
    JSONRPCResponse,
    jsonrpc_message_adapter,
)
from mcp.shared.message import SessionMessage
from pydantic import ValidationError

from godot_bridge.mcp.core.message_check import Dropped, Refused
from godot_bridge.mcp.core.json_input import MAX_DEPTH, decode_line, request_id, too_deep

log = logging.getLogger(__name__)

def error(rid: Any, code: int, message: str) -> JSONRPCError:
    return JSONRPCError(jsonrpc="2.0", id=rid, error=ErrorData(code=code, message=message))


Read = tuple[JSONRPCError | None, SessionMessage | None]


def classify_line(line: bytes) -> Read:
    """One stdin line as (the error to answer it with, the message to serve or deliver); either may be
    absent (both for a blank line). A malformed answer to one of our requests has both: the refusal,
    and the error response that stands for it, for the question it answers (message_check.Refused)."""
    text = line.strip()
    if not text:
        return None, None
    try:
        obj = decode_line(text)
    except Refused as exc:
        stand_in = None if exc.in_place is None else \
            SessionMessage(jsonrpc_message_adapter.validate_python(exc.in_place, by_name=False))
        return error(exc.rid, exc.code, exc.message), stand_in
    except Dropped as exc:
        log.info("dropped a malformed notification: %s", exc)
        return None, None
    try:
        return None, SessionMessage(jsonrpc_message_adapter.validate_python(obj, by_name=False))
    except ValidationError:  # message_check.check passed it: a rule of the SDK's we do not know of
        return error(request_id(obj), INVALID_REQUEST, "Invalid Request: not a JSON-RPC 2.0 message"), None


def encode_message(message: JSONRPCMessage) -> bytes | None:
    """The wire line for ``message``; a stand-in error line, or None, when it cannot be written."""
    try:
        return message.model_dump_json(by_alias=True, exclude_unset=True).encode("utf-8") + b"\n"
    except Exception:  # noqa: BLE001 - pydantic wraps the UnicodeEncodeError of a lone surrogate
        pass
    try:
        # Escaped output (ensure_ascii) writes a lone surrogate as \udXXX, exactly as the client sent it.
        data = message.model_dump(mode="python", by_alias=True, exclude_unset=True)
        return json.dumps(data, ensure_ascii=True, separators=(",", ":"), allow_nan=False).encode("ascii") + b"\n"
    except Exception as exc:  # noqa: BLE001 - an output error must never end the server
        log.error("cannot serialize an outgoing %s: %s", type(message).__name__, exc)
    if isinstance(message, JSONRPCResponse | JSONRPCError) and message.id is not None:
        # The request still gets its one answer.
        fallback = error(message.id, INTERNAL_ERROR, "Internal error: the answer could not be serialized")
        try:
            data = fallback.model_dump(mode="python", by_alias=True, exclude_unset=True)
            return json.dumps(data, ensure_ascii=True, separators=(",", ":")).encode("ascii") + b"\n"
        except Exception:  # noqa: BLE001
            return None
    return None


def is_request(item: SessionMessage) -> bool:
    return isinstance(item.message, JSONRPCRequest)
