"""The running game's channel: discovery, routing, heartbeat, teardown, crash context."""

from __future__ import annotations

import asyncio
import time

import pytest

from tests.sim.fixtures import BridgeFactory, fast, tool
from tests.sim.server import ToolkitSim


async def _runtime_channel(bridge):
    ch = bridge._runtime.live()
    assert ch is not None, "no runtime channel"
    return ch


async def test_game_start_waits_for_the_runtime_and_reports_it(sim: ToolkitSim, make_bridge: BridgeFactory):
    bridge = await make_bridge()
    out = await bridge.forward(tool("game_start"), {"scene_path": "res://main.tscn"})
    assert not out.is_error
    assert out.structured["status"] == "started"
    assert out.structured["runtime_connected"] is True
    assert out.structured["runtime_port"] == sim.runtime.port == bridge.runtime_port
    assert out.structured["hint"] == tool("game_start").success_hint
    assert sim.requests("game.start")[0].params == {"scene_path": "res://main.tscn"}
    # Runtime tools now reach the game, not the editor.
    state = await bridge.forward(tool("runtime_get_node_state"), {"node_path": "/root/Main"})
    assert not state.is_error and "properties" in state.structured
    assert sim.runtime.requests("runtime.get_node_state")[0].params == {"node_path": "/root/Main"}
    assert not sim.requests("runtime.get_node_state")


async def test_game_start_when_the_game_never_comes_up(sim: ToolkitSim, make_bridge: BridgeFactory):
    sim.script("game.start", {"result": {"success": True, "status": "started"}})  # but no runtime binds
    bridge = await make_bridge(timing=fast(runtime_wait=0.3))
    started = time.monotonic()
    out = await bridge.forward(tool("game_start"), {})
    assert 0.25 < time.monotonic() - started < 2.0
    assert out.structured["runtime_connected"] is False
    assert "did not come up within 0.3 s" in out.structured["runtime_detail"]


async def test_game_start_that_fails_does_not_wait(sim: ToolkitSim, make_bridge: BridgeFactory):
    sim.script("game.start", {"fail": {"error": "no main scene", "code": "INVALID_STATE"}})
    bridge = await make_bridge(timing=fast(runtime_wait=5))
    started = time.monotonic()
    out = await bridge.forward(tool("game_start"), {})
    assert out.is_error and out.structured["code"] == "INVALID_STATE"
    assert "runtime_connected" not in out.structured
    assert time.monotonic() - started < 1.0


async def test_game_start_picks_up_a_runtime_that_appears_later(sim: ToolkitSim, make_bridge: BridgeFactory):
    async def late_game() -> None:
        await sim.start_game()  # the game binds and writes runtime_port a moment after game.start returned

    sim.script("game.start", {"result": {"success": True, "status": "started"}})
    bridge = await make_bridge()
    call = asyncio.create_task(bridge.forward(tool("game_start"), {}))
    await sim.wait_for("game.start")
    await late_game()
    out = await asyncio.wait_for(call, 3)
    assert out.structured["runtime_connected"] is True and out.structured["runtime_port"] == sim.runtime.port


async def test_runtime_tool_without_a_game(sim: ToolkitSim, make_bridge: BridgeFactory):
    bridge = await make_bridge()
    started = time.monotonic()
    out = await bridge.forward(tool("input_simulate"), {"events": {"event_type": "click"}})
    assert time.monotonic() - started < 1.0
    assert out.structured["code"] == "GAME_NOT_RUNNING"
    assert "no game is running" in out.structured["error"]
    assert "game_start" in out.structured["hint"]
    assert not sim.requests("input.simulate")


async def test_stale_runtime_port_is_game_not_running(sim: ToolkitSim, make_bridge: BridgeFactory):
    game = await sim.start_game()
    port = game.port
    await game.stop()  # crashed: the registry still lists it (its pid is ours, so it looks alive)
    bridge = await make_bridge()
    out = await bridge.forward(tool("runtime_get_node_state"), {"node_path": "/root"})
    assert out.structured["code"] == "GAME_NOT_RUNNING"
    assert f"cannot reach the game on port {port} (from the registry)" in out.structured["error"]


async def test_dead_runtime_pid_means_no_game(sim: ToolkitSim, make_bridge: BridgeFactory):
    game = await sim.start_game()
    sim.publish_runtime(runtime_pid=2**22 + 12345)  # a pid that is not running
    bridge = await make_bridge()
    out = await bridge.forward(tool("runtime_get_node_state"), {"node_path": "/root"})
    assert out.structured["code"] == "GAME_NOT_RUNNING"
    assert not game.requests("runtime.get_node_state")


async def test_pinned_runtime_port(sim: ToolkitSim, make_bridge: BridgeFactory):
    game = await sim.start_game()
    sim.registry.remove_overlay(sim.key)  # the registry does not name the game
    bridge = await make_bridge(runtime_port=game.port)
    out = await bridge.forward(tool("runtime_get_script_vars"), {"node_path": "/root"})
    assert not out.is_error
    assert game.requests("runtime.get_script_vars")


