"""The testing group (test_list, test_run) through the real bridge into the simulated editor.

The run itself needs a second Godot process, which the GDScript tests replace with a fake
(tests/godot/test_testing_commands.gd); here the simulator answers with the toolkit's result
examples (tests/fixtures/toolkit/results/testing.json, each checked against the real toolkit in the
engine) and sends the toolkit's counted ``_progress`` notifications, so the bridge is shown to
forward the params, keep a long run alive past its timeout while suites finish, hand the shapes
back, and turn the counts into MCP ``notifications/progress`` in both protocol eras.
"""

from __future__ import annotations

import dataclasses

import json
from pathlib import Path
from typing import Any

import anyio
import pytest

from tests.bridge.test_mcp_resources_prompts import ERAS, params
from tests.sim.fixtures import BridgeFactory, tool
from tests.sim.server import ToolkitSim
from tests.support.sdk_client import sdk_client

RESULTS = Path(__file__).resolve().parents[1] / "fixtures" / "toolkit" / "results" / "testing.json"


def _example(method: str, index: int) -> dict[str, Any]:
    example: dict[str, Any] = json.loads(RESULTS.read_text(encoding="utf-8"))[method][index]
    return example


async def test_list_returns_the_toolkit_shape(sim: ToolkitSim, make_bridge: BridgeFactory) -> None:
    example = _example("test.list", 0)
    (Path(sim.project) / "addons" / "gut").mkdir(parents=True)  # the toolkit finds GUT by its folder
    sim.script("test.list", {"default": True})  # known to the simulator; answered from the examples
    bridge = await make_bridge()
    out = await bridge.forward(tool("test_list"), example["params"])
    assert not out.is_error, out.structured
    assert out.structured["suites"] == example["result"]["suites"]
    assert [r.params for r in sim.requests("test.list")] == [example["params"]]


async def test_no_framework_is_an_error_that_says_how_to_add_one(sim: ToolkitSim, make_bridge: BridgeFactory) -> None:
    example = _example("test.run", 3)
    sim.script("test.run", {"result": {**example["result"], "hint": "Install GUT (addons/gut) or gdUnit4."}})
    bridge = await make_bridge()
    out = await bridge.forward(tool("test_run"), {})
    assert out.is_error
    assert "NOT_FOUND" in json.dumps(out.structured) and "Install GUT" in json.dumps(out.structured)


async def test_counted_progress_keeps_a_long_run_alive(sim: ToolkitSim, make_bridge: BridgeFactory) -> None:
    # Each suite takes longer than the call's timeout (0.4 s), but its _progress restarts the deadline.
    example = _example("test.run", 0)
    steps: list[dict[str, Any]] = []
    for done in (1, 2, 3):
        steps += [{"sleep": 0.25}, {"progress": {"progress": done, "total": 3, "message": f"suite {done} finished"}}]
    sim.script("test.run", *steps, {"sleep": 0.25}, {"result": example["result"]})
    bridge = await make_bridge()
    seen: list[tuple[float, float | None, str | None]] = []

    async def progress(value: float, total: float | None, message: str | None) -> None:
        seen.append((value, total, message))

    args = {**example["params"], "timeout_ms": 1}  # the wait_param: timeout = 1 ms + 10 s margin
    out = await bridge.forward(dataclasses.replace(tool("test_run"), timeout_ms=400, wait_param=None),
                               args, progress=progress)
    assert not out.is_error, out.structured
    assert out.structured["totals"] == example["result"]["totals"]
    assert [r.params for r in sim.requests("test.run")] == [args]
    counted = [(v, t, m) for v, t, m in seen if m and m.startswith("suite")]
    assert [m for _, _, m in counted] == ["suite 1 finished", "suite 2 finished", "suite 3 finished"]
    base = counted[0][0] - 1
    assert [(v - base, t - base if t is not None else None) for v, t, _ in counted] == [(1, 3), (2, 3), (3, 3)]
    values = [v for v, _, _ in seen]
    assert values == sorted(values) and len(set(values)) == len(values)


@pytest.mark.parametrize("mode", ERAS)
async def test_run_progress_reaches_the_mcp_client(mode: str, data_home: Path, project_dir: Path) -> None:
    sim = ToolkitSim(data_home, project_dir.resolve(), godot_version="4.5.1", lsp_port=None)
    await sim.start()
    try:
        example = _example("test.run", 0)
        sim.script("test.run", {"progress": {"progress": 1, "total": 2, "message": "res://test/a.gd: finished"}},
                   {"sleep": 0.1}, {"progress": {"progress": 2, "total": 2, "message": "res://test/b.gd: finished"}},
                   {"result": example["result"]})
        seen: list[tuple[float, float | None, str | None]] = []

        async def on_progress(progress: float, total: float | None, message: str | None) -> None:
            seen.append((progress, total, message))

        with anyio.fail_after(40):
            async with sdk_client(params(data_home, project_dir), mode=mode, cache=None) as client:
                await client.call_tool("discover_tools", {"request": "testing"})
                result = await client.call_tool("test_run", example["params"], progress_callback=on_progress)
                assert not result.is_error, result
                assert json.loads(result.content[0].text)["totals"] == example["result"]["totals"]
        counted = [(v, t, m) for v, t, m in seen if m and m.startswith("res://")]
        assert [m for _, _, m in counted] == ["res://test/a.gd: finished", "res://test/b.gd: finished"]
        assert counted[1][0] - counted[0][0] == 1 and counted[0][1] == counted[1][1] == counted[1][0]
        values = [v for v, _, _ in seen]
        assert values == sorted(values) and len(set(values)) == len(values)
    finally:
        await sim.stop()


async def test_malformed_counts_are_not_forwarded(sim: ToolkitSim, make_bridge: BridgeFactory) -> None:
    example = _example("test.run", 0)
    sim.script("test.run", {"progress": {"progress": "one", "total": 2, "message": "bad"}},
               {"progress": {"progress": 1, "message": "no total"}},
               {"progress": {"progress": 1, "total": 2, "message": "good"}}, {"result": example["result"]})
    bridge = await make_bridge()
    seen: list[str | None] = []

    async def progress(value: float, total: float | None, message: str | None) -> None:
        seen.append(message)

    out = await bridge.forward(tool("test_run"), example["params"], progress=progress)
    assert not out.is_error, out.structured
    assert "good" in seen and "bad" not in seen and "no total" not in seen
