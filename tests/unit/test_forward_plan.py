"""A call becomes one ForwardPlan before anything is sent; every catalogue handling has its hooks."""

from __future__ import annotations

from typing import get_args

import pytest

from godot_bridge.config import Settings
from godot_bridge.editor.bridge import EditorBridge
from godot_bridge.editor.forwarder import HOOKS, ForwardPlan, plan
from godot_bridge.errors import ToolError
from godot_bridge.tools.catalogue import Handling, load_catalogue

CATALOGUE = load_catalogue()
TOOLS = CATALOGUE.tools


def settings(tmp_path, image_mode: str = "inline") -> Settings:
    return Settings(project_path=tmp_path, image_mode=image_mode)


def test_every_handling_has_a_row_of_hooks() -> None:
    assert set(HOOKS) == set(get_args(Handling))


def test_a_plain_call_is_sent_as_it_came(tmp_path) -> None:
    made = plan(TOOLS["game_start"], {"scene_path": "main", "wait_for_runtime": False}, settings(tmp_path))
    assert made == ForwardPlan(
        "game.start", {"scene_path": "main", "wait_for_runtime": False}, "editor", 60.0,
        TOOLS["game_start"].success_hint, handling=("starts_game",), wait_message="waiting for the game to launch",
        wait_for_runtime=False,
    )
    assert plan(TOOLS["game_start"], {}, settings(tmp_path)).wait_for_runtime is True


def test_the_channel_argument_picks_the_channel_and_is_not_sent(tmp_path) -> None:
    made = plan(TOOLS["execute_code"], {"code": "return 1", "channel": "editor"}, settings(tmp_path))
    assert (made.channel, made.params) == ("editor", {"code": "return 1"})


def test_a_screenshot_in_link_mode_plans_its_link(tmp_path) -> None:
    inline = plan(TOOLS["editor_screenshot"], {}, settings(tmp_path))
    assert inline.link is None and inline.params == {}
    linked = plan(TOOLS["runtime_screenshot"], {"thumbnail": True}, settings(tmp_path, "link"))
    assert linked.channel == "runtime" and linked.params == {"image_response_mode": "inline"}
    assert linked.link is not None and linked.link.thumbnail is not None


def test_a_call_that_cannot_be_sent_is_refused_while_planning(tmp_path) -> None:
    with pytest.raises(ToolError) as caught:
        plan(TOOLS["lsp_hover"], {}, settings(tmp_path))
    assert caught.value.code == "INTERNAL"
    with pytest.raises(ToolError) as caught:
        plan(TOOLS["editor_screenshot"], {"thumbnail": True}, settings(tmp_path))
    assert caught.value.code == "INVALID_PARAMS"


def test_the_bridge_is_given_its_catalogue(tmp_path) -> None:
    with pytest.raises(TypeError):
        EditorBridge(settings(tmp_path), registry_file=tmp_path / "projects.json")  # type: ignore[call-arg]
    bridge = EditorBridge(settings(tmp_path), catalogue=CATALOGUE, registry_file=tmp_path / "projects.json")
    assert bridge.godot_version is None and bridge.extension_commands == []
