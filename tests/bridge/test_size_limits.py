"""Size faults against the real bridge process: a request the editor's buffer cannot
take is refused before it is sent; a result above GODOT_MCP_RESULT_LIMIT is refused with a way out."""

from __future__ import annotations

import json

import pytest

from tests.support.bridge_process import BridgeProcess
from tests.sim.fixtures import process_sim as sim  # noqa: F401 - the editor this module's bridges talk to
from tests.sim.server import ToolkitSim


def body(result: dict) -> dict:
    return json.loads(result["content"][0]["text"])


async def test_request_above_the_editor_buffer_is_refused_before_sending(sim: ToolkitSim, bridge: BridgeProcess):
    content = "x" * (1024 * 1024 + 1)  # the frame around it is larger still than the 1 MiB default
    result = await bridge.call_tool("script_write", {"file_path": "res://big.gd", "content": content})
    assert result["isError"] is True
    err = body(result)
    assert err["code"] == "REQUEST_TOO_LARGE"
    assert str(err["size_bytes"]) in err["error"] and err["size_bytes"] > 1024 * 1024
    assert err["limit_bytes"] == 1024 * 1024 and "1024 KiB" in err["error"]
    assert "GODOT_MCP_WS_BUFFER_LIMIT" in err["hint"]
    assert not sim.requests("script.write")  # never sent: Godot would have dropped it silently
    # The connection is untouched and a request that fits goes through.
    small = await bridge.call_tool("script_write", {"file_path": "res://small.gd", "content": "extends Node\n"})
    assert small["isError"] is False
    assert sim.peer_count == 1


async def test_result_above_the_ceiling_names_how_to_narrow(sim: ToolkitSim, spawn_bridge):
    bridge: BridgeProcess = await spawn_bridge({"GODOT_MCP_RESULT_LIMIT": "64"})
    sim.script("scene.get_tree", {"result": {"success": True, "tree": "n" * 40_000}})
    result = await bridge.call_tool("scene_get_tree", {"max_depth": 9})
    assert result["isError"] is True
    err = body(result)
    assert err["code"] == "RESULT_TOO_LARGE"
    assert err["limit_bytes"] == 64 * 1024 and err["size_bytes"] > 64 * 1024
    assert "GODOT_MCP_RESULT_LIMIT" in err["error"] and "GODOT_MCP_RESULT_LIMIT" in err["hint"]
    assert "max_depth" in err["hint"]  # the tool's own narrowing parameter
    assert len(bridge.raw_lines[-1]) < 4096
    sim.script("scene.get_tree", {"result": {"success": True, "tree": "n" * 20_000}})
    assert (await bridge.call_tool("scene_get_tree", {"max_depth": 2}))["isError"] is False
