"""The wire between the real bridge and the real toolkit: auth, first calls."""

from __future__ import annotations

import json

import pytest

from tests.bridge_process import BridgeProcess
from tests.e2e.engine_host import EngineHost

pytestmark = pytest.mark.asyncio(loop_scope="session")


def body(result: dict) -> dict:
    return json.loads(result["content"][0]["text"])


async def test_first_call_reaches_the_toolkit(stdio: BridgeProcess, engine_host: EngineHost) -> None:
    result = await stdio.call_tool("scene_get_tree", {})
    assert result["isError"] is False, result
    tree = body(result)
    assert tree["scene_path"] == "res://scenes/main.tscn"
    assert [child["name"] for child in tree["tree"]["children"]] == ["Player", "Hud", "Mover", "World3D"]
