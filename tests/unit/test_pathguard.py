"""The path guard refuses every escaping path for every path-guarded catalogue tool."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from godot_bridge.catalogue import load_catalogue
from godot_bridge.errors import ToolError
from godot_bridge.pathguard import check_path, check_paths

CATALOGUE = load_catalogue()
GUARDED = [(t, param, prefixes) for t in CATALOGUE.tools.values() for param, prefixes in t.path_params.items()]
IDS = [f"{t.name}.{param}" for t, param, _ in GUARDED]


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
            check_paths(tool, {param: value})
        err = caught.value
        assert err.code == "PATH_DENIED", value
        assert param in err.message, err.message
        assert repr(value[:160])[1:-1][:20] in err.message, (value, err.message)
        assert all(p in err.message for p in prefixes)
        assert err.hint and param in err.hint


@pytest.mark.parametrize(("tool", "param", "prefixes"), GUARDED, ids=IDS)
def test_paths_under_an_allowed_prefix_pass(tool, param, prefixes):
    for prefix in prefixes:
        for rest in ("", "a.tres", "dir/sub/file name.tscn", "./x.gd", "ünïcode/ファイル.png", "a..b/c...d.gd"):
            check_paths(tool, {param: prefix + rest})


@pytest.mark.parametrize(("tool", "param", "prefixes"), GUARDED, ids=IDS)
def test_absent_and_empty_optional_paths_pass(tool, param, prefixes):
    check_paths(tool, {})
    check_paths(tool, {param: ""})
    check_paths(tool, {param: None})


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
