"""What the server costs every model request: the tools array as a client receives it.

Measured as bench/ measures it: the compact JSON of ``tools/list``'s array, UTF-8, with the
arguments the bridge offers (dry_run, confirmation_token, background) included. The start-up list
rides along with every request an assistant sends its model, so its budget is the one that counts.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from bench.report import ALL_GROUPS_MAX
from bench.report import STARTUP_SURFACE_MAX as STARTUP_MAX
from godot_bridge.app import BridgeApp
from godot_bridge.config import Settings
from godot_bridge.tools.answer_budget import text_size

# Gemini CLI sends its model each tool as {name, description, parametersJsonSchema} (no annotations)
# and adds a described wait_for_previous parameter of its own to every schema: 281 bytes a tool
# (the 41 tools of an earlier start-up list measured 32,699 bytes there, this estimate 32,725).
GEMINI_PER_TOOL = 281
# The reference bridge's 36 start-up tools estimated the same way (its tools/list from
# `python -m bench --phases context --compare-reference`, `$schema` keys left out): 43,441.
# The target is half of it; fewer always-on tools is what helps most there.
GEMINI_MAX = 43_441 // 2


# Bytes of compact JSON as a client receives it: the bridge's one definition.
wire_bytes = text_size


def gemini_bytes(tools: list[dict[str, Any]]) -> int:
    """The tools' share of a Gemini CLI model request, estimated (see GEMINI_PER_TOOL)."""
    declarations = [{"name": t["name"], "description": t["description"], "parametersJsonSchema": t["inputSchema"]}
                    for t in tools]
    return wire_bytes(declarations) + GEMINI_PER_TOOL * len(tools)


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> BridgeApp:
    app = BridgeApp(Settings(project_path=tmp_path_factory.mktemp("project")))
    app.editor._set_version("4.6", "test")  # what the editor's handshake does: the list is final
    return app


@pytest.fixture(scope="module")
def startup(app: BridgeApp) -> list[dict[str, Any]]:
    return list(app.tools(app.tool_list()))


def test_startup_list_is_half_the_reference(startup: list[dict[str, Any]]) -> None:
    assert "call_tool" in [t["name"] for t in startup], "the way to every tool is part of what start-up costs"
    size = wire_bytes(startup)
    assert size <= STARTUP_MAX, f"the start-up tools/list is {size:,} bytes"


def test_startup_list_in_gemini_is_half_the_reference(startup: list[dict[str, Any]]) -> None:
    size = gemini_bytes(startup)
    assert size <= GEMINI_MAX, (
        f"~{size:,} bytes of every Gemini CLI request ({len(startup)} tools): "
        "shorten descriptions, or load a tool with a group instead of at start-up")


def test_every_group_loaded_fits(app: BridgeApp) -> None:
    tools = app.tool_list()
    tools.activate(tools.group_names())
    size = wire_bytes(list(app.tools(tools)))
    assert size <= ALL_GROUPS_MAX, f"every group loaded: {size:,} bytes"


def test_the_estimates_count_what_they_say() -> None:
    tool = {"name": "t", "description": "d", "inputSchema": {"type": "object", "properties": {}},
            "annotations": {"readOnlyHint": True}}
    assert wire_bytes([tool]) == len(json.dumps([tool]).replace(", ", ",").replace(": ", ":"))
    # annotations are not sent to Gemini; the per-tool addition is
    assert gemini_bytes([tool, tool]) - gemini_bytes([tool]) == wire_bytes(
        {"name": "t", "description": "d", "parametersJsonSchema": tool["inputSchema"]}) + 1 + GEMINI_PER_TOOL
