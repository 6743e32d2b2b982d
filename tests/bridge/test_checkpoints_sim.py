"""The checkpoints group through the real bridge process into the simulated editor.

The journal itself runs in the Godot engine (tests/godot/test_checkpoint_commands.gd); here the
bridge's side: the group loads on demand, each tool reaches the editor as its method with the
arguments intact, bad arguments are refused before the editor sees them, read-only mode hides the
tools that change files, and the replies (the toolkit's result examples, each checked against the
real toolkit) come back whole.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.support.bridge_process import BridgeProcess, body
from tests.sim.answers import materialize
from tests.sim.examples import load_examples
from tests.sim.fixtures import process_sim as sim  # noqa: F401 - the editor this module's bridges talk to
from tests.sim.server import ToolkitSim

TOOLS = {
    "checkpoint_create": "checkpoint.create",
    "checkpoint_list": "checkpoint.list",
    "checkpoint_diff": "checkpoint.diff",
    "checkpoint_restore": "checkpoint.restore",
}


def _example(method: str, index: int = 0) -> dict[str, Any]:
    example: dict[str, Any] = load_examples()[method][index]
    return example


async def _loaded(bridge: BridgeProcess) -> set[str]:
    assert not set(TOOLS) & set(await bridge.tool_names()), "on demand, not at start-up"
    loaded = await bridge.call_tool("discover_tools", {"request": "checkpoints"})
    assert loaded["isError"] is False, loaded
    return set(await bridge.tool_names())


async def test_every_tool_reaches_the_editor_and_returns_its_shape(sim: ToolkitSim, bridge: BridgeProcess) -> None:
    assert set(TOOLS) <= await _loaded(bridge)
    for tool, method in TOOLS.items():
        example = _example(method)
        result = await bridge.call_tool_confirmed(tool, example["params"])  # checkpoint_restore asks first
        got = dict(result.get("structuredContent") or {})
        got.pop("hint", None)  # the bridge's own success hint, if any
        assert result["isError"] is False and got == materialize(example["result"]), (tool, got)
        assert [r.params for r in sim.requests(method)] == [example["params"]], tool


async def test_restore_reports_conflicts_and_errors_whole(sim: ToolkitSim, bridge: BridgeProcess) -> None:
    await _loaded(bridge)
    conflict = {"success": True, "id": 3, "label": "before", "restored": [], "unchanged": [], "failed": [],
                "conflicts": [{"path": "res://player.gd", "reason": "changed by hand since the toolkit last wrote it"}],
                "reloaded": [], "closed": [], "dropped": []}
    sim.script("checkpoint.restore", {"result": conflict})
    result = await bridge.call_tool_confirmed("checkpoint_restore", {"id": 3})
    assert result["isError"] is False and result["structuredContent"]["conflicts"] == conflict["conflicts"]
    missing = _example("checkpoint.restore", 1)
    result = await bridge.call_tool_confirmed("checkpoint_restore", missing["params"])
    assert result["isError"] is True and body(result)["code"] == "NOT_FOUND"


async def test_bad_arguments_never_reach_the_editor(sim: ToolkitSim, bridge: BridgeProcess) -> None:
    await _loaded(bridge)
    for tool, args in [("checkpoint_restore", {}), ("checkpoint_restore", {"id": 0}), ("checkpoint_diff", {"id": "x"}),
                       ("checkpoint_diff", {"id": 1, "max_lines": 401}), ("checkpoint_create", {}),
                       ("checkpoint_create", {"label": "x", "extra": 1})]:
        result = await bridge.call_tool(tool, args)
        assert result["isError"] is True, (tool, args)
    assert not [r for r in sim.requests() if r.method.startswith("checkpoint.")]


async def test_read_only_mode_keeps_only_list_and_diff(
    sim: ToolkitSim, spawn_bridge: Callable[..., Any]
) -> None:
    bridge = await spawn_bridge({"GODOT_MCP_READ_ONLY": "1"})
    await bridge.call_tool("discover_tools", {"request": "checkpoints"})
    names = set(await bridge.tool_names())
    assert {"checkpoint_list", "checkpoint_diff"} <= names
    assert not {"checkpoint_create", "checkpoint_restore"} & names
