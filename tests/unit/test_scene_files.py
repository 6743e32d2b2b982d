"""A scene's node tree read from its .tscn, checked on real public projects' scenes
(tests/fixtures/projects): inherited scenes, instanced sub-scenes, Editable Children, groups, files
that cannot be read."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from godot_bridge.godot_files.scenes import MAX_DEPTH, Loaded, SceneFormatError, count_nodes, cut_tree, read_scene
from godot_bridge.tools.answer_budget import budget_bytes, text_size

PROJECTS = Path(__file__).resolve().parents[1] / "fixtures" / "projects"


def loader(project: Path, reads: list[str] | None = None):
    def load(path: str, uid: str | None) -> Loaded | None:
        if reads is not None:
            reads.append(path)
        file = project / path[len("res://"):]
        return Loaded(path, file.read_text(encoding="utf-8")) if file.is_file() else None
    return load


def read(project: str, scene: str) -> dict[str, Any]:
    root = PROJECTS / project
    return read_scene((root / scene).read_text(encoding="utf-8"), loader(root))


def paths(tree: dict[str, Any]) -> list[str]:
    return [tree["path"], *(p for child in tree["children"] for p in paths(child))]


def node(tree: dict[str, Any], path: str) -> dict[str, Any]:
    if tree["path"] == path:
        return tree
    for child in tree["children"]:
        if path == child["path"] or path.startswith(child["path"] + "/"):
            return node(child, path)
    raise KeyError(path)


def test_a_root_with_groups_is_read():
    """dodge_the_creeps/mob.tscn: `[node name="Mob" type="RigidBody2D" ... groups=["mobs"]]`."""
    tree = read("dodge_the_creeps", "mob.tscn")
    assert (tree["name"], tree["class"], tree["script"]) == ("Mob", "RigidBody2D", "res://mob.gd")
    assert paths(tree) == [".", "AnimatedSprite2D", "CollisionShape2D", "VisibleOnScreenNotifier2D"]


def test_grouped_nodes_and_instances_of_them():
    tree = read("visibility_ranges", "tree.tscn")
    assert paths(tree) == [".", "HighDetail", "HighDetail/Top", "HighDetail/Trunk", "LowDetail", "LowDetail/Top",
                           "LowDetail/Trunk"]
    cluster = read("visibility_ranges", "tree_cluster.tscn")
    first = cluster["children"][0]
    assert (first["name"], first["class"], first["instance"]) == ("Tree", "Node3D", "res://tree.tscn")
    assert first["children"] == [], "an instance's insides are not the scene's (not editable)"


def test_an_inherited_scene_has_its_base_nodes_its_overrides_and_its_own_at_their_index():
    """websocket_chat/client.tscn inherits chat.tscn, overrides nodes inside it and adds one at index 0."""
    tree = read("websocket_chat", "client.tscn")
    assert (tree["name"], tree["class"], tree["script"]) == ("Client", "Control", "res://client.gd")
    assert [c["name"] for c in tree["children"]] == ["WebSocketClient", "Panel"], "index=0 puts it first"
    own = tree["children"][0]
    # Labelled with the script's class_name, as the editor labels it.
    assert (own["class"], own["script"]) == ("WebSocketClient", "res://websocket/WebSocketClient.gd")
    base = read("websocket_chat", "chat.tscn")
    assert sorted(paths(tree)) == sorted([*paths(base), "WebSocketClient"]), "overrides add no nodes"
    assert node(tree, "Panel/VBoxContainer/Connect/Port")["class"] == "SpinBox"


def test_instanced_inherited_scenes():
    tree = read("websocket_chat", "combo.tscn")
    assert paths(tree) == [".", "Box", "Box/Server", "Box/VBoxContainer", "Box/VBoxContainer/Client",
                           "Box/VBoxContainer/Client2", "Box/VBoxContainer/Client3"]
    client = node(tree, "Box/VBoxContainer/Client2")
    assert client == {"name": "Client2", "class": "Control", "path": "Box/VBoxContainer/Client2",
                      "instance": "res://client.tscn", "script": "res://client.gd", "children": []}


def test_editable_children_are_listed_with_the_overrides():
    tree = read("multitouch_cubes", "main.tscn")
    cube = node(tree, "HBoxContainer/SubViewportContainer/SubViewport/Node3D")
    assert cube["instance"] == "res://cube_scene.tscn"
    assert [c["name"] for c in cube["children"]] == ["MeshInstance3D", "DirectionalLight3D", "Camera3D",
                                                     "WorldEnvironment"]
    assert cube["children"][2]["class"] == "Camera3D"
    assert count_nodes(tree) == 35


def test_a_node_added_inside_an_instance_its_base_instances():
    """role_playing_game/opponent.tscn: its base (combatant.tscn) instances sprite.tscn; the opponent
    edits that instance's children (Sprite2D/Pivot/Body), two files away."""
    tree = read("role_playing_game", "combat/combatants/opponent.tscn")
    assert [c["name"] for c in tree["children"]] == ["Health", "Sprite2D", "Timer"]
    assert node(tree, "Sprite2D/Pivot")["class"] == "Marker2D"
    assert [c["name"] for c in node(tree, "Sprite2D/Pivot")["children"]] == ["Shadow", "Body"]
    player = read("role_playing_game", "combat/combatants/player.tscn")
    assert node(player, "Sprite2D")["children"] == [], "not editable there: its insides are not listed"


