"""Decoding one stdio line into a JSON value, with no SDK import (both serving paths use it).

The hostile-input rules live here once (``load`` is HTTP's too): what is not JSON is -32700, a
batch is -32600, nesting deeper than ``MAX_DEPTH`` is refused before anything recursive sees it
(see stdio/sdk_lines.py), and a member of the wrong JSON type is refused by ``message_check.check`` (shared
with HTTP). Every request with a usable id is answered with that id, however deep it nests.
"""

from __future__ import annotations

import json
from typing import Any

from godot_bridge.mcp.core.deep_json import outline
from godot_bridge.mcp.core.message_check import Dropped, Refused, check, is_id, malformed_answer
from godot_bridge.mcp.core.protocol import INVALID_PARAMS, INVALID_REQUEST, PARSE_ERROR

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


def request_id(obj: Any) -> str | int | None:
    rid = obj.get("id") if isinstance(obj, dict) else None
    return rid if is_id(rid) else None


def _too_deep(rid: Any, method: Any, has_id: bool) -> Exception:
    """The answer to a message nested deeper than ``MAX_DEPTH``: a request's is -32602 with its id, a
    notification gets none (``Dropped``), anything else -32600 (with its id when it has a usable one)."""
    if isinstance(method, str) and not has_id:
        return Dropped(f"notification {method!r}: nested deeper than {MAX_DEPTH} levels")
    rid = rid if is_id(rid) else None
    if rid is not None and isinstance(method, str):
        return Refused(rid, INVALID_PARAMS, f"Invalid params: nested deeper than {MAX_DEPTH} levels")
    if method is None and has_id:  # a response: whatever waits for it learns it could not be read
        return malformed_answer(rid, f"nested deeper than {MAX_DEPTH} levels")
    return Refused(rid, INVALID_REQUEST, f"Invalid Request: nested deeper than {MAX_DEPTH} levels")


def load(text: bytes, what: str = "line") -> Any:
    """The JSON value of ``text`` (``what``: "line" or "body", for the message); raises ``Refused``
    with the answer to give, or ``Dropped`` for a notification answered with nothing.

    Not JSON is -32700 with ``id: null``. Nesting deeper than ``MAX_DEPTH`` is refused before
    anything recursive sees it, with the message's own id: also beyond the depth Python's parser
    reaches, where the id is read by ``deep_json.outline`` (a request always gets its answer)."""
    try:
        obj = json.loads(text, parse_constant=_not_json)
    except (ValueError, UnicodeDecodeError):
        # ValueError also covers what Python's parser refuses beyond JSON's grammar: an integer
        # longer than sys.get_int_max_str_digits(), and NaN/Infinity (not JSON at all).
        raise Refused(None, PARSE_ERROR, f"Parse error: the {what} is not valid JSON") from None
    except RecursionError:
        shape = outline(text)
        if shape is None:
            raise Refused(None, PARSE_ERROR, f"Parse error: the {what} is not valid JSON") from None
        if not shape.is_object:
            raise _batch() from None
        members = shape.members
        raise _too_deep(members.get("id"), members.get("method"), "id" in members) from None
    # Nesting needs an opening bracket per level: a line with few of them cannot be too deep,
    # and counting bytes is far cheaper than walking the value (this is every call's path).
    if isinstance(obj, dict) and text.count(b"[") + text.count(b"{") > MAX_DEPTH and too_deep(obj):
        raise _too_deep(obj.get("id"), obj.get("method"), "id" in obj)
    return obj


def _batch() -> Refused:
    return Refused(None, INVALID_REQUEST, "Invalid Request: JSON-RPC batches are not supported")


def decode_line(text: bytes) -> Any:
    """The message of a non-blank, stripped line; raises ``Refused`` with the answer to give, or
    ``Dropped`` for a malformed notification (answered with nothing)."""
    obj = load(text)
    if isinstance(obj, list):
        raise _batch()
    check(obj)
    return obj
