"""The lean path's decisions (what it takes, what it leaves to the SDK) and its SDK-free facts.

Its output is compared with the SDK path's byte for byte in
tests/bridge/test_lean_equivalence.py; here: the facts it restates agree with the SDK,
and malformed or unusual requests are declined rather than answered differently.
"""

from __future__ import annotations

import json
import subprocess
import sys

import mcp_types
import pytest
from mcp_types import version as sdk_version

from godot_bridge.mcp.stdio import lean_intake, line_encoder, sdk_layout

from godot_bridge.mcp.core import eras, protocol
from godot_bridge.mcp.stdio.server import lean_wanted
from godot_bridge.errors import ToolError
from godot_bridge.tools.results import ToolOutcome, failure

MODERN_META = {protocol.PROTOCOL_VERSION_META_KEY: "2026-07-28", protocol.CLIENT_CAPABILITIES_META_KEY: {}}


def test_protocol_facts_agree_with_the_sdk() -> None:
    assert eras.MODERN_VERSIONS == frozenset(sdk_version.MODERN_PROTOCOL_VERSIONS)
    assert eras.HANDSHAKE_VERSIONS == tuple(sorted(sdk_version.HANDSHAKE_PROTOCOL_VERSIONS, reverse=True))
    assert eras.LATEST_HANDSHAKE == sdk_version.LATEST_HANDSHAKE_VERSION
    for name in ("PROTOCOL_VERSION_META_KEY", "CLIENT_CAPABILITIES_META_KEY", "CLIENT_INFO_META_KEY",
                 "SERVER_INFO_META_KEY", "PARSE_ERROR", "INVALID_REQUEST", "METHOD_NOT_FOUND", "INVALID_PARAMS",
                 "INTERNAL_ERROR", "CONNECTION_CLOSED"):
        assert getattr(protocol, name) == getattr(mcp_types, name), name


def msg(method: str, params: object = None, rid: object = 1, **extra: object) -> dict[str, object]:
    out: dict[str, object] = {"jsonrpc": "2.0", "id": rid, "method": method, **extra}
    if params is not None:
        out["params"] = params
    return out


@pytest.mark.parametrize("message", [
    msg("ping"),
    msg("ping", {}),
    msg("tools/list", {"_meta": {"progressToken": "t"}}),
    msg("tools/call", {"name": "scene_get_tree", "arguments": {}}),
    msg("tools/call", {"name": "scene_get_tree"}),
    msg("tools/call", {"name": "x", "_meta": MODERN_META}),
    msg("server/discover", {"_meta": MODERN_META}),
    msg("server/discover"),  # answered with the era error
    msg("initialize", {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}),
])
def test_taken(message: dict[str, object]) -> None:
    assert lean_intake.take(message, "2025-11-25") is not None


@pytest.mark.parametrize("message", [
    msg("resources/list"),
    msg("prompts/get", {"name": "x"}),
    msg("ping", rid=True),
    msg("ping", rid=1.5),
    msg("ping", rid=2**70),
    msg("ping", [1]),
    {"jsonrpc": "2.0", "id": 1, "method": "ping", "extra": 1},
    {"jsonrpc": "1.0", "id": 1, "method": "ping"},
    msg("tools/list", {"cursor": "x"}),
    msg("tools/call", {"name": 5}),
    msg("tools/call", {"name": "x", "arguments": []}),
    msg("tools/call", {"name": "x", "arguments": None}),
    msg("tools/call", {"name": "x", "task": {}}),
    msg("tools/call", {"name": "x", "_meta": {"progressToken": 1.5}}),
    msg("tools/call", {"name": "x", "_meta": {"other": 1}}),
    msg("tools/list", {"_meta": {**MODERN_META, protocol.PROTOCOL_VERSION_META_KEY: "2099-01-01"}}),
    msg("tools/list", {"_meta": {protocol.PROTOCOL_VERSION_META_KEY: "2026-07-28"}}),
    msg("tools/list", {"_meta": {**MODERN_META, protocol.CLIENT_CAPABILITIES_META_KEY: {"roots": 5}}}),
    msg("tools/list", {"_meta": {**MODERN_META, protocol.CLIENT_INFO_META_KEY: {"name": "c"}}}),
    msg("tools/list", {"_meta": {**MODERN_META, "io.modelcontextprotocol/logLevel": "debug"}}),
    msg("subscriptions/listen", {"_meta": MODERN_META}),
    msg("initialize", {"protocolVersion": "2024-11-05", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}),
    msg("initialize", {"protocolVersion": "2025-11-25", "capabilities": {}}),
])
def test_declined(message: dict[str, object]) -> None:
    assert lean_intake.take(message, "2025-11-25") is None


