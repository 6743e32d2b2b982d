"""GODOT_MCP_TOOL_LIST over the tool surface: what a list holds under ``groups`` and ``all``, a
2026-07-28 (fixed) list that nothing called loads into, what discover_tools answers in each, and a
change of the setting told to every list once. (Both eras over the wire:
tests/bridge/test_tool_list_setting.py.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from godot_bridge.app import BridgeApp
from godot_bridge.config import ConfigError, Settings
from godot_bridge.tools import groups
from godot_bridge.tools.catalogue import load_catalogue
from godot_bridge.tools.counts import count
from godot_bridge.tools.surface import Surface, ToolList

CATALOGUE = load_catalogue()
COUNTS = count(CATALOGUE)


def lists(listing: str) -> tuple[ToolList, ToolList]:
    """A handshake-era list and a fixed (2026-07-28) one over one surface."""
    surface = Surface(CATALOGUE, version=lambda: (4, 6), listing=listing)
    return ToolList(surface), ToolList(surface, fixed=True)


def test_the_setting_is_read_and_an_unknown_value_refused() -> None:
    assert Settings.from_env({}, project="/tmp").tool_list == "groups"
    assert Settings.from_env({"GODOT_MCP_TOOL_LIST": " ALL "}, project="/tmp").tool_list == "all"
    with pytest.raises(ConfigError, match="GODOT_MCP_TOOL_LIST: 'every' is not one of groups, all"):
        Settings.from_env({"GODOT_MCP_TOOL_LIST": "every"}, project="/tmp")


def test_groups_the_fixed_list_never_loads_and_discover_answers_schemas() -> None:
    handshake, fixed = lists("groups")
    start = fixed.names()
    assert len(start) == COUNTS.always_on and handshake.names() == start
    answer, changed = groups.discover(fixed, {"request": "tilemap"})
    assert not changed and fixed.names() == start and fixed.loaded == []
    tools = {t["name"]: t for g in answer["groups"] for t in g["tools"]}
    assert set(tools) == set(CATALOGUE.groups["tilemap"].tools)
    assert all(t["inputSchema"] == CATALOGUE.tools[n].input_schema for n, t in tools.items())
    assert answer["how_to_call"] == groups.CALL_FIXED and "loaded" not in answer
    assert fixed.activate(["audio"]) == [] and fixed.names() == start
    # The handshake-era list of the same client still loads.
    _, changed = groups.discover(handshake, {"request": "tilemap"})
    assert changed and "tilemap_set_cells" in handshake.names()


def test_all_every_tool_is_listed_in_both_eras_and_nothing_loads() -> None:
    handshake, fixed = lists("all")
    assert handshake.names() == fixed.names() and len(fixed.names()) == COUNTS.tools
    answer, changed = groups.discover(handshake, {"request": "audio"})
    assert not changed and answer["groups"] == [{"name": "audio", "tools": CATALOGUE.groups["audio"].tools}]
    assert answer["how_to_call"] == groups.CALL_LISTED
    browse, _ = groups.discover(fixed, {})
    assert len(browse["groups"]) == COUNTS.groups and "loaded" not in browse
    assert groups.description("base", handshake) == groups.ALL_LISTED


def test_read_only_still_filters_every_listed_tool() -> None:
    surface = Surface(CATALOGUE, read_only=True, version=lambda: (4, 6), listing="all")
    assert len(ToolList(surface, fixed=True).names()) == COUNTS.read_only_in_all


def test_a_change_of_the_setting_is_told_to_every_list_once(tmp_path: Path) -> None:
    app = BridgeApp(Settings(project_path=tmp_path))
    app.editor.facts.set_version("4.6", "test")
    told: list[str] = []
    handshake, fixed = app.tool_list(), app.tool_list(fixed=True)
    handshake.on_change, fixed.on_change = (lambda: told.append("handshake")), (lambda: told.append("fixed"))
    before = [t["name"] for t in app.tools(fixed)]
    app.apply_settings(Settings(project_path=tmp_path, tool_list="all"))
    assert sorted(told) == ["fixed", "handshake"]
    after = [t["name"] for t in app.tools(fixed)]
    assert len(before) == COUNTS.always_on and len(after) == COUNTS.tools
    app.apply_settings(Settings(project_path=tmp_path, tool_list="all"))
    assert len(told) == 2, "the same setting again changes nothing"