def test_nodes_inside_a_file_that_cannot_be_read_are_listed_where_they_attach():
    """platformer_3d/enemy.tscn adds ray casts inside an instanced .glb (an imported model)."""
    tree = read("platformer_3d", "enemy/enemy.tscn")
    model = node(tree, "Enemy")
    assert (model["class"], model["instance"]) == (None, "res://enemy/enemy.glb")
    skeleton = node(tree, "Enemy/Skeleton")
    assert (skeleton["class"], skeleton["declared_in"]) == (None, "res://enemy/enemy.glb")
    assert [c["name"] for c in skeleton["children"]] == ["Skeleton3D", "RayFloor", "RayWall"]
    assert node(tree, "Enemy/Skeleton/RayFloor")["class"] == "RayCast3D"
    assert "declared_in" not in node(tree, "Enemy/Skeleton/RayFloor"), "the scene's own node"


def test_a_big_real_level():
    """open_rpg/src/main.tscn (format 4, 125 KB): nodes added under instanced sub-scenes, instances
    inside instances, inherited scenes three files deep (door.tscn > area_transition.tscn > Trigger.tscn)."""
    tree = read("open_rpg", "src/main.tscn")
    assert count_nodes(tree) == 120
    runner = node(tree, "Field/Map/Town/Gamepieces/Runner")
    assert (runner["class"], runner["instance"]) == ("Path2D", "res://src/field/gamepieces/gamepiece.tscn")
    assert [c["name"] for c in runner["children"]] == ["InteractionPopup", "LoopAI"], "added; PathFollow2D not listed"
    assert node(tree, "Field/Map/Town/Gamepieces/Runner/LoopAI/WaitTimer")["class"] == "Timer"
    door = read("open_rpg", "src/field/cutscenes/templates/doors/door.tscn")
    assert (door["class"], [c["name"] for c in door["children"]][:3]) == ("Node2D", ["Area2D", "Destination",
                                                                                     "BlackoutTimer"])
    assert [c["name"] for c in node(door, "Area2D")["children"]] == ["CollisionShape2D", "OpenDoor", "ClosedDoor"]


