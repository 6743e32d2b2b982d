"""The envelope of a JSON text nested deeper than Python's parser goes, read without recursion.

``json.loads`` gives up near 1000 levels (``RecursionError``), before it has read anything a
caller could use: a request nested that deep would be answered as unparsable with ``id: null``,
and its client would wait for an answer to its own id forever. ``outline`` walks the text once,
with a stack instead of recursion, checking JSON's grammar as it goes, and keeps only what an
answer needs: the type of the top-level value and the top-level ``id`` and ``method`` members.
It runs only after the parser gave up, so its cost (one regular-expression match a token) is
paid by hostile input alone.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

# One token, after optional whitespace: a string, a number, a literal, or one punctuation mark.
_TOKEN = re.compile(
    r'[ \t\n\r]*(?:'
    r'(?P<string>"(?:[^"\\\x00-\x1f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*")'
    r'|(?P<number>-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?)'
    r'|(?P<literal>true|false|null)'
    r'|(?P<mark>[{}\[\]:,]))'
)
_TRAILING = re.compile(r"[ \t\n\r]*\Z")
# The top-level members an answer needs.
_KEPT = frozenset({"id", "method"})
# Stands for a member whose value is an object or an array (never a usable id or method).
CONTAINER = object()


@dataclass
class Outline:
    """What an answer needs of a JSON text: whether it is an object, and its kept members."""

    is_object: bool
    members: dict[str, Any] = field(default_factory=dict)


@dataclass
class _Frame:
    closer: str  # "}" or "]"
    expect: str  # "key", "colon", "value", "next"
    key: str | None = None
    empty: bool = True


def _scalar(token: str) -> Any:
    try:
        return json.loads(token)
    except ValueError:  # an integer longer than Python converts: no usable id either
        return CONTAINER


def outline(text: bytes | str) -> Outline | None:
    """The outline of ``text``, or None when it is not one valid JSON value."""
    try:
        source = text.decode("utf-8") if isinstance(text, bytes) else text
    except UnicodeDecodeError:
        return None
    stack: list[_Frame] = []
    top: Outline | None = None
    pos = 0
    while True:
        match = _TOKEN.match(source, pos)
        if match is None:
            return None
        pos = match.end()
        kind = match.lastgroup
        token = match.group(kind or "")
        frame = stack[-1] if stack else None
        if frame is not None and frame.expect == "key":
            if kind == "string":
                frame.key, frame.expect, frame.empty = json.loads(token), "colon", False
                continue
            if not (token == "}" and frame.empty):
                return None
        elif frame is not None and frame.expect == "colon":
            if token != ":":
                return None
            frame.expect = "value"
            continue
        elif frame is not None and frame.expect == "next":
            if token == ",":
                frame.expect = "key" if frame.closer == "}" else "value"
                frame.empty = False
                continue
            if token != frame.closer:
                return None
        if token in ("}", "]") and kind == "mark":
            if frame is None or token != frame.closer or (frame.expect == "value" and not frame.empty):
                return None
            stack.pop()
            if not stack:
                break
            stack[-1].expect = "next"
            continue
        if kind == "mark" and token not in ("{", "["):
            return None  # a ":" or "," where a value belongs
        # A value: the first (top level), or one inside the frame on top of the stack.
        if frame is not None:
            frame.empty = False
            if len(stack) == 1 and frame.closer == "}" and frame.key in _KEPT and top is not None:
                top.members[frame.key] = CONTAINER if kind == "mark" else _scalar(token)
            frame.expect = "next"
        elif top is not None:
            return None  # a second top-level value
        else:
            top = Outline(is_object=token == "{")
        if token == "{":
            stack.append(_Frame("}", "key"))
        elif token == "[":
            stack.append(_Frame("]", "value"))
        elif not stack:
            break  # a scalar is the whole text
    return top if _TRAILING.match(source, pos) else None
