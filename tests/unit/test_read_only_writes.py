"""Read-only mode writes nothing: a listed read's arguments that would write a file (the catalogue's
``writes``: a screenshot's ``save_path``, ``image_response_mode`` disk or both) are refused, directly
and through call_tool, before anything reaches the editor; the same call without them still answers.

The app is the real one over an editor that records what reached it (tests/unit/test_consent.py).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from godot_bridge.app import BridgeApp
from godot_bridge.tools.catalogue import ToolDef
from godot_bridge.tools.surface import ToolList, readonly_allowed
from tests.unit.test_consent import make_app


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "project.godot").write_text("config_version=5\n")
    return tmp_path


def writing_calls(app: BridgeApp) -> list[tuple[ToolDef, dict[str, Any]]]:
    """Every read read-only mode lists, with each argument its catalogue says writes a file: found from
    the catalogue, so a tool that gains such a parameter is covered without editing this test."""
    calls = []
    for tool in app.catalogue.tools.values():
        if not readonly_allowed(tool):
            continue
        for param, values in tool.writes.items():
            prefixes = tool.path_params.get(param)
            for value in values or [f"{prefixes[-1]}shot.png" if prefixes else "x"]:
                calls.append((tool, {param: value}))
    return calls


async def call(app: BridgeApp, tools: ToolList, name: str, args: dict[str, Any]) -> dict[str, Any]:
    outcome = await app.call_tool(name, args, tools)
    body: dict[str, Any] = json.loads(outcome.content[0]["text"])
    body["_is_error"] = outcome.is_error
    return body


async def test_every_argument_that_writes_is_refused_in_read_only_mode(project: Path) -> None:
    app, editor = make_app(project, read_only=True)
    tools = app.tool_list()
    tools.activate(tools.group_names())
    calls = writing_calls(app)
    assert {tool.name for tool, _ in calls} >= {"editor_screenshot", "runtime_screenshot"}
    assert {"save_path", "image_response_mode"} <= {name for _, args in calls for name in args}
    for tool, args in calls:
        for name, sent in ((tool.name, args), ("call_tool", {"name": tool.name, "arguments": args})):
            refused = await call(app, tools, name, sent)
            assert refused["_is_error"] and refused["code"] == "INVALID_PARAMS", (name, args, refused)
            assert "read-only mode (GODOT_MCP_READ_ONLY) writes nothing" in refused["error"]
            assert refused["param"] == next(iter(args)) and f"without {next(iter(args))}" in refused["hint"]
    assert editor.forwarded == [] and editor.reads == [], "nothing reached the editor, not even to ask"
    for tool in {tool.name for tool, _ in calls}:
        assert (await call(app, tools, tool, {"image_response_mode": "inline"}))["ran"] == tool, \
            "the image still comes back"


async def test_outside_read_only_mode_the_same_arguments_run(project: Path) -> None:
    app, editor = make_app(project)
    tools = app.tool_list()
    tools.activate(tools.group_names())
    ran = await call(app, tools, "editor_screenshot", {"save_path": "res://new_shot.png"})
    assert ran["ran"] == "editor_screenshot" and editor.forwarded[-1][1]["save_path"] == "res://new_shot.png"
