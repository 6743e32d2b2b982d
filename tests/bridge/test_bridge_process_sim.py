"""The real ``godot-bridge`` process against the toolkit simulator (and a fake language server).

In-process simulator, bridge as a subprocess with the same isolated registry: this is
what a user's MCP client + editor look like to the bridge.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.bridge_process import BridgeProcess
from tests.lsp.fake_server import FakeLspServer
from tests.sim.fixtures import process_sim as sim  # noqa: F401 - the editor this module's bridges talk to
from tests.sim.server import ToolkitSim


def body(result: dict) -> dict:
    return json.loads(result["content"][0]["text"])


async def test_call_forwarded_and_result_sorted(sim: ToolkitSim, bridge: BridgeProcess):
    sim.script("scene.get_tree", {"result": {"success": True, "zeta": 1, "alpha": {"b": 2, "a": 1}}})
    result = await bridge.call_tool("scene_get_tree", {"max_depth": 2})
    assert result["isError"] is False
    assert result["content"][0]["text"] == '{"alpha":{"a":1,"b":2},"success":true,"zeta":1}'
    assert result["structuredContent"] == {"alpha": {"a": 1, "b": 2}, "success": True, "zeta": 1}
    received = sim.requests("scene.get_tree")[-1]
    assert received.params == {"max_depth": 2}


async def test_toolkit_failure_is_an_error_result(sim: ToolkitSim, bridge: BridgeProcess):
    sim.script("script.read", {"result": {"success": False, "error": "no such file", "code": "NOT_FOUND"}})
    result = await bridge.call_tool("script_read", {"file_path": "res://missing.gd"})
    assert result["isError"] is True
    assert body(result) == {"success": False, "error": "no such file", "code": "NOT_FOUND"}


async def test_path_guard_refuses_before_sending(sim: ToolkitSim, bridge: BridgeProcess):
    result = await bridge.call_tool("script_read", {"file_path": "res://../../etc/passwd"})
    assert result["isError"] is True and body(result)["code"] == "PATH_DENIED"
    await bridge.call_tool("discover_tools", {"request": "user_data"})
    result = await bridge.call_tool("save_read", {"path": "res://secrets.cfg"})
    assert body(result)["code"] == "PATH_DENIED"
    assert sim.requests("script.read") == [] and sim.requests("save.read") == []


async def test_version_from_registry_unlocks_scene_close(sim: ToolkitSim, bridge: BridgeProcess):
    await bridge.call_tool("discover_tools", {"request": "cleanup"})
    assert "scene_close" in await bridge.tool_names()  # registry says 4.5.1


async def test_version_known_late_rebuilds_the_list_once(data_home: Path, project_dir: Path, spawn_bridge):
    bridge = await spawn_bridge()
    await bridge.request("initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                                        "clientInfo": {"name": "t", "version": "1"}})
    await bridge.call_tool("discover_tools", {"request": "cleanup"})
    assert "scene_close" not in await bridge.tool_names()  # no editor yet: version unknown
    mark = len(bridge.notifications)
    s = ToolkitSim(data_home, project_dir.resolve(), godot_version="4.6.0", lsp_port=None)
    await s.start()
    try:
        result = await bridge.call_tool("scene_get_tree", {})  # connects (registry watch or this call)
        assert result["isError"] is False, result
        await bridge.wait_notification("notifications/tools/list_changed", start=mark)
        assert "scene_close" in await bridge.tool_names()
    finally:
        await s.stop()


async def test_extension_push_adds_a_tool(sim: ToolkitSim, bridge: BridgeProcess):
    await bridge.request("initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                                        "clientInfo": {"name": "t", "version": "1"}})
    await bridge.call_tool("scene_get_tree", {})  # connected
    mark = len(bridge.notifications)
    command = {"method": "wordtools.count", "description": "Count words.",
               "input_schema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
               "annotations": {"readOnlyHint": True}}
    await sim.push({"notification": "extensions.changed", "params": {"commands": [command], "removed": []}})
    await bridge.wait_notification("notifications/tools/list_changed", start=mark)
    assert "wordtools_count" in await bridge.tool_names()
    sim.script("wordtools.count", {"result": {"success": True, "words": 3}})
    result = await bridge.call_tool("wordtools_count", {"text": "a b c"})
    assert body(result) == {"success": True, "words": 3}
    bad = await bridge.call_tool("wordtools_count", {})
    assert bad["isError"] and "text" in body(bad)["error"]  # the extension's schema is enforced too


async def test_lsp_status_reaches_the_editor_on_connect(sim: ToolkitSim, spawn_bridge):
    # No language server anywhere: the verdict is "unavailable", pushed once the editor is connected.
    bridge = await spawn_bridge({"GODOT_MCP_LSP_PORT": "1"})
    await bridge.call_tool("scene_get_tree", {})
    status = await sim.wait_for("editor.set_lsp_status", timeout=10)
    assert status.params["state"] in ("unavailable", "conflict")
    assert status.params["port"] == 1


async def test_lsp_tool_through_the_process(sim: ToolkitSim, project_dir: Path, spawn_bridge):
    (project_dir / "player.gd").write_text("extends Node\n#ERR broken thing\n", encoding="utf-8")
    server = FakeLspServer()
    await server.start()
    try:
        bridge = await spawn_bridge({"GODOT_MCP_LSP_PORT": str(server.port)})
        await bridge.call_tool("discover_tools", {"request": "lsp_code_analysis"})
        result = await bridge.call_tool("lsp_diagnostics", {"file_path": "res://player.gd"})
        assert result["isError"] is False, result
        data = body(result)
        assert data["errors"] == 1 and data["diagnostics"][0]["line"] == 2
        wrong = await bridge.call_tool("lsp_diagnostics", {"file_path": "res://notes.txt"})
        assert body(wrong)["code"] == "UNSUPPORTED_FILE_TYPE" and ".gd" in body(wrong)["hint"]
    finally:
        await server.stop()


async def test_cancellation_reaches_the_editor(sim: ToolkitSim, bridge: BridgeProcess):
    sim.script("scene.get_tree", {"silence": True})
    await bridge.call_tool("project_get_settings", {})  # connected
    await bridge.send({"jsonrpc": "2.0", "id": "slow", "method": "tools/call",
                       "params": {"name": "scene_get_tree", "arguments": {}}})
    forwarded = await sim.wait_for("scene.get_tree", timeout=10)
    await bridge.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "slow"}})
    cancel = await sim.wait_for("_cancel", timeout=10)
    assert str(cancel.params["request_id"]) == str(forwarded.frame["id"])


async def test_project_scan_reports_progress_to_the_client(sim: ToolkitSim, project_dir: Path, spawn_bridge):
    for i in range(25):  # two chunks of 20
        (project_dir / f"s{i}.gd").write_text("extends Node\n", encoding="utf-8")
    server = FakeLspServer()
    await server.start()
    try:
        bridge = await spawn_bridge({"GODOT_MCP_LSP_PORT": str(server.port)})
        await bridge.call_tool("discover_tools", {"request": "lsp_code_analysis"})
        resp = await bridge.request("tools/call", {"name": "lsp_project_diagnostics", "arguments": {},
                                                   "_meta": {"progressToken": "scan-1"}}, timeout=60)
        data = body(resp["result"])
        assert data["scanned"] == 25 and data["clean"] == 25
        progress = [n for n in bridge.notifications if n.get("method") == "notifications/progress"]
        assert len(progress) >= 2 and all(p["params"]["progressToken"] == "scan-1" for p in progress)
        values = [p["params"]["progress"] for p in progress]
        assert values == sorted(values)
    finally:
        await server.stop()


async def test_short_project_scan_reports_zero_first(sim: ToolkitSim, project_dir: Path, spawn_bridge):
    """A one-chunk scan reports 0/N first, not only its result."""
    for i in range(3):
        (project_dir / f"s{i}.gd").write_text("extends Node\n", encoding="utf-8")
    server = FakeLspServer()
    await server.start()
    try:
        bridge = await spawn_bridge({"GODOT_MCP_LSP_PORT": str(server.port)})
        await bridge.call_tool("discover_tools", {"request": "lsp_code_analysis"})
        await bridge.request("tools/call", {"name": "lsp_project_diagnostics", "arguments": {},
                                            "_meta": {"progressToken": "short"}}, timeout=60)
        progress = [n["params"] for n in bridge.notifications if n.get("method") == "notifications/progress"]
        assert [(p["progress"], p["total"]) for p in progress] == [(0, 3), (3, 3)]
    finally:
        await server.stop()


async def test_playtest_lifecycle_through_the_process(sim: ToolkitSim, bridge: BridgeProcess):
    result = await bridge.call_tool("runtime_get_script_vars", {"node_path": "/root/Main"})
    assert body(result)["code"] == "GAME_NOT_RUNNING"
    started = body(await bridge.call_tool("game_start", {}))
    assert started["success"] is True and started["runtime_connected"] is True
    runtime = sim.runtime
    assert runtime is not None
    runtime.script("execute.code", {"result": {"success": True, "value": 42}})
    out = await bridge.call_tool_confirmed("execute_code", {"code": "return 42", "channel": "game"})
    assert body(out) == {"success": True, "value": 42}
    assert runtime.requests("execute.code")[-1].params == {"code": "return 42"}  # the game, not the editor
    assert not sim.requests("execute.code")
    await bridge.call_tool("game_stop", {})
    result = await bridge.call_tool("runtime_get_script_vars", {"node_path": "/root/Main"})
    assert body(result)["code"] == "GAME_NOT_RUNNING"


async def test_large_request_and_result_lines(sim: ToolkitSim, bridge: BridgeProcess):
    content = "extends Node\n" + "# padding line for a large script\n" * 8000  # ~270 KiB on one JSON line
    result = await bridge.call_tool("script_write", {"file_path": "res://big.gd", "content": content})
    assert result["isError"] is False
    assert sim.requests("script.write")[-1].params["content"] == content
    sim.script("script.read", {"result": {"success": True, "content": content}})
    back = await bridge.call_tool("script_read", {"file_path": "res://big.gd"})
    assert body(back)["content"] == content