@pytest.mark.parametrize(
    ("name", "channel", "target"),
    [
        ("execute_code", None, "runtime"),
        ("execute_code", "runtime", "runtime"),
        ("execute_code", "game", "runtime"),
        ("execute_code", "editor", "editor"),
        ("signal_emit", None, "editor"),
        ("signal_emit", "runtime", "runtime"),
        ("signal_emit", "game", "runtime"),
    ],
)
async def test_channel_argument(name, channel, target, sim: ToolkitSim, make_bridge: BridgeFactory):
    game = await sim.start_game()
    bridge = await make_bridge()
    args = {"code": "return 1"} if name == "execute_code" else {"node_path": "/root", "signal_name": "hit", "args": [1]}
    sent = dict(args)
    if channel is not None:
        args["channel"] = channel
    out = await bridge.forward(tool(name), args)
    assert not out.is_error, out.structured
    method = tool(name).method
    server, other = (game, sim) if target == "runtime" else (sim, game)
    assert [r.params for r in server.requests(method)] == [sent]  # 'channel' stripped: the toolkit does not read it
    assert not other.requests(method)


async def test_debugger_log_falls_back_to_the_editor(sim: ToolkitSim, make_bridge: BridgeFactory):
    sim.log_lines = ["last session: hello"]
    bridge = await make_bridge()
    out = await bridge.forward(tool("debugger_get_log"), {"limit": 5})
    assert [e["message"] for e in out.structured["entries"]] == ["last session: hello"]
    assert out.structured["source"] == "file"
    assert sim.requests("debugger.get_log")[0].params == {"limit": 5}
    game = await sim.start_game()
    game.log_lines = ["live: hi"]
    out = await bridge.forward(tool("debugger_get_log"), {"limit": 5, "source": "buffer"})
    assert [e["message"] for e in out.structured["entries"]] == ["live: hi"]
    assert out.structured["source"] == "buffer"
    assert game.requests("debugger.get_log")[0].params == {"limit": 5, "source": "buffer"}


# -- lifecycle ----------------------------------------------------------------------------------


async def test_game_stop_tears_the_channel_down(sim: ToolkitSim, make_bridge: BridgeFactory):
    bridge = await make_bridge()
    await bridge.forward(tool("game_start"), {})
    ch = await _runtime_channel(bridge)
    out = await bridge.forward(tool("game_stop"), {})
    assert out.structured["status"] == "stopped"
    await asyncio.wait_for(ch.closed.wait(), 2)
    after = await bridge.forward(tool("runtime_get_node_state"), {"node_path": "/root"})
    assert after.structured["code"] == "GAME_NOT_RUNNING"


async def test_game_stopped_push_alone_clears_the_channel(sim: ToolkitSim, make_bridge: BridgeFactory):
    game = await sim.start_game()
    bridge = await make_bridge()
    await bridge.forward(tool("runtime_get_node_state"), {"node_path": "/root"})
    ch = await _runtime_channel(bridge)
    await sim.push({"notification": "game_stopped"})  # the game's socket is still open
    await asyncio.wait_for(ch.closed.wait(), 2)
    assert bridge.runtime_port is None
    assert game.port is not None


async def test_registry_runtime_port_change_retargets(sim: ToolkitSim, make_bridge: BridgeFactory):
    await sim.start_game()
    bridge = await make_bridge()
    await bridge.forward(tool("runtime_get_node_state"), {"node_path": "/root"})
    ch = await _runtime_channel(bridge)
    await sim.stop_game(notify=False)  # only the registry says so
    await asyncio.wait_for(ch.closed.wait(), 3)
    second = await sim.start_game()
    out = await bridge.forward(tool("runtime_get_node_state"), {"node_path": "/root"})
    assert not out.is_error
    assert bridge.runtime_port == second.port


async def test_heartbeat_keeps_a_healthy_game(sim: ToolkitSim, make_bridge: BridgeFactory):
    game = await sim.start_game()
    bridge = await make_bridge()
    await bridge.forward(tool("runtime_get_node_state"), {"node_path": "/root"})
    ch = await _runtime_channel(bridge)
    for _ in range(4):
        await game.wait_for("ping", after=len(game.received))
    assert ch.is_open
    assert all(r.params == {} for r in game.requests("ping"))


async def test_heartbeat_misses_tear_a_hung_game_down(sim: ToolkitSim, make_bridge: BridgeFactory):
    game = await sim.start_game()
    bridge = await make_bridge(timing=fast(heartbeat_interval=0.05, heartbeat_misses=3))
    await bridge.forward(tool("runtime_get_node_state"), {"node_path": "/root"})
    ch = await _runtime_channel(bridge)
    game.answer_pings = False  # hung: the socket is open but nothing answers
    started = time.monotonic()
    await asyncio.wait_for(ch.closed.wait(), 3)
    assert time.monotonic() - started >= 0.1
    assert len(game.requests("ping")) >= 3
    out = await bridge.forward(tool("runtime_get_node_state"), {"node_path": "/root"})
    assert not out.is_error  # the next call dials the (still listed) game afresh


