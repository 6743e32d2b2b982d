"""asset_import through the real bridge into the simulated editor.

The editor's import of the written file cannot run in the Godot web engine the GDScript tests use,
so the envelope is covered here: the simulated editor answers with the toolkit's own result
examples (tests/fixtures/toolkit/results/asset.json, each checked against the real toolkit in the
engine) and the bridge must deliver the call's params intact and hand the shapes back whole.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.sim.fixtures import BridgeFactory, tool
from tests.sim.server import ToolkitSim

RESULTS = Path(__file__).resolve().parents[1] / "fixtures" / "toolkit" / "results"


def _example(index: int) -> dict[str, Any]:
    data = json.loads((RESULTS / "asset.json").read_text(encoding="utf-8"))
    example: dict[str, Any] = data["asset.import"][index]
    return example


async def test_import_reaches_the_editor_and_returns_its_shape(sim: ToolkitSim, make_bridge: BridgeFactory) -> None:
    example = _example(0)
    sim.script("asset.import", {"result": example["result"]})
    bridge = await make_bridge()
    params = {**example["params"], "wait_for_scan_ms": 500}
    out = await bridge.forward(tool("asset_import"), params)
    assert not out.is_error, out.structured
    assert out.structured["status"] == "created"
    assert out.structured["bytes"] == 70 and out.structured["source"] == "base64_data"
    assert [r.params for r in sim.requests("asset.import")] == [params]


async def test_an_existing_destination_with_fail_is_an_error(sim: ToolkitSim, make_bridge: BridgeFactory) -> None:
    example = _example(2)
    sim.script("asset.import", {"result": example["result"]})
    bridge = await make_bridge()
    out = await bridge.forward(tool("asset_import"), example["params"])
    assert out.is_error
    assert "ALREADY_EXISTS" in json.dumps(out.structured)
