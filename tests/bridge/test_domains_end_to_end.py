"""Every start-up tool of the reference (always on, or on demand here: catalogue/DEVIATIONS.md),
through the real bridge process, into the simulator answering with the toolkit's real reply shapes (tests/fixtures/toolkit/results, checked against the toolkit in the
Godot engine by tests/godot): what a client gets back is exactly what the toolkit said, per domain.
"""

from __future__ import annotations

from typing import Any

import pytest

from godot_bridge.tools.catalogue import ToolDef, load_catalogue
from tests.support.bridge_process import BridgeProcess
from tests.sim.answers import log_reply, materialize
from tests.sim.examples import load_examples
from tests.sim.fixtures import process_sim as sim  # noqa: F401 - the editor this module's bridges talk to
from tests.sim.server import ToolkitSim
from tests.unit.test_catalogue import MOVED


def _success_example(method: str) -> dict[str, Any] | None:
    for example in load_examples().get(method, []):
        if example["result"].get("success") is True:
            return example
    return None


def _startup_tools() -> list[tuple[ToolDef, dict[str, Any]]]:
    found = []
    for tool in load_catalogue().tools.values():
        # A moved tool is called by name without discover_tools: the call loads its group (C12).
        if not (tool.always_on or tool.name in MOVED) or tool.channel not in ("editor", "runtime") or not tool.method:
            continue
        if tool.method in ("game.start", "game.stop"):
            continue  # the simulator plays the game itself (started below)
        example = _success_example(tool.method)
        if example is not None:
            found.append((tool, example))
    return found


def test_every_startup_domain_has_an_example() -> None:
    domains = {tool.method.split(".")[0] for tool, _ in _startup_tools() if tool.method}
    assert {"scene", "node", "control", "script", "project", "signal", "editor", "folder", "autoload",
            "runtime", "debugger", "input", "execute"} <= domains


async def test_each_tool_returns_the_toolkit_shape_verbatim(sim: ToolkitSim, bridge: BridgeProcess) -> None:
    started = await bridge.call_tool("game_start", {})
    assert started["isError"] is False, started
    mismatches: list[str] = []
    for tool, example in _startup_tools():
        result = await bridge.call_tool_confirmed(tool.name, example.get("params", {}))  # some ask first
        got = dict(result.get("structuredContent") or {})
        want = materialize(example["result"])
        if tool.method == "debugger.get_log":  # answered from the simulator's own log, in the toolkit's shape
            want = log_reply(sim.runtime.log_lines if sim.runtime else [], example.get("params", {}), "buffer")
        if "image_result" in tool.handling:
            # Contract C3: the one re-shaped result. The image travels as an image block, the rest as metadata.
            want.pop("image_base64", None)
            if not any(block.get("type") == "image" for block in result["content"]):
                mismatches.append(f"{tool.name}: no image block")
        if "hint" not in want:
            got.pop("hint", None)  # the bridge's own success hint, added only when the toolkit gave none
        if result["isError"] or got != want:
            mismatches.append(f"{tool.name}: {got} != {want}")
        target = sim.runtime if tool.channel == "runtime" and sim.runtime is not None else sim
        sent = target.requests(tool.method)
        if not sent or sent[-1].params != example.get("params", {}):
            mismatches.append(f"{tool.name}: the toolkit did not receive the example's params")
    assert not mismatches, "\n".join(mismatches)
