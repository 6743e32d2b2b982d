"""The scene resource asks a connected editor and trusts it only about the scene it names."""

from __future__ import annotations

import json
from pathlib import Path

from godot_bridge.content.resources import ResourceService
from tests.sim.examples import load_examples
from tests.sim.server import ToolkitSim

SCENE = '[gd_scene format=3]\n\n[node name="Main" type="Node2D"]\n\n[node name="Cam" type="Camera2D" parent="."]\n'
# What the real toolkit answers (its result example, checked in the engine), about res://main.tscn.
EDITOR_ANSWER = {**load_examples()["scene.get_tree"][0]["result"], "scene_path": "res://main.tscn"}
SHAPE = {"scene_path", "source", "tree", "returned", "total_nodes", "has_more"}


def service(project: Path, editor) -> ResourceService:
    return ResourceService(project, editor, read_only=lambda: False, script_limit_kb=lambda: None)


async def read_scene(svc: ResourceService, uri: str) -> dict:
    return json.loads((await svc.read(uri))[0]["text"])


async def test_editor_answer_about_this_scene_is_used(sim: ToolkitSim, make_bridge, project: Path):
    (project / "main.tscn").write_text(SCENE, encoding="utf-8")
    bridge = await make_bridge()
    await bridge.call("echo", {})  # connected (the editor serves echo, not ping)
    svc = service(project, bridge)
    sim.script("scene.get_tree", {"result": EDITOR_ANSWER})
    from_editor = await read_scene(svc, "godot://scene/main.tscn")
    assert from_editor["source"] == "editor" and from_editor["tree"] == EDITOR_ANSWER["tree"]
    assert sim.requests("scene.get_tree")[-1].params == {"scene_path": "res://main.tscn", "max_depth": -1}

    # The editor answers about the scene it has open, which is another one: read the file instead.
    sim.script("scene.get_tree", {"result": {**EDITOR_ANSWER, "scene_path": "res://other.tscn"}})
    from_file = await read_scene(svc, "godot://scene/main.tscn")
    assert from_file["source"] == "file" and [c["name"] for c in from_file["tree"]["children"]] == ["Cam"]
    # One shape, whichever source answers.
    assert set(from_editor) == set(from_file) == SHAPE
    assert (from_file["returned"], from_file["total_nodes"], from_file["has_more"]) == (2, 2, False)


async def test_no_editor_reads_the_file(make_bridge, project: Path):
    (project / "main.tscn").write_text(SCENE, encoding="utf-8")
    bridge = await make_bridge()  # nothing listens: not connected
    scene = await read_scene(service(project, bridge), "godot://scene/res://main.tscn")
    assert scene["source"] == "file" and scene["total_nodes"] == 2 and scene["tree"]["name"] == "Main"


async def test_project_info_says_whether_the_editor_is_headless(data_home: Path, project: Path, make_bridge) -> None:
    bridge = await make_bridge()
    assert service(project, bridge).project_info()["editor"]["headless"] is None, "unknown before a handshake"
    sim = ToolkitSim(data_home, project, headless=True)
    await sim.start()
    try:
        await bridge.call("echo", {})
        info = service(project, bridge).project_info()
        assert info["editor"]["connected"] is True and info["editor"]["headless"] is True
    finally:
        await sim.stop()
