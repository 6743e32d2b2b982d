"""The path guard refuses every escaping path for every path-guarded catalogue tool."""

from __future__ import annotations

import dataclasses

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from godot_bridge.errors import ToolError
from godot_bridge.safety.pathguard import check_path, check_paths
from godot_bridge.tools.catalogue import load_catalogue

CATALOGUE = load_catalogue()
GUARDED = [(t, param, prefixes) for t in CATALOGUE.tools.values() for param, prefixes in t.path_params.items()]
IDS = [f"{t.name}.{param}" for t, param, _ in GUARDED]


def _args(key: str, value: object) -> dict:
    """Arguments holding value where a path key points: "a[].b" -> {"a": [{"b": value}]}."""
    head, sep, tail = key.partition("[].")
    return {head: [_args(tail, value)]} if sep else {head: value}


def _bad_values(prefixes: list[str]) -> list[str]:
    first = prefixes[0]
    values = [
        "../outside.tscn",
        f"{first}../outside.tscn",
        f"{first}a/../../outside.tscn",
        f"{first}a/..",
        "C:/Windows/win.ini",
        "c:relative.tscn",
        f"{first}C:/Windows/win.ini",
        f"{first}a/D:/x",
        "\\\\server\\share\\x.tscn",
        f"{first}a\\..\\b.tscn",
        f"{first}a\\b.tscn",
        f"{first}a\x00.tscn",
        f"{first}a\n.tscn",
        "/etc/passwd",
        f"{first}/etc/passwd",
        f"{first}//etc/passwd",
        "file:///etc/passwd",
        "http://example.com/x.png",
        "scenes/main.tscn",
        first.upper() + "x.tscn",
    ]
    if not any(p.startswith("user://") for p in prefixes):
        values.append("user://saves/x.tscn")
    if not any(p.startswith("res://") for p in prefixes):
        values.append("res://x.png")
    if "user://screenshots/" in prefixes:
        values += ["user://other/x.png", "user://screenshots"]
    return values


@pytest.mark.parametrize(("tool", "param", "prefixes"), GUARDED, ids=IDS)
def test_every_escape_is_refused_before_sending(tool, param, prefixes):
    for value in _bad_values(prefixes):
        with pytest.raises(ToolError) as caught:
            check_paths(tool, _args(param, value))
        err = caught.value
        leaf = param.rsplit(".", 1)[-1]
        assert err.code == "PATH_DENIED", value
        assert leaf in err.message, err.message
        assert repr(value[:160])[1:-1][:20] in err.message, (value, err.message)
        assert all(p in err.message for p in prefixes)
        assert err.hint and leaf in err.hint


@pytest.mark.parametrize(("tool", "param", "prefixes"), GUARDED, ids=IDS)
def test_paths_under_an_allowed_prefix_pass(tool, param, prefixes):
    for prefix in prefixes:
        for rest in ("", "a.tres", "dir/sub/file name.tscn", "./x.gd", "ünïcode/ファイル.png", "a..b/c...d.gd"):
            check_paths(tool, _args(param, prefix + rest))


@pytest.mark.parametrize(("tool", "param", "prefixes"), GUARDED, ids=IDS)
def test_absent_and_empty_optional_paths_pass(tool, param, prefixes):
    check_paths(tool, {})
    check_paths(tool, _args(param, ""))
    check_paths(tool, _args(param, None))


def test_catalogue_has_the_expected_guarded_tools():
    names = {t.name for t, _, _ in GUARDED}
    # Always-on and on-demand tools alike, both guards and the screenshot lists.
    assert {"scene_create", "script_read", "save_write", "editor_screenshot", "runtime_screenshot", "tileset_edit_terrain"} <= names
    assert len(GUARDED) >= 40
    assert {tuple(p) for _, _, p in GUARDED} == {("res://",), ("user://",), ("res://", "user://screenshots/"), ("user://screenshots/",)}


def test_non_string_and_list_values():
    @dataclass
    class Tool:
        name: str = "t"
        path_params: dict[str, list[str]] = field(default_factory=lambda: {"file_path": ["res://"]})

    with pytest.raises(ToolError, match="must be a path string"):
        check_paths(Tool(), {"file_path": 42})
    check_paths(Tool(), {"file_path": ["res://a.gd", "res://b.gd"]})
    with pytest.raises(ToolError, match="'..' segment"):
        check_paths(Tool(), {"file_path": ["res://a.gd", "res://../b.gd"]})
    # A tool without path params is never inspected.
    check_paths(Tool(path_params={}), {"file_path": "/etc/passwd"})


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        ("res://../x", "'..' segment"),
        ("C:/x", "drive letter"),
        ("res://C:/x", "drive letter"),
        ("res://a\\b", "backslash"),
        ("res://a\x00b", "control character"),
        ("/abs", "absolute filesystem path"),
        ("res:///abs", "absolute path"),
        ("user://x", "'user://'"),
        ("x.gd", "no 'res://'-style prefix"),
    ],
)
def test_each_reason_is_named(value, reason):
    with pytest.raises(ToolError) as caught:
        check_path("file_path", value, ["res://"])
    assert reason in caught.value.message


