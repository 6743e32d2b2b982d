"""call_tool: every tool by name, through the same path as a direct call; what clients inject.

The app is the real one (validation, read-only filter, path guard, the consent gate, routing),
over an editor that records what reached it (tests/unit/test_consent.py's recorder).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from godot_bridge.app import BridgeApp
from godot_bridge.config import Settings
from godot_bridge.consent.caller import Caller
from godot_bridge.consent.question import Answer
from godot_bridge.tools.surface import ToolList
from tests.unit.test_consent import Person, make_app


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "project.godot").write_text("config_version=5\n")
    return tmp_path


async def call(app: BridgeApp, tools: ToolList, name: str, args: Any, caller: Caller | None = None) -> dict[str, Any]:
    outcome = await app.call_tool(name, args, tools, None, caller)
    body: dict[str, Any] = json.loads(outcome.content[0]["text"])
    body["_is_error"] = outcome.is_error
    return body


def fresh(app: BridgeApp) -> tuple[ToolList, list[int]]:
    """A client's list with only the start-up tools, and the announcements it was sent."""
    told: list[int] = []
    tools = app.tool_list()
    tools.on_change = lambda: told.append(1)
    return tools, told


async def test_a_tool_of_a_group_not_loaded_runs_by_name(project: Path) -> None:
    app, editor = make_app(project)
    tools, told = fresh(app)
    assert tools.lookup("tilemap_set_cells") is None
    args = {"node_path": "/root/Main/Map", "cells": [{"x": 1, "y": 2}]}
    ran = await call(app, tools, "call_tool", {"name": "tilemap_set_cells", "arguments": args})
    assert ran["ran"] == "tilemap_set_cells" and editor.forwarded == [("tilemap_set_cells", args)]
    assert "tilemap" in tools.loaded and told == [1], "its group is loaded for the client, which is told"


async def test_arguments_are_checked_as_for_a_direct_call(project: Path) -> None:
    app, editor = make_app(project)
    tools, _ = fresh(app)
    direct = await call(app, tools, "scene_get_tree", {"max_depht": 2})
    by_name = await call(app, tools, "call_tool", {"name": "scene_get_tree", "arguments": {"max_depht": 2}})
    assert direct["_is_error"] and by_name["_is_error"] and direct["error"] == by_name["error"]
    assert "did you mean 'max_depth'" in by_name["error"] and editor.forwarded == []
    as_text = await call(app, tools, "call_tool", {"name": "scene_get_tree", "arguments": '{"max_depth": 1}'})
    assert as_text["ran"] == "scene_get_tree", "arguments sent as a JSON string are decoded, as everywhere"


async def test_the_path_guard_refuses_by_name_as_directly(project: Path) -> None:
    app = BridgeApp(Settings(project_path=project))  # the real editor link: its guard runs before any connect
    tools, _ = fresh(app)
    for name, args in (("script_read", {"file_path": "res://../outside.gd"}),
                       ("script_read", {"file_path": "/etc/passwd"})):
        direct = await call(app, tools, name, args)
        by_name = await call(app, tools, "call_tool", {"name": name, "arguments": args})
        assert direct["code"] == by_name["code"] == "PATH_DENIED", (direct, by_name)


async def test_read_only_mode_reaches_only_read_only_tools(project: Path) -> None:
    app, editor = make_app(project, read_only=True)
    tools, _ = fresh(app)
    offered = tools.lookup("call_tool")
    assert offered is not None and offered.annotations["readOnlyHint"] is True
    assert not offered.annotations.get("destructiveHint"), "in read-only mode it can only read"
    refused = await call(app, tools, "call_tool", {"name": "scene_delete_node", "arguments": {"node_path": "/root/A"}})
    assert refused["_is_error"] and "read-only" in refused["error"] and editor.forwarded == []
    assert (await call(app, tools, "call_tool", {"name": "scene_get_tree", "arguments": {}}))["ran"] == "scene_get_tree"
    writable = fresh(make_app(project)[0])[0].lookup("call_tool")
    assert writable is not None and writable.annotations["destructiveHint"] is True, \
        "outside read-only mode it may reach anything: a client deciding what to allow must know"


