"""The game_time group through the real bridge process into the simulated game's runtime channel.

The simulated game answers the time.* methods with the toolkit's result examples
(tests/fixtures/toolkit/results/time.json, each checked against the real toolkit in the Godot
engine), so this is the README's agent loop as a client runs it: load the group, pause, inject
input, step 10 frames, read state; plus a step_until that runs out of frames (an error result that
still carries the last value) and arguments the bridge refuses before the game sees them.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.bridge_process import BridgeProcess, body
from tests.sim.examples import load_examples
from tests.sim.fixtures import process_sim as sim  # noqa: F401 - the editor this module's bridges talk to
from tests.sim.server import ToolkitSim


def _example(method: str, index: int) -> dict[str, Any]:
    example: dict[str, Any] = load_examples()[method][index]
    return example


async def _game_with_group(sim: ToolkitSim, bridge: BridgeProcess) -> ToolkitSim:
    started = await bridge.call_tool("game_start", {})
    assert started["isError"] is False, started
    loaded = await bridge.call_tool("discover_tools", {"request": "game_time"})
    names = {tool["name"] for tool in loaded["structuredContent"]["activated_tools"]}
    assert names == {"game_pause", "game_resume", "game_step", "game_step_until", "game_set_time_scale"}
    assert sim.runtime is not None
    return sim.runtime


async def test_agent_loop_pause_input_step_read(sim: ToolkitSim, bridge: BridgeProcess) -> None:
    game = await _game_with_group(sim, bridge)
    paused = await bridge.call_tool("game_pause", {})
    assert paused["isError"] is False
    assert paused["structuredContent"]["paused_by_assistant"] is True
    press = _example("input.simulate", 0)["params"]
    assert (await bridge.call_tool("input_simulate", press))["isError"] is False
    stepped = await bridge.call_tool("game_step", {"frames": 10})
    assert stepped["isError"] is False
    assert {k: stepped["structuredContent"][k] for k in ("process_frames", "stopped", "tree_paused")} == {
        "process_frames": 10, "stopped": "frames", "tree_paused": True}
    read = await bridge.call_tool("runtime_get_script_vars", {"node_path": "Player"})
    assert read["isError"] is False
    sent = [r.method for r in game.requests() if r.method != "ping"]
    assert sent == ["time.pause", "input.simulate", "time.step", "runtime.get_script_vars"], sent
    assert game.requests("time.step")[-1].params == {"frames": 10}
    assert not sim.requests("time.step"), "time commands go to the game, not the editor"


async def test_step_until_out_of_frames_is_an_error_with_the_last_value(sim: ToolkitSim, bridge: BridgeProcess) -> None:
    game = await _game_with_group(sim, bridge)
    example = _example("time.step_until", 1)
    result = await bridge.call_tool("game_step_until", example["params"])
    assert result["isError"] is True
    got = body(result)
    assert (got["code"], got["value"], got["process_frames"], got["stopped"]) == ("TIMEOUT", 0.0, 4, "frames")
    assert game.requests("time.step_until")[-1].params == example["params"]


@pytest.mark.parametrize(
    ("name", "arguments"),
    [
        ("game_step", {"frames": 0}),
        ("game_step", {"frames": 5, "speed": 2}),
        ("game_step_until", {"node_path": "Player", "property": "position:x", "operator": "about"}),
        ("game_step_until", {"node_path": "Player", "operator": "truthy"}),
        ("game_set_time_scale", {"time_scale": 100}),
    ],
)
async def test_bad_arguments_never_reach_the_game(
    sim: ToolkitSim, bridge: BridgeProcess, name: str, arguments: dict[str, Any]
) -> None:
    game = await _game_with_group(sim, bridge)
    result = await bridge.call_tool(name, arguments)
    assert result["isError"] is True, result
    assert not [r for r in game.requests() if r.method.startswith("time.")]
