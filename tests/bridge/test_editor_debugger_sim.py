"""Debugger, editor and animation-authoring tools through the real bridge into the simulated editor.

The debugger's pause/continue needs a second process (a game stopped at a breakpoint) and the
editor's own debugger, which the GDScript tests cannot reach (tests/godot/test_debug_commands.gd
names this). Here the simulator answers with the toolkit's result examples (tests/fixtures/toolkit/
results/debug.json, editor_advanced.json, animation.json), each checked against the real toolkit in
the Godot engine, so the bridge is shown to forward these params intact and hand the shapes back.
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


@pytest.mark.parametrize(
    ("name", "domain", "index"),
    [
        ("debug_state", "debug", 0),
        ("debug_set_breakpoint", "debug", 0),
        ("debug_list_breakpoints", "debug", 0),
        ("debug_continue", "debug", 0),
        ("editor_refresh", "editor_advanced", 1),
        ("editor_wait_for_idle", "editor_advanced", 0),
        ("animation_keyframe", "animation", 0),
        ("animationtree_edit", "animation", 2),
    ],
)
async def test_editor_tool_returns_the_toolkit_shape(
    name: str, domain: str, index: int, sim: ToolkitSim, make_bridge: BridgeFactory
) -> None:
    example = _example(domain, tool(name).method, index)
    sim.script(tool(name).method, {"result": example["result"]})
    bridge = await make_bridge()
    out = await bridge.forward(tool(name), example["params"])
    assert not out.is_error, out.structured
    for key, value in example["result"].items():
        assert out.structured[key] == value, key
    assert [r.params for r in sim.requests(tool(name).method)] == [example["params"]]


async def test_continue_when_not_paused_is_an_error_with_its_hint(sim: ToolkitSim, make_bridge: BridgeFactory) -> None:
    example = _example("debug", "debug.continue", 1)
    sim.script("debug.continue", {"result": example["result"]})
    bridge = await make_bridge()
    out = await bridge.forward(tool("debug_continue"), {})
    assert out.is_error
    text = json.dumps(out.structured)
    assert "NOT_BREAKED" in text and "debug_state says when it is paused." in text
