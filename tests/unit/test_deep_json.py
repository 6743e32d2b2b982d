"""``deep_json.outline`` reads what Python's parser reads, without recursion (godot_bridge/mcp/core/deep_json.py).

Where the parser copes, the two must agree: the same texts are JSON, the same top-level value is an
object, and the same ``id`` and ``method`` come out. Beyond it, the outline is all there is.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from godot_bridge.mcp.core.deep_json import CONTAINER, LIMIT, STEPS, outline

SCALARS = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=6)
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner,
                                                                                             max_size=3), max_leaves=10)
MESSAGES = st.dictionaries(st.sampled_from(["id", "method", "params", "jsonrpc", "result"]), VALUES, max_size=5)
# Texts close to JSON: pieces of it glued together, so that most are wrong in one small way.
PIECES = st.sampled_from(['{', '}', '[', ']', ':', ',', '"id"', '"a"', '1', '-0.5e2', 'true', 'null', ' ', '"\\u00e9"',
                          '"\\x"', '01', 'tru', '"'])


def is_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def kept(value: Any) -> Any:
    return CONTAINER if isinstance(value, dict | list) else value


@settings(max_examples=300, deadline=None)
@given(st.one_of(MESSAGES, VALUES), st.sampled_from([None, 0, 2]))
def test_it_reads_what_the_parser_reads(value: Any, indent: int | None) -> None:
    shape = outline(json.dumps(value, indent=indent))
    assert shape is not None and shape.is_object == isinstance(value, dict)
    expected = {key: kept(value[key]) for key in ("id", "method") if key in value} if isinstance(value, dict) else {}
    assert shape.members == expected


@settings(max_examples=500, deadline=None)
@given(st.lists(PIECES, max_size=12).map("".join))
def test_it_refuses_what_the_parser_refuses(text: str) -> None:
    assert (outline(text) is not None) == is_json(text), text


def test_beyond_the_parser_it_still_finds_the_id() -> None:
    deep = "[" * 50_000 + "]" * 50_000
    text = '{"jsonrpc":"2.0","params":{"a":%s},"id":"call-1","method":"tools/call"}' % deep
    shape = outline(text)
    assert shape is not None and shape.members == {"id": "call-1", "method": "tools/call"}
    assert outline(text[:-1]) is None and outline(text + "]") is None


def test_what_it_reads_is_bounded() -> None:
    """On the event loop, so bounded: a run of brackets is one step however long, but a text over
    LIMIT bytes, or one that needs more than STEPS steps, is not read (answered as unparsable)."""
    deep = 1_000_000
    assert outline('{"id":1,"p":%s}' % ("[" * deep + "]" * deep)) is not None
    assert outline('{"id":1,"p":"%s"}' % ("x" * LIMIT)) is None
    steps = STEPS // 2
    assert outline('{"id":1,"p":%s}' % ("[1," * steps + "1" + "]" * steps)) is None
