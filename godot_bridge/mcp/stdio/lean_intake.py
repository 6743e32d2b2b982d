"""Which messages the lean stdio path takes: requests and notifications plainly valid as the SDK reads them.

The lean path (``lean_answers.py``) serves ``initialize``, ``ping``, ``tools/list``, ``tools/call``,
``server/discover`` and the ``initialized`` / ``cancelled`` notifications; ``take`` returns the
request a message is when its every member is one the SDK would accept without a question, and
None otherwise: the message then goes to the SDK path, the definition of the right answer.
Declining is always safe. No SDK import.
"""

from __future__ import annotations

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
from godot_bridge.mcp.core.protocol import CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY, PROTOCOL_VERSION_META_KEY

if TYPE_CHECKING:
    from godot_bridge.mcp.core.calls import ToolCall

# Handshake versions whose result surface the lean layout matches (checked by the equivalence
# test). 2024-11-05 and 2025-03-26 lack structuredContent/title and are left to the SDK.
LEAN_HANDSHAKE_VERSIONS = frozenset({"2025-11-25", "2025-06-18"})
REQUEST_METHODS = frozenset({"initialize", "ping", "tools/list", "tools/call", "server/discover", "subscriptions/listen"})
NOTIFICATIONS = frozenset({"notifications/initialized", "notifications/cancelled"})
_CLIENT_INFO_TEXT = frozenset({"title", "description", "websiteUrl"})
_INT64 = 2**63


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
