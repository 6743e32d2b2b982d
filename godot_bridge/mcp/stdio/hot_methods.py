"""The lean path: the hot MCP methods served without the SDK, byte for byte as the SDK serves them.

Why: ~80% of start-up was importing the SDK, and a quarter of each call its request path
(pydantic validation of request and result, the runner). The methods every session uses --
``initialize``, ``ping``, ``tools/list``, ``tools/call``, ``server/discover`` and the
``initialized`` / ``cancelled`` notifications -- are served here instead, in both eras; anything
else, and any request whose shape is not plainly valid, is *declined* and goes to the SDK
(``server.py`` loads it on demand). Declining is always safe: the SDK path is the definition
of the right answer, and ``tests/bridge/test_lean_equivalence.py`` compares the two
byte for byte over a corpus of requests.

What a result contains comes from ``core/protocol.py`` (shared with the SDK handlers); this module
only reproduces how the SDK's result sieve lays it out on the wire: the SDK dumps each result
through its per-version pydantic models, whose fields are in alphabetical order, drops ``None``
model fields, and appends the ``serverInfo`` stamp to 2026-07-28 results last.

Encoding needs orjson (the ``fast`` extra): its number and string formatting is the SDK's
(pydantic-core's); without orjson the bridge uses the SDK path for everything.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from godot_bridge.mcp.core.eras import (
    HANDSHAKE_VERSIONS,
    LATEST_HANDSHAKE,
    MODERN_ONLY_METHODS,
    MODERN_VERSION,
    REMOVED_IN_MODERN,
    is_modern,
)
from godot_bridge.mcp.core.protocol import (
    CLIENT_CAPABILITIES_META_KEY,
    CLIENT_INFO_META_KEY,
    PROTOCOL_VERSION_META_KEY,
    TASKS_EXTENSION,
    TASKS_HANDSHAKE_CAPABILITY,
    server_info,
    stamped,
)

if TYPE_CHECKING:
    from godot_bridge.mcp.core.calls import ToolCall

try:
    import orjson
except ImportError:  # pragma: no cover - the lean path is off without it
    orjson = None  # type: ignore[assignment]

log = logging.getLogger(__name__)

# Handshake versions whose result surface the lean layout matches (checked by the equivalence
# test). 2024-11-05 and 2025-03-26 lack structuredContent/title and are left to the SDK.
LEAN_HANDSHAKE_VERSIONS = frozenset({"2025-11-25", "2025-06-18"})
REQUEST_METHODS = frozenset({"initialize", "ping", "tools/list", "tools/call", "server/discover", "subscriptions/listen"})
NOTIFICATIONS = frozenset({"notifications/initialized", "notifications/cancelled"})

# The capabilities the SDK derives for our server (handlers registered, tools list changes
# announced); 2026-07-28 advertises list changes for what subscriptions/listen can carry.
_HANDSHAKE_CAPABILITIES = {
    "completions": {},  # resource template and prompt arguments (content/completions.py)
    "logging": {},  # pushed Godot errors as notifications/message (error_feed.py)
    "prompts": {"listChanged": False},
    "resources": {"listChanged": False, "subscribe": True},  # godot://errors
    "tasks": TASKS_HANDSHAKE_CAPABILITY,  # job-capable tools as MCP tasks (mcp/tasks.py)
    "tools": {"listChanged": True},
}
_MODERN_CAPABILITIES = {
    "completions": {},
    "extensions": {TASKS_EXTENSION: {}},
    "logging": {},
    "prompts": {"listChanged": True},
    "resources": {"listChanged": True, "subscribe": True},
    "tools": {"listChanged": True},
}
# Fields the SDK's input-schema models declare, in their order; other keys follow as given.
_SCHEMA_FIELDS = {False: ("$schema", "properties", "required", "type"), True: ("$schema",)}
_TOOL_KEYS = frozenset({"name", "title", "description", "inputSchema", "annotations", "execution"})
# Tool fields only the handshake era's models have (2026-07-28's sieve drops them).
_HANDSHAKE_ONLY_TOOL_KEYS = frozenset({"execution"})
_ANNOTATION_KEYS = frozenset({"title", "readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"})
_CLIENT_INFO_TEXT = frozenset({"title", "description", "websiteUrl"})
_INT64 = 2**63


def available() -> bool:
    return orjson is not None


# -- which requests the lean path takes -------------------------------------------------


@dataclass(slots=True)
class Request:
    """A request the lean path serves: its id, method, params and era; a ``tools/call``'s call, read
    once (``core/calls.py``) when the lean path decides whether to serve it."""

    rid: str | int
    method: str
    params: dict[str, Any]
    modern: bool
    call: ToolCall | None = None


def _token(value: Any) -> bool:
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool) and -_INT64 <= value < _INT64)


def _flat_objects(value: Any) -> bool:
    """A capabilities object we are sure the SDK accepts: objects of booleans or objects."""
    return isinstance(value, dict) and all(
        isinstance(inner, dict) and all(isinstance(v, bool | dict) for v in inner.values()) for inner in value.values()
    )


def _client_info(value: Any) -> bool:
    return (
        isinstance(value, dict)
        and isinstance(value.get("name"), str)
        and isinstance(value.get("version"), str)
        and all(k in ("name", "version") or (k in _CLIENT_INFO_TEXT and isinstance(v, str)) for k, v in value.items())
    )


def _meta_ok(meta: Any, modern: bool) -> bool:
    if not isinstance(meta, dict):
        return False
    for key, value in meta.items():
        if key == "progressToken":
            ok = _token(value)
        elif not modern:
            ok = False
        elif key == PROTOCOL_VERSION_META_KEY:
            ok = value == MODERN_VERSION
        elif key == CLIENT_CAPABILITIES_META_KEY:
            ok = _flat_objects(value)
        elif key == CLIENT_INFO_META_KEY:
            ok = _client_info(value)
        else:
            ok = False
        if not ok:
            return False
    return not modern or CLIENT_CAPABILITIES_META_KEY in meta


def _params_ok(method: str, params: dict[str, Any]) -> bool:
    """Method-specific params the SDK would accept without a question."""
    if method == "tools/call":
        allowed: tuple[str, ...] = ("name", "arguments", "_meta")
        if not isinstance(params.get("name"), str) or not isinstance(params.get("arguments", {}), dict):
            return False
    elif method == "initialize":
        allowed = ("protocolVersion", "capabilities", "clientInfo", "_meta")
        if not (
            isinstance(params.get("protocolVersion"), str)
            and _flat_objects(params.get("capabilities"))
            and _client_info(params.get("clientInfo"))
        ):
            return False
    else:
        allowed = ("_meta",)
    return all(key in allowed for key in params)


def negotiated(params: Mapping[str, Any]) -> str:
    """The handshake version an ``initialize`` settles on (what the router and the SDK pick)."""
    requested = params.get("protocolVersion")
    return requested if requested in HANDSHAKE_VERSIONS else LATEST_HANDSHAKE


def take(obj: Any, handshake_version: str | None) -> Request | None:
    """The lean request ``obj`` is, or None to leave it to the SDK.

    ``handshake_version``: the negotiated version of this connection's handshake era, or
    None when the SDK owns the handshake era (an ``initialize`` it served).
    """
    if not isinstance(obj, dict) or obj.get("jsonrpc") != "2.0" or not obj.keys() <= {"jsonrpc", "id", "method", "params"}:
        return None
    method, rid, params = obj.get("method"), obj.get("id"), obj.get("params", {})
    # isinstance first: an object or array is unhashable (message_check.check refuses them before this).
    if not isinstance(method, str) or method not in REQUEST_METHODS or not _token(rid) or not isinstance(params, dict):
        return None
    modern = is_modern(method, params)
    if not modern:
        if handshake_version not in LEAN_HANDSHAKE_VERSIONS:
            return None
        if method in MODERN_ONLY_METHODS:
            return Request(rid, method, params, False)  # answered with the era error whatever the params
        if method == "initialize" and negotiated(params) not in LEAN_HANDSHAKE_VERSIONS:
            return None
    elif method == "subscriptions/listen" or method in REMOVED_IN_MODERN:
        return None  # a stream on the subscription bus, or a removed method's -32601: the SDK's
    meta = params.get("_meta")
    if modern or meta is not None:
        if not _meta_ok(meta, modern):
            return None
    if not _params_ok(method, params):
        return None
    return Request(rid, method, params, modern)


def notification(obj: Any) -> str | None:
    """The name of a notification the lean path consumes (initialized, cancelled), else None."""
    if not isinstance(obj, dict) or "id" in obj or obj.get("jsonrpc") != "2.0":
        return None
    method = obj.get("method")
    return method if isinstance(method, str) and method in NOTIFICATIONS else None


def cancelled_id(obj: Mapping[str, Any]) -> str | int | None:
    params = obj.get("params")
    rid = params.get("requestId") if isinstance(params, dict) else None
    return rid if _token(rid) else None


def coerce_id(rid: str | int) -> str | int:
    """"7" and 7 are one request for cancellation, as the SDK's dispatcher correlates them."""
    if isinstance(rid, str):
        try:
            return int(rid)
        except ValueError:
            pass
    return rid