def test_a_tree_larger_than_an_answer_is_cut_breadth_first():
    """open_rpg's level is 23 KB as JSON, about twice an answer: cut to the room, the levels nearest
    the root first, and every node left with unlisted children says how many it has."""
    tree = read("open_rpg", "src/main.tscn")
    assert text_size(tree) > budget_bytes()
    cut, returned = cut_tree(tree, budget_bytes() - 1000)
    assert text_size(cut) <= budget_bytes() - 1000 and 20 < returned < 120 == count_nodes(tree)
    assert count_nodes(cut) == returned
    assert [c["name"] for c in cut["children"]] == [c["name"] for c in tree["children"]], "the first level whole"

    def check(shown: dict[str, Any], full: dict[str, Any]) -> None:
        if len(shown["children"]) < len(full["children"]):
            assert shown["child_count"] == len(full["children"]), shown["path"]
        for child, whole in zip(shown["children"], full["children"], strict=False):
            check(child, whole)
    check(cut, tree)
    small = read("websocket_chat", "chat.tscn")
    assert cut_tree(small, budget_bytes()) == (small, count_nodes(small)), "a tree that fits is whole"


def test_every_real_scene_reads():
    """Never fail a file Godot opens: every scene of the real projects reads, each [node] is listed
    or (inside an instance that is not editable) accounted for."""
    for scene in sorted(PROJECTS.rglob("*.tscn")):
        project = next(p for p in PROJECTS.iterdir() if scene.is_relative_to(p))
        tree = read_scene(scene.read_text(encoding="utf-8"), loader(project))
        assert tree["path"] == "." and count_nodes(tree) >= 1, scene


def test_a_scene_that_instances_itself_ends():
    text = '[gd_scene format=3]\n[ext_resource type="PackedScene" path="res://loop.tscn" id="1"]\n' \
           '[node name="Loop" type="Node"]\n[node name="Again" parent="." instance=ExtResource("1")]\n'
    reads: list[str] = []
    tree = read_scene(text, lambda path, uid: reads.append(path) or Loaded(path, text))
    assert len(reads) <= MAX_DEPTH + 1
    assert tree["children"][0]["instance"] == "res://loop.tscn"


def test_deep_chains_stop_at_the_depth_bound():
    reads: list[str] = []

    def chain(path: str, uid: str | None) -> Loaded:
        reads.append(path)
        level = int(path.rsplit("_", 1)[1].split(".")[0])
        return Loaded(path, f'[gd_scene format=3]\n[ext_resource type="PackedScene" path="res://s_{level + 1}.tscn" '
                            f'id="1"]\n[node name="L{level}" type="Node"]\n'
                            f'[node name="Next" parent="." instance=ExtResource("1")]\n')
    tree = read_scene(chain("res://s_0.tscn", None).text, chain)
    assert tree["children"][0]["class"] == "Node", "the next file was read"
    assert len(reads) == MAX_DEPTH + 1, "and no deeper than the bound"


def test_a_missing_instanced_file_leaves_the_node_unclassed():
    text = '[gd_scene format=3]\n[ext_resource type="PackedScene" path="res://gone.tscn" id="1"]\n' \
           '[node name="Main" type="Node"]\n[node name="Gone" parent="." instance=ExtResource("1")]\n' \
           '[node name="Kept" type="Label" parent="Gone"]\n'
    tree = read_scene(text, lambda path, uid: None)
    assert tree["children"][0] == {"name": "Gone", "class": None, "path": "Gone", "instance": "res://gone.tscn",
                                   "children": [{"name": "Kept", "class": "Label", "path": "Gone/Kept",
                                                 "children": []}]}


@pytest.mark.parametrize("text, why", [
    ("extends Node\n", "gd_scene"),
    ("[gd_scene format=3]\n", "no root"),
    ('[gd_scene format=3]\n[node name="A" type="Node"]\n[node name="B" type="Node"]\n', "two root"),
])
def test_what_is_no_scene_is_refused(text: str, why: str):
    with pytest.raises(SceneFormatError, match=why):
        read_scene(text, lambda path, uid: None)
