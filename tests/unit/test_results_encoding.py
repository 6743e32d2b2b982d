"""The orjson encoding of tool results says exactly what the json one does.

``results.sorted_and_text`` uses orjson when it is installed and falls back to json;
both must give the same sorted structure and the same text for any JSON value, except
that a float may be spelled differently (``1.5e-05`` / ``0.000015``: the same number).
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from godot_bridge.tools import results

orjson = pytest.importorskip("orjson")

_scalars = st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.text(max_size=12)
_floats = st.floats(allow_nan=False, allow_infinity=False)


def _json(leaves: st.SearchStrategy) -> st.SearchStrategy:
    return st.recursive(leaves, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4), max_leaves=30)


def _key_orders(value: object) -> list[list[str]]:
    """Every dict's key order, depth first: the sortedness of a structure, which == ignores."""
    orders: list[list[str]] = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            orders.append(list(item))
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return orders


@settings(max_examples=300, deadline=None)
@given(_json(_scalars))
def test_same_text_and_structure_without_floats(value: object) -> None:
    fast = results.sorted_and_text(value)
    slow = results._sorted_and_text_py(value)
    assert fast[1] == slow[1]
    assert fast[0] == slow[0]
    assert _key_orders(fast[0]) == _key_orders(slow[0])


@settings(max_examples=200, deadline=None)
@given(_json(_scalars | _floats))
def test_floats_are_the_same_numbers(value: object) -> None:
    fast_structured, fast_text = results.sorted_and_text(value)
    slow_structured, slow_text = results._sorted_and_text_py(value)
    if isinstance(value, str):
        assert fast_text == slow_text == value
        return
    assert json.loads(fast_text) == json.loads(slow_text) == slow_structured == fast_structured
    assert _key_orders(fast_structured) == _key_orders(slow_structured)


@pytest.mark.parametrize(
    "value",
    [{"s": "\ud800"}, {"big": 2**80}, {"b": {1: "one"}, "a": 0}],
    ids=["lone-surrogate", "int-beyond-64-bits", "non-string-key"],
)
def test_what_orjson_refuses_goes_the_json_way(value: dict) -> None:
    structured, text = results.sorted_and_text(value)
    assert text == json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    assert structured == results.sort_keys(value)
    assert _key_orders(structured) == _key_orders(results.sort_keys(value))


@pytest.mark.parametrize("fast", [True, False], ids=["orjson", "json"])
def test_nan_and_infinity_are_null_in_text_and_structure(fast: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    if not fast:
        monkeypatch.setattr(results, "orjson", None)
    structured, text = results.sorted_and_text({"n": float("nan"), "i": [float("inf"), -float("inf")], "x": 1.5})
    assert text == '{"i":[null,null],"n":null,"x":1.5}'
    assert structured == {"i": [None, None], "n": None, "x": 1.5}


def test_without_orjson_the_json_way_is_used(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(results, "orjson", None)
    outcome = results.success({"b": 1e-7, "a": {"z": 1, "y": "é"}})
    assert outcome.content == [{"type": "text", "text": '{"a":{"y":"é","z":1},"b":1e-07}'}]
    assert list(outcome.structured) == ["a", "b"] and list(outcome.structured["a"]) == ["y", "z"]


def test_text_and_structured_content_stay_together() -> None:
    outcome = results.success({"b": [{"d": 0.5, "c": None}], "a": True}, success_hint="next")
    assert outcome.content[0]["text"] == '{"a":true,"b":[{"c":null,"d":0.5}],"hint":"next"}'
    assert json.loads(outcome.content[0]["text"]) == outcome.structured
    assert _key_orders(outcome.structured) == [["a", "b", "hint"], ["c", "d"]]
