"""Finding the editor: registry, rediscovery, pins, version and extension facts, housekeeping calls."""

from __future__ import annotations

import asyncio
import socket
import sys
from pathlib import Path

import pytest

from godot_bridge.config import Settings
from godot_bridge.editor.bridge import EditorBridge
from godot_bridge.editor.watch import RegistryWatcher
from godot_bridge.tools.catalogue import load_catalogue
from tests.sim.fixtures import FAST, BridgeFactory, fast, registry_file, tool, until
from tests.sim.server import ToolkitSim


def _dead_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def _tree(bridge) -> dict:
    return (await bridge.forward(tool("scene_get_tree"), {})).structured


class Changes:
    """on_change recorder that tests can await."""

    def __init__(self) -> None:
        self.count = 0
        self._event = asyncio.Event()

    def __call__(self) -> None:
        self.count += 1
        self._event.set()

    async def next(self, timeout: float = 3.0) -> None:
        await asyncio.wait_for(self._event.wait(), timeout)
        self._event.clear()


# -- rediscovery ----------------------------------------------------------------------------


async def test_editor_moved_to_another_port(sim: ToolkitSim, make_bridge: BridgeFactory):
    bridge = await make_bridge()
    assert (await _tree(bridge))["success"] is True
    old = sim.port
    new = await sim.restart()  # republishes the registry with the new port
    assert new != old
    assert (await _tree(bridge))["success"] is True
    assert bridge.editor_port == new


async def test_background_reconnect_follows_the_registry(sim: ToolkitSim, make_bridge: BridgeFactory):
    bridge = await make_bridge(timing=fast(backoff_initial=5.0, backoff_max=5.0))  # only the watch can be this quick
    await sim.wait_for("extensions.list")
    mark = len(sim.received)
    await sim.restart()
    # No call is made: the registry watch notices the move and the link reconnects by itself.
    await sim.wait_for("extensions.list", after=mark, timeout=2.0)  # well inside the 5 s backoff
    await until(lambda: bridge.connected)
    assert bridge.editor_port == sim.port


async def test_failed_attempt_rereads_the_registry_and_retries_once(sim: ToolkitSim, make_bridge: BridgeFactory):
    dead = _dead_port()
    live = sim.port
    sim.publish(port=dead)  # stale: the editor has just moved
    bridge = await make_bridge(start=False)
    tried: list[int] = []
    original = bridge._editor._open

    async def racing_open(port, entry):
        tried.append(port)
        if port == dead:
            sim.publish()  # the editor republishes its real port while we dial the old one
        return await original(port, entry)

    bridge._editor._open = racing_open
    assert (await _tree(bridge))["success"] is True
    assert tried == [dead, live]


async def test_backoff_grows_without_an_editor_and_resets_after_a_round_trip(data_home, project, make_bridge: BridgeFactory):
    sim = ToolkitSim(data_home, project)
    bridge = await make_bridge(timing=fast(backoff_initial=0.01, backoff_max=0.08))
    link = bridge._editor
    await until(lambda: link._backoff == 0.08)
    try:
        await sim.start()  # publishes; the watch kicks the link out of its backoff sleep
        await sim.wait_for("extensions.list")
        await until(lambda: link._backoff == 0.01)
    finally:
        await sim.stop()


# -- pins --------------------------------------------------------------------------------------


async def test_pinned_port_desync_names_both_ports_and_the_env_var(sim: ToolkitSim, make_bridge: BridgeFactory):
    dead = _dead_port()
    bridge = await make_bridge(editor_port=dead, env={"GODOT_MCP_EDITOR_PORT": str(dead)})
    result = await _tree(bridge)
    assert result["code"] == "CONNECT_FAILED"
    error = result["error"]
    assert "desync" in error
    assert f"pinned to port {dead} by GODOT_MCP_EDITOR_PORT={dead}" in error
    assert f"listens on port {sim.port}" in error
    assert "GODOT_MCP_EDITOR_PORT" in result["hint"] and str(dead) in result["hint"]


async def test_pinned_port_desync_from_the_cli_flag(sim: ToolkitSim, make_bridge: BridgeFactory):
    dead = _dead_port()
    result = await _tree(await make_bridge(editor_port=dead))
    assert f"pinned to port {dead} by --editor-port {dead}" in result["error"]
    assert "--editor-port" in result["hint"]


async def test_a_pin_that_works_wins_over_the_registry(sim: ToolkitSim, make_bridge: BridgeFactory):
    live = sim.port
    sim.publish(port=_dead_port())
    bridge = await make_bridge(editor_port=live)
    assert (await _tree(bridge))["success"] is True
    assert bridge.editor_port == live


async def test_a_dead_pin_without_a_registry_entry_is_plain_connect_failed(make_bridge: BridgeFactory):
    dead = _dead_port()
    result = await _tree(await make_bridge(editor_port=dead))
    assert result["code"] == "CONNECT_FAILED"
    assert "desync" not in result["error"]
    assert f"on port {dead} (pinned by --editor-port {dead})" in result["error"]


# -- the Godot version ---------------------------------------------------------------------------


async def test_version_known_from_the_registry_before_connecting(data_home, project, make_bridge: BridgeFactory):
    sim = ToolkitSim(data_home, project, godot_version="4.5.1")
    await sim.start()
    await sim.stop()  # the entry stays: the version is known with no editor running
    changes = Changes()
    bridge = await make_bridge(on_change=changes)
    assert bridge.godot_version == (4, 5)
    assert changes.count == 1