async def test_it_asks_the_person_exactly_as_a_direct_call(project: Path) -> None:
    app, editor = make_app(project)
    tools, _ = fresh(app)
    person = Person(Answer.DECLINE, Answer.ACCEPT)
    me = Caller(owner=object(), asker=person)
    code = {"code": "print(1)", "channel": "editor"}
    declined = await call(app, tools, "call_tool", {"name": "execute_code", "arguments": code}, me)
    assert declined["status"] == "declined" and editor.forwarded == []
    ran = await call(app, tools, "call_tool", {"name": "execute_code", "arguments": code}, me)
    assert ran["ran"] == "execute_code" and [q.shown for q in person.asked] == [[("code", "print(1)")]] * 2
    # A client that cannot ask: the token a preview gave works for the same call, however it is named.
    nobody = Caller(owner=object())
    preview = await call(app, tools, "call_tool", {"name": "execute_code", "arguments": code}, nobody)
    token = preview["confirmation_token"]
    assert (await call(app, tools, "execute_code", {**code, "confirmation_token": token}, nobody))["ran"]


def _declared_names() -> list[str]:
    """scene_get_tree as each assistant CLI names it for its model (tests/assistants/clis.py records
    them; Codex keeps the bare name in its namespace, which a model writes joined as below)."""
    from tests.assistants.clis import CLIS, CODEX

    names = [cli.declared("scene_get_tree") for cli in CLIS if cli is not CODEX]
    return names + [CODEX.prefix + "__scene_get_tree", CODEX.prefix + ".scene_get_tree", "scene_get_tree"]


@pytest.mark.parametrize("seen_as", _declared_names())
async def test_a_name_copied_with_the_clients_prefix_is_the_tool(project: Path, seen_as: str) -> None:
    app, editor = make_app(project)
    tools, _ = fresh(app)
    assert (await call(app, tools, "call_tool", {"name": seen_as, "arguments": {}}))["ran"] == "scene_get_tree"


async def test_the_prefix_of_the_key_our_entry_really_has_is_taken_too(project: Path) -> None:
    (project / ".mcp.json").write_text(json.dumps({"mcpServers": {"my-godot-mcp": {"command": "uvx"}}}))
    app, editor = make_app(project)
    tools, _ = fresh(app)
    for seen_as in ("mcp__my-godot-mcp__scene_get_tree", "my-godot-mcp-scene_get_tree",
                    "mcp__my_godot_mcp__scene_get_tree"):
        assert (await call(app, tools, "call_tool", {"name": seen_as, "arguments": {}}))["ran"] == "scene_get_tree"


@pytest.mark.parametrize(("name", "meant"), [
    ("../scene_get_tree", "scene_get_tree"), ("/scene_get_tree", "scene_get_tree"),
    ("script_read_execute_code", "execute_code"), ("x.execute_code", "execute_code"),
    ("mcp__another-server__execute_code", "execute_code"), ("godot-mcp-toolkit.scene_get_tree", "scene_get_tree"),
    ("Execute_Code", "execute_code"), ("mcp__godot-mcp-toolkit__", None),
])
async def test_any_other_name_is_an_unknown_tool_with_the_close_one(project: Path, name: str,
                                                                   meant: str | None) -> None:
    app, editor = make_app(project)
    tools, _ = fresh(app)
    person = Person(Answer.ACCEPT)
    refused = await call(app, tools, "call_tool", {"name": name, "arguments": {"code": "1", "channel": "editor"}},
                         Caller(owner=object(), asker=person))
    assert refused["_is_error"] and refused["code"] == "UNKNOWN_TOOL" and refused["param"] == "name", refused
    assert refused["error"].startswith(f"Unknown tool: {name}.")
    assert (f"Did you mean {meant}?" in refused["error"]) if meant else "Did you mean" not in refused["error"]
    assert editor.forwarded == [] and person.asked == [], "nothing ran and nobody was asked"