# -- crash context ------------------------------------------------------------------------------


async def test_game_crash_mid_call_carries_the_log_tail(sim: ToolkitSim, make_bridge: BridgeFactory):
    game = await sim.start_game()
    sim.log_lines = ["Game started", {"level": "error", "message": "Invalid call. Nonexistent function 'jump'",
                                      "source": "_process (res://player.gd:12)"}]
    game.script("input.simulate", {"abort": True})
    bridge = await make_bridge()
    out = await bridge.forward(tool("input_simulate"), {"events": [{"event_type": "click"}]})
    assert out.structured["code"] == "GAME_NOT_RUNNING"
    assert "closed" in out.structured["error"] and "'input.simulate'" in out.structured["error"]
    assert out.structured["crash_context"] == [
        "Game started", "Invalid call. Nonexistent function 'jump' (_process (res://player.gd:12))"]
    assert len(out.structured["crash_context"]) <= 8


@pytest.mark.parametrize("code", ["COMPILATION_FAILED", "GAME_NOT_RUNNING", "TIMEOUT"])
async def test_toolkit_runtime_failures_carry_the_log_tail(code, sim: ToolkitSim, make_bridge: BridgeFactory):
    game = await sim.start_game()
    sim.log_lines = ["Parse Error: Expected end of statement", "at line 1"]
    game.script("execute.code", {"fail": {"error": "did not compile", "code": code}})
    bridge = await make_bridge()
    out = await bridge.forward(tool("execute_code"), {"code": "return ("})
    assert out.structured["code"] == code
    assert out.structured["crash_context"] == sim.log_lines


async def test_runtime_timeout_carries_the_log_tail(sim: ToolkitSim, make_bridge: BridgeFactory):
    game = await sim.start_game()
    sim.log_lines = ["infinite loop in _process?"]
    game.script("runtime.get_node_state", {"silence": True})
    bridge = await make_bridge(timing=fast(call_timeout=0.2))
    out = await bridge.forward(tool("runtime_get_node_state"), {"node_path": "/root"})
    assert out.structured["code"] == "TIMEOUT"
    assert out.structured["crash_context"] == ["infinite loop in _process?"]


async def test_editor_failures_get_no_crash_context(sim: ToolkitSim, make_bridge: BridgeFactory):
    sim.log_lines = ["x"]
    sim.script("scene.open", {"fail": {"error": "t", "code": "TIMEOUT"}})
    bridge = await make_bridge()
    out = await bridge.forward(tool("scene_open"), {"file_path": "res://a.tscn"})
    assert "crash_context" not in out.structured
    assert not sim.requests("debugger.get_log")


async def test_crash_context_never_makes_the_failure_worse(sim: ToolkitSim, make_bridge: BridgeFactory):
    game = await sim.start_game()
    game.script("runtime.set_property", {"fail": {"error": "game gone", "code": "GAME_NOT_RUNNING"}})
    sim.script("debugger.get_log", {"silence": True})  # the editor cannot even read its log
    bridge = await make_bridge(timing=fast(crash_context_timeout=0.2))
    started = time.monotonic()
    out = await bridge.forward(tool("runtime_set_property"), {"node_path": "/root", "property": "x", "value": 1})
    assert time.monotonic() - started < 1.0
    assert out.structured == {"success": False, "error": "game gone", "code": "GAME_NOT_RUNNING"}
    sim.script("debugger.get_log", {"fail": {"error": "busy", "code": "LOG_BUSY"}})
    game.script("runtime.set_property", {"fail": {"error": "game gone", "code": "GAME_NOT_RUNNING"}})
    out = await bridge.forward(tool("runtime_set_property"), {"node_path": "/root", "property": "x", "value": 1})
    assert "crash_context" not in out.structured


async def test_no_crash_context_without_an_editor(data_home, project, make_bridge: BridgeFactory):
    sim = ToolkitSim(data_home, project)
    await sim.start()
    game = await sim.start_game()
    game.script("runtime.get_node_state", {"fail": {"error": "gone", "code": "GAME_NOT_RUNNING"}})
    runtime_port = game.port
    sim.runtime = None  # keep the game while the editor goes away
    await sim.stop()
    try:
        bridge = await make_bridge(runtime_port=runtime_port)
        started = time.monotonic()
        out = await bridge.forward(tool("runtime_get_node_state"), {"node_path": "/root"})
        assert time.monotonic() - started < 1.0  # no editor connect attempt or wait for the context
        assert out.structured["code"] == "GAME_NOT_RUNNING" and "crash_context" not in out.structured
    finally:
        await game.stop()
