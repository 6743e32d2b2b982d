"""Every served inputSchema against the reference's full input schemas.

``tests/data/reference/input-schemas.json`` is the reference bridge's ``inputSchema`` of each tool
with every group loaded. The comparison is structural: property names, types, enums, ``const``,
``required``, array item shapes, ``anyOf`` branches and ``minItems``, all the way down.
Descriptions, defaults and numeric bounds are not compared here (test_catalogue.py pins the
top-level bounds and defaults), nor the no-ops and the top-level ``additionalProperties: false``
that catalogue/DEVIATIONS.md lists as conversion rules. A difference is allowed only where
DEVIATIONS.md lists its path and aspect.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from godot_bridge.app import BridgeApp
from tests.unit.test_catalogue import ADDED_TOOLS
from godot_bridge.config import Settings

REPO = Path(__file__).resolve().parents[2]
REFERENCE = REPO / "tests" / "data" / "reference" / "input-schemas.json"
DEVIATIONS = REPO / "catalogue" / "DEVIATIONS.md"

Difference = tuple[str, str]  # (path such as "scene_query.property_filters[].operator", aspect)
# Deviation aspects another test owns: the path guard and numeric bounds (test_catalogue.py).
NOT_COMPARED_HERE = frozenset({"path", "minimum", "maximum"})


def _is_noop(key: str, value: Any) -> bool:
    """JSON Schema keywords that allow everything, so carrying them or not is the same schema."""
    return (key == "propertyNames" and value == {"type": "string"}) or (key == "additionalProperties" and value == {})


def _compare(ref: Any, ours: Any, path: str, out: list[Difference]) -> None:
    """Append every structural difference between two schema nodes (reference first)."""
    if not isinstance(ref, dict) or not isinstance(ours, dict):
        out.append((path, "shape"))
        return
    for aspect in ("type", "const", "minItems"):
        if ref.get(aspect) != ours.get(aspect):
            out.append((path, aspect))
    if sorted(map(str, ref.get("enum", []))) != sorted(map(str, ours.get("enum", []))):
        out.append((path, "enum"))
    ref_extra = ref.get("additionalProperties")
    ours_extra = ours.get("additionalProperties")
    if not _is_noop("additionalProperties", ref_extra) and not _is_noop("additionalProperties", ours_extra) \
            and ref_extra != ours_extra:
        out.append((path, "additionalProperties"))
    _compare_properties(ref, ours, path, out)
    if ("items" in ref) != ("items" in ours):
        out.append((f"{path}[]", "items"))
    elif "items" in ref:
        _compare(ref["items"], ours["items"], f"{path}[]", out)
    ref_branches, our_branches = ref.get("anyOf", []), ours.get("anyOf", [])
    if len(ref_branches) != len(our_branches):
        out.append((path, "anyOf"))
    else:
        for index, (a, b) in enumerate(zip(ref_branches, our_branches, strict=True)):
            _compare(a, b, f"{path}|{index}", out)


def _compare_properties(ref: dict[str, Any], ours: dict[str, Any], path: str, out: list[Difference]) -> None:
    ref_props: dict[str, Any] = ref.get("properties", {})
    our_props: dict[str, Any] = ours.get("properties", {})
    for name in ref_props.keys() - our_props.keys():
        out.append((f"{path}.{name}", "missing"))
    for name in our_props.keys() - ref_props.keys():
        out.append((f"{path}.{name}", "extra"))
    for name in ref_props.keys() & our_props.keys():
        _compare(ref_props[name], our_props[name], f"{path}.{name}", out)
    # A required name is a fact about the property it names, so report it there.
    for name in set(ref.get("required", [])) ^ set(ours.get("required", [])):
        out.append((f"{path}.{name}", "required"))


def schema_differences(tool: str, ref: dict[str, Any], ours: dict[str, Any]) -> list[Difference]:
    """Differences of one tool's schema, minus the top-level additionalProperties rule."""
    if ours.get("additionalProperties") is not False:
        return [(tool, "additionalProperties")]
    trimmed = {k: v for k, v in ours.items() if k != "additionalProperties"}
    out: list[Difference] = []
    _compare(ref, trimmed, tool, out)
    return sorted(out)


def listed_deviations() -> set[Difference]:
    text = DEVIATIONS.read_text(encoding="utf-8")
    return {(m.group(1), m.group(2)) for m in re.finditer(r"^- `([^`\s]+)` \((\w+)\):", text, flags=re.MULTILINE)}


