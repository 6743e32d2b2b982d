"""Input, signals and animation in the running game, through the real bridge into the simulated game.

The simulated game is scripted with the toolkit's result examples (tests/fixtures/toolkit/results/
input.json, runtime_signal.json, animation_player.json), each checked against the real toolkit in
the Godot engine, so these tests see the shapes the in-game commands really return: the call goes
to the game (not the editor) with its params intact, and the bridge hands the shape back whole.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.sim.fixtures import BridgeFactory, tool
from tests.sim.server import ToolkitSim

RESULTS = Path(__file__).resolve().parents[1] / "fixtures" / "toolkit" / "results"


def _example(domain: str, method: str, index: int) -> dict[str, Any]:
    data = json.loads((RESULTS / f"{domain}.json").read_text(encoding="utf-8"))
    example: dict[str, Any] = data[method][index]
    return example


async def _game_answering(sim: ToolkitSim, method: str, example: dict[str, Any]) -> ToolkitSim:
    game = await sim.start_game()
    game.script(method, {"result": example["result"]})
    return game


@pytest.mark.parametrize(
    ("name", "domain", "index"),
    [
        ("input_simulate", "input", 0),
        ("input_simulate", "input", 2),
        ("animation_player_control", "animation_player", 1),
    ],
)
async def test_runtime_tool_reaches_the_game_and_returns_its_shape(
    name: str, domain: str, index: int, sim: ToolkitSim, make_bridge: BridgeFactory
) -> None:
    example = _example(domain, tool(name).method, index)
    game = await _game_answering(sim, tool(name).method, example)
    bridge = await make_bridge()
    out = await bridge.forward(tool(name), example["params"])
    assert not out.is_error, out.structured
    assert out.structured["success"] is True  # every runtime result says so
    for key, value in example["result"].items():
        assert out.structured[key] == value, key
    assert [r.params for r in game.requests(tool(name).method)] == [example["params"]]
    assert not sim.requests(tool(name).method)


async def test_signal_emit_in_the_game(sim: ToolkitSim, make_bridge: BridgeFactory) -> None:
    example = _example("runtime_signal", "signal.emit", 0)
    game = await _game_answering(sim, "signal.emit", example)
    bridge = await make_bridge()
    out = await bridge.forward(tool("signal_emit"), {**example["params"], "channel": "runtime"})
    assert out.structured["receivers"] == 1 and out.structured["args"] == [3]
    assert [r.params for r in game.requests("signal.emit")] == [example["params"]]


async def test_a_refused_input_batch_is_an_error(sim: ToolkitSim, make_bridge: BridgeFactory) -> None:
    example = _example("input", "input.simulate", 3)
    await _game_answering(sim, "input.simulate", example)
    bridge = await make_bridge()
    out = await bridge.forward(tool("input_simulate"), example["params"])
    assert out.is_error
    assert "no input action 'fly'" in json.dumps(out.structured)
