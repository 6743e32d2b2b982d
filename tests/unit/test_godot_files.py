"""Reading project.godot and .tscn text without an editor (the resources' disk path)."""

from __future__ import annotations

import pytest

from godot_bridge.content.godot_files import SceneFormatError, count_nodes, project_settings, scene_tree


def test_project_settings_reads_sections_and_unquotes():
    text = ('; comment\nconfig_version=5\n\n[application]\n\nconfig/name="My \\"Big\\" Game"\n'
            'run/main_scene="uid://b1"\n\n[display]\nwindow/size/viewport_width=640\n')
    settings = project_settings(text)
    assert settings["application/config/name"] == 'My "Big" Game'
    assert settings["application/run/main_scene"] == "uid://b1"
    assert settings["display/window/size/viewport_width"] == "640"
    assert "config_version" not in settings  # outside any section


def test_scene_tree_nests_nodes_and_resolves_instances():
    text = """[gd_scene load_steps=3 format=3 uid="uid://x"]

[ext_resource type="PackedScene" uid="uid://e" path="res://enemies/bat.tscn" id="2_bat"]

[node name="Level" type="Node2D"]

[node name="Enemies" type="Node2D" parent="."]

[node name="Bat" parent="Enemies" instance=ExtResource("2_bat")]
position = Vector2(3, 4)

[node name="Label" type="Label" parent="Enemies/Bat"]
text = "[node name=\\"Fake\\"]"
"""
    root = scene_tree(text)
    assert (root["name"], root["class"], root["path"]) == ("Level", "Node2D", ".")
    bat = root["children"][0]["children"][0]
    assert (bat["path"], bat["class"], bat["instance"]) == ("Enemies/Bat", None, "res://enemies/bat.tscn")
    assert bat["children"][0]["path"] == "Enemies/Bat/Label"
    assert count_nodes(root) == 4  # the [node ...] inside a property value is not a node


@pytest.mark.parametrize("text, why", [
    ("extends Node\n", "gd_scene"),
    ("[gd_scene format=3]\n", "no root"),
    ('[gd_scene format=3]\n[node name="A" type="Node"]\n[node name="B" type="Node"]\n', "two root"),
    ('[gd_scene format=3]\n[node name="A" type="Node"]\n[node name="C" type="Node" parent="Nope"]\n', "Nope"),
])
def test_scene_tree_refuses_what_it_cannot_read(text: str, why: str):
    with pytest.raises(SceneFormatError, match=why):
        scene_tree(text)