# -- how the SDK lays results out ---------------------------------------------------------


def _schema(schema: Mapping[str, Any], modern: bool) -> dict[str, Any]:
    fields = _SCHEMA_FIELDS[modern]
    out = {key: schema[key] for key in fields if schema.get(key) is not None}
    out.update((key, value) for key, value in schema.items() if key not in fields and value is not None)
    return out


def wire_tool(tool: Mapping[str, Any], modern: bool) -> dict[str, Any] | None:
    """One ``tools`` entry as the sieve writes it; None for a shape this layout does not cover."""
    annotations = tool.get("annotations") or {}
    if not tool.keys() <= _TOOL_KEYS or not annotations.keys() <= _ANNOTATION_KEYS:
        return None
    out: dict[str, Any] = {}
    for key in sorted(tool):
        value = tool[key]
        if value is None or (modern and key in _HANDSHAKE_ONLY_TOOL_KEYS):
            continue
        if key == "annotations":
            value = {k: annotations[k] for k in sorted(annotations) if annotations[k] is not None}
        elif key == "inputSchema":
            value = _schema(value, modern)
        out[key] = value
    return out


def wire_content(block: Mapping[str, Any]) -> dict[str, Any]:
    return {key: block[key] for key in sorted(block) if block[key] is not None}


def initialize_result(version: str, instructions: str) -> dict[str, Any]:
    return stamped({
        "capabilities": _HANDSHAKE_CAPABILITIES,
        "instructions": instructions,
        "protocolVersion": version,
        "serverInfo": server_info(),
    }, False)


