"""res:// <-> file URI mapping and 1-based <-> 0-based positions, POSIX and Windows-style."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from godot_bridge.errors import ToolError
from godot_bridge.lsp.uris import (
    from_lsp_position,
    is_windows_path,
    language_id,
    map_file_uris,
    parse_res_path,
    path_to_uri,
    project_root_uri,
    res_to_uri,
    to_lsp_position,
    uri_to_path,
    uri_to_res,
)

POSIX = "/home/me/My Game"
WINDOWS = "C:\\Users\\x\\proj"


def test_posix_root_and_file_uris() -> None:
    assert project_root_uri(POSIX) == "file:///home/me/My%20Game"
    assert res_to_uri(POSIX, "res://src/a b.gd") == "file:///home/me/My%20Game/src/a%20b.gd"
    assert uri_to_res(POSIX, "file:///home/me/My%20Game/src/a%20b.gd") == "res://src/a b.gd"


def test_windows_root_and_file_uris() -> None:
    assert is_windows_path(WINDOWS) and not is_windows_path(POSIX)
    assert project_root_uri(WINDOWS) == "file:///C:/Users/x/proj"
    assert res_to_uri(WINDOWS, "res://a.gd") == "file:///C:/Users/x/proj/a.gd"
    assert uri_to_res(WINDOWS, "file:///C:/Users/x/proj/a.gd") == "res://a.gd"


@pytest.mark.parametrize(
    "uri",
    [
        "file:///c:/Users/x/proj/sub/a.gd",  # VS Code style lower-case drive
        "file:///c%3A/Users/x/proj/sub/a.gd",  # encoded drive colon (Godot 4.5 get_file_uri)
        "file:///C%3A/users/X/PROJ/sub/a.gd",  # folder case differs: Windows ignores case
        "file://localhost/C:/Users/x/proj/sub/a.gd",
        "file:///C:/Users/x/proj/./sub/../sub/a.gd",
        "file:///C:\\Users\\x\\proj\\sub\\a.gd",
    ],
)
def test_windows_uri_spellings_map_back(uri: str) -> None:
    assert uri_to_res(WINDOWS, uri) == "res://sub/a.gd"
    assert uri_to_res("c:/Users/x/proj/", uri) == "res://sub/a.gd"


def test_part_below_the_project_keeps_the_servers_spelling() -> None:
    assert uri_to_res(WINDOWS, "file:///c:/users/x/proj/Sub/A.gd") == "res://Sub/A.gd"


def test_posix_is_case_sensitive_unless_told_otherwise() -> None:
    uri = "file:///home/me/my%20game/a.gd"
    assert uri_to_res(POSIX, uri, case_insensitive=False) is None
    assert uri_to_res(POSIX, uri, case_insensitive=True) == "res://a.gd"


@pytest.mark.parametrize(
    "uri",
    [
        "file:///home/me/Other/a.gd",
        "file:///home/me/My%20Game2/a.gd",  # a sibling whose name starts the same
        "file:///home/me/My%20Game/../secret.gd",
        "file://server/share/My%20Game/a.gd",  # network host
        "gdscript://native/Node2D",
        "",
    ],
)
def test_outside_or_foreign_uris_do_not_map(uri: str) -> None:
    assert uri_to_res(POSIX, uri) is None


def test_root_itself_and_res_passthrough() -> None:
    assert uri_to_res(POSIX, "file:///home/me/My%20Game") == "res://"
    assert uri_to_res(POSIX, "res://a//b.gd") == "res://a/b.gd"


def test_uri_to_path_variants() -> None:
    assert uri_to_path("file:///C%3A/x%20y/z.gd") == "C:/x y/z.gd"
    assert uri_to_path("file:/tmp/a.gd") == "/tmp/a.gd"
    assert uri_to_path("http://x/y") is None
    assert path_to_uri("/") == "file:///"
    assert path_to_uri("D:\\") == "file:///D:"


segment = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="/\\:\x00"), min_size=1, max_size=8
).filter(lambda s: s not in (".", ".."))


@given(root=st.lists(segment, min_size=1, max_size=3), rel=st.lists(segment, min_size=1, max_size=3), windows=st.booleans())
def test_round_trip(root: list[str], rel: list[str], windows: bool) -> None:
    project = ("D:\\" + "\\".join(root)) if windows else ("/" + "/".join(root))
    res = "res://" + "/".join(rel)
    assert uri_to_res(project, res_to_uri(project, res), case_insensitive=windows) == res


def test_positions_are_one_based_outside_zero_based_inside() -> None:
    assert to_lsp_position(1, 1) == {"line": 0, "character": 0}
    assert to_lsp_position(12, 5) == {"line": 11, "character": 4}
    assert to_lsp_position(0, 0) == {"line": 0, "character": 0}  # below 1 counts as 1
    assert from_lsp_position({"line": 11, "character": 4}) == (12, 5)
    assert from_lsp_position({"line": -3, "character": True}) == (1, 1)
    assert from_lsp_position(None) == (1, 1)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("res://player.gd", "res://player.gd"),
        ("RES://a//./b.gdshader", "res://a/b.gdshader"),
        ("scripts\\enemy.gd", "res://scripts/enemy.gd"),
        ("res://shaders/common.gdshaderinc", "res://shaders/common.gdshaderinc"),
        ("res://Upper.GD", "res://Upper.GD"),
    ],
)
def test_res_paths_are_cleaned(raw: str, expected: str) -> None:
    assert parse_res_path(raw) == expected


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ("res://../outside.gd", "PATH_DENIED"),
        ("res://a/../../b.gd", "PATH_DENIED"),
        ("/etc/passwd.gd", "PATH_DENIED"),
        ("C:\\x\\a.gd", "PATH_DENIED"),
        ("user://save.gd", "PATH_DENIED"),
        ("res://C:/a.gd", "PATH_DENIED"),
        ("res://scene.tscn", "UNSUPPORTED_FILE_TYPE"),
        ("res://", "INVALID_PATH"),
        ("res://a.gd.txt", "UNSUPPORTED_FILE_TYPE"),
        ("  ", "INVALID_PARAMS"),
    ],
)
def test_bad_res_paths_are_refused(raw: str, code: str) -> None:
    with pytest.raises(ToolError) as info:
        parse_res_path(raw)
    assert info.value.code == code


def test_language_ids() -> None:
    assert language_id("res://a.gd") == "gdscript"
    assert language_id("res://a.gdshader") == "gdshader"
    assert language_id("res://a.gdshaderinc") == "gdshader"


# ---------------------------------------------------------------- file URIs inside text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # Godot's hover link, as 4.5+ encodes it and as earlier versions wrote it raw
        ("Defined in [player.gd](file:///home/me/My%20Game/scripts/player.gd)", "Defined in [player.gd](res://scripts/player.gd)"),
        ("Defined in [player.gd](file:///home/me/My Game/scripts/player.gd)", "Defined in [player.gd](res://scripts/player.gd)"),
        ("[a](file:///home/me/My%20Game/a%20(1).gd) b", "[a](res://a (1).gd) b"),  # balanced ( ) in a link
        # non-ASCII names, percent-encoded or raw, come out as text
        ("[x](file:///home/me/My%20Game/sc%C3%A8nes/J%C3%B6rg.gd)", "[x](res://scènes/Jörg.gd)"),
        ("see file:///home/me/My Game/日本/ß.gd.", "see res://日本/ß.gd."),
        # outside the project: the file name only
        ("in file:///opt/godot/stubs/node.gd, line 3", "in node.gd, line 3"),
        ("[u](file:///home/me/Other/%C3%BC.gd)", "[u](ü.gd)"),
        ("file://server/share/My%20Game/a.gd", "a.gd"),  # a network host is never the project
        ("<file:///home/me/My Game/a.gd> and <file:///etc/passwd>", "<res://a.gd> and <passwd>"),
        ("file:///home/me/My%20Game/a.gd#L12", "res://a.gd#L12"),
        # not file URIs: left alone
        ("see https://docs.godotengine.org/x and res://a.gd", "see https://docs.godotengine.org/x and res://a.gd"),
        ("profile:/x and a.file:/y", "profile:/x and a.file:/y"),
        ("no links here", "no links here"),
    ],
)
def test_file_uris_in_text_become_res_paths_or_names(text: str, expected: str) -> None:
    assert map_file_uris(POSIX, text) == expected
    assert map_file_uris(POSIX, expected) == expected  # what it writes is never mapped again


@pytest.mark.parametrize(
    "uri",
    [
        "file:///C:/Users/x/proj/sub/a.gd",
        "file:///c%3A/users/x/proj/sub/a.gd",  # Godot 4.5+: encoded colon; Windows ignores case
        "file://C:/Users/x/proj/sub/a.gd",  # Godot before 4.5: "file://" + the path
        "file:///C:\\Users\\x\\proj\\sub\\a.gd",
    ],
)
def test_windows_file_uris_in_text(uri: str) -> None:
    assert map_file_uris(WINDOWS, f"Defined in [a.gd]({uri})") == "Defined in [a.gd](res://sub/a.gd)"
    assert map_file_uris(WINDOWS, f"at {uri}: oops") == "at res://sub/a.gd: oops"
    assert uri_to_res(WINDOWS, uri) == "res://sub/a.gd"


def test_a_windows_uri_outside_the_project_is_its_name() -> None:
    assert map_file_uris(WINDOWS, "[b](file:///D:/Godot/stubs/b%C3%A9.gd)") == "[b](bé.gd)"


prose = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=12).filter(lambda t: "file:" not in t.lower())
inside = st.lists(segment, min_size=1, max_size=3).map(lambda parts: res_to_uri(POSIX, "res://" + "/".join(parts)))
outside = st.lists(segment, min_size=1, max_size=3).map(lambda parts: path_to_uri("/elsewhere/" + "/".join(parts)))


@given(st.lists(st.tuples(prose, st.one_of(inside, outside), st.sampled_from(["{}", "[x]({})", "<{}>", "({})", "{}."])),
                max_size=4))
def test_no_file_uri_survives_mapping(pieces: list[tuple[str, str, str]]) -> None:
    text = "".join(before + " " + form.format(uri) + " " for before, uri, form in pieces)
    mapped = map_file_uris(POSIX, text)
    assert "file:/" not in mapped.lower() and "/home/me" not in mapped and "elsewhere" not in mapped
