"""The performance group through the real bridge process into the simulator.

The simulated editor and game answer with the toolkit's result examples
(tests/fixtures/toolkit/results/performance.json), each checked against the real toolkit in the
Godot engine by tests/godot/test_perf_commands.gd: the group loads through discover_tools, each
tool reaches the right process (the game for the monitors and the sample, the editor for the
scene counts) with its params intact, and the client gets the toolkit's shape back whole.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.support.bridge_process import BridgeProcess, body
from tests.sim.answers import materialize
from tests.sim.fixtures import process_sim as sim  # noqa: F401 - the editor this module's bridges talk to
from tests.sim.server import ToolkitSim

RESULTS = Path(__file__).resolve().parents[1] / "fixtures" / "toolkit" / "results" / "performance.json"
TOOLS = {"game_performance": "perf.snapshot", "game_performance_sample": "perf.sample",
         "editor_scene_stats": "perf.scene_counts"}


def _examples() -> list[tuple[str, dict[str, Any]]]:
    data = json.loads(RESULTS.read_text(encoding="utf-8"))
    return [(name, example) for name, method in TOOLS.items() for example in data[method]]


async def _loaded(bridge: BridgeProcess) -> dict[str, Any]:
    started = await bridge.call_tool("game_start", {})
    assert started["isError"] is False, started
    loaded = await bridge.call_tool("discover_tools", {"request": "performance"})
    assert loaded["isError"] is False, loaded
    return loaded


async def test_the_group_loads_with_its_three_tools(sim: ToolkitSim, bridge: BridgeProcess) -> None:
    assert not set(TOOLS) & set(await bridge.tool_names()), "on demand only"
    loaded = await _loaded(bridge)
    activated = {tool["name"] for tool in loaded["structuredContent"]["activated_tools"]}
    assert activated == set(TOOLS)
    assert set(TOOLS) <= set(await bridge.tool_names())


async def test_each_example_reaches_its_process_and_comes_back_whole(sim: ToolkitSim, bridge: BridgeProcess) -> None:
    await _loaded(bridge)
    assert sim.runtime is not None
    mismatches: list[str] = []
    for name, example in _examples():
        method, params, want = TOOLS[name], example["params"], materialize(example["result"])
        result = await bridge.call_tool(name, params)
        got = dict(body(result) or {})
        if "hint" not in want:
            got.pop("hint", None)  # the bridge's own success hint, added only when the toolkit gave none
        if result["isError"] is want["success"] or got != want:
            mismatches.append(f"{name} {params}: {result}")
        target, other = (sim.runtime, sim) if name.startswith("game_") else (sim, sim.runtime)
        if target.requests(method)[-1].params != params or other.requests(method):
            mismatches.append(f"{name}: not received by the {'game' if target is sim.runtime else 'editor'} as sent")
    assert not mismatches, "\n".join(mismatches)


@pytest.mark.parametrize(
    "arguments",
    [{"frames": 0}, {"frames": 601}, {"frames": 2.5}, {"spike_factor": 1}, {"monitors": "fps"}, {"samples": 10}],
)
async def test_the_sample_schema_refuses_before_the_game_waits(
    arguments: dict[str, Any], sim: ToolkitSim, bridge: BridgeProcess
) -> None:
    await _loaded(bridge)
    assert sim.runtime is not None
    result = await bridge.call_tool("game_performance_sample", arguments)
    assert result["isError"] is True, result
    assert sim.runtime.requests("perf.sample") == []