async def test_what_call_tool_cannot_call(project: Path) -> None:
    app, editor = make_app(project)
    tools, _ = fresh(app)
    itself = await call(app, tools, "call_tool", {"name": "call_tool", "arguments": {"name": "history"}})
    assert itself["_is_error"] and itself["code"] == "INVALID_PARAMS"
    unknown = await call(app, tools, "call_tool", {"name": "tilemap_paint_everything", "arguments": {}})
    assert unknown["_is_error"] and "discover_tools" in unknown["error"]
    missing = await call(app, tools, "call_tool", {"arguments": {}})
    assert missing["_is_error"] and "name" in missing["error"] and editor.forwarded == []


async def test_an_answer_too_large_is_capped_once_as_the_tool_it_ran(project: Path) -> None:
    """call_tool hands the call over whole: the editor's frame failure and the bridge's own limit are
    answered with the tool's own advice (its paging parameters), the same bytes as a direct call."""
    app, _ = make_app(project, result_limit_kb=16)
    tools, _ = fresh(app)

    async def too_large(tool: Any, args: dict[str, Any], progress: Any = None) -> Any:
        from godot_bridge.tools import results
        return results.from_toolkit({"success": False, "code": "RESPONSE_TOO_LARGE", "error": "too big"}) \
            if args.get("max_depth") == 1 else results.success({"tree": "x" * (32 * 1024)})

    app.editor.forward = too_large  # type: ignore[method-assign]
    for args in ({"max_depth": 1}, {"max_depth": 2}):
        direct = await call(app, tools, "scene_get_tree", args)
        by_name = await call(app, tools, "call_tool", {"name": "scene_get_tree", "arguments": args})
        assert direct == by_name and direct["_is_error"]
        assert "max_depth" in direct["hint"] and "call_tool" not in json.dumps(direct)


# -- arguments a client adds on its own -------------------------------------------------------------


async def test_an_injected_argument_is_dropped_and_an_unknown_one_still_refused(project: Path) -> None:
    app, editor = make_app(project)
    tools, _ = fresh(app)
    ran = await call(app, tools, "scene_get_tree", {"max_depth": 1, "wait_for_previous": True})
    assert ran["ran"] == "scene_get_tree" and editor.forwarded[-1] == ("scene_get_tree", {"max_depth": 1})
    outer = {"name": "scene_get_tree", "arguments": {"max_depth": 1, "wait_for_previous": False},
             "wait_for_previous": True}
    assert (await call(app, tools, "call_tool", outer))["ran"] == "scene_get_tree"
    assert editor.forwarded[-1] == ("scene_get_tree", {"max_depth": 1})
    refused = await call(app, tools, "scene_get_tree", {"max_depth": 1, "wait_for_previus": True})
    assert refused["_is_error"] and "wait_for_previus" in refused["error"]


def test_injected_arguments_are_named_with_the_client_that_adds_them() -> None:
    from godot_bridge.tools.clients import facts

    injected = facts().injected_arguments
    assert "wait_for_previous" in injected and "Gemini CLI" in injected["wait_for_previous"]
    assert all(why.strip() for why in injected.values())


async def test_a_tool_with_a_parameter_of_that_name_keeps_it(project: Path) -> None:
    from godot_bridge.tools.clients import drop_injected

    schema = {"type": "object", "properties": {"wait_for_previous": {"type": "boolean"}}}
    assert drop_injected({"wait_for_previous": True}, schema) == {"wait_for_previous": True}
    assert drop_injected({"wait_for_previous": True, "a": 1}, {"type": "object", "properties": {}}) == {"a": 1}


def test_clients_are_named_exactly_or_by_the_start_of_their_name() -> None:
    from godot_bridge.tools.clients import relists, relists_after_answer

    assert not relists("codex-mcp-client") and not relists("opencode") and relists("claude-code")
    assert not relists("qwen-cli-mcp-client-godot-mcp-toolkit"), "Qwen Code puts the server's key after its name"
    assert not relists("qwen-cli-mcp-client-my-key") and relists("qwen-cli") and relists(None)
    assert relists_after_answer("copilot-cli") and not relists_after_answer("copilot")
