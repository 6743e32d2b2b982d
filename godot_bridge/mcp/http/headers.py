"""Pure rules of the Streamable HTTP transport: origins, auth, the header mirror, statuses.

No I/O and no Starlette: every function takes plain values and returns a verdict,
so each rule is testable on its own and the ASGI layer (``server.py``) only wires
them in order. Where seeds 000 and 001 differ, docs/dev/http.md says which one we follow.
"""

from __future__ import annotations

import base64
import binascii
import hmac
import ipaddress
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from mcp.shared.inbound import InboundLadderRejection, classify_inbound_request
from mcp_types import (
    HEADER_MISMATCH,
    INTERNAL_ERROR,
    INVALID_PARAMS,
    INVALID_REQUEST,
    METHOD_NOT_FOUND,
    PARSE_ERROR,
    UNSUPPORTED_PROTOCOL_VERSION,
)

from godot_bridge.mcp.core.eras import ALL_VERSIONS, TASKS_REMOVED_IN_MODERN, is_modern, is_modern_version

VERSION_HEADER = "mcp-protocol-version"
METHOD_HEADER = "mcp-method"
NAME_HEADER = "mcp-name"
ROUTING_HEADERS = (VERSION_HEADER, METHOD_HEADER, NAME_HEADER)
# The body field each name-bearing method mirrors in Mcp-Name; no other method takes the header.
NAME_FIELDS: Mapping[str, str] = {"tools/call": "name", "prompts/get": "name", "resources/read": "uri",
                                  # the tasks extension: Mcp-Name carries the task id (mcp/tasks.py)
                                  "tasks/get": "taskId", "tasks/update": "taskId", "tasks/cancel": "taskId"}
# Methods 2026-07-28's tasks extension removed: a client may still name the task in Mcp-Name;
# what it must hear is that the method is gone (-32601), not a header complaint.
NAME_UNCHECKED = TASKS_REMOVED_IN_MODERN
# Seed 000: a base64 payload may not exceed 8192 characters.
MAX_BASE64_PAYLOAD = 8192
# Seed 001: an Origin refusal carries this (positive, outside JSON-RPC's reserved range) code.
ORIGIN_NOT_ALLOWED = 1001
LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})


# Seed 000's table: the HTTP status of a 2026-07-28 request's JSON-RPC error. -32603 and
# anything unlisted stay 200 (seed 001 would send 500 for -32603; we follow seed 000).
MODERN_STATUS: Mapping[int, int] = {
    PARSE_ERROR: 400,
    INVALID_PARAMS: 400,
    HEADER_MISMATCH: 400,
    UNSUPPORTED_PROTOCOL_VERSION: 400,
    METHOD_NOT_FOUND: 404,
    INVALID_REQUEST: 200,
    INTERNAL_ERROR: 200,
}

_SENTINEL = re.compile(r"^=\?base64\?(?P<payload>.*)\?=$", re.DOTALL)


@dataclass(frozen=True)
class Refusal:
    """A JSON-RPC error the transport answers with, and the HTTP status it travels under."""

    status: int
    code: int
    message: str
    data: Any = None


# -- Origin and authentication ----------------------------------------------------------


def parse_allowed_origins(raw: str | None) -> frozenset[str]:
    """``MCP_ALLOWED_ORIGINS``: comma-separated origins, compared without a trailing slash."""
    if not raw:
        return frozenset()
    return frozenset(item.strip().rstrip("/").lower() for item in raw.split(",") if item.strip())


def origin_allowed(origin: str | None, allowed: frozenset[str]) -> bool:
    """Absent → allowed (not a browser); a loopback host or a listed origin → allowed; else refused."""
    if origin is None:
        return True
    value = origin.strip().rstrip("/").lower()
    if value in allowed:
        return True
    try:
        host = urlsplit(value).hostname
    except ValueError:
        return False
    return host in LOOPBACK_NAMES