def test_long_values_are_clipped_in_the_message():
    with pytest.raises(ToolError) as caught:
        check_path("file_path", "/" + "a" * 5000, ["res://"])
    assert len(caught.value.message) < 400


# --- links out of the project ---------------------------------------------------------

PROJECT_GUARDED = [(t, p, pre) for t, p, pre in GUARDED if "res://" in pre]
PROJECT_IDS = [f"{t.name}.{p}" for t, p, _ in PROJECT_GUARDED]


@pytest.fixture
def linked_project(tmp_path: Path) -> Path:
    """A project whose link_out/ is a symbolic link to a folder outside it, and link_in/ to one inside."""
    project, outside = tmp_path / "project", tmp_path / "outside"
    (project / "scenes").mkdir(parents=True)
    outside.mkdir()
    (outside / "x.gd").write_text("extends Node\n")
    (project / "link_out").symlink_to(outside, target_is_directory=True)
    (project / "link_in").symlink_to(project / "scenes", target_is_directory=True)
    (project / "loop").symlink_to(project / "loop")
    return project


@pytest.mark.parametrize(("tool", "param", "prefixes"), PROJECT_GUARDED, ids=PROJECT_IDS)
def test_a_link_out_of_the_project_is_refused(tool, param, prefixes, linked_project: Path):
    for value in ("res://link_out/x.gd", "res://link_out/new_file.tres", "res://link_out", "res://loop/x.gd"):
        with pytest.raises(ToolError) as caught:
            check_paths(tool, _args(param, value), linked_project)
        assert caught.value.code == "PATH_DENIED", value
        assert value in caught.value.message
    assert "symbolic link" in _refusal(tool, param, "res://link_out/x.gd", linked_project)


def _refusal(tool, param, value, project) -> str:
    with pytest.raises(ToolError) as caught:
        check_paths(tool, _args(param, value), project)
    return caught.value.message


@pytest.mark.parametrize(("tool", "param", "prefixes"), PROJECT_GUARDED, ids=PROJECT_IDS)
def test_links_inside_and_files_not_yet_written_pass(tool, param, prefixes, linked_project: Path):
    for value in ("res://link_in/a.tscn", "res://scenes/new.tscn", "res://not/yet/made.gd", "res://"):
        check_paths(tool, _args(param, value), linked_project)


def test_a_project_reached_through_a_link_is_still_inside(linked_project: Path, tmp_path: Path):
    """The bridge may be started with --project naming a link to the real folder."""
    alias = tmp_path / "alias"
    alias.symlink_to(linked_project, target_is_directory=True)
    check_path("file_path", "res://scenes/a.tscn", ["res://"], alias)
    with pytest.raises(ToolError, match="symbolic link"):
        check_path("file_path", "res://link_out/x.gd", ["res://"], alias)


def test_user_paths_are_not_resolved_against_the_project(linked_project: Path):
    check_path("path", "user://link_out/x.save", ["user://"], linked_project)


def test_game_start_takes_its_words_and_res_paths_only():
    game_start = CATALOGUE.tools["game_start"]
    for ok in ("main", "current", "res://scenes/level.tscn"):
        check_paths(game_start, {"scene_path": ok})
    for bad in ("mainx", "../x.tscn", "/etc/passwd", "user://x.tscn"):
        with pytest.raises(ToolError) as caught:
            check_paths(game_start, {"scene_path": bad})
        assert "'main'" in caught.value.message and "res://" in caught.value.message


def test_nested_paths_are_checked_in_every_item():
    edit = CATALOGUE.tools["spriteframes_edit"]
    frames = [{"texture_path": "res://a.png"}, {"texture_path": "res://../b.png"}]
    with pytest.raises(ToolError) as caught:
        check_paths(edit, {"frames": frames})
    assert "frames[1].texture_path" in caught.value.message
    check_paths(edit, {"frames": [{"texture_path": "res://a.png"}, {"duration": 1}, "not an object"]})


# --- every path-like parameter is known to the guard ---------------------------------------------

# A name that looks like a file path; a parameter whose description or default shows a
# res:// or user:// value counts too.
PATH_LIKE = re.compile(r"(^|_)(path|paths|file|files|dir|dirs|directory|folder|scene)$")
# Path-like names that are not files: each with the reason it needs no guard.
NOT_FILE_PATHS = {
    "node_path": "a node in the scene tree",
    "parent_path": "a node in the scene tree",
    "new_parent_path": "a node in the scene tree",
    "root_path": "a node in the scene tree",
    "scope_path": "a node in the scene tree",
    "player_path": "an AnimationPlayer node",
    "sprite_path": "a Sprite2D node",
    "target_path": "a node in the scene tree",
    "track_path": "an animation track (node:property)",
}
# Parameters that are files but deliberately not res:// paths.
NOT_PROJECT_FILES = {
    ("asset_import", "source_path"): "the outside file to copy in: an absolute path by design",
}


