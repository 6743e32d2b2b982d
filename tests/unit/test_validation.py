"""Argument validation: clear errors naming the parameter, coercion, and no crash on odd schemas."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from godot_bridge.errors import ToolError
from godot_bridge.tools.validation import validate_arguments

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


# --- nested objects of a closed schema are closed too --------------------------------------------

def test_a_closed_schema_refuses_unknown_keys_in_nested_objects():
    err = error({"name": "n", "pos": {"x": 1, "yy": 2}})
    assert err.extra["param"] == "pos.yy"
    assert "did you mean 'y'?" in err.message and "accepted: x, y" in err.message
    items = {**SCHEMA, "properties": {**SCHEMA["properties"],
                                      "points": {"type": "array", "items": SCHEMA["properties"]["pos"]}}}
    with pytest.raises(ToolError) as exc:
        validate_arguments({"name": "n", "points": [{"x": 1}, {"x": 2, "z": 3}]}, items)
    assert exc.value.extra["param"] == "points[1].z"


def test_the_type_tag_is_allowed_in_a_closed_nested_object():
    tagged = {"type": "Vector2", "x": 1, "y": 2}
    assert validate_arguments({"name": "n", "pos": tagged}, SCHEMA)["pos"] == tagged


def test_open_schemas_keep_json_schema_semantics():
    open_top = {k: v for k, v in SCHEMA.items() if k != "additionalProperties"}
    assert validate_arguments({"name": "n", "pos": {"x": 1, "z": 3}}, open_top)["pos"] == {"x": 1, "z": 3}
    explicit = {**SCHEMA, "properties": {**SCHEMA["properties"], "pos": {
        "type": "object", "properties": {"x": {"type": "number"}}, "additionalProperties": True}}}
    assert validate_arguments({"name": "n", "pos": {"x": 1, "z": 3}}, explicit)["pos"] == {"x": 1, "z": 3}
    bag = {**SCHEMA, "properties": {**SCHEMA["properties"], "pos": {"type": "object"}}}
    assert validate_arguments({"name": "n", "pos": {"anything": 1}}, bag)["pos"] == {"anything": 1}


def _minimal(schema: dict) -> object:
    """A value the validator accepts for ``schema`` (required keys only, smallest legal values)."""
    if schema.get("anyOf"):
        return _minimal(schema["anyOf"][0])
    if "enum" in schema:
        return schema["enum"][0]
    kind = schema.get("type")
    if kind == "object":
        return {name: _minimal(schema["properties"][name]) for name in schema.get("required", [])}
    if kind == "array":
        return [_minimal(schema.get("items", {})) for _ in range(int(schema.get("minItems", 0)))]
    if kind in ("number", "integer"):
        low = schema.get("minimum", schema.get("exclusiveMinimum", 0))
        return low + 1 if "exclusiveMinimum" in schema else max(low, 1 if "maximum" not in schema else low)
    return {"string": "a", "boolean": True}.get(kind)


def _nested_probes(schema: dict, path: str) -> list[tuple[object, str]]:
    """(a value for ``schema`` with one unknown key planted in a nested object, where it is refused)."""
    probes: list[tuple[object, str]] = []
    if schema.get("anyOf"):
        for option in schema["anyOf"]:
            # A branch that takes any object would accept the planted key: nothing to refuse there.
            if all(not (o.get("type") == "object" and not o.get("properties")) for o in schema["anyOf"]):
                probes += [(value, path) for value, _ in _nested_probes(option, path)]
        return probes
    if schema.get("type") == "array" and isinstance(schema.get("items"), dict):
        return [([value], where) for value, where in _nested_probes(schema["items"], f"{path}[0]")]
    props = schema.get("properties")
    if schema.get("type") != "object" or not props:
        return []
    base = _minimal(schema)
    if path:
        probes.append(({**base, "zz_unknown": 1}, f"{path}.zz_unknown"))
    for name, sub in props.items():
        for value, where in _nested_probes(sub, f"{path}.{name}" if path else name):
            probes.append(({**base, name: value}, where))
    return probes


def test_every_nested_object_in_the_catalogue_refuses_an_unknown_key():
    """The bridge side of a misspelt nested key: every catalogue object schema that lists its
    properties, at any depth, refuses a key it does not list, naming where."""
    from godot_bridge.tools.catalogue import load_catalogue

    checked = 0
    for tool in load_catalogue().tools.values():
        for args, where in _nested_probes(tool.input_schema, ""):
            with pytest.raises(ToolError) as exc:
                validate_arguments(args, tool.input_schema)
            assert exc.value.extra["param"] == where, (tool.name, args, exc.value.message)
            checked += 1
    assert checked > 60  # every nested object schema with properties (70 in the catalogue today)
