"""discover_tools: browse, exact activation, keyword scoring and caps, reset, read-only."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from godot_bridge.errors import ToolError
from godot_bridge.tools import dispatch as dispatch_module
from godot_bridge.tools import groups
from godot_bridge.tools.answer_budget import budget_bytes
from godot_bridge.tools.catalogue import load_catalogue
from godot_bridge.tools.dispatch import ToolDispatch
from godot_bridge.tools.groups import PER_CALL_CAP, PER_QUERY_CAP, description, discover, rank, score
from godot_bridge.tools.surface import GroupView, Surface, ToolList


@pytest.fixture
def surface() -> ToolList:
    return ToolList(Surface(load_catalogue()))


def statuses(answer: dict) -> dict[str, str]:
    return {g["name"]: g["status"] for g in answer.get("groups", [])}


def test_browse_lists_every_group_with_status(surface: ToolList):
    surface.activate(["audio"])
    answer, changed = discover(surface, {})
    assert not changed
    st = statuses(answer)
    assert len(st) == 39 and st["audio"] == "already_loaded" and st["tilemap"] == "available"
    assert all(isinstance(t, str) for g in answer["groups"] for t in g["tools"])


def test_exact_group_name_activates_uncapped(surface: ToolList):
    names = [g.name for g in surface.groups()][:7]
    answer, changed = discover(surface, {"request": names})
    assert changed
    assert statuses(answer) == {n: "activated" for n in names}  # 7 > the keyword cap of 5
    assert surface.loaded == names
    assert "warning" in answer  # more than 5 groups loaded
    again, changed = discover(surface, {"request": names[0]})
    assert not changed and statuses(again) == {names[0]: "already_loaded"}


def test_json_list_string_is_parsed(surface: ToolList):
    answer, _ = discover(surface, {"request": '["audio", "tilemap"]'})
    assert set(statuses(answer)) == {"audio", "tilemap"}
    with pytest.raises(ToolError) as err:
        discover(surface, {"request": '["audio",'})
    assert err.value.code == "INVALID_PARAMS"


def test_activate_false_only_reports(surface: ToolList):
    answer, changed = discover(surface, {"request": "tileset", "activate": False})
    assert not changed and statuses(answer)["tileset"] == "available" and surface.loaded == []


def test_include_schemas(surface: ToolList):
    answer, _ = discover(surface, {"request": "audio", "include_schemas": True})
    tool = answer["groups"][0]["tools"][0]
    assert set(tool) == {"name", "description", "inputSchema", "annotations"}
    assert tool["inputSchema"]["type"] == "object"


def test_scoring_rules():
    g = GroupView("g", "", ["animation", "state machine", "blend"], [])
    assert score("animation", g) == 3           # equal
    assert score("play animation now", g) == 2  # query contains keyword
    assert score("anim", g) == 1                # keyword contains a query of >= 3 chars
    assert score("an", g) == 0                  # too short for the containment rule


def test_tool_name_scoring(surface: ToolList):
    cat = surface.catalogue
    tools = [cat.tools["tilemap_set_cells"]]
    g = GroupView("x", "", [], tools)
    assert score("set cells", g) == 1  # underscores read as spaces


def test_keyword_caps_and_more_count(surface: ToolList):
    views = surface.groups()
    # 'e' scores nothing (containment needs 3 chars) but a broad word hits many groups.
    kept, more = rank("edit", views)
    assert len(kept) <= PER_QUERY_CAP
    total = sum(1 for v in views if score("edit", v) > 0)
    assert total > 0
    answer, _ = discover(surface, {"request": ["edit", "create", "node", "scene", "script", "set"]})
    assert len(answer["groups"]) <= PER_CALL_CAP
    assert answer.get("more_matches", 0) > 0 and "hint" in answer


def test_half_top_rule(surface: ToolList):
    views = surface.groups()
    kept, _ = rank("tile", views)
    top = kept[0].score
    assert all(2 * m.score >= top or m.query == "tile" for m in kept)


def test_shader_and_material_find_the_shader_tools(surface: ToolList):
    """A model writing a shader asks for "shader"; one setting a ShaderMaterial asks for "material"."""
    for query in ("shader", "material", "gdshader", "shader parameter"):
        picked = [m.group.name for m in rank(query, surface.groups())[0]]
        assert picked[0] == "shaders", (query, picked)


def test_no_match_is_reported_not_failed(surface: ToolList):
    answer, changed = discover(surface, {"request": "qqqzzz"})
    assert not changed and answer["groups"] == [] and answer["unmatched"] == ["qqqzzz"]


def test_reset(surface: ToolList):
    discover(surface, {"request": ["audio", "tilemap", "theme"]})
    answer, changed = discover(surface, {"reset": ["audio"]})
    assert changed and answer["unloaded"] == ["audio"] and surface.loaded == ["tilemap", "theme"]
    answer, changed = discover(surface, {"reset": True, "request": "audio"})  # reset applies first
    assert answer["unloaded"] == ["tilemap", "theme"] and surface.loaded == ["audio"]
    with pytest.raises(ToolError):
        discover(surface, {"reset": ["no_such_group"]})


def test_description_names_every_group(surface: ToolList):
    surface.activate(["audio"])
    text = description("Load tool groups.", surface)
    assert "Loaded: audio." in text
    for name in surface.group_names():
        assert name in text


def test_read_only_hides_mutating_tools_and_empty_groups():
    cat = load_catalogue()
    ro = ToolList(Surface(cat, read_only=True))
    visible = ro.visible()
    # the reference's 16 less the 4 reads that load with a group here (signal_list, scene_spatial_map,
    # runtime_screenshot, runtime_get_script_vars); undo is hidden; call_tool is there
    assert len(visible) == 13
    for name in ro.group_names():
        ro.activate([name])
    assert len(ro.visible()) == 53
    assert all(t.annotations.get("readOnlyHint") and not t.annotations.get("destructiveHint") for t in ro.visible())
    assert len(ro.group_names()) < len(Surface(cat).group_names())


def test_version_gate_hides_scene_close_until_known():
    cat = load_catalogue()
    version: list = [None]
    s = ToolList(Surface(cat, version=lambda: version[0]))
    s.activate(["cleanup"])
    assert "scene_close" not in [t.name for t in s.visible()]
    version[0] = (4, 4)
    assert "scene_close" not in [t.name for t in s.visible()]
    version[0] = (4, 5)
    assert "scene_close" in [t.name for t in s.visible()]


def test_extensions_projected_filtered_and_contradictions_warned(caplog):
    cat = load_catalogue()
    shared = Surface(cat, read_only=True)
    s = ToolList(shared)
    commands = [
        {"method": "my.read", "annotations": {"readOnlyHint": True}},
        {"method": "my.both", "annotations": {"readOnlyHint": True, "destructiveHint": True}},
        {"method": "my.write", "annotations": {}},
        {"method": "scene.get_tree"},  # collides with a built-in tool name: skipped
        {"method": "my.grouped", "group": "mytools", "annotations": {"readOnlyHint": True}},
    ]
    with caplog.at_level("WARNING"):
        shared.set_extensions(commands)
    names = [t.name for t in s.visible()]
    assert "my_read" in names and "my_both" not in names and "my_write" not in names
    assert "my_grouped" not in names and "mytools" in s.group_names()
    assert any("my_both" in r.message and "mutating" in r.message for r in caplog.records)
    assert any("scene_get_tree" in r.message for r in caplog.records)
    s.activate(["mytools"])
    assert "my_grouped" in [t.name for t in s.visible()]


# -- answering once the client has its new list --------------------------------------------------


def _dispatch(on_change: Any) -> tuple[ToolDispatch, ToolList]:
    from tests.unit.test_dispatch import FakeEditor, FakeLsp

    surface = Surface(load_catalogue())
    dispatch = ToolDispatch(surface, FakeEditor(), FakeLsp())
    tools = ToolList(surface)
    tools.on_change = lambda: on_change(tools)
    return dispatch, tools


async def _discover(dispatch: ToolDispatch, tools: ToolList, request: str) -> dict[str, Any]:
    outcome = await dispatch.call("discover_tools", {"request": request}, tools=tools)
    return json.loads(outcome.content[0]["text"])


async def test_a_client_that_relists_is_answered_after_its_list_with_names_only() -> None:
    order: list[str] = []

    def relist(tools: ToolList) -> None:
        async def later() -> None:
            await asyncio.sleep(0.05)  # the client's tools/list arrives a moment after the notification
            order.append("listed")
            tools.listed()
        asyncio.get_running_loop().create_task(later())

    dispatch, tools = _dispatch(relist)
    answer = await _discover(dispatch, tools, "audio")
    order.append("answered")
    assert order == ["listed", "answered"] and tools.relists is True
    activated = answer["activated_tools"]
    assert activated and all(set(t) == {"name", "description"} for t in activated), "no schemas: its list has them"
    assert all(". " not in t["description"].rstrip(".") for t in activated), "one line each"
    assert answer["how_to_call"] == groups.CALL_DIRECTLY and "prefix" in answer["how_to_call"]


async def test_a_client_that_does_not_relist_gets_schemas_and_call_tool(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dispatch_module, "RELIST_WAIT_S", 0.05)
    dispatch, tools = _dispatch(lambda tools: None)  # told, never fetches the list again
    answer = await _discover(dispatch, tools, "audio")
    assert tools.relists is False
    assert all("inputSchema" in t for t in answer["activated_tools"])
    assert "call_tool" in answer["how_to_call"]
    monkeypatch.setattr(dispatch_module, "RELIST_WAIT_S", 60.0)  # never waited for again
    again = await asyncio.wait_for(_discover(dispatch, tools, "tilemap"), 5)
    assert "call_tool" in again["how_to_call"]


async def test_a_client_known_never_to_relist_is_not_waited_for() -> None:
    dispatch, tools = _dispatch(lambda tools: None)
    tools.client = "codex-mcp-client"
    answer = await asyncio.wait_for(_discover(dispatch, tools, "audio"), 1.0)
    assert "call_tool" in answer["how_to_call"] and tools.relists is None


async def test_nothing_new_loaded_waits_for_nothing() -> None:
    told: list[int] = []
    dispatch, tools = _dispatch(lambda tools: told.append(1))
    tools.activate(["audio"])
    answer = await asyncio.wait_for(_discover(dispatch, tools, "audio"), 1.0)
    assert told == [] and "activated_tools" not in answer and "how_to_call" not in answer


async def test_a_client_that_relists_once_answered_is_not_waited_for_and_calls_directly() -> None:
    dispatch, tools = _dispatch(lambda tools: None)  # told; it will fetch the list after the answer
    tools.client = "copilot-cli"
    answer = await asyncio.wait_for(_discover(dispatch, tools, "audio"), 1.0)
    assert answer["how_to_call"] == groups.CALL_DIRECTLY and tools.relists is None


async def test_an_answer_too_large_for_one_leaves_out_whole_groups_schemas(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every group at once, to a client that has not re-listed, with include_schemas: the schemas
    that fit one answer, the rest left out by whole groups that the answer names; one of those
    asked for alone gives its schemas."""
    monkeypatch.setattr(dispatch_module, "RELIST_WAIT_S", 0.05)
    dispatch, tools = _dispatch(lambda tools: None)
    names = tools.group_names()
    outcome = await dispatch.call("discover_tools", {"request": names, "include_schemas": True}, tools=tools)
    text = outcome.content[0]["text"]
    answer = json.loads(text)
    assert len(text.encode()) <= budget_bytes(), len(text.encode())
    omitted = answer["schemas_omitted"]
    assert omitted and set(omitted) < set(names) and "include_schemas" in answer["hint"]
    assert set(tools.loaded) == set(names), "every group still loaded"
    listed = {g["name"]: g["tools"] for g in answer["groups"]}
    assert all(isinstance(t, str) for g in omitted for t in listed[g]), "left out by name"
    kept = [g for g in names if g not in omitted]
    assert kept and all(isinstance(t, dict) and "inputSchema" in t for g in kept for t in listed[g])
    activated = {t["name"]: t for t in answer["activated_tools"]}
    assert set(activated) == {t["name"] for g in kept for t in listed[g]}, "the loaded tools shown with schemas"
    alone = await dispatch.call("discover_tools", {"request": omitted[-1], "include_schemas": True}, tools=tools)
    one = json.loads(alone.content[0]["text"])
    assert "schemas_omitted" not in one and all("inputSchema" in t for t in one["groups"][0]["tools"])
