"""Reading Godot's text formats without an editor: project.godot settings and resource headers."""

from __future__ import annotations

from pathlib import Path

import pytest

from godot_bridge.godot_files.text_format import file_uid, header, project_settings, sections, string_list

PROJECTS = Path(__file__).resolve().parents[1] / "fixtures" / "projects"


def test_project_settings_reads_sections_and_unquotes():
    text = ('; comment\nconfig_version=5\n\n[application]\n\nconfig/name="My \\"Big\\" Game"\n'
            'run/main_scene="uid://b1"\n\n[display]\nwindow/size/viewport_width=640\n')
    settings = project_settings(text)
    assert settings["application/config/name"] == 'My "Big" Game'
    assert settings["application/run/main_scene"] == "uid://b1"
    assert settings["display/window/size/viewport_width"] == "640"
    assert "config_version" not in settings  # outside any section


def test_project_settings_of_a_real_project_with_an_input_map():
    text = (PROJECTS / "open_rpg" / "project.godot").read_text(encoding="utf-8")
    settings = project_settings(text)
    assert settings["application/run/main_scene"] == "res://src/main.tscn"
    assert settings["application/config/name"] == "OpenRPG"
    # The input map's multi-line values make no keys of their own: one key per action.
    actions = {key for key in settings if key.startswith("input/")}
    assert actions and all(key.count("/") == 1 and "Object" not in key and '"' not in key for key in actions)


@pytest.mark.parametrize(("line", "kind", "attrs"), [
    # Godot 4.6: unique_id, groups holding `]`, parent_id_path with spaces inside its parentheses.
    ('[node name="Mob" type="RigidBody2D" unique_id=371809901 groups=["mobs"]]', "node",
     {"name": '"Mob"', "type": '"RigidBody2D"', "unique_id": "371809901", "groups": '["mobs"]'}),
    ('[node name="Port" parent="Panel/VBoxContainer/Connect" parent_id_path=PackedInt32Array(2004823531, 7) '
     'index="2" unique_id=637515637]', "node",
     {"name": '"Port"', "parent": '"Panel/VBoxContainer/Connect"', "parent_id_path": "PackedInt32Array(2004823531, 7)",
      "index": '"2"', "unique_id": "637515637"}),
    ('[node name="A]b" parent="." groups=["x]y", "z"] instance=ExtResource("1_a")]', "node",
     {"name": '"A]b"', "parent": '"."', "groups": '["x]y", "z"]', "instance": 'ExtResource("1_a")'}),
    ('[ext_resource path="res://x.tscn" type="PackedScene" id=1]', "ext_resource",  # Godot 3's spelling
     {"path": '"res://x.tscn"', "type": '"PackedScene"', "id": "1"}),
    ('[editable path="Player"]', "editable", {"path": '"Player"'}),
])
def test_headers_with_any_attribute(line: str, kind: str, attrs: dict[str, str]):
    section = header(line)
    assert section is not None and section.kind == kind and section.attrs == attrs


def test_groups_read_as_a_list():
    section = header('[node name="A" parent="." groups=["x]y", "z \\"q\\""]]')
    assert section is not None and string_list(section.attrs["groups"]) == ["x]y", 'z "q"']


@pytest.mark.parametrize("line", ["[not a header", "[node name=]", '[node name="a" = 3]', "[]"])
def test_what_is_no_header(line: str):
    assert header(line) is None


def test_header_lookalikes_inside_values_are_no_sections():
    text = '''[gd_scene format=3]

[node name="Main" type="Node"]
text = "line one
[node name=\\"Fake\\" parent=\\".\\"]
still the string"
data = {
"a": [1, 2],
[node name="AlsoFake"]
}

[node name="Real" type="Node" parent="."]
'''
    assert [(s.kind, s.text("name")) for s in sections(text)] == [("gd_scene", None), ("node", "Main"), ("node", "Real")]


def test_every_header_of_every_real_scene_is_read():
    """Each [node] line of the real projects' scenes is a section: none is skipped as unreadable."""
    for scene in sorted(PROJECTS.rglob("*.tscn")):
        text = scene.read_text(encoding="utf-8")
        nodes = [s for s in sections(text) if s.kind == "node"]
        assert len(nodes) == text.count("\n[node "), scene


def test_file_uid():
    assert file_uid('[gd_scene format=3 uid="uid://ep13situ5bnn"]\n') == "uid://ep13situ5bnn"
    assert file_uid('[gd_resource type="Gradient" format=3 uid="uid://b8"]\n') == "uid://b8"
    assert file_uid("[gd_scene load_steps=2 format=2]\n") is None
    assert file_uid("extends Node\n") is None
