"""Every way the editor connection can fail ends in a clear error, never a hang."""

from __future__ import annotations

import asyncio
import os
import socket
import stat
import time
from pathlib import Path

import pytest

from tests.sim.fixtures import BridgeFactory, fast, tool, until
from tests.sim.server import ToolkitSim


def _port_free(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) != 0


async def _tree(bridge) -> dict:
    out = await bridge.forward(tool("scene_get_tree"), {})
    return out.structured


# -- cold: never connected ---------------------------------------------------------------


async def test_no_editor_and_no_registry_fails_fast(make_bridge: BridgeFactory, project: Path, data_home: Path):
    if not _port_free(6550):
        pytest.skip("something listens on 6550 on this machine")
    bridge = await make_bridge()
    started = time.monotonic()
    result = await _tree(bridge)
    assert time.monotonic() - started < 1.0
    assert result["code"] == "CONNECT_FAILED"
    registry = data_home / "godot-mcp-toolkit" / "projects.json"
    assert (f"for {project} on port 6550 (the default; the registry file does not exist yet: {registry}, under "
            "XDG_DATA_HOME)") in result["error"], "the registry file it read, whether it existed, what put it there"
    assert "connection refused" in result["error"]
    assert "godot_mcp_toolkit plugin enabled" in result["hint"]


async def test_without_xdg_data_home_the_error_says_so(make_bridge: BridgeFactory, data_home: Path):
    """A client that passes on only some variables (Codex) drops XDG_DATA_HOME: the bridge then reads the
    default folder's registry, and CONNECT_FAILED names that file and the missing variable."""
    if not _port_free(6550):
        pytest.skip("something listens on 6550 on this machine")
    result = await _tree(await make_bridge(env={"XDG_DATA_HOME": ""}))
    assert result["code"] == "CONNECT_FAILED"
    assert "does not exist yet: " in result["error"] and ", XDG_DATA_HOME is not set here)" in result["error"]


async def test_stale_registry_entry_names_the_port(sim: ToolkitSim, make_bridge: BridgeFactory):
    port = sim.port
    await sim.stop()  # the entry lingers, as the toolkit's do
    result = await _tree(await make_bridge())
    assert result["code"] == "CONNECT_FAILED"
    assert f"on port {port} (from the registry {sim.registry.path})" in result["error"]


@pytest.mark.parametrize(
    ("text", "needle"),
    [("{not json", "not valid JSON"), ('{"projects": {}}', "no 'by_path' object"), ('{"by_path": {}}', "no entry")],
)
async def test_corrupt_registry_is_reported_then_recovered(text, needle, sim: ToolkitSim, make_bridge: BridgeFactory):
    if not _port_free(6550):
        pytest.skip("something listens on 6550 on this machine")
    sim.registry.write_raw(text)
    bridge = await make_bridge()
    result = await _tree(bridge)
    assert result["code"] == "CONNECT_FAILED" and needle in result["error"]
    sim.publish()  # the editor rewrites the registry
    assert (await _tree(bridge))["success"] is True


async def test_a_frozen_editor_costs_one_handshake_timeout(sim: ToolkitSim, make_bridge: BridgeFactory):
    sim.frozen = True  # the port accepts, the main thread never answers
    bridge = await make_bridge(timing=fast(auth_timeout=0.3))  # its background attempt starts now
    started = time.monotonic()
    result = await _tree(bridge)  # queues behind that attempt and takes its outcome
    assert time.monotonic() - started < 0.55
    assert result["code"] == "CONNECT_FAILED" and "no auth ack within 0.3 s" in result["error"]
    sim.frozen = False
    assert (await _tree(bridge))["success"] is True


# -- auth ---------------------------------------------------------------------------------


async def test_wrong_token_is_auth_failed(sim: ToolkitSim, make_bridge: BridgeFactory):
    sim.token = "f" * 64  # the editor expects a token the file does not hold
    result = await _tree(await make_bridge())
    assert result["code"] == "AUTH_FAILED"
    assert f"rejected the token from {sim.token_path} (from registry)" in result["error"]
    assert "Restart the editor" in result["hint"]