def is_loopback_host(host: str) -> bool:
    """Whether binding ``host`` keeps the server reachable from this machine only."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def bearer_ok(authorization: str | None, token: str) -> bool:
    """``Authorization: Bearer <token>``, compared in constant time."""
    if authorization is None:
        return False
    scheme, _, value = authorization.strip().partition(" ")
    if scheme.lower() != "bearer":
        return False
    return hmac.compare_digest(value.strip().encode("utf-8"), token.encode("utf-8"))


# -- Content negotiation -------------------------------------------------------------------


def is_json_content_type(content_type: str | None) -> bool:
    """``application/json`` with any parameters (``; charset=utf-8``)."""
    if content_type is None:
        return False
    return content_type.split(";", 1)[0].strip().lower() == "application/json"


def accepts_sse(accept: str | None) -> bool:
    """Whether the client can read a ``text/event-stream`` response (progress, list-changed)."""
    if accept is None:
        return False
    kinds = {part.split(";", 1)[0].strip().lower() for part in accept.split(",")}
    return bool(kinds & {"text/event-stream", "text/*", "*/*"})


# -- Which era, and the header mirror ----------------------------------------------------


def declares_modern(method: str, params: Any, headers: Mapping[str, str]) -> bool:
    """A 2026-07-28 request: its ``_meta`` names a version, or its version header names a modern one.

    The header alone is enough to claim the era, so a modern client that forgot its
    ``_meta`` is told -32602 about the body rather than served as a handshake request.
    An ``initialize`` that claims it is a method 2026-07-28 removed (-32601, 404).
    """
    return is_modern(method, params if isinstance(params, Mapping) else None) or (
        is_modern_version(headers.get(VERSION_HEADER, "").strip())
    )


def decode_header_value(raw: str) -> str | None:
    """The value a header carries: verbatim, or the ``=?base64?…?=`` payload decoded (None if malformed)."""
    match = _SENTINEL.fullmatch(raw)
    if match is None:
        return raw
    payload = match.group("payload")
    if len(payload) > MAX_BASE64_PAYLOAD:
        return None
    try:
        decoded = base64.b64decode(payload, validate=True)
        return decoded.decode("utf-8")
    except (binascii.Error, ValueError, UnicodeDecodeError):
        return None


def duplicated_routing_header(raw_headers: Iterable[tuple[str, str]]) -> str | None:
    """The first routing header sent more than once (a folded mapping would hide it)."""
    seen: set[str] = set()
    for name, _ in raw_headers:
        key = name.lower()
        if key in ROUTING_HEADERS:
            if key in seen:
                return key
            seen.add(key)
    return None


def mirror_problem(method: str, params: Mapping[str, Any] | None, headers: Mapping[str, str],
                   body_version: Any) -> str | None:
    """Why the routing headers do not mirror this body (None when they do)."""
    version = headers.get(VERSION_HEADER)
    if version is None:
        return "the MCP-Protocol-Version header is missing"
    if version.strip() != body_version:
        return "the MCP-Protocol-Version header does not match params._meta's protocol version"
    sent_method = headers.get(METHOD_HEADER)
    if sent_method is None:
        return "the Mcp-Method header is missing"
    if sent_method.strip() != method:
        return "the Mcp-Method header does not match the body's method"
    field = NAME_FIELDS.get(method)
    sent_name = headers.get(NAME_HEADER)
    if field is None:
        return None if sent_name is None or method in NAME_UNCHECKED else f"{method} takes no Mcp-Name header"
    subject = (params or {}).get(field)
    if not isinstance(subject, str):
        return None  # the body is wrong about itself; dispatch answers that with -32602
    if sent_name is None:
        return f"the Mcp-Name header is missing (params.{field} is {subject!r})"
    if decode_header_value(sent_name.strip()) != subject:
        return f"the Mcp-Name header does not match params.{field}"
    return None


def modern_refusal(body: Mapping[str, Any], headers: Mapping[str, str],
                   raw_headers: Iterable[tuple[str, str]]) -> Refusal | None:
    """Check a 2026-07-28 request before dispatch, in the order the issue fixes (seed 001's).

    1. the body's ``_meta`` envelope (-32602), 2. the header mirror (-32020),
    3. the version the body names (-32022). The SDK's ladder supplies rungs 1 and 3.
    """
    ladder = classify_inbound_request(body)
    if isinstance(ladder, InboundLadderRejection) and ladder.code == INVALID_PARAMS:
        return Refusal(400, INVALID_PARAMS, ladder.message)
    meta = body["params"]["_meta"]  # its keys' types were checked with the envelope (message_check.py)
    duplicated = duplicated_routing_header(raw_headers)
    if duplicated is not None:
        return Refusal(400, HEADER_MISMATCH, f"Header mismatch: {duplicated} appears more than once")
    problem = mirror_problem(body["method"], body.get("params"), headers,
                             meta.get("io.modelcontextprotocol/protocolVersion"))
    if problem is not None:
        return Refusal(400, HEADER_MISMATCH, f"Header mismatch: {problem}")
    if isinstance(ladder, InboundLadderRejection):
        return Refusal(MODERN_STATUS.get(ladder.code, 400), ladder.code, ladder.message, ladder.data)
    return None


def handshake_refusal(headers: Mapping[str, str]) -> Refusal | None:
    """A handshake-era request whose version header names a version from neither era (seed 000)."""
    version = headers.get(VERSION_HEADER)
    if version is None or version.strip() in ALL_VERSIONS:
        return None
    return Refusal(400, INVALID_REQUEST, f"Unsupported MCP-Protocol-Version header: {version.strip()!r}",
                   {"supported": list(ALL_VERSIONS), "requested": version.strip()})


def notification_refusal(body: Mapping[str, Any], headers: Mapping[str, str],
                         raw_headers: Iterable[tuple[str, str]]) -> Refusal | None:
    """Notifications are answered with nothing, except when their headers do not mirror them."""
    method = body.get("method")
    params = body.get("params")
    if not isinstance(method, str) or not declares_modern(method, params, headers):
        return None
    duplicated = duplicated_routing_header(raw_headers)
    if duplicated is not None:
        return Refusal(400, HEADER_MISMATCH, f"Header mismatch: {duplicated} appears more than once")
    meta = params.get("_meta") if isinstance(params, Mapping) else None
    body_version = meta.get("io.modelcontextprotocol/protocolVersion") if isinstance(meta, Mapping) else None
    problem = mirror_problem(method, params if isinstance(params, Mapping) else None, headers, body_version)
    if problem is not None:
        return Refusal(400, HEADER_MISMATCH, f"Header mismatch: {problem}")
    return None


def error_status(code: int, modern: bool) -> int:
    """The HTTP status of a dispatched request's JSON-RPC error: seed 000's table, 200 in the handshake era."""
    if not modern:
        return 200
    return MODERN_STATUS.get(code, 200)
