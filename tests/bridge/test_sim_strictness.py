"""The simulator is as strict as the toolkit: raw frames, no bridge in between.

Each check names the toolkit file whose behaviour it mirrors, so a change there has one place
to be repeated here.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect

from godot_bridge.editor.registry import read_registry
from tests.sim.registry import instance_hash
from tests.sim.server import ToolkitSim


@asynccontextmanager
async def peer(sim: ToolkitSim) -> AsyncIterator[ClientConnection]:
    """An authenticated raw connection (no size limit of our own: the sim's is what is tested)."""
    async with connect(sim.url, max_size=None, compression=None) as ws:
        await ws.send(json.dumps({"auth": sim.token}))
        assert json.loads(await ws.recv())["authed"] is True
        yield ws


async def call(ws: ClientConnection, method: str, params: Any = None, rid: Any = 1) -> dict[str, Any]:
    frame: dict[str, Any] = {"jsonrpc": "2.0", "id": rid, "method": method}
    if params is not None:
        frame["params"] = params
    await ws.send(json.dumps(frame))
    return json.loads(await asyncio.wait_for(ws.recv(), 5.0))


# -- server_request_router.gd --------------------------------------------------------------------


async def test_an_unknown_method_is_method_not_found(sim: ToolkitSim):
    async with peer(sim) as ws:
        reply = await call(ws, "scene.hijack")
        assert reply == {"jsonrpc": "2.0", "id": 1, "error": {"code": -32601, "message": "Method not found: scene.hijack"}}
        assert (await call(ws, "scene.get_tree", {}, rid=2))["result"]["success"] is True


async def test_a_scripted_or_extension_method_is_served(sim: ToolkitSim):
    sim.script("my_ext.do", {"result": {"success": True, "done": 1}})
    sim.extensions = [{"method": "word.count"}]
    async with peer(sim) as ws:
        assert (await call(ws, "my_ext.do"))["result"] == {"success": True, "done": 1}
        assert (await call(ws, "my_ext.do", rid=2))["error"]["code"] == -32601  # the script is used up
        assert (await call(ws, "word.count", rid=3))["result"]["success"] is True


async def test_the_game_serves_only_runtime_methods(sim: ToolkitSim):
    game = await sim.start_game()
    async with peer(game) as ws:
        assert (await call(ws, "meta.set_limits", {"ws_buffer_kb": 64}))["error"]["code"] == -32601
        assert (await call(ws, "runtime.get_node_state", {"node_path": "/root"}, rid=2))["result"]["success"]


@pytest.mark.parametrize(
    ("frame", "code", "message", "rid"),
    [
        ("{nope", -32700, "Parse error", None),
        ("[1]", -32600, "Invalid request: expected one JSON object per frame", None),
        ('{"jsonrpc":"1.0","id":4,"method":"echo"}', -32600, 'Invalid request: jsonrpc must be "2.0"', 4),
        ('{"jsonrpc":"2.0","id":{"a":1},"method":"echo"}', -32600, "Invalid request: id must be", None),
        ('{"jsonrpc":"2.0","id":5,"method":""}', -32600, "Invalid request: method must be a non-empty string", 5),
        ('{"jsonrpc":"2.0","id":"s","method":"echo","params":[1]}', -32600, "Invalid request: params must be an object", "s"),
    ],
)
async def test_malformed_frames_get_the_routers_answer(sim: ToolkitSim, frame: str, code: int, message: str, rid: Any):
    async with peer(sim) as ws:
        await ws.send(frame)
        reply = json.loads(await ws.recv())
        assert reply["id"] == rid and reply["error"]["code"] == code
        assert reply["error"]["message"].startswith(message)


async def test_echo_and_cancel_answer_in_the_toolkits_shapes(sim: ToolkitSim):
    sim.script("scene.save", {"wait_cancel": 2.0})
    async with peer(sim) as ws:
        assert (await call(ws, "echo", {"k": [1]}))["result"] == {"success": True, "echo": {"k": [1]}}
        await ws.send(json.dumps({"jsonrpc": "2.0", "method": "echo", "params": {"k": 2}}))
        assert json.loads(await ws.recv()) == {"notification": "echo", "params": {"k": 2}}
        await ws.send(json.dumps({"jsonrpc": "2.0", "method": "echo"}))
        assert json.loads(await ws.recv()) == {"notification": "echo"}
        await ws.send(json.dumps({"jsonrpc": "2.0", "id": 7.0, "method": "scene.save"}))
        await sim.wait_for("scene.save")
        assert (await call(ws, "_cancel", {"request_id": 7}, rid=8))["result"] == {"cancelled": True, "success": True}
        assert (await call(ws, "_cancel", {"request_id": 99}, rid=9))["result"] == {"cancelled": False, "success": True}


# -- ws_transport.gd -------------------------------------------------------------------------------


async def test_an_inbound_frame_over_the_buffer_is_lost_and_the_connection_stays(sim: ToolkitSim):
    async with peer(sim) as ws:
        big = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "echo", "params": {"x": "a" * (1024 * 1024)}})
        await ws.send(big)
        assert (await call(ws, "echo", {"small": True}, rid=2))["id"] == 2  # the big one got no answer
        assert sim.dropped == [len(big)]
        assert not sim.requests("echo")[:-1]


async def test_a_response_over_the_buffer_becomes_response_too_large(sim: ToolkitSim):
    sim.script("scene.get_tree", {"result": {"success": True, "blob": "b" * (1024 * 1024 - 2000)}})
    async with peer(sim) as ws:
        reply = await call(ws, "scene.get_tree", {}, rid="big")
        assert reply["id"] == "big"
        assert reply["result"]["code"] == "RESPONSE_TOO_LARGE" and reply["result"]["success"] is False
        assert "1020 KiB per frame" in reply["result"]["error"]