def _params(schema: dict, prefix: str = "") -> list[tuple[str, dict]]:
    """(path key, schema) of every parameter, nested ones as "a[].b" (the guard's syntax)."""
    found: list[tuple[str, dict]] = []
    for name, prop in (schema.get("properties") or {}).items():
        if not isinstance(prop, dict):
            continue
        key = prefix + name
        found.append((key, prop))
        for branch in [prop, *(b for b in prop.get("anyOf", []) if isinstance(b, dict))]:
            found += _params(branch, key + ".") if "properties" in branch else []
            items = branch.get("items")
            if isinstance(items, dict):
                found += _params(items, key + "[].")
    return found


def _looks_like_a_path(key: str, prop: dict) -> bool:
    name = key.rsplit(".", 1)[-1]
    shown = json.dumps([prop.get("description", ""), prop.get("default", "")])
    return bool(PATH_LIKE.search(name)) or "res://" in shown or "user://" in shown


def unguarded_paths(tools) -> list[str]:
    out = []
    for tool in tools:
        if tool.channel == "lsp":
            continue  # the LSP tools resolve their file_path themselves (tests/bridge/lsp/test_lsp_untrusted.py)
        for key, prop in _params(tool.input_schema):
            name = key.rsplit(".", 1)[-1]
            if not _looks_like_a_path(key, prop) or key in tool.path_params:
                continue
            if name in NOT_FILE_PATHS or (tool.name, key) in NOT_PROJECT_FILES:
                continue
            out.append(f"{tool.name}.{key}")
    return out


def test_every_path_like_parameter_is_guarded():
    assert unguarded_paths(CATALOGUE.tools.values()) == []


def test_a_new_path_like_parameter_is_caught():
    """The check above can fail: a tool that gains an unguarded file parameter is named."""
    base = CATALOGUE.tools["scene_open"]
    schema = json.loads(json.dumps(base.input_schema))
    schema["properties"]["icon_file"] = {"type": "string"}
    schema["properties"]["items"] = {"type": "array", "items": {"type": "object", "properties": {
        "where": {"type": "string", "description": "a res:// folder"}}}}
    grown = dataclasses.replace(base, input_schema=schema)
    assert unguarded_paths([grown]) == ["scene_open.icon_file", "scene_open.items[].where"]


def test_lsp_tools_refuse_escapes_themselves():
    from godot_bridge.lsp.uris import parse_res_path

    for bad in ("../x.gd", "res://../x.gd", "/etc/passwd"):
        with pytest.raises(ToolError):
            parse_res_path(bad)


# -- uid:// wherever res:// is accepted ---------------------------------------------------------------

def test_a_uid_passes_wherever_res_paths_do():
    for tool, param, prefixes in GUARDED:
        if "res://" in prefixes:
            check_paths(tool, _args(param, "uid://ep13situ5bnn"))  # no PATH_DENIED "allowed: res://"
    open_scene = CATALOGUE.tools["scene_open"]
    check_paths(open_scene, {"file_path": "uid://ep13situ5bnn"})


def test_a_uid_is_not_a_user_path():
    with pytest.raises(ToolError, match="outside the allowed prefixes"):
        check_path("save_path", "uid://ep13situ5bnn", ["user://"])


@pytest.mark.parametrize("bad", ["uid://", "uid://ABC", "uid://a/../b", "uid://<invalid>"])
def test_a_malformed_uid_is_refused(bad: str):
    with pytest.raises(ToolError) as caught:
        check_path("file_path", bad, ["res://"])
    assert caught.value.code == "PATH_DENIED" and "uid" in caught.value.message
    assert "uid://" in (caught.value.hint or "")


def test_a_uid_the_files_name_is_guarded_as_its_path(tmp_path: Path):
    project = tmp_path / "project"
    project.mkdir()
    (project / "out").symlink_to(tmp_path)
    table = {"uid://inside": "res://main.tscn", "uid://outside": "res://out/secret.tscn"}
    check_path("file_path", "uid://inside", ["res://"], project, resolve_uid=table.get)
    with pytest.raises(ToolError) as caught:
        check_path("file_path", "uid://outside", ["res://"], project, resolve_uid=table.get)
    assert "uid://outside is res://out/secret.tscn" in caught.value.message
    assert "symbolic link" in caught.value.message
    # One the files do not name goes on to the editor (its ResourceUID knows it, or it answers NOT_FOUND).
    check_path("file_path", "uid://unknown", ["res://"], project, resolve_uid=table.get)
