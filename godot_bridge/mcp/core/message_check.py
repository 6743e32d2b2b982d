"""The JSON-RPC envelope of one incoming message, checked once for every transport and path.

Both stdio paths (through ``json_input.decode_line``) and ``--http`` (``http/server.py``) run ``check`` on
the decoded value before anything looks inside it, so no code behind it meets a member of the
wrong JSON type: an object where the ``method`` string belongs once reached a set lookup on
the lean path and ended the process. No SDK import (the lean path uses it at start-up).

What each member may be, and the answer when it is not:

* not an object, ``jsonrpc`` other than ``"2.0"``, ``method`` / ``params`` / ``result`` /
  ``error`` of the wrong type, or neither a method nor a result or error: -32600 with the id;
* an ``id`` that is neither a string nor an integer (``null`` only on an error response):
  -32600 with ``id: null``, since there is no id to echo;
* ``params._meta`` or one of its keys of the wrong type: -32602 with the id (the params are
  wrong, not the envelope; the 2026-07-28 era's envelope keys are checked here too, so the
  answer does not depend on which era or transport received them);
* a notification (a string ``method`` and no ``id``) is answered with nothing whatever is
  wrong inside it: ``Dropped``, which the caller logs;
* a response (ours are questions for the person) with a malformed ``result`` or ``error`` is
  answered -32600 with its id, and its ``Refused.in_place`` settles the question it answers.

``params: null`` and ``_meta: null`` are read as absent, as the SDK reads them.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from godot_bridge.errors import ProtocolError
from godot_bridge.mcp.core.protocol import (
    CLIENT_CAPABILITIES_META_KEY,
    CLIENT_INFO_META_KEY,
    INVALID_PARAMS,
    INVALID_REQUEST,
    PROTOCOL_VERSION_META_KEY,
)

# Checked in this order: a boolean is an int to Python.
_KINDS: tuple[tuple[type, str], ...] = (
    (bool, "a boolean"), (int, "an integer"), (float, "a number"), (str, "a string"), (list, "an array"), (dict, "an object"),
)


class Refused(ProtocolError):
    """A message answered with a JSON-RPC error instead of being served.

    ``in_place``: for a malformed response to a request of ours (the client's answer to a question
    for the person), the error response that stands for it, for the transport to hand to whatever
    waits for that answer: the question ends at once with an answer that says it could not be read,
    instead of waiting for one that already came."""

    def __init__(self, rid: str | int | None, code: int, message: str,
                 in_place: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.rid, self.code, self.message, self.in_place = rid, code, message, in_place


# The ``data`` of an error response standing in for a malformed one (``Refused.in_place``).
UNREADABLE = "godot-bridge: the answer could not be read"


def malformed_answer(rid: str | int | None, problem: str) -> Refused:
    """The refusal of a response whose ``problem`` makes it unreadable, standing in for it when its id is usable."""
    in_place = None if rid is None else {
        "jsonrpc": "2.0", "id": rid,
        "error": {"code": INVALID_REQUEST, "message": f"the answer could not be read: {problem}", "data": UNREADABLE}}
    return Refused(rid, INVALID_REQUEST, f"Invalid Request: {problem}", in_place)


class Dropped(ProtocolError):
    """A malformed notification: answered with nothing; the reason is for our log."""


def json_kind(value: Any) -> str:
    """The JSON type of a decoded value, as an error message names it ("an array")."""
    return "null" if value is None else next((name for kind, name in _KINDS if isinstance(value, kind)), "a value")


def is_id(value: Any) -> bool:
    """A JSON-RPC id MCP accepts: a string or an integer (a boolean is not one)."""
    return isinstance(value, str) or _is_integer(value)


def _is_object(value: Any) -> bool:
    return isinstance(value, dict)


def _is_string(value: Any) -> bool:
    return isinstance(value, str)


def _is_integer(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# The `_meta` keys whose type the protocol fixes: what each must be, and how to tell.
_META_TYPES: Mapping[str, tuple[Callable[[Any], bool], str]] = {
    "progressToken": (is_id, "a string or an integer"),
    PROTOCOL_VERSION_META_KEY: (_is_string, "a string"),
    CLIENT_CAPABILITIES_META_KEY: (_is_object, "an object"),
    CLIENT_INFO_META_KEY: (_is_object, "an object"),
}


def _wrong(member: str, expected: str, value: Any) -> str:
    return f"{member} must be {expected}, not {json_kind(value)}"


def _meta_problem(params: Mapping[str, Any]) -> str | None:
    meta = params.get("_meta")
    if meta is None:
        return None
    if not isinstance(meta, dict):
        return _wrong("params._meta", "an object", meta)
    for key, (valid, expected) in _META_TYPES.items():
        if key in meta and not valid(meta[key]):
            return _wrong(f"params._meta[{key!r}]", expected, meta[key])
    return None


def _version_problem(obj: Mapping[str, Any]) -> str | None:
    version = obj.get("jsonrpc")
    if version == "2.0":
        return None
    said = json.dumps(version)[:20] if isinstance(version, str) else json_kind(version)
    return f'jsonrpc must be "2.0", not {said}'


def _request_problem(obj: Mapping[str, Any]) -> tuple[int, str] | None:
    if (version := _version_problem(obj)) is not None:
        return INVALID_REQUEST, version
    method = obj["method"]
    if not isinstance(method, str):
        return INVALID_REQUEST, _wrong("method", "a string", method)
    params = obj.get("params")
    if params is None:
        return None
    if not isinstance(params, dict):
        return INVALID_REQUEST, _wrong("params", "an object", params)
    problem = _meta_problem(params)
    return None if problem is None else (INVALID_PARAMS, problem)


def _response_problem(obj: Mapping[str, Any]) -> str | None:
    if (version := _version_problem(obj)) is not None:
        return version
    if "result" in obj:
        result = obj["result"]
        return None if isinstance(result, dict) else _wrong("result", "an object", result)
    if "error" in obj:
        error = obj["error"]
        if not isinstance(error, dict):
            return _wrong("error", "an object", error)
        if not _is_integer(error.get("code")):
            return _wrong("error.code", "an integer", error.get("code"))
        if not isinstance(error.get("message"), str):
            return _wrong("error.message", "a string", error.get("message"))
        return None
    return "a message needs a method (a request or a notification) or a result or an error (a response)"


def check(obj: Any) -> None:
    """Raise ``Refused`` with the answer for a malformed message, ``Dropped`` for a malformed
    notification; return for a message whose every member has its JSON type."""
    if not isinstance(obj, dict):
        raise Refused(None, INVALID_REQUEST, f"Invalid Request: a JSON-RPC message is an object, not {json_kind(obj)}")
    has_id = "id" in obj
    rid = obj.get("id")
    if has_id and not is_id(rid) and not (rid is None and "error" in obj and "method" not in obj):
        raise Refused(None, INVALID_REQUEST, _wrong("Invalid Request: id", "a string or an integer", rid))
    rid = rid if is_id(rid) else None
    if "method" in obj:
        verdict = _request_problem(obj)
        if verdict is None:
            return
        code, problem = verdict
        if not has_id and isinstance(obj["method"], str):
            raise Dropped(f"notification {obj['method']!r}: {problem}")
        prefix = "Invalid Request" if code == INVALID_REQUEST else "Invalid params"
        raise Refused(rid, code, f"{prefix}: {problem}")
    if not has_id:
        raise Refused(None, INVALID_REQUEST,
                      "Invalid Request: a message needs a method, or an id and a result or an error")
    response = _response_problem(obj)
    if response is not None:
        raise malformed_answer(rid, response)
