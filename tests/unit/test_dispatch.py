"""Dispatch details: value aliases, wait-covering timeouts, rate limit, version gate."""

from __future__ import annotations

import json
from typing import Any

import pytest

from godot_bridge.editor.forward import timeout_seconds
from godot_bridge.tools import results
from godot_bridge.tools.catalogue import load_catalogue
from godot_bridge.tools.dispatch import RateLimiter, ToolDispatch, UnknownTool, apply_aliases
from godot_bridge.tools.surface import Surface, ToolList


class FakeEditor:
    def __init__(self, version: tuple[int, int] | None = None) -> None:
        self.godot_version = version
        self.calls: list[tuple[str, dict[str, Any]]] = []

    async def forward(self, tool, args, progress=None):
        self.calls.append((tool.name, args))
        return results.success({"ok": True})


class FakeLsp:
    async def handle(self, name, args, progress=None):
        return {"tool": name}


class Dispatch(ToolDispatch):
    """The dispatch with one client's list, as a transport calls it."""

    def __init__(self, surface: Surface, editor: FakeEditor, rate: int | None, changes: list[int]) -> None:
        super().__init__(surface, editor, FakeLsp(), rate_limit=rate)
        self.tools = ToolList(surface, on_change=lambda: changes.append(1))

    async def call(self, name, arguments, *, tools=None, progress=None):  # type: ignore[override]
        return await super().call(name, arguments, tools=tools or self.tools, progress=progress)


def make(version=None, rate=None, read_only=False):
    cat = load_catalogue()
    editor = FakeEditor(version)
    surface = Surface(cat, read_only=read_only, version=lambda: editor.godot_version)
    changes: list[int] = []
    return Dispatch(surface, editor, rate, changes), editor, changes


def payload(outcome) -> dict:
    return json.loads(outcome.content[0]["text"])


def test_game_is_an_alias_of_runtime():
    cat = load_catalogue()
    assert apply_aliases(cat.tools["execute_code"], {"code": "1", "channel": "game"})["channel"] == "runtime"
    assert apply_aliases(cat.tools["signal_emit"], {"channel": "editor"})["channel"] == "editor"


async def test_alias_passes_validation_and_reaches_the_editor():
    d, editor, _ = make((4, 4))
    out = await d.call("execute_code", {"code": "return 1", "channel": "game"})
    assert not out.is_error
    assert editor.calls[-1][1]["channel"] == "runtime"


def test_timeout_covers_a_requested_wait():
    cat = load_catalogue()
    idle = cat.tools["editor_wait_for_idle"]
    assert timeout_seconds(idle, {}) == idle.timeout_ms / 1000
    assert timeout_seconds(idle, {"timeout_ms": 300_000}) == 310.0
    assert timeout_seconds(cat.tools["asset_import"], {"wait_for_scan_ms": 5000}) == 60.0
    assert timeout_seconds(cat.tools["scene_get_tree"], {}) is None


async def test_rate_limit():
    clock = [0.0]
    limiter = RateLimiter(2, clock=lambda: clock[0])
    assert limiter.admit() and limiter.admit() and not limiter.admit()
    clock[0] = 60.0
    assert limiter.admit()
    d, editor, _ = make((4, 4), rate=1)
    assert not (await d.call("scene_get_tree", {})).is_error
    out = await d.call("scene_get_tree", {})
    assert out.is_error and payload(out)["code"] == "RATE_LIMITED"
    assert len(editor.calls) == 1


async def test_version_gated_tool_on_old_editor_is_unsupported_not_unknown():
    d, editor, _ = make((4, 3))
    d.tools.activate(["cleanup"])
    out = await d.call("scene_close", {"file_path": "res://a.tscn"})
    body = payload(out)
    assert out.is_error and body["code"] == "UNSUPPORTED" and "4.3" in body["error"] and "4.5" in body["hint"]
    assert editor.calls == []


async def test_version_unknown_hides_the_gated_tool():
    d, _, _ = make(None)
    d.tools.activate(["cleanup"])
    with pytest.raises(UnknownTool) as err:
        await d.call("scene_close", {"file_path": "res://a.tscn"})
    assert "4.5" in str(err.value)


async def test_read_only_mode_refuses_mutating_tools_as_unknown():
    d, editor, _ = make((4, 4), read_only=True)
    with pytest.raises(UnknownTool) as err:
        await d.call("scene_create", {"file_path": "res://a.tscn", "root_type": "Node2D"})
    assert "read-only" in str(err.value)
    assert editor.calls == []


async def test_a_tool_of_a_group_not_loaded_loads_it_for_the_caller_and_says_so():
    d, editor, changes = make((4, 4))
    assert "audiobus_list" not in d.tools.names()
    assert not (await d.call("audiobus_list", {})).is_error
    assert editor.calls == [("audiobus_list", {})]
    assert d.tools.loaded == ["audio"] and "audiobus_list" in d.tools.names() and changes == [1]
    await d.call("discover_tools", {"reset": True})
    assert changes == [1, 1] and "audiobus_list" not in d.tools.names()
    assert not (await d.call("audiobus_list", {})).is_error  # after its own reset too
    assert changes == [1, 1, 1]


async def test_each_client_has_its_own_list_and_a_reset_touches_only_its_own():
    d, editor, changes = make((4, 4))
    other_changes: list[int] = []
    other = ToolList(d.surface, on_change=lambda: other_changes.append(1))
    await d.call("discover_tools", {"request": "audio"})
    assert changes == [1] and other_changes == [] and "audiobus_list" not in other.names()
    await d.call("discover_tools", {"request": "tilemap"}, tools=other)
    await d.call("discover_tools", {"reset": True})
    assert d.tools.loaded == [] and other.loaded == ["tilemap"] and other_changes == [1]
    assert not (await d.call("tilemap_read_cells", {"node_path": "Map"}, tools=other)).is_error


async def test_unknown_and_hidden_tools_are_still_unknown():
    d, editor, changes = make((4, 4), read_only=True)
    with pytest.raises(UnknownTool):
        await d.call("no_such_tool", {})
    with pytest.raises(UnknownTool):
        await d.call("audiobus_edit", {"action": "add"})  # in a group, but hidden by read-only mode
    assert d.tools.loaded == [] and changes == [] and editor.calls == []


async def test_lsp_tools_route_to_the_language_server():
    d, editor, _ = make((4, 4))
    d.tools.activate(["lsp_code_analysis"])
    out = await d.call("lsp_symbols", {"file_path": "res://a.gd"})
    assert payload(out) == {"tool": "lsp_symbols"} and editor.calls == []


async def test_bridge_tools_go_to_their_handler_and_validate_first():
    seen: list[dict[str, Any]] = []

    async def launch(args, progress):
        seen.append(args)
        return results.success({"status": "launched"})

    d, _editor, _ = make()
    d.serve("editor_launch", launch)
    d.tools.activate(["editor_lifecycle"])
    assert payload(await d.call("editor_launch", {"timeout_s": 5})) == {"status": "launched"}
    bad = await d.call("editor_launch", {"timeout_s": 0})
    assert bad.is_error and payload(bad)["code"] == "INVALID_PARAMS" and len(seen) == 1


async def test_bridge_tool_without_handler_is_an_internal_error_not_discover():
    d, _editor, changes = make()
    d.tools.activate(["editor_lifecycle"])
    out = await d.call("editor_restart", {})
    assert out.is_error and payload(out)["code"] == "INTERNAL" and "editor_restart" in payload(out)["error"]
    assert changes == []