async def test_a_new_buffer_size_applies_to_connections_opened_after_it(sim: ToolkitSim):
    async with peer(sim) as first:
        reply = await call(first, "meta.set_limits", {"ws_buffer_kb": 64})
        assert reply["result"]["previous"] == {"ws_buffer_kb": 1024}
        assert reply["result"]["applied"] == {"ws_buffer_kb": 64} and "reconnect" in reply["result"]["hint"]
        medium = {"x": "m" * (100 * 1024)}
        assert (await call(first, "echo", medium, rid=2))["result"]["echo"] == medium  # still 1024 KiB here
        sim.script("scene.get_tree", {"result": {"success": True, **medium}})
        async with peer(sim) as second:
            assert (await call(second, "scene.get_tree", {}, rid=3))["result"]["code"] == "RESPONSE_TOO_LARGE"
            await second.send(json.dumps({"jsonrpc": "2.0", "id": 4, "method": "echo", "params": medium}))
            assert (await call(second, "echo", {}, rid=5))["id"] == 5  # the 100 KiB request was lost
        assert len(sim.dropped) == 1


# -- meta_commands.gd and editor_status_commands.gd ---------------------------------------------------


@pytest.mark.parametrize(
    ("params", "needle"),
    [({}, "Pass at least one of"), ({"buffer": 1}, "Unknown limit(s): buffer"), ({"ws_buffer_kb": 1.5}, "whole number")],
)
async def test_set_limits_refuses_what_the_toolkit_refuses(sim: ToolkitSim, params: dict[str, Any], needle: str):
    async with peer(sim) as ws:
        result = (await call(ws, "meta.set_limits", params))["result"]
        assert result["success"] is False and result["code"] == "INVALID_PARAMS" and needle in result["error"]
    assert sim.limits["ws_buffer_kb"] == 1024


async def test_set_limits_clamps_and_says_so(sim: ToolkitSim):
    async with peer(sim) as ws:
        result = (await call(ws, "meta.set_limits", {"ws_buffer_kb": 1, "script_read_cap_kb": 512}))["result"]
    assert result["applied"] == {"ws_buffer_kb": 64, "script_read_cap_kb": 512}
    assert result["clamped"] == ["ws_buffer_kb"]


@pytest.mark.parametrize(
    ("params", "needle"),
    [({"state": "up"}, "state must be one of"),
     ({"state": "active", "port": "6005"}, "port must be a whole number"),
     ({"state": "active", "host": 1}, "host must be a string")],
)
async def test_set_lsp_status_validates(sim: ToolkitSim, params: dict[str, Any], needle: str):
    async with peer(sim) as ws:
        result = (await call(ws, "editor.set_lsp_status", params))["result"]
    assert result["code"] == "INVALID_PARAMS" and needle in result["error"]
    assert sim.lsp_status is None


async def test_set_lsp_status_without_a_state_is_stored_as_unavailable(sim: ToolkitSim):
    # As the toolkit (and the reference) does: every field is optional.
    async with peer(sim) as ws:
        result = (await call(ws, "editor.set_lsp_status", {}))["result"]
    assert result == {"success": True, "lsp_status": {"state": "unavailable", "host": "", "port": 0, "detail": ""}}


async def test_set_lsp_status_stores_the_normalised_form(sim: ToolkitSim):
    async with peer(sim) as ws:
        result = (await call(ws, "editor.set_lsp_status", {"state": "active", "port": 6005.0}))["result"]
    assert result == {"success": True, "lsp_status": {"state": "active", "host": "", "port": 6005, "detail": ""}}


# -- registry_client.gd --------------------------------------------------------------------------------


async def test_the_registry_is_written_through_entry_files_and_the_projection(sim: ToolkitSim, data_home: Path):
    registry_dir = data_home / "godot-mcp-toolkit"
    entry_file = registry_dir / "entries" / f"{instance_hash(sim.key)}.json"
    assert json.loads(entry_file.read_text())["port"] == sim.port
    projected = json.loads((registry_dir / "projects.json").read_text())["by_path"][sim.key]
    assert projected["port"] == sim.port and projected["runtime_port"] is None
    assert not (registry_dir / "projects.lock").exists()
    assert sorted(p.name for p in registry_dir.iterdir()) == ["entries", "projects.json"]  # no .tmp/.bak left

    game = await sim.start_game()
    overlay = registry_dir / "entries" / f"{instance_hash(sim.key)}.runtime.json"
    assert json.loads(overlay.read_text())["runtime_port"] == game.port
    assert read_registry(registry_dir / "projects.json")[sim.key].runtime_port_raw == game.port

    sim.publish(runtime_port=1)  # an editor entry cannot carry the game's port: the overlay owns it
    assert sim.registry.read()[sim.key]["runtime_port"] == game.port

    await sim.stop_game(notify=False)
    assert not overlay.exists()
    assert sim.registry.read()[sim.key]["runtime_port"] is None


async def test_a_busy_lock_leaves_projects_json_as_it_was(sim: ToolkitSim, data_home: Path):
    registry_dir = data_home / "godot-mcp-toolkit"
    before = (registry_dir / "projects.json").read_text()
    (registry_dir / "projects.lock").mkdir()  # another editor is rebuilding right now
    try:
        sim.publish(godot_version="4.6.0")
        assert (registry_dir / "projects.json").read_text() == before  # the toolkit skips, the next change heals
    finally:
        (registry_dir / "projects.lock").rmdir()
    sim.publish(godot_version="4.6.0")
    assert sim.registry.read()[sim.key]["godot_version"] == "4.6.0"
