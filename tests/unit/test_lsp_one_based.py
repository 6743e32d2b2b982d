"""The LSP tools' descriptions, schemas and code agree: line and column are 1-based."""

from __future__ import annotations

import pytest

from godot_bridge.errors import ToolError
from godot_bridge.lsp.uris import from_lsp_position, to_lsp_position
from godot_bridge.tools.catalogue import load_catalogue
from godot_bridge.tools.validation import validate_arguments

POSITIONAL = [t for t in load_catalogue().tools.values() if t.channel == "lsp" and "column" in t.input_schema["properties"]]


def test_there_are_positional_lsp_tools() -> None:
    assert {t.name for t in POSITIONAL} == {"lsp_hover", "lsp_completion", "lsp_definition", "lsp_references"}


@pytest.mark.parametrize("tool", POSITIONAL, ids=lambda t: t.name)
def test_description_and_schema_say_one_based(tool) -> None:
    assert "1-based" in tool.description and "0-based" not in tool.description
    for name in ("line", "column"):
        prop = tool.input_schema["properties"][name]
        assert prop["minimum"] == 1
        assert "1-based" in prop["description"]


@pytest.mark.parametrize("tool", POSITIONAL, ids=lambda t: t.name)
def test_line_zero_is_refused_by_name(tool) -> None:
    args = {"file_path": "res://a.gd", "line": 0, "column": 1}
    with pytest.raises(ToolError) as info:
        validate_arguments(args, tool.input_schema)
    assert info.value.code == "INVALID_PARAMS" and info.value.extra["param"] == "line"


def test_code_reads_what_the_description_says() -> None:
    # The first character of the file, as the description counts it, is LSP position 0/0.
    assert to_lsp_position(1, 1) == {"line": 0, "character": 0}
    assert from_lsp_position({"line": 0, "character": 0}) == (1, 1)
