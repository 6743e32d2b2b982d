"""Editor-side faults: the real inbound buffer, a registry caught mid-rewrite, a frozen editor."""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import AsyncIterator
from pathlib import Path

from tests.sim.fixtures import BridgeFactory, fast, registry_file, tool, until
from tests.sim.server import ToolkitSim

MIB = 1024 * 1024


async def test_buffer_limit_follows_meta_set_limits(sim: ToolkitSim, make_bridge: BridgeFactory):
    # The editor had 1024 KiB; our 2048 applies to connections accepted from now on, so the bridge
    # reconnects. The simulator sizes each connection's buffer and answers meta.set_limits as the toolkit does.
    bridge = await make_bridge(ws_buffer_limit_kb=2048)
    content = "x" * (MIB + MIB // 2)
    out = await bridge.forward(tool("script_write"), {"file_path": "res://big.gd", "content": content})
    assert not out.is_error, out.structured
    assert len(sim.requests("meta.set_limits")) == 2
    assert sim.requests("script.write")[0].params["content"] == content
    too_big = await bridge.forward(tool("script_write"), {"file_path": "res://big.gd", "content": "x" * (2 * MIB)})
    assert too_big.is_error and too_big.structured["code"] == "REQUEST_TOO_LARGE"
    assert too_big.structured["limit_bytes"] == 2 * MIB and "2048 KiB" in too_big.structured["error"]


async def test_editor_that_does_not_report_its_buffer_keeps_the_default(sim: ToolkitSim, make_bridge: BridgeFactory):
    sim.script("meta.set_limits", {"result": {"success": True, "applied": {"ws_buffer_kb": 4096}}})
    bridge = await make_bridge(ws_buffer_limit_kb=4096)
    out = await bridge.forward(tool("script_write"), {"file_path": "res://big.gd", "content": "x" * (MIB + 10)})
    assert out.is_error and out.structured["limit_bytes"] == MIB
    assert len(sim.requests("meta.set_limits")) == 1  # nothing learnt, so no reconnect


async def test_registry_caught_mid_rewrite_keeps_the_game_channel(sim: ToolkitSim, make_bridge: BridgeFactory, data_home: Path):
    bridge = await make_bridge()
    out = await bridge.forward(tool("game_start"), {})
    assert out.structured["runtime_connected"] is True
    live = bridge._runtime.live()
    assert live is not None
    assert sim.runtime is not None
    runtime_port = sim.runtime.port
    # The registry watch has seen the game's port, so a read that lost it would count as a change.
    bridge._on_registry_change()
    await until(lambda: bridge._seen_ports == (sim.port, runtime_port), what="the game's port seen")
    # The toolkit's atomic write, frozen between its two renames: projects.json -> .bak, .tmp not yet moved.
    path = registry_file(data_home)
    text = path.read_text(encoding="utf-8")
    path.with_name(path.name + ".tmp").write_text(text, encoding="utf-8")
    os.replace(path, path.with_name(path.name + ".bak"))
    try:
        bridge._on_registry_change()
        await asyncio.sleep(0.2)  # a drop would be a spawned task; give it time to run
        assert bridge._runtime.live() is live
        state = await bridge.forward(tool("runtime_get_node_state"), {"node_path": "/root/Main"})
        assert not state.is_error
    finally:
        os.replace(path.with_name(path.name + ".tmp"), path)
        path.with_name(path.name + ".bak").unlink()


@contextlib.asynccontextmanager
async def frozen_editor() -> AsyncIterator[tuple[int, list[asyncio.StreamWriter]]]:
    """Accepts TCP and never says a word, like an editor stuck in a modal loop."""
    accepted: list[asyncio.StreamWriter] = []

    async def hold(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        accepted.append(writer)

    server = await asyncio.start_server(hold, "127.0.0.1", 0)
    try:
        yield server.sockets[0].getsockname()[1], accepted
    finally:
        for writer in accepted:
            writer.close()
        server.close()
        await server.wait_closed()


# Timeouts far longer than the test may take: a bridge that waits them out fails.
PATIENT = fast(connect_timeout=60.0, auth_timeout=60.0, call_timeout=60.0, reconnect_wait=60.0)


async def test_attempt_on_a_frozen_editor_is_abandoned_when_the_registry_moves(sim: ToolkitSim, make_bridge: BridgeFactory):
    async with frozen_editor() as (frozen_port, accepted):
        sim.publish(port=frozen_port)
        bridge = await make_bridge(timing=PATIENT)
        call = asyncio.create_task(bridge.forward(tool("scene_get_tree"), {}))
        await until(lambda: bool(accepted), timeout=10, what="the bridge dialled the frozen port")
        sim.publish()  # the editor is now on the simulator's port
        out = await asyncio.wait_for(call, 20)
    assert not out.is_error, out.structured
    assert bridge.editor_port == sim.port
    assert sim.requests("scene.get_tree")


async def test_live_channel_on_a_stale_port_is_dropped_when_the_registry_moves(
    sim: ToolkitSim, make_bridge: BridgeFactory, data_home: Path, project: Path
):
    bridge = await make_bridge(timing=PATIENT)
    assert not (await bridge.forward(tool("scene_get_tree"), {})).is_error
    # A second editor for the same project takes over the registry; the first stops answering.
    sim.script("scene.get_tree", {"silence": True}, times=None)
    newer = ToolkitSim(data_home, project, token=sim.token)
    await newer.start()
    try:
        await until(lambda: bridge.editor_port == newer.port, timeout=20, what="the bridge moved to the new port")
        out = await asyncio.wait_for(bridge.forward(tool("scene_get_tree"), {}), 20)
        assert not out.is_error
        assert newer.requests("scene.get_tree")
    finally:
        await newer.stop()


async def test_a_pinned_port_is_not_abandoned(sim: ToolkitSim, make_bridge: BridgeFactory, data_home: Path, project: Path):
    bridge = await make_bridge(editor_port=sim.port)
    assert not (await bridge.forward(tool("scene_get_tree"), {})).is_error
    newer = ToolkitSim(data_home, project, token=sim.token)
    await newer.start()
    try:
        bridge._on_registry_change()
        await asyncio.sleep(0.2)
        assert bridge.editor_port == sim.port and bridge.connected
    finally:
        await newer.stop()