async def test_the_ack_overrides_the_registry(data_home, project, make_bridge: BridgeFactory):
    sim = ToolkitSim(data_home, project, godot_version="4.5.0", headless=True)
    await sim.start(publish=False)
    sim.publish(godot_version="4.3.2")
    changes = Changes()
    try:
        bridge = await make_bridge(start=False, on_change=changes)
        await bridge.start()
        assert bridge.godot_version == (4, 3)
        await changes.next()
        assert (await _tree(bridge))["success"] is True
        assert bridge.godot_version == (4, 5)
        assert bridge.godot_version_text == "4.5.0"
        assert bridge.headless is True
        assert changes.count == 2
        # While the live ack says 4.5, a registry rewrite does not flip it back.
        sim.publish(godot_version="4.3.2")
        assert (await _tree(bridge))["success"] is True
        assert bridge.godot_version == (4, 5)
    finally:
        await sim.stop()


async def test_registry_version_change_is_picked_up_by_the_watch(sim: ToolkitSim, make_bridge: BridgeFactory):
    await sim.stop()
    changes = Changes()
    bridge = await make_bridge(on_change=changes)
    assert bridge.godot_version == (4, 4)
    await changes.next()
    sim.publish(godot_version="4.6.0")  # e.g. the project reopened in a newer editor
    await changes.next()
    assert bridge.godot_version == (4, 6)


# -- housekeeping after auth ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("settings", "expected"),
    [
        ({"script_read_limit_kb": 64, "ws_buffer_limit_kb": 2048}, {"script_read_cap_kb": 64, "ws_buffer_kb": 2048}),
        ({"ws_buffer_limit_kb": 4096}, {"ws_buffer_kb": 4096}),
        ({}, None),
    ],
)
async def test_limits_are_sent_before_any_tool_call(settings, expected, sim: ToolkitSim, make_bridge: BridgeFactory):
    bridge = await make_bridge(**settings)
    assert (await _tree(bridge))["success"] is True
    methods = [r.method for r in sim.requests()]
    if expected is None:
        assert "meta.set_limits" not in methods
    else:
        assert sim.requests("meta.set_limits")[0].params == expected
        assert methods.index("meta.set_limits") < methods.index("scene.get_tree")


async def test_old_toolkit_without_housekeeping_methods_still_works(sim: ToolkitSim, make_bridge: BridgeFactory):
    sim.script("meta.set_limits", {"rpc_error": {"code": -32601, "message": "Method not found"}})
    sim.script("extensions.list", {"rpc_error": {"code": -32601, "message": "Method not found"}})
    bridge = await make_bridge(script_read_limit_kb=10)
    assert (await _tree(bridge))["success"] is True
    assert bridge.extension_commands == []


async def test_lsp_status_is_deduplicated_and_resent_after_a_reconnect(sim: ToolkitSim, make_bridge: BridgeFactory):
    bridge = await make_bridge()
    assert (await _tree(bridge))["success"] is True
    active = {"state": "active", "host": "127.0.0.1", "port": 6005, "detail": "ok"}
    await bridge.send_lsp_status(active)
    await bridge.send_lsp_status({**active, "detail": "still ok"})  # same verdict: not resent
    conflict = {"state": "conflict", "host": "127.0.0.1", "port": 6005, "detail": "another editor"}
    await bridge.send_lsp_status(conflict)
    assert [r.params for r in sim.requests("editor.set_lsp_status")] == [active, conflict]

    port = sim.port
    await sim.stop()
    await until(lambda: not bridge.connected)
    unavailable = {"state": "unavailable", "host": "127.0.0.1", "port": 6005, "detail": "down"}
    await bridge.send_lsp_status(unavailable)  # silent while disconnected
    mark = len(sim.received)
    await sim.start(port)
    record = await sim.wait_for("editor.set_lsp_status", after=mark)
    assert record.params == unavailable


# -- lifecycle --------------------------------------------------------------------------------------


async def test_start_never_raises_and_returns_at_once(tmp_path: Path):
    settings = Settings(project_path=tmp_path, env={"XDG_DATA_HOME": str(tmp_path / "no" / "such" / "dir")})
    bridge = EditorBridge(settings, catalogue=load_catalogue(), timing=FAST)
    await asyncio.wait_for(bridge.start(), 0.5)
    await bridge.start()  # idempotent
    assert bridge.godot_version is None and bridge.extension_commands == [] and not bridge.connected
    await bridge.aclose()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="XDG_DATA_HOME is the Linux registry root")
async def test_registry_location_comes_from_the_environment(sim: ToolkitSim, data_home: Path, project: Path):
    bridge = EditorBridge(Settings(project_path=project, env={"XDG_DATA_HOME": str(data_home)}),
                          catalogue=load_catalogue(), timing=FAST)
    assert bridge.registry_file == registry_file(data_home)
    try:
        await bridge.start()
        assert (await _tree(bridge))["success"] is True
    finally:
        await bridge.aclose()


async def test_watcher_waits_for_the_registry_directory(tmp_path: Path):
    target = tmp_path / "later" / "godot-mcp-toolkit" / "projects.json"
    seen = asyncio.Event()
    watcher = RegistryWatcher(target, seen.set, debounce_ms=20, poll_interval=0.02)
    watcher.start()
    try:
        target.parent.mkdir(parents=True)
        await asyncio.wait_for(watcher.watching.wait(), 3)
        seen.clear()
        tmp = target.with_name("projects.json.tmp")
        tmp.write_text("{}")
        tmp.replace(target)
        await asyncio.wait_for(seen.wait(), 3)
        # Unrelated files in the directory are not a registry change.
        seen.clear()
        (target.parent / "entries.log").write_text("x")
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(seen.wait(), 0.3)
    finally:
        await watcher.aclose()
