"""Enabling the plugin in project.godot: one insertion, every other byte as it was."""

from __future__ import annotations

import pytest

from godot_bridge.setup.project_godot import ProjectFileError, enable_plugin, enabled_plugins, scan

PLUGIN = "res://addons/godot_mcp_toolkit/plugin.cfg"


def _only_inserted(before: str, after: str) -> str:
    """The one contiguous piece ``after`` adds to ``before``; fails when anything else changed."""
    start = 0
    while start < len(before) and before[start] == after[start]:
        start += 1
    inserted = len(after) - len(before)
    assert inserted > 0
    assert after[:start] + after[start + inserted:] == before, "only an insertion, nothing else changed"
    return after[start:start + inserted]


def test_fresh_project_gets_the_section_at_the_end() -> None:
    before = 'config_version=5\n\n[application]\n\nconfig/name="Demo"\n'
    after = enable_plugin(before, PLUGIN)
    assert after is not None
    assert after.startswith(before)
    assert after[len(before):] == f'\n[editor_plugins]\n\nenabled=PackedStringArray("{PLUGIN}")\n'
    assert enabled_plugins(after) == [PLUGIN]


def test_no_final_newline_and_crlf_are_kept() -> None:
    before = 'config_version=5\r\n\r\n[application]\r\n\r\nconfig/name="Demo"'
    after = enable_plugin(before, PLUGIN)
    assert after is not None and after.startswith(before)
    assert "\n" not in after.replace("\r\n", ""), "only CRLF line ends"
    assert enabled_plugins(after) == [PLUGIN]


def test_other_plugins_are_kept_in_order() -> None:
    before = ('; Engine configuration file.\n\nconfig_version=5\n\n[editor_plugins]\n\n'
              'enabled=PackedStringArray("res://addons/gut/plugin.cfg", "res://addons/dialogic/plugin.cfg")\n\n'
              '[rendering]\n\nrenderer/rendering_method="gl_compatibility"\n')
    after = enable_plugin(before, PLUGIN)
    assert after is not None
    assert _only_inserted(before, after) == f', "{PLUGIN}"'
    assert enabled_plugins(after) == ["res://addons/gut/plugin.cfg", "res://addons/dialogic/plugin.cfg", PLUGIN]


@pytest.mark.parametrize("value", [
    'PackedStringArray()',
    'PackedStringArray( )',
    'PackedStringArray(\n)',
])
def test_empty_list(value: str) -> None:
    before = f"[editor_plugins]\nenabled = {value}\n"
    after = enable_plugin(before, PLUGIN)
    assert after is not None
    assert _only_inserted(before, after) == f'"{PLUGIN}"'
    assert enabled_plugins(after) == [PLUGIN]


def test_list_over_several_lines_with_odd_spacing() -> None:
    before = ('[editor_plugins]\n\n  enabled  =  PackedStringArray(\n\t"res://a/plugin.cfg" ,\n'
              '    "res://b/plugin.cfg"   \n)   \n[x]\ny=1\n')
    after = enable_plugin(before, PLUGIN)
    assert after is not None
    assert _only_inserted(before, after) == f', "{PLUGIN}"'
    assert enabled_plugins(after) == ["res://a/plugin.cfg", "res://b/plugin.cfg", PLUGIN]


def test_already_enabled_is_no_change() -> None:
    text = f'[editor_plugins]\n\nenabled=PackedStringArray("res://x/plugin.cfg", "{PLUGIN}")\n'
    assert enable_plugin(text, PLUGIN) is None


def test_section_without_the_key() -> None:
    before = '[editor_plugins]\n\nsomething=1\n\n[rendering]\nx=1\n'
    after = enable_plugin(before, PLUGIN)
    assert after is not None
    assert _only_inserted(before, after) == f'enabled=PackedStringArray("{PLUGIN}")\n'
    empty = '[editor_plugins]\n\n[rendering]\nx=1\n'
    added = enable_plugin(empty, PLUGIN)
    assert added == f'[editor_plugins]\n\nenabled=PackedStringArray("{PLUGIN}")\n\n[rendering]\nx=1\n'


def test_a_header_inside_a_multiline_string_is_not_a_section() -> None:
    before = ('[application]\n\nconfig/description="line one\n[editor_plugins]\nenabled=PackedStringArray()"\n'
              'config/name="X"\n')
    sections, entries = scan(before)
    assert [s.name for s in sections] == ["application"]
    assert [e.key for e in entries] == ["config/description", "config/name"]
    after = enable_plugin(before, PLUGIN)
    assert after is not None and after.startswith(before)
    assert enabled_plugins(after) == [PLUGIN]


def test_escaped_quotes_and_brackets_in_strings() -> None:
    before = ('[application]\nconfig/name="say \\"hi\\" (\\\\)"\nconfig/tags=PackedStringArray("a]", "b[")\n'
              '[editor_plugins]\nenabled=PackedStringArray("res://q\\"uote/plugin.cfg")\n')
    after = enable_plugin(before, PLUGIN)
    assert after is not None
    assert _only_inserted(before, after) == f', "{PLUGIN}"'
    assert enabled_plugins(after) == ['res://q"uote/plugin.cfg', PLUGIN]


def test_the_last_repeated_key_wins_as_in_godot() -> None:
    before = ('[editor_plugins]\nenabled=PackedStringArray("res://old/plugin.cfg")\n'
              '[editor_plugins]\nenabled=PackedStringArray("res://new/plugin.cfg")\n')
    after = enable_plugin(before, PLUGIN)
    assert after is not None
    assert enabled_plugins(after) == ["res://new/plugin.cfg", PLUGIN]


@pytest.mark.parametrize(("text", "message"), [
    ('config_version=4\n[editor_plugins]\nenabled=PoolStringArray()\n', "Godot 3 project"),
    ('[editor_plugins]\nenabled=PoolStringArray("res://a/plugin.cfg")\n', "not a PackedStringArray"),
    ('[editor_plugins]\nenabled=PackedStringArray(1, 2)\n', "not a list of quoted paths"),
    ('[application]\nconfig/name="unterminated\n', "unfinished value"),
    ('[application]\njust some words\n', "neither a section"),
])
def test_files_it_cannot_change_safely(text: str, message: str) -> None:
    with pytest.raises(ProjectFileError, match=message):
        enable_plugin(text, PLUGIN)