def discover_result(instructions: str) -> dict[str, Any]:
    return stamped({
        "cacheScope": "private",
        "capabilities": _MODERN_CAPABILITIES,
        "instructions": instructions,
        "resultType": "complete",
        "supportedVersions": [MODERN_VERSION],
        "ttlMs": 0,
    }, True)


# -- encoding -------------------------------------------------------------------------------


def encode(message: dict[str, Any]) -> bytes | None:
    """One wire line, encoded as the codec encodes the SDK's messages; None if it cannot be.

    orjson writes what pydantic-core writes. What orjson refuses (a lone surrogate, an integer
    beyond 64 bits) is written by json, ASCII-escaped when UTF-8 cannot carry it, as the codec does.
    """
    assert orjson is not None
    try:
        return orjson.dumps(message, default=_for_orjson) + b"\n"  # type: ignore[no-any-return]
    except (TypeError, orjson.JSONEncodeError):
        pass
    try:
        return json.dumps(message, ensure_ascii=False, separators=(",", ":"), default=_for_json).encode("utf-8") + b"\n"
    except UnicodeEncodeError:
        pass
    except (TypeError, ValueError) as exc:
        log.error("cannot serialize an outgoing message: %s", exc)
        return None
    return json.dumps(message, ensure_ascii=True, separators=(",", ":"), default=_for_json).encode("ascii") + b"\n"


class _Spliced:
    """Already-encoded JSON (a tool's sorted structured content): orjson writes the bytes as they
    are; the json fallback, which cannot, writes the value they encode."""

    __slots__ = ("data", "fragment")

    def __init__(self, data: bytes) -> None:
        assert orjson is not None
        self.data, self.fragment = data, orjson.Fragment(data)


def splice(data: bytes) -> Any:
    return _Spliced(data)


def _for_orjson(value: Any) -> Any:
    if isinstance(value, _Spliced):
        return value.fragment
    raise TypeError(f"{type(value).__name__} is not JSON")


def _for_json(value: Any) -> Any:
    if isinstance(value, _Spliced):
        return json.loads(value.data)
    raise TypeError(f"{type(value).__name__} is not JSON")


def response(rid: str | int | None, result: dict[str, Any]) -> bytes | None:
    return encode({"jsonrpc": "2.0", "id": rid, "result": result})


def error(rid: str | int | None, code: int, message: str) -> bytes:
    line = encode({"jsonrpc": "2.0", "id": rid, "error": {"code": code, "message": message}})
    assert line is not None  # ids and messages are strings and integers: the last fallback always encodes
    return line


def notify(method: str, params: dict[str, Any] | None = None) -> bytes | None:
    message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
    if params is not None:
        message["params"] = params
    return encode(message)