@pytest.mark.parametrize(
    ("token_path", "needle"),
    [
        ("", "publishes no token_path"),
        ("relative/addons/godot_mcp_toolkit/project_instance_0123456789ab/mcp_token", "is not an absolute path"),
        ("/x/../addons/godot_mcp_toolkit/project_instance_0123456789ab/mcp_token", "contains a '..' segment"),
        ("/etc/passwd", "does not end in addons/godot_mcp_toolkit/project_instance_<12 hex>/mcp_token"),
        ("/nowhere/addons/godot_mcp_toolkit/project_instance_0123456789ab/mcp_token", "does not exist"),
    ],
)
async def test_each_token_path_rule_end_to_end(token_path, needle, sim: ToolkitSim, make_bridge: BridgeFactory):
    sim.publish(token_path=token_path)
    result = await _tree(await make_bridge())
    assert result["code"] == "AUTH_FAILED" and needle in result["error"]
    assert sim.auth_frames == []  # refused before a token was sent anywhere


async def test_token_override_bypasses_the_registry_path(sim: ToolkitSim, make_bridge: BridgeFactory, tmp_path: Path):
    sim.publish(token_path="garbage")
    override = tmp_path / "token.txt"
    override.write_text(sim.token + "\n")
    override.chmod(0o600)
    bridge = await make_bridge(token_path=override)
    assert (await _tree(bridge))["success"] is True
    missing = await make_bridge(token_path=tmp_path / "missing")
    result = await _tree(missing)
    assert result["code"] == "AUTH_FAILED" and "GODOT_MCP_TOKEN_PATH=" in result["error"]


async def test_token_is_reread_on_reconnect(sim: ToolkitSim, make_bridge: BridgeFactory):
    bridge = await make_bridge()
    assert (await _tree(bridge))["success"] is True
    old = sim.token
    await sim.restart(new_token=True)
    assert sim.token != old
    assert (await _tree(bridge))["success"] is True
    assert sim.auth_frames[-1]["auth"] == sim.token


@pytest.mark.skipif(os.name != "posix", reason="Unix permissions only")
async def test_a_token_written_as_the_reference_toolkit_writes_it_connects(
        make_bridge: BridgeFactory, data_home: Path, project: Path):
    """The reference toolkit writes its token with the process umask (0644 in a 0755 folder), a
    fresh file on every editor start: the bridge makes it private and connects, every time."""
    editor = await ToolkitSim(data_home, project, token_umask=0o022).start()
    try:
        assert stat.S_IMODE(editor.token_path.stat().st_mode) == 0o644
        bridge = await make_bridge()
        assert (await _tree(bridge))["success"] is True
        assert editor.auth_frames[-1]["auth"] == editor.token
        assert stat.S_IMODE(editor.token_path.stat().st_mode) == 0o600
        assert stat.S_IMODE(editor.token_path.parent.stat().st_mode) == 0o700
        await editor.restart(new_token=True)  # the editor restarts: a fresh 0644 token
        assert stat.S_IMODE(editor.token_path.stat().st_mode) == 0o644
        assert (await _tree(bridge))["success"] is True
        assert editor.auth_frames[-1]["auth"] == editor.token
    finally:
        await editor.stop()


# -- hot: connected, then lost ------------------------------------------------------------


async def test_editor_gone_after_connecting_is_disconnected_after_the_wait(sim: ToolkitSim, make_bridge: BridgeFactory):
    bridge = await make_bridge(timing=fast(reconnect_wait=0.5))
    assert (await _tree(bridge))["success"] is True
    await sim.stop()
    started = time.monotonic()
    result = await _tree(bridge)
    elapsed = time.monotonic() - started
    assert result["code"] == "DISCONNECTED"
    assert "did not come back within 0.5 s" in result["error"] and "Last attempt:" in result["error"]
    assert "still running" in result["hint"]
    assert 0.4 < elapsed < 2.0


async def test_a_call_rides_out_an_editor_restart(sim: ToolkitSim, make_bridge: BridgeFactory):
    bridge = await make_bridge(timing=fast(reconnect_wait=5.0))
    assert (await _tree(bridge))["success"] is True
    port = sim.port
    await sim.stop()
    await until(lambda: not bridge.connected)
    call = asyncio.create_task(_tree(bridge))
    # Absence of a failure cannot be awaited as an event: give the call a few retry rounds to fail.
    await asyncio.sleep(0.1)
    assert not call.done()
    await sim.start(port)
    assert (await asyncio.wait_for(call, 5))["success"] is True


