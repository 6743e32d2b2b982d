"""MCP protocol facts (meta keys, error codes, who we are) and the result shapes, without the SDK.

Both serving paths use this module: the SDK's low-level ``Server`` handlers (``sdk_server.py``)
and the lean stdio path (``stdio/lean_answers.py``), so what a ``tools/list`` or ``tools/call``
result contains is decided once. What differs between the protocol eras is ``eras.py``'s. The
constants mirror the SDK's (``mcp_types``);
``tests/unit/test_lean.py`` checks that they still agree, so an SDK upgrade that moves one
fails a test instead of a session.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from godot_bridge import __version__
from godot_bridge.tools.results import ToolOutcome

PROTOCOL_VERSION_META_KEY = "io.modelcontextprotocol/protocolVersion"
CLIENT_CAPABILITIES_META_KEY = "io.modelcontextprotocol/clientCapabilities"
CLIENT_INFO_META_KEY = "io.modelcontextprotocol/clientInfo"
SERVER_INFO_META_KEY = "io.modelcontextprotocol/serverInfo"

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
CONNECTION_CLOSED = -32000

# MCP tasks (mcp/tasks.py): the 2026-07-28 extension's name and the 2025-11-25 server capability.
TASKS_EXTENSION = "io.modelcontextprotocol/tasks"
TASKS_HANDSHAKE_CAPABILITY: dict[str, Any] = {"cancel": {}, "list": {}, "requests": {"tools": {"call": {}}}}

# How long a 2026-07-28 client may keep a tools/list answer, and with whom it may share it. The list
# is configuration (GODOT_MCP_TOOL_LIST, read-only mode, the confirmation policy), the project's
# extension commands and the editor's Godot version: nothing a request changes. Each of those changes
# is announced on subscriptions/listen, and a stale copy misleads no call (a tool missing from it is
# still served by name; one gone since is answered with why), so the reference's five minutes hold.
# Private: the list names the project's own extension commands, nothing to share beyond whoever may
# ask this bridge.
TOOLS_LIST_TTL_MS = 300_000
TOOLS_LIST_CACHE_SCOPE = "private"

SERVER_NAME = "godot-bridge"
SERVER_TITLE = "Godot Bridge"


def client_name(params: Mapping[str, Any] | None) -> str | None:
    """The client's ``clientInfo.name``: initialize's, or a 2026-07-28 request's envelope's."""
    if not isinstance(params, Mapping):
        return None
    info = params.get("clientInfo")
    if not isinstance(info, Mapping):
        meta = params.get("_meta")
        info = meta.get(CLIENT_INFO_META_KEY) if isinstance(meta, Mapping) else None
    name = info.get("name") if isinstance(info, Mapping) else None
    return name if isinstance(name, str) else None


def server_info() -> dict[str, Any]:
    return {"name": SERVER_NAME, "title": SERVER_TITLE, "version": __version__}


def stamped(result: dict[str, Any], modern: bool) -> dict[str, Any]:
    """A result as the SDK's result sieve writes it: keys in its (alphabetical) order, then the
    2026-07-28 ``serverInfo`` stamp (the SDK stamps what its runner serves; the lean path and a
    result the core answers before the runner, such as a 2026-07-28 ``ping``, stamp it here)."""
    out = {key: result[key] for key in sorted(result)}
    if modern:
        out["_meta"] = {SERVER_INFO_META_KEY: server_info()}
    return out


def complete(result: dict[str, Any], modern: bool) -> dict[str, Any]:
    """2026-07-28 results must say they are complete; handshake results must not carry it."""
    if modern:
        result["resultType"] = "complete"
    return result


def ping_result(modern: bool) -> dict[str, Any]:
    """``ping``'s answer: empty, marked complete in 2026-07-28."""
    return complete({}, modern)


def tools_result(tools: list[dict[str, Any]], modern: bool) -> dict[str, Any]:
    return complete({"tools": tools}, modern)


def call_result(outcome: ToolOutcome, modern: bool, splice: Callable[[bytes], Any] | None = None) -> dict[str, Any]:
    """A ``tools/call`` result from what the tool produced.

    ``splice``: the encoder's way to carry already-encoded JSON (``orjson.Fragment``); given, the
    structured content is its bytes wherever no wrapping is needed, never parsed and re-encoded.
    """
    result: dict[str, Any] = {"content": outcome.content, "isError": outcome.is_error}
    # An error's text block already is its JSON (code, message, hint): a second copy as
    # structuredContent would reach the model twice. No tool declares an
    # outputSchema, and the spec validates structured content only of a success.
    if outcome.has_structured and not outcome.is_error:
        if not outcome.structured_is_object and not modern:
            # Handshake-era structuredContent must be an object.
            result["structuredContent"] = {"result": outcome.structured}
        elif splice is not None and outcome.structured_json is not None:
            result["structuredContent"] = splice(outcome.structured_json)
        else:
            result["structuredContent"] = outcome.structured
    return complete(result, modern)
