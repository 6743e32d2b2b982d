"""completion/complete values: project files through the path guard, prompt choices, node paths."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from godot_bridge.content.completions import MAX_VALUES, CompletionService
from godot_bridge.content.prompts import PromptService
from godot_bridge.errors import ToolError

SCENES = {"type": "ref/resource", "uri": "godot://scene/{path}"}
SCRIPTS = {"type": "ref/resource", "uri": "godot://script/{path}"}
WRITE_TEST = {"type": "ref/prompt", "name": "write-test"}
DEBUG_SCENE = {"type": "ref/prompt", "name": "debug-scene"}


class Editor:
    """The part of the editor bridge completions use: whether it is connected, and one call."""

    def __init__(self, reply: Any = None, connected: bool = True) -> None:
        self.connected, self.reply = connected, reply
        self.calls: list[tuple[str, Any]] = []

    async def call(self, method: str, params: Any = None, *, channel: str = "editor", timeout: Any = None) -> Any:
        self.calls.append((method, params))
        if isinstance(self.reply, ToolError):
            raise self.reply
        return self.reply


def write(root: Path, *paths: str) -> None:
    for path in paths:
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text("x", encoding="utf-8")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    write(root, "project.godot", "main.tscn", "levels/forest.tscn", "levels/cave.scn", "levels/cave.tres",
          "player/player.gd", "player/Player.tscn", "ui/hud.gd", ".godot/imported/x.tscn", ".git/hooks/y.gd",
          "addons/godot_mcp_toolkit/plugin.gd", "addons/godot_mcp_toolkit/ui/dock.tscn", "addons/other/tool.gd",
          ".hidden.gd")
    outside = tmp_path / "outside"
    write(outside, "secret.gd", "inner/loot.tscn")
    os.symlink(outside / "secret.gd", root / "player" / "linked.gd")  # a file that leads out: refused
    os.symlink(outside / "inner", root / "linked_dir")  # a folder that leads out: never entered
    return root


def service(project: Path, editor: Editor | None = None) -> CompletionService:
    return CompletionService(project, editor or Editor(connected=False), PromptService())


async def values(svc: CompletionService, ref: dict[str, Any], argument: str, typed: str) -> list[str]:
    return (await svc.complete(ref, argument, typed)).values


async def test_scene_and_script_paths_stay_inside_the_project_and_skip_internals(project: Path):
    svc = service(project)
    assert await values(svc, SCENES, "path", "") == ["levels/cave.scn", "levels/forest.tscn", "main.tscn",
                                                     "player/Player.tscn"]
    assert await values(svc, SCRIPTS, "path", "") == ["addons/other/tool.gd", "player/player.gd", "ui/hud.gd"]


async def test_values_start_with_what_was_typed(project: Path):
    svc = service(project)
    assert await values(svc, SCENES, "path", "lev") == ["levels/cave.scn", "levels/forest.tscn"]
    assert await values(svc, SCENES, "path", "LEVELS/F") == ["levels/forest.tscn"]
    # A bare name also finds files by their own name; a typed res:// is kept in the values.
    assert await values(svc, SCENES, "path", "play") == ["player/Player.tscn"]
    assert await values(svc, SCRIPTS, "path", "res://ui/") == ["res://ui/hud.gd"]
    assert await values(svc, SCRIPTS, "path", "zzz") == []


async def test_at_most_a_hundred_values_with_the_total(project: Path):
    write(project, *[f"many/s{i:03}.gd" for i in range(150)])
    done = await service(project).complete(SCRIPTS, "path", "many/")
    assert len(done.values) == MAX_VALUES and done.total == 150 and done.has_more
    assert done.result()["completion"] == {"values": done.values, "total": 150, "hasMore": True}
    few = await service(project).complete(SCRIPTS, "path", "ui")
    assert (few.values, few.total, few.has_more) == (["ui/hud.gd"], 1, False)


async def test_write_test_completes_scripts_and_installed_frameworks_first(project: Path):
    svc = service(project)
    assert await values(svc, WRITE_TEST, "file_path", "play") == ["res://player/player.gd"]
    assert await values(svc, WRITE_TEST, "file_path", "res://ui") == ["res://ui/hud.gd"]
    assert await values(svc, WRITE_TEST, "framework", "") == ["gut", "gdunit4"]
    (project / "addons" / "gdUnit4").mkdir()
    assert await values(svc, WRITE_TEST, "framework", "") == ["gdunit4", "gut"]
    assert await values(svc, WRITE_TEST, "framework", "GD") == ["gdunit4"]


async def test_node_paths_come_from_the_open_scene_when_the_editor_answers(project: Path):
    tree = {"name": "Main", "path": ".", "children": [
        {"name": "Player", "path": "Player", "children": [{"name": "Gun", "path": "Player/Gun", "children": []}]},
        {"name": "HUD", "path": "HUD", "children": []}]}
    editor = Editor({"success": True, "tree": tree})
    assert await values(service(project, editor), DEBUG_SCENE, "node_path", "") == [".", "Player", "Player/Gun", "HUD"]
    assert await values(service(project, editor), DEBUG_SCENE, "node_path", "player/") == ["Player/Gun"]
    assert editor.calls[0] == ("scene.get_tree", {"max_depth": -1})
    for quiet in (Editor(connected=False), Editor(ToolError("TIMEOUT", "no answer")), Editor({"success": False})):
        assert await values(service(project, quiet), DEBUG_SCENE, "node_path", "") == []


async def test_what_we_know_nothing_about_completes_to_nothing(project: Path):
    svc = service(project)
    assert await values(svc, {"type": "ref/prompt", "name": "test_prompt_with_arguments"}, "arg1", "t") == []
    assert await values(svc, DEBUG_SCENE, "nothing", "") == []
    assert await values(svc, {"type": "ref/resource", "uri": "godot://errors"}, "path", "") == []
    assert await values(svc, SCENES, "other", "") == []
    assert await values(svc, {"type": "ref/unknown"}, "path", "") == []
