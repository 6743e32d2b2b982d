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
    INVALID_PARAMS,
    INVALID_REQUEST,
    PARSE_ERROR,
    ErrorData,
    JSONRPCError,
    JSONRPCMessage,
    JSONRPCRequest,
    JSONRPCResponse,
    jsonrpc_message_adapter,
)
from mcp.shared.message import SessionMessage
from pydantic import ValidationError

log = logging.getLogger(__name__)

# Deepest JSON nesting we accept in one message. Real tool arguments stay far below it
# (a tagged value inside an array inside an object is 4); Python's recursion gives out near 1000.
MAX_DEPTH = 100


def too_deep(value: Any, limit: int = MAX_DEPTH) -> bool:
    """True when ``value`` nests containers deeper than ``limit`` (iterative: deep input cannot recurse us)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return False


def _not_json(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON value")


def _request_id(obj: Any) -> str | int | None:
    rid = obj.get("id") if isinstance(obj, dict) else None
    if isinstance(rid, bool) or not isinstance(rid, str | int):
        return None
    return rid


def error(rid: Any, code: int, message: str) -> JSONRPCError:
    return JSONRPCError(jsonrpc="2.0", id=rid, error=ErrorData(code=code, message=message))


def classify_line(line: bytes) -> SessionMessage | JSONRPCError | None:
    """Decode one stdin line into a message, or the error to answer it with (None: blank line)."""
    text = line.strip()
    if not text:
        return None
    try:
        obj = json.loads(text, parse_constant=_not_json)
    except (ValueError, UnicodeDecodeError):
        # ValueError also covers what Python's parser refuses beyond JSON's grammar: an integer
        # longer than sys.get_int_max_str_digits(), and NaN/Infinity (not JSON at all).
        return error(None, PARSE_ERROR, "Parse error: the line is not valid JSON")
    except RecursionError:
        return error(None, PARSE_ERROR, f"Parse error: the line nests deeper than {MAX_DEPTH} levels")
    if isinstance(obj, list):
        return error(None, INVALID_REQUEST, "Invalid Request: JSON-RPC batches are not supported")
    # Nesting needs an opening bracket per level: a line with few of them cannot be too deep,
    # and counting bytes is far cheaper than walking the value (this is every call's path).
    if text.count(b"[") + text.count(b"{") > MAX_DEPTH and too_deep(obj):
        rid = _request_id(obj)
        if rid is not None and isinstance(obj.get("method"), str):
            return error(rid, INVALID_PARAMS, f"Invalid params: nested deeper than {MAX_DEPTH} levels")
        return error(rid, INVALID_REQUEST, f"Invalid Request: nested deeper than {MAX_DEPTH} levels")
    try:
        return SessionMessage(jsonrpc_message_adapter.validate_python(obj, by_name=False))
    except ValidationError:
        return error(_request_id(obj), INVALID_REQUEST, "Invalid Request: not a JSON-RPC 2.0 message")


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
