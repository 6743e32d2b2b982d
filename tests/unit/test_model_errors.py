"""Errors the model reads say what to do next: the parameter it meant, how to find a tool it does not
see, how to get an editor when none answers, and where a bad request parameter is."""

from __future__ import annotations

import pytest
from pydantic import BaseModel, ValidationError

from godot_bridge.errors import BRIDGE_HINTS, ToolError
from godot_bridge.mcp.core.era_router import _invalid_params
from godot_bridge.tools.catalogue import load_catalogue
from godot_bridge.tools.surface import Surface
from godot_bridge.tools.validation import closest, validate_arguments

CATALOGUE = load_catalogue()


def schema(tool: str) -> dict:
    return CATALOGUE.tools[tool].input_schema


@pytest.mark.parametrize(("tool", "args", "named", "meant"), [
    ("script_read", {"path": "res://a.gd"}, "path", "file_path"),  # the missing one, misnamed
    ("script_read", {"file_pth": "res://a.gd"}, "file_pth", "file_path"),
    ("node_get_property", {"node": ".", "property": "x"}, "node", "node_path"),
    ("scene_create_node", {"class": "Node2D", "parent_path": "."}, "class", "class_name"),
])
def test_an_unknown_argument_names_the_parameter_it_most_likely_meant(tool: str, args: dict, named: str,
                                                                      meant: str) -> None:
    with pytest.raises(ToolError) as info:
        validate_arguments(args, schema(tool))
    err = info.value
    assert err.code == "INVALID_PARAMS" and err.extra["param"] == named
    assert f"{named}: is not a parameter of this tool; did you mean {meant!r}?" in err.message


def test_closest_prefers_the_missing_required_parameters() -> None:
    assert closest("path", ["scene_path", "file_path"], prefer=["file_path"]) == "file_path"
    assert closest("zzz", ["file_path"]) is None
    with pytest.raises(ToolError, match="file_path: is required"):
        validate_arguments({}, schema("script_read"))


def test_an_unknown_tool_says_how_to_find_and_load_groups() -> None:
    surface = Surface(CATALOGUE)
    text = surface.unknown_tool_message("tilemap_paint_cells")
    assert text.startswith("Unknown tool: tilemap_paint_cells.") and "discover_tools" in text
    assert '{"request": "<topic>"}' in text
    assert "Did you mean scene_get_tree?" in surface.unknown_tool_message("scene_get_tre")
    assert "read-only mode" in Surface(CATALOGUE, read_only=True).unknown_tool_message("scene_create_node")


def test_the_not_connected_hint_offers_editor_launch_and_autolaunch() -> None:
    hint = BRIDGE_HINTS["CONNECT_FAILED"]
    assert "editor_launch" in hint and "GODOT_MCP_AUTOLAUNCH=headless" in hint and "editor_lifecycle" in hint


def test_a_bad_request_parameter_is_named_once() -> None:
    class Request(BaseModel):
        class Params(BaseModel):
            cursor: str | None = None

        method: str
        params: Params

    with pytest.raises(ValidationError) as info:
        Request.model_validate({"method": "tools/list", "params": {"cursor": 5}})
    message = _invalid_params(info.value).message
    assert message.startswith("Invalid params: params.cursor:") and "params.params" not in message
