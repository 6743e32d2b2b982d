"""Both MCP eras against the real bridge process, with raw JSON lines."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from godot_bridge.tools.catalogue import load_catalogue
from godot_bridge.tools.counts import count
from tests.support.bridge_process import MODERN, MODERN_META, BridgeProcess
from tests.support.client_file import mcp_json, write_until

COUNTS = count(load_catalogue())  # what tools/list holds at start, from the one place that defines it

SERVER_INFO = "io.modelcontextprotocol/serverInfo"


def init_params(version: str) -> dict:
    return {"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}


@pytest.mark.parametrize(
    ("asked", "answered"),
    [("2025-11-25", "2025-11-25"), ("2025-06-18", "2025-06-18"), ("2024-11-05", "2024-11-05"),
     ("2025-03-26", "2025-03-26"), (MODERN, "2025-11-25"), ("garbage", "2025-11-25")],
)
async def test_initialize_negotiates_every_handshake_version(bridge: BridgeProcess, asked: str, answered: str):
    resp = await bridge.request("initialize", init_params(asked))
    result = resp["result"]
    assert result["protocolVersion"] == answered
    assert result["capabilities"]["tools"]["listChanged"] is True
    assert result["serverInfo"]["name"] == "godot-bridge"
    assert "resultType" not in result and "_meta" not in result


async def test_initialize_naming_2026_07_28_is_a_removed_method(bridge: BridgeProcess):
    params = {**init_params("2025-06-18"), "_meta": MODERN_META}
    resp = await bridge.request("initialize", params)
    assert resp["error"]["code"] == -32601
    # A handshake initialize (no 2026-07-28 _meta) is served as always.
    assert (await bridge.request("initialize", init_params("2025-06-18")))["result"]["protocolVersion"] == "2025-06-18"


async def test_initialize_is_not_an_admission_gate(bridge: BridgeProcess):
    names = await bridge.tool_names()  # no initialize sent at all
    assert "discover_tools" in names and len(names) == COUNTS.always_on
    await bridge.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    resp = await bridge.request("initialize", init_params("2025-11-25"))
    assert resp["result"]["protocolVersion"] == "2025-11-25"
    resp = await bridge.request("initialize", init_params("2025-06-18"))  # idempotent, negotiates again
    assert resp["result"]["protocolVersion"] == "2025-06-18"
    assert not [n for n in bridge.notifications if "unmatched_response" in n]


async def test_ping_is_answered_in_both_eras(bridge: BridgeProcess):
    # 2026-07-28 removed ping but lets a server keep it, and real clients send it.
    modern = (await bridge.request("ping", {}, modern=True))["result"]
    assert modern["resultType"] == "complete" and modern["_meta"][SERVER_INFO]["name"] == "godot-bridge"
    assert set(modern) == {"resultType", "_meta"}
    bad = await bridge.request("ping", {"_meta": {"io.modelcontextprotocol/protocolVersion": MODERN}})
    assert bad["error"]["code"] == -32602  # the envelope is still checked first
    assert (await bridge.request("ping", {}))["result"] == {}  # the handshake era's ping, unmarked


async def test_initialize_naming_2026_07_28_is_a_removed_method(bridge: BridgeProcess):
    params = {**init_params("2025-11-25")}
    assert (await bridge.request("initialize", params, modern=True))["error"]["code"] == -32601


async def test_server_discover_modern(bridge: BridgeProcess):
    result = (await bridge.request("server/discover", {}, modern=True))["result"]
    assert result["supportedVersions"] == [MODERN]
    assert result["capabilities"]["tools"]["listChanged"] is True
    assert "discover_tools" in result["instructions"]
    assert result["resultType"] == "complete"
    assert result["ttlMs"] == 0 and result["cacheScope"] == "private"
    assert result["_meta"][SERVER_INFO]["name"] == "godot-bridge"


async def test_server_discover_without_meta_is_method_not_found(bridge: BridgeProcess):
    resp = await bridge.request("server/discover", {})
    assert resp["error"]["code"] == -32601


async def test_modern_tools_list_shape_and_handshake_shape(bridge: BridgeProcess):
    modern = (await bridge.request("tools/list", {}, modern=True))["result"]
    assert modern["resultType"] == "complete" and modern["ttlMs"] == 300_000 and modern["cacheScope"] == "private"
    assert modern["_meta"][SERVER_INFO]["version"]
    legacy = (await bridge.request("tools/list"))["result"]
    assert set(legacy) == {"tools"}
    # The same tools; the handshake era also says which may run as MCP tasks (2026-07-28 has no such field),
    # and discover_tools says what it does in each: loads groups, or answers schemas for call_tool.
    def same(tool: dict) -> dict:
        return {k: v for k, v in tool.items()
                if k != "execution" and (k, tool["name"]) != ("description", "discover_tools")}

    assert [same(t) for t in legacy["tools"]] == [same(t) for t in modern["tools"]]
    descriptions = {t["description"] for t in legacy["tools"] + modern["tools"] if t["name"] == "discover_tools"}
    assert len(descriptions) == 2 and any("call_tool" in d for d in descriptions)
    tasks = {t["name"]: t["execution"] for t in legacy["tools"] if "execution" in t}
    assert tasks == {"game_start": {"taskSupport": "optional"}}


async def test_unsupported_meta_version_is_32022(bridge: BridgeProcess):
    meta = {**MODERN_META, "io.modelcontextprotocol/protocolVersion": "2099-01-01"}
    resp = await bridge.request("tools/list", {"_meta": meta})
    assert resp["error"]["code"] == -32022
    assert resp["error"]["data"]["supported"] == [MODERN]


@pytest.mark.parametrize(
    "meta",
    [
        {"io.modelcontextprotocol/protocolVersion": MODERN},  # capabilities missing
        {"io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": "all"},
        {"io.modelcontextprotocol/protocolVersion": 20260728, "io.modelcontextprotocol/clientCapabilities": {}},
        {**MODERN_META, "io.modelcontextprotocol/clientInfo": "me"},
    ],
    ids=["missing-capabilities", "capabilities-not-object", "version-not-string", "clientinfo-not-object"],
)
async def test_bad_meta_keys_are_32602(bridge: BridgeProcess, meta: dict):
    resp = await bridge.request("tools/list", {"_meta": meta})
    assert resp["error"]["code"] == -32602


async def test_progress_token_meta_alone_is_handshake_era(bridge: BridgeProcess):
    resp = await bridge.request("tools/list", {"_meta": {"progressToken": 7}})
    assert set(resp["result"]) == {"tools"}


async def test_both_eras_interleave_on_one_connection(bridge: BridgeProcess):
    for _ in range(2):
        legacy = await bridge.request("initialize", init_params("2025-11-25"))
        assert legacy["result"]["protocolVersion"] == "2025-11-25"
        modern = await bridge.request("tools/list", {}, modern=True)
        assert modern["result"]["resultType"] == "complete"
        plain = await bridge.request("tools/list")
        assert "resultType" not in plain["result"]
        discover = await bridge.request("server/discover", {}, modern=True)
        assert discover["result"]["supportedVersions"] == [MODERN]


async def test_malformed_lines(bridge: BridgeProcess):
    fut = bridge.expect(None)
    await bridge.send_raw("{not json")
    assert (await fut)["error"]["code"] == -32700
    fut = bridge.expect(None)
    await bridge.send_raw(json.dumps([{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}]))
    resp = await fut
    assert resp["error"]["code"] == -32600 and resp["id"] is None
    fut = bridge.expect(77)
    await bridge.send_raw(json.dumps({"jsonrpc": "2.0", "id": 77}))
    assert (await fut)["error"]["code"] == -32600
    # The connection survives all of it.
    assert len(await bridge.tool_names()) == COUNTS.always_on


async def test_unknown_method_and_unknown_tool(bridge: BridgeProcess):
    assert (await bridge.request("resources/frobnicate"))["error"]["code"] == -32601
    resp = await bridge.request("tools/call", {"name": "no_such_tool", "arguments": {}})
    assert resp["error"]["code"] == -32602 and "no_such_tool" in resp["error"]["message"]
    # A tool of a group not loaded is loaded for the call (its arguments are then checked), and
    # the client is told its list changed.
    await bridge.request("initialize", init_params("2025-11-25"))
    resp = await bridge.request("tools/call", {"name": "tilemap_set_cells", "arguments": {}})
    assert resp["result"]["isError"] is True and "INVALID_PARAMS" in resp["result"]["content"][0]["text"]
    await bridge.wait_notification("notifications/tools/list_changed")
    assert "tilemap_set_cells" in await bridge.tool_names()


async def test_argument_validation_is_a_tool_error_naming_the_parameter(bridge: BridgeProcess):
    result = await bridge.call_tool("scene_open", {})
    assert result["isError"] is True
    payload = json.loads(result["content"][0]["text"])
    assert payload["code"] == "INVALID_PARAMS" and "file_path" in payload["error"]
    assert "structuredContent" not in result, "an error reaches the model once: as its text"
    result = await bridge.call_tool("script_read", {"file_path": 12})
    payload = json.loads(result["content"][0]["text"])
    assert payload["code"] == "INVALID_PARAMS" and "file_path" in payload["error"] and "string" in payload["error"]
    result = await bridge.call_tool("scene_open", {"file_path": "res://a.tscn", "bogus": 1})
    assert "bogus" in json.loads(result["content"][0]["text"])["error"]


async def test_editor_call_without_editor_is_connect_failed(bridge: BridgeProcess):
    result = await bridge.call_tool("scene_get_tree", {})
    assert result["isError"] is True
    payload = json.loads(result["content"][0]["text"])
    assert payload["code"] == "CONNECT_FAILED"
    assert "plugin" in payload["hint"].lower() and "godot" in payload["hint"].lower()
    modern = (await bridge.request("tools/call", {"name": "scene_get_tree", "arguments": {}}, modern=True))["result"]
    assert modern["isError"] is True and modern["resultType"] == "complete"


async def test_list_change_announced_in_handshake_era(bridge: BridgeProcess):
    await bridge.request("initialize", init_params("2025-11-25"))
    mark = len(bridge.notifications)
    result = await bridge.call_tool("discover_tools", {"request": ["tilemap", "tileset"]})
    assert result["isError"] is False
    await bridge.wait_notification("notifications/tools/list_changed", start=mark)
    await bridge.call_tool("discover_tools", {})  # browsing changes nothing
    changes = [n for n in bridge.notifications[mark:] if n.get("method") == "notifications/tools/list_changed"]
    assert len(changes) == 1  # exactly one for the call that loaded two groups, none for browsing


async def test_list_change_announced_on_modern_listen_stream(bridge: BridgeProcess, project_dir: Path):
    listen_id = "listen-1"
    params = {"notifications": {"toolsListChanged": True}, "_meta": MODERN_META}
    await bridge.send({"jsonrpc": "2.0", "id": listen_id, "method": "subscriptions/listen", "params": params})
    ack = await bridge.wait_notification("notifications/subscriptions/acknowledged")
    assert ack["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"] == listen_id
    mark = len(bridge.notifications)
    # What a 2026-07-28 request calls never changes its list: only the configuration (and the editor) does.
    await bridge.request("tools/call", {"name": "discover_tools", "arguments": {"request": "audio"}}, modern=True)
    before = await bridge.tool_names(modern=True)

    async def heard() -> None:
        await bridge.wait_notification("notifications/tools/list_changed", start=mark, timeout=30)

    await write_until(project_dir / ".mcp.json", mcp_json({"GODOT_MCP_TOOL_LIST": "all"}), heard)
    notes = [n for n in bridge.notifications[mark:] if n.get("method") == "notifications/tools/list_changed"]
    assert len(notes) == 1 and notes[0]["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"] == listen_id
    after = await bridge.tool_names(modern=True)
    assert len(before) == COUNTS.always_on and len(after) > len(before) and "audiobus_list" in after


async def test_stdout_carries_protocol_messages_only(bridge: BridgeProcess):
    await bridge.request("initialize", init_params("2025-11-25"))
    await bridge.call_tool("scene_get_tree", {})
    await bridge.call_tool("discover_tools", {"request": "nothing-matches-this"})
    await bridge.close()
    assert bridge.raw_lines
    for line in bridge.raw_lines:
        assert json.loads(line)["jsonrpc"] == "2.0"
    assert b"tool=scene_get_tree" in bridge.stderr  # the call log went to stderr


@pytest.mark.parametrize("modern", [False, True])
async def test_a_bad_cursor_names_params_cursor_once(bridge: BridgeProcess, modern: bool):
    resp = await bridge.request("tools/list", {"cursor": 5}, modern=modern)
    message = resp["error"]["message"]
    assert resp["error"]["code"] == -32602 and "params.cursor" in message and "params.params" not in message