async def test_editor_killed_mid_call(sim: ToolkitSim, make_bridge: BridgeFactory):
    bridge = await make_bridge()
    sim.script("editor.save_scene", {"executing": True}, {"abort": True})
    out = await bridge.forward(tool("editor_save_scene"), {})
    assert out.structured["code"] == "DISCONNECTED"
    assert "while 'editor.save_scene' was running; it may or may not have been applied" in out.structured["error"]
    assert "crashed" in out.structured["hint"]
    # The next call reconnects by itself.
    assert (await _tree(bridge))["success"] is True


async def test_close_mid_call_names_the_close_code(sim: ToolkitSim, make_bridge: BridgeFactory):
    bridge = await make_bridge()
    sim.script("editor.save_scene", {"close": {"code": 1011, "reason": "editor crashed"}})
    out = await bridge.forward(tool("editor_save_scene"), {})
    assert out.structured["code"] == "DISCONNECTED"
    assert "code 1011 'editor crashed'" in out.structured["error"]
    assert "may or may not have been applied" in out.structured["error"]


# -- silence, progress, cancellation -----------------------------------------------------------


async def test_silence_past_the_timeout_and_the_editor_is_told(sim: ToolkitSim, make_bridge: BridgeFactory):
    bridge = await make_bridge(timing=fast(call_timeout=0.2))
    sim.script("scene.get_tree", {"silence": True})
    started = time.monotonic()
    result = await _tree(bridge)
    assert result["code"] == "TIMEOUT"
    assert result["error"] == "'scene.get_tree' got no reply within 0.2 s"
    assert "modal dialog" in result["hint"]
    assert 0.15 < time.monotonic() - started < 1.0
    sent = sim.requests("scene.get_tree")[0].frame
    cancel = await sim.wait_for("_cancel")
    assert cancel.frame["params"] == {"request_id": str(sent["id"])}


async def test_silence_after_queued(sim: ToolkitSim, make_bridge: BridgeFactory):
    bridge = await make_bridge(timing=fast(call_timeout=0.2))
    sim.script("scene.get_tree", {"queued": True}, {"silence": True})
    result = await _tree(bridge)
    assert result["code"] == "TIMEOUT"
    assert "got no reply within 0.2 s after the editor reported it queued" in result["error"]


async def test_progress_notifications_keep_a_long_call_alive(sim: ToolkitSim, make_bridge: BridgeFactory):
    bridge = await make_bridge(timing=fast(call_timeout=0.2))
    sim.script(
        "scene.get_tree",
        {"queued": True}, {"sleep": 0.12}, {"executing": True}, {"sleep": 0.12}, {"executing": True}, {"sleep": 0.12},
        {"result": {"success": True, "slow": True}},
    )
    started = time.monotonic()
    assert await _tree(bridge) == {"success": True, "slow": True}
    assert time.monotonic() - started > 0.3  # longer than the timeout, kept alive by progress


async def test_catalogue_timeout_overrides_the_default(sim: ToolkitSim, make_bridge: BridgeFactory):
    bridge = await make_bridge(timing=fast(call_timeout=0.1))
    # game_start's catalogue timeout is 60 s: a 0.3 s start is fine although the default is 0.1 s.
    sim.script("game.start", {"sleep": 0.3}, {"result": {"success": True, "status": "started"}})
    out = await bridge.forward(tool("game_start"), {"wait_for_runtime": False})
    assert out.structured["status"] == "started"


async def test_cancellation_reaches_the_editor(sim: ToolkitSim, make_bridge: BridgeFactory):
    bridge = await make_bridge()
    sim.script("scene.get_tree", {"wait_cancel": 5})
    task = asyncio.create_task(_tree(bridge))
    sent = await sim.wait_for("scene.get_tree")
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    cancel = await sim.wait_for("_cancel")
    assert cancel.frame == {"jsonrpc": "2.0", "method": "_cancel", "params": {"request_id": str(sent.frame["id"])}}
    # The connection is still good afterwards.
    assert (await _tree(bridge))["success"] is True


async def test_concurrent_calls_are_correlated(sim: ToolkitSim, make_bridge: BridgeFactory):
    bridge = await make_bridge()
    sim.script("node.get_property", {"sleep": 0.1}, {"echo": True})  # the first one answers last
    sim.script("node.get_property", {"echo": True}, times=None)
    outs = await asyncio.gather(
        *(bridge.forward(tool("node_get_property"), {"node_path": f"/root/N{i}", "property": "name"}) for i in range(20))
    )
    assert [o.structured["params"]["node_path"] for o in outs] == [f"/root/N{i}" for i in range(20)]
