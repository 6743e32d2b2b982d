"""The lean path's results laid out as the SDK lays them out on the wire, byte for byte.

Why a lean path at all: ~80% of start-up was importing the SDK, and a quarter of each call its
request path (pydantic validation of request and result, the runner). What a result contains
comes from ``core/protocol.py`` (shared with the SDK handlers); this module only reproduces how the
SDK's result sieve lays it out: the SDK dumps each result through its per-version pydantic models,
whose fields are in alphabetical order, drops ``None`` model fields, and appends the ``serverInfo``
stamp to 2026-07-28 results last (``protocol.stamped``). ``tests/bridge/test_lean_equivalence.py``
compares the two paths byte for byte over a corpus of requests.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from godot_bridge.mcp.core.eras import MODERN_VERSION
from godot_bridge.mcp.core.protocol import TASKS_EXTENSION, TASKS_HANDSHAKE_CAPABILITY, server_info, stamped

# The capabilities the SDK derives for our server (handlers registered, tools list changes
# announced); 2026-07-28 advertises list changes for what subscriptions/listen can carry.
_HANDSHAKE_CAPABILITIES = {
    "completions": {},  # resource template and prompt arguments (content/completions.py)
    "logging": {},  # pushed Godot errors as notifications/message (core/error_feed.py)
    "prompts": {"listChanged": False},
    "resources": {"listChanged": False, "subscribe": True},  # godot://errors
    "tasks": TASKS_HANDSHAKE_CAPABILITY,  # job-capable tools as MCP tasks (core/tasks.py)
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
