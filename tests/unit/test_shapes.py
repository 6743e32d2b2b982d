"""godot_bridge/tools/shapes.py: strict JSON types for the catalogue's and prompts' dataclasses."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

import pytest

from godot_bridge.tools.shapes import ShapeError, build, check_fields


@dataclass(frozen=True)
class Inner:
    key: str
    flag: bool = False

    def __post_init__(self) -> None:
        check_fields(self)


@dataclass(frozen=True)
class Outer:
    name: str
    kind: Literal["a", "b"]
    count: int | None = None
    tags: list[str] = field(default_factory=list)
    table: dict[str, list[str]] = field(default_factory=dict)
    schema: dict[str, Any] = field(default_factory=dict)
    items: list[Inner] = field(default_factory=list)

    def __post_init__(self) -> None:
        check_fields(self)


def test_a_good_entry_builds_with_nested_dataclasses() -> None:
    built = build(Outer, {"name": "n", "kind": "a", "count": 3, "tags": ["x"], "table": {"p": ["res://"]},
                          "schema": {"anything": [1, None]}, "items": [{"key": "k"}]})
    assert built.items == [Inner("k")] and built.count == 3 and built.schema == {"anything": [1, None]}


@pytest.mark.parametrize(("entry", "message"), [
    ({"kind": "a"}, "field name: required"),
    ({"name": "n", "kind": "a", "extra": 1}, "field extra: not a known field"),
    ({"name": 5, "kind": "a"}, "field name: must be a string"),
    ({"name": "n", "kind": "c"}, "field kind: must be one of a, b"),
    ({"name": "n", "kind": "a", "count": True}, "field count: must be an integer or null"),
    ({"name": "n", "kind": "a", "count": "3"}, "field count: must be an integer or null"),
    ({"name": "n", "kind": "a", "tags": "x"}, "field tags: must be a list"),
    ({"name": "n", "kind": "a", "tags": ["x", 2]}, "field tags[1]: must be a string"),
    ({"name": "n", "kind": "a", "table": {"p": [1]}}, "field table.p[0]: must be a string"),
    ({"name": "n", "kind": "a", "schema": []}, "field schema: must be an object"),
    ({"name": "n", "kind": "a", "items": [{"key": 1}]}, "field key: must be a string"),
    ({"name": "n", "kind": "a", "items": [{"key": "k", "flag": 1}]}, "field flag: must be a boolean"),
    ([], "must be an object"),
])
def test_bad_entries_name_the_field(entry: Any, message: str) -> None:
    with pytest.raises(ShapeError) as info:
        build(Outer, entry)
    assert message in str(info.value)


def test_direct_construction_is_checked_too() -> None:
    with pytest.raises(ShapeError, match="field tags"):
        Outer(name="n", kind="a", tags=None)  # type: ignore[arg-type]