def test_handshake_requests_go_to_the_sdk_once_it_owns_the_era() -> None:
    assert lean_intake.take(msg("tools/list"), None) is None
    assert lean_intake.take(msg("tools/list"), "2024-11-05") is None
    assert lean_intake.take(msg("tools/list", {"_meta": MODERN_META}), None) is not None  # 2026-07-28 is per request


def test_tool_layout_follows_the_sdk_models() -> None:
    tool = {"name": "t", "description": "d", "annotations": {"readOnlyHint": True, "destructiveHint": None},
            "inputSchema": {"type": "object", "properties": {}, "additionalProperties": False, "required": ["a"]}}
    handshake = sdk_layout.wire_tool(tool, modern=False)
    assert handshake is not None and list(handshake) == ["annotations", "description", "inputSchema", "name"]
    assert handshake["annotations"] == {"readOnlyHint": True}
    assert list(handshake["inputSchema"]) == ["properties", "required", "type", "additionalProperties"]
    modern = sdk_layout.wire_tool(tool, modern=True)
    assert modern is not None and list(modern["inputSchema"]) == ["type", "properties", "additionalProperties", "required"]
    assert sdk_layout.wire_tool({**tool, "outputSchema": {}}, modern=False) is None  # not covered: the SDK serves it


def test_call_result_is_shared_and_wraps_handshake_arrays() -> None:
    outcome = ToolOutcome(content=[{"type": "text", "text": "[1]"}], structured=[1])
    assert protocol.call_result(outcome, modern=False)["structuredContent"] == {"result": [1]}
    assert protocol.call_result(outcome, modern=True) == {
        "content": outcome.content, "isError": False, "structuredContent": [1], "resultType": "complete"}


def test_an_error_result_carries_its_envelope_once() -> None:
    """The text already holds code, message and hint; a structuredContent copy would
    reach a model that is shown both (Gemini CLI) twice."""
    outcome = failure(ToolError("NOT_FOUND", "no node at 'Boss'", hint="scene_get_tree lists the nodes"))
    assert outcome.structured["code"] == "NOT_FOUND"  # still there for the bridge's own readers (jobs)
    for modern in (False, True):
        result = protocol.call_result(outcome, modern=modern)
        assert result["isError"] is True and "structuredContent" not in result
        assert json.loads(result["content"][0]["text"]) == {
            "code": "NOT_FOUND", "error": "no node at 'Boss'", "hint": "scene_get_tree lists the nodes", "success": False}


def test_encoding_falls_back_for_what_orjson_refuses() -> None:
    assert line_encoder.error("\ud800", -32602, "Unknown tool: \ud800") == (
        b'{"jsonrpc":"2.0","id":"\\ud800","error":{"code":-32602,"message":"Unknown tool: \\ud800"}}\n')
    assert line_encoder.response(1, {"n": 2**70, "s": "é"}) == '{"jsonrpc":"2.0","id":1,"result":{"n":1180591620717411303424,"s":"é"}}\n'.encode()


def test_switch() -> None:
    assert lean_wanted({"GODOT_BRIDGE_LEAN": "0"}) is False
    assert lean_wanted({}) is True  # orjson is a dependency


def test_stdio_start_up_imports_neither_the_sdk_nor_pydantic() -> None:
    """What the lean path is for: serving starts without the SDK's modules, pydantic, websockets, watchfiles."""
    code = (
        "import sys\n"
        "import godot_bridge.cli, godot_bridge.app, godot_bridge.mcp.stdio.server\n"
        "heavy = ('mcp.', 'mcp_types', 'pydantic', 'websockets', 'watchfiles', 'starlette', 'httpx')\n"
        "deferred = lambda m: '__getattr__' in vars(sys.modules[m])  # sdk_import's stubs, never run\n"
        "print(sorted(m for m in sys.modules if m.startswith(heavy) and not deferred(m)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
