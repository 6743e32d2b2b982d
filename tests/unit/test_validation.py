"""Argument validation: clear errors naming the parameter, coercion, and no crash on odd schemas."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from godot_bridge.errors import ToolError
from godot_bridge.validation import validate_arguments

SCHEMA = {
    "type": "object",
    "properties": {
        "name": {"type": "string"},
        "count": {"type": "integer", "minimum": 1, "maximum": 5},
        "mode": {"type": "string", "enum": ["a", "b"]},
        "pos": {"type": "object", "properties": {"x": {"type": "number"}, "y": {"type": "number"}}},
        "tags": {"type": "array", "items": {"type": "string"}},
        "flag": {"type": "boolean"},
        "either": {"anyOf": [{"type": "number"}, {"type": "object"}]},
        "anything": {},
    },
    "required": ["name"],
    "additionalProperties": False,
}


def error(args) -> ToolError:
    with pytest.raises(ToolError) as exc:
        validate_arguments(args, SCHEMA)
    assert exc.value.code == "INVALID_PARAMS"
    return exc.value


@pytest.mark.parametrize(
    ("args", "names"),
    [
        ({}, "name"),
        ({"name": 3}, "name"),
        ({"name": "n", "count": 0}, "count"),
        ({"name": "n", "count": 1.5}, "count"),
        ({"name": "n", "mode": "c"}, "mode"),
        ({"name": "n", "pos": {"x": "left"}}, "pos.x"),
        ({"name": "n", "tags": ["a", 2]}, "tags[1]"),
        ({"name": "n", "flag": "yes"}, "flag"),
        ({"name": "n", "either": "s"}, "either"),
        ({"name": "n", "extra": 1}, "extra"),
        ({"name": "n", "count": True}, "count"),
    ],
)
def test_errors_name_the_parameter(args, names):
    err = error(args)
    assert names in err.message and err.extra["param"] == names


def test_json_encoded_strings_are_accepted_when_they_decode_to_the_right_type():
    out = validate_arguments({"name": "n", "count": "3", "pos": '{"x": 1, "y": 2}', "tags": '["a"]',
                              "flag": "true", "either": "2.5"}, SCHEMA)
    assert out == {"name": "n", "count": 3, "pos": {"x": 1, "y": 2}, "tags": ["a"], "flag": True, "either": 2.5}
    assert validate_arguments({"name": "42"}, SCHEMA)["name"] == "42"  # a string param stays a string


def test_whole_float_integer_becomes_int():
    assert validate_arguments({"name": "n", "count": 2.0}, SCHEMA)["count"] == 2


def test_arguments_must_be_an_object():
    with pytest.raises(ToolError):
        validate_arguments(["x"], SCHEMA)
    assert validate_arguments(None, {"type": "object", "properties": {}}) == {}


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=10,
)


@settings(max_examples=300, deadline=None)
@given(schema=st.dictionaries(st.sampled_from(["type", "properties", "required", "enum", "anyOf", "items",
                                               "minimum", "maximum", "minItems", "additionalProperties"]),
                              json_values, max_size=6),
       args=st.dictionaries(st.text(max_size=5), json_values, max_size=4))
def test_any_schema_and_arguments_give_a_result_or_a_tool_error(schema, args):
    """Extension schemas are untrusted: validation never crashes the call (that would be -32603)."""
    try:
        validate_arguments(args, schema)
    except ToolError as err:
        assert err.code == "INVALID_PARAMS"