@pytest.fixture(scope="module")
def reference() -> dict[str, dict[str, Any]]:
    data: dict[str, dict[str, Any]] = json.loads(REFERENCE.read_text(encoding="utf-8"))
    return data


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    """The inputSchema of every tool as tools/list serves it with every group loaded."""
    app = BridgeApp(Settings(project_path=tmp_path_factory.mktemp("project")))
    app.editor._set_version("4.7", "test")  # what a 4.7 handshake does; shows the version-gated scene_close
    tools = app.tool_list()
    tools.activate(tools.group_names())
    return {entry["name"]: entry["inputSchema"] for entry in app.tools(tools)}


def test_every_reference_tool_is_served(reference: dict[str, Any], served: dict[str, Any]) -> None:
    # Our additions beyond the reference (listed in DEVIATIONS.md) are served too; nothing else is.
    assert sorted(reference) == sorted(set(served) - set(ADDED_TOOLS))


def test_served_schemas_match_reference_structurally(reference: dict[str, Any], served: dict[str, Any]) -> None:
    allowed = listed_deviations()
    unlisted = [
        f"{path} ({aspect})"
        for name in sorted(reference)
        for path, aspect in schema_differences(name, reference[name], served[name])
        if (path, aspect) not in allowed
    ]
    assert not unlisted, "differences from input-schemas.json not in DEVIATIONS.md:\n" + "\n".join(unlisted)


def test_listed_deviations_are_real(reference: dict[str, Any], served: dict[str, Any]) -> None:
    """A schema bullet for a difference that no longer exists (or never did) is stale; drop it.

    Bullets with aspect (path) are about the path guard, and numeric bounds are not compared here;
    test_catalogue.py checks both.
    """
    found = {d for name in reference for d in schema_differences(name, reference[name], served[name])}
    # Bullets about the tools.json summary (not the full schema) are test_catalogue.py's to check.
    summary_only = {("runtime_set_property.value", "items")}
    schema_bullets = {(path, aspect) for path, aspect in listed_deviations() if aspect not in NOT_COMPARED_HERE}
    stale = sorted(schema_bullets - found - summary_only)
    assert not stale, f"DEVIATIONS.md lists differences that do not exist: {stale}"


def test_nested_detail_named_in_issue_is_served(served: dict[str, Any]) -> None:
    """Four examples of a bad call, spelled out so a regression names them."""
    batch = served["node_set_property"]["properties"]["batch"]["items"]
    assert batch["required"] == ["node_path", "property", "value"]
    event = served["input_simulate"]["properties"]["events"]["anyOf"][0]["properties"]["event_type"]
    assert "mouse_button" in event["enum"]
    operator = served["scene_query"]["properties"]["property_filters"]["items"]["properties"]["operator"]
    assert operator["enum"] == ["eq", "ne", "gt", "lt"]
    level = served["editor_get_console"]["properties"]["level_filter"]["anyOf"][1]["items"]
    assert level["enum"] == ["info", "warning", "error"]


@pytest.mark.parametrize(
    ("ref", "ours", "expected"),
    [
        ({"type": "string", "enum": ["a", "b"]}, {"type": "string", "enum": ["a"]}, ("t.p", "enum")),
        ({"type": "integer"}, {"type": "number"}, ("t.p", "type")),
        ({"type": "array", "items": {"type": "object", "properties": {"x": {}}}},
         {"type": "array", "items": {"type": "object"}}, ("t.p[].x", "missing")),
        ({"type": "object", "properties": {"x": {}}, "required": ["x"]},
         {"type": "object", "properties": {"x": {}}}, ("t.p.x", "required")),
        ({"anyOf": [{"type": "string"}, {"type": "array", "items": {}}]},
         {"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "object"}}]}, ("t.p|1[]", "type")),
    ],
)
def test_comparison_catches_each_kind_of_difference(ref: dict[str, Any], ours: dict[str, Any],
                                                    expected: Difference) -> None:
    wrap = {"type": "object", "properties": {"p": ref}}
    mine = {"type": "object", "properties": {"p": ours}, "additionalProperties": False}
    assert schema_differences("t", wrap, mine) == [expected]


def test_comparison_ignores_noops_and_descriptions() -> None:
    ref = {"type": "object", "properties": {"p": {"type": "object", "propertyNames": {"type": "string"},
                                                  "additionalProperties": {}}}}
    mine = {"type": "object", "properties": {"p": {"type": "object", "description": "ours"}},
            "additionalProperties": False}
    assert schema_differences("t", ref, mine) == []
