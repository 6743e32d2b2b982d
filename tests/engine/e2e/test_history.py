"""The assistant steps back its own edits, end to end: through the real ``godot-bridge`` (stdio) into
the real toolkit in the Godot engine. A node made with a child and properties, then deleted;
``history`` lists both; ``undo`` brings the node back with its properties and children; ``redo``
deletes it again. A user's edit on top blocks ``undo`` and is left alone; a script the assistant
wrote comes and goes with undo and redo on the engine's disk. Each test ends with what it made
removed by a tool call of its own (not left undone, which would leave a redo behind for the
user's next Ctrl+Shift+Z), so the scene is as the other end-to-end tests left it.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.bridge_process import BridgeProcess
from tests.engine.e2e.call_list import body
from tests.engine.e2e.engine_host import EDITED_SCENE, EngineHost

pytestmark = pytest.mark.asyncio(loop_scope="session")

CRATE_GD = "extends Node2D\n\nvar weight := 3\n"


async def call(bridge: BridgeProcess, tool: str, args: dict[str, Any]) -> tuple[bool, dict[str, Any]]:
    result = await bridge.call_tool(tool, args, timeout=60)
    return not result["isError"], body(result)


async def ok(bridge: BridgeProcess, tool: str, args: dict[str, Any]) -> dict[str, Any]:
    succeeded, answer = await call(bridge, tool, args)
    assert succeeded, (tool, args, answer)
    return answer


async def value(bridge: BridgeProcess, node: str, prop: str) -> Any:
    succeeded, answer = await call(bridge, "node_get_property", {"node_path": node, "property": prop})
    return answer["value"] if succeeded else answer.get("code")


def vec2(x: float, y: float) -> dict[str, Any]:
    return {"type": "Vector2", "x": x, "y": y}


async def test_a_deleted_node_comes_back_whole_and_goes_again(stdio: BridgeProcess, engine_host: EngineHost) -> None:
    await ok(stdio, "scene_create_node", {"class_name": "Node2D", "parent_path": ".", "node_name": "Crate",
                                          "properties": {"position": vec2(7, 8)}})
    await ok(stdio, "scene_create_node", {"class_name": "Sprite2D", "parent_path": "Crate", "node_name": "Lid",
                                          "properties": {"offset": vec2(3, 4)}})
    await ok(stdio, "scene_delete_node", {"node_path": "Crate"})
    assert await value(stdio, "Crate", "name") == "NOT_FOUND"

    listed = await ok(stdio, "history", {"limit": 3})
    newest = listed["entries"]
    assert [e["method"] for e in newest] == ["scene.delete_node", "scene.create_node", "scene.create_node"], listed
    assert all(e["scene"] == EDITED_SCENE and e["state"] == "done" for e in newest), listed
    assert newest[0]["undoable"] is True and newest[0]["redoable"] is False and newest[0]["label"] == "Delete Crate"
    assert newest[0]["unsaved"] is True, "the deletion marked the scene unsaved"

    undone = await ok(stdio, "undo", {})
    assert [e["id"] for e in undone["undone"]] == [newest[0]["id"]], undone
    assert undone["scenes"][0]["scene"] == EDITED_SCENE and undone["scenes"][0]["unsaved"] is True, undone
    assert await value(stdio, "Crate", "position") == vec2(7, 8), "back with its properties"
    assert await value(stdio, "Crate/Lid", "offset") == vec2(3, 4), "and its children"

    redone = await ok(stdio, "redo", {})
    assert [e["id"] for e in redone["redone"]] == [newest[0]["id"]], redone
    assert await value(stdio, "Crate", "name") == "NOT_FOUND", "gone again"

    # Back to before: the deletion undone, then the user turns the crate in the editor.
    await ok(stdio, "undo", {})
    assert await engine_host.user_edit("Crate", "rotation", 1.5)
    succeeded, refused = await call(stdio, "undo", {})
    assert not succeeded and refused["code"] == "INVALID_STATE" and refused["reason"] == "user_edit_on_top", refused
    assert "Nothing was changed" in refused["hint"]
    assert abs(await value(stdio, "Crate", "rotation") - 1.5) < 1e-6, "the user's edit stands"
    assert await value(stdio, "Crate/Lid", "offset") == vec2(3, 4), "and so does the assistant's child"
    assert await engine_host.undo(), "the user undoes their own edit"
    lid = await ok(stdio, "undo", {})
    assert [e["id"] for e in lid["undone"]] == [newest[1]["id"]], "then the assistant's newest edit is on top again"
    assert await value(stdio, "Crate/Lid", "name") == "NOT_FOUND"
    await ok(stdio, "scene_delete_node", {"node_path": "Crate"})


async def test_a_script_the_assistant_wrote_goes_with_undo_and_comes_back_with_redo(
        stdio: BridgeProcess, engine_host: EngineHost) -> None:
    path = "res://scripts/history_crate.gd"
    await ok(stdio, "script_write", {"file_path": path, "content": CRATE_GD})
    assert await engine_host.read_file(path) == CRATE_GD.encode()
    dry = await ok(stdio, "undo", {"dry_run": True})
    assert dry["files"] == [{"path": path, "exists": False, "bytes": 0, "sha256": ""}], dry
    assert await engine_host.read_file(path) == CRATE_GD.encode(), "a dry run changes nothing"
    undone = await ok(stdio, "undo", {})
    assert undone["files"] == [{"path": path, "exists": False, "bytes": 0, "sha256": ""}], undone
    assert await engine_host.path_kind(path) is None, "the file the assistant made is gone from disk"
    redone = await ok(stdio, "redo", {})
    assert redone["files"][0]["exists"] is True and redone["files"][0]["bytes"] == len(CRATE_GD), redone
    assert await engine_host.read_file(path) == CRATE_GD.encode(), "and back byte for byte"
    await ok(stdio, "script_delete", {"file_path": path})
    assert await engine_host.path_kind(path) is None
