"""Real public projects' scenes (tests/fixtures/projects, in the host project under res://outside/)
through the real bridge and the real toolkit in the engine: each scene read from its file and, once
the editor has it open, from the editor, in one shape and with the same nodes; opened by its
uid://; and a file written at the top of the project (a folder check the web engine answers oddly).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import quote

import pytest
import pytest_asyncio

from tests.support.bridge_process import BridgeProcess
from tests.engine.e2e.call_list import body
from tests.engine.e2e.engine_host import EDITED_SCENE, OUTSIDE, EngineHost, outside_path

pytestmark = pytest.mark.asyncio(loop_scope="session")

# Scenes of the real projects the engine can load (no imported assets), and what each exercises.
SCENES = {
    ("websocket_chat", "res://chat.tscn"): "the base of two inherited scenes",
    ("websocket_chat", "res://client.tscn"): "an inherited scene: overrides, a node added at index 0, class_name",
    ("websocket_chat", "res://server.tscn"): "the other inherited scene",
    ("websocket_chat", "res://combo.tscn"): "instances of inherited scenes",
    ("visibility_ranges", "res://tree.tscn"): "node headers with groups=[...]",
    ("visibility_ranges", "res://tree_cluster.tscn"): "three instances of a scene with groups",
    ("multitouch_cubes", "res://main.tscn"): "Editable Children with overridden inner nodes",
}
SHAPE = {"scene_path", "uid", "source", "tree", "returned", "total_nodes", "has_more"}


async def read_scene(bridge: BridgeProcess, path: str) -> dict[str, Any]:
    reply = await bridge.request("resources/read", {"uri": "godot://scene/" + quote(path, safe="/:")}, timeout=60)
    assert "result" in reply, reply
    return json.loads(reply["result"]["contents"][0]["text"])


async def call(bridge: BridgeProcess, tool: str, args: dict[str, Any]) -> tuple[bool, dict[str, Any]]:
    result = await bridge.call_tool(tool, args, timeout=60)
    return not result["isError"], body(result)


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def editor(stdio: BridgeProcess) -> AsyncIterator[BridgeProcess]:
    """The session's bridge; the edited scene is the host's again afterwards (later tests expect it)."""
    try:
        yield stdio
    finally:
        await stdio.call_tool("scene_open", {"file_path": EDITED_SCENE}, timeout=60)


def fields(tree: dict[str, Any]) -> dict[str, Any]:
    """The node fields both sources give (the editor may add child_count on a cut tree)."""
    kept = {k: tree[k] for k in ("name", "class", "path", "instance", "script") if k in tree}
    return {**kept, "children": [fields(child) for child in tree["children"]]}


@pytest.mark.parametrize(("project", "scene"), list(SCENES), ids=[f"{p}:{s[6:]}" for p, s in SCENES])
async def test_a_real_scene_reads_the_same_from_its_file_and_from_the_editor(
        editor: BridgeProcess, project: str, scene: str) -> None:
    path = outside_path(project, scene)
    from_file = await read_scene(editor, path)
    assert from_file["source"] == "file", from_file
    opened, answer = await call(editor, "scene_open", {"file_path": path})
    assert opened, answer
    from_editor = await read_scene(editor, path)
    assert from_editor["source"] == "editor", from_editor
    assert set(from_file) == set(from_editor) == SHAPE, "one shape, whichever source answers"
    assert from_file["uid"] == from_editor["uid"] and from_file["uid"].startswith("uid://")
    assert from_file["total_nodes"] == from_editor["total_nodes"]
    assert fields(from_file["tree"]) == fields(from_editor["tree"]), SCENES[(project, scene)]


async def test_a_scene_opened_by_its_uid(editor: BridgeProcess) -> None:
    path = outside_path("websocket_chat", "res://client.tscn")
    uid = (await read_scene(editor, path))["uid"]
    opened, answer = await call(editor, "scene_open", {"file_path": uid})
    assert opened, answer
    assert (answer["path"], answer["uid"]) == (path, uid)
    ok, tree = await call(editor, "scene_get_tree", {})
    assert ok and tree["scene_path"] == path and tree["tree"]["name"] == "Client"
    by_uid = await read_scene(editor, uid)
    assert (by_uid["scene_path"], by_uid["uid"]) == (path, uid)
    # A script's uid (its .gd.uid file, Godot 4.4+) reads through the editor too.
    ok, script = await call(editor, "script_read", {"file_path": "uid://dce7t2hll3hg"})
    assert ok and "extends Control" in script["content"], script


async def test_an_unknown_uid_is_not_found_naming_it(editor: BridgeProcess) -> None:
    ok, answer = await call(editor, "scene_open", {"file_path": "uid://nosuchuidhere"})
    assert not ok and answer["code"] == "NOT_FOUND", answer
    assert "uid://nosuchuidhere" in answer["error"] and "res://" in answer["hint"]


async def test_a_real_scene_that_cannot_load_here_still_reads_from_its_file(editor: BridgeProcess) -> None:
    """dodge_the_creeps' scenes need its art, which is not here; the file still reads (its root has groups)."""
    mob = await read_scene(editor, outside_path("dodge_the_creeps", "res://mob.tscn"))
    assert mob["source"] == "file" and mob["tree"]["class"] == "RigidBody2D" and mob["total_nodes"] == 4
    level = await read_scene(editor, outside_path("open_rpg", "res://src/main.tscn"))
    # 120 nodes are more than one answer: cut breadth-first, and it says so.
    assert level["total_nodes"] == 120 and level["has_more"] is True and level["returned"] < 120


async def test_a_file_at_the_top_of_the_project(editor: BridgeProcess, engine_host: EngineHost) -> None:
    """The project root's folder check (this web engine says res:// does not exist)."""
    ok, answer = await call(editor, "scene_create", {"file_path": "res://top_level.tscn", "root_type": "Node2D"})
    assert ok, answer
    assert b'type="Node2D"' in (await engine_host.read_file("res://top_level.tscn") or b"")


async def test_a_real_input_map_answers_page_by_page(editor: BridgeProcess, engine_host: EngineHost) -> None:
    """3d/platformer overrides the built-in ui_* actions with Godot 3 key codes (whose names hold a
    control character) and joypad events: project_get_settings {"prefix": "input/"} never answered.
    Through the real bridge: every page answers, and the pages hold every action."""
    project_godot = OUTSIDE / "platformer_3d" / "project.godot"
    await engine_host.write_file("user://platformer_3d/project.godot", project_godot.read_bytes())
    await engine_host.load_settings("user://platformer_3d/project.godot", "input")
    try:
        seen: dict[str, Any] = {}
        args: dict[str, Any] = {"prefix": "input/"}
        for _ in range(20):
            ok, page = await call(editor, "project_get_settings", args)
            assert ok, page
            body_text = page["settings"]
            seen.update(json.loads(body_text[body_text.index(">\n") + 2:body_text.rindex("\n</")]))
            if not page["has_more"]:
                break
            args = {"prefix": "input/", "offset": page["next_offset"]}
        assert len(seen) == page["total_settings"] and args.get("offset"), "every action, in more than one page"
        accept = [event["text"] for event in seen["input/ui_accept"]["events"]]
        assert accept[0] == "Ctrl+\x05" and "Space" in accept, accept
    finally:
        await engine_host.restore_settings()
        await engine_host.remove_file("user://platformer_3d/project.godot")
