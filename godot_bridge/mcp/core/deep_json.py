"""The envelope of a JSON text nested deeper than Python's parser goes, read without recursion.

``json.loads`` gives up near 1000 levels (``RecursionError``), before it has read anything a
caller could use: a request nested that deep would be answered as unparsable with ``id: null``,
and its client would wait for an answer to its own id forever. ``outline`` walks the text once,
with a stack instead of recursion, checking JSON's grammar as it goes, and keeps only what an
answer needs: the type of the top-level value and the top-level ``id`` and ``method`` members.

It runs only after the parser gave up, so its cost is paid by such input alone, and it is kept
small, since it runs on the event loop: a run of brackets (``[[[[`` or ``]]]]``, the usual shape)
is one step, and a text over ``LIMIT`` bytes or ``STEPS`` steps is not read to the end (None:
the caller answers it as unparsable, as Python's parser would have).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from godot_bridge.errors import ProtocolError

# The most it reads: measured, a few hundred milliseconds at worst ([1,[1,[1,... is a step a byte;
# a run of a million brackets, one step, about 40 ms).
LIMIT = 4 << 20
STEPS = 250_000
_WS = r"[ \t\n\r]*"
# One token, after optional whitespace: a run of "[" (each after the first is the first element of
# the one before), a run of "]", a string, a number, a literal, or one other punctuation mark.
_TOKEN = re.compile(
    _WS + r"(?:"
    r"(?P<opens>\[[\[ \t\n\r]*)"
    r"|(?P<closes>\][\] \t\n\r]*)"
    r'|(?P<string>"(?:[^"\\\x00-\x1f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*")'
    r"|(?P<number>-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?)"
    r"|(?P<literal>true|false|null)"
    r"|(?P<mark>[{}:,]))"
)
_TRAILING = re.compile(_WS + r"\Z")
# The top-level members an answer needs.
_KEPT = frozenset({"id", "method"})
# Stands for a member whose value is an object or an array (never a usable id or method), or a
# number Python will not convert.
CONTAINER = object()


@dataclass
class Outline:
    """What an answer needs of a JSON text: whether it is an object, and its kept members."""

    is_object: bool
    members: dict[str, Any] = field(default_factory=dict)


class _Invalid(ProtocolError):
    pass


@dataclass
class _Walk:
    """The walk's state: the closers of the open containers (innermost last) and what the innermost
    expects next ("key", "colon", "value", "next"); every container below it has a child open, so
    it expects "next" once that closes."""

    closers: list[str] = field(default_factory=list)
    expect: str = "value"
    empty: bool = True  # the innermost container has no element yet
    key: str | None = None  # the current key of the top-level object
    top: Outline | None = None

    def value(self, token: str, container: bool) -> None:
        """A value (``token``; ``container``: it opens one) where the walk is."""
        if not self.closers:
            if self.top is not None:
                raise _Invalid  # a second top-level value
            self.top = Outline(is_object=token == "{")
            return
        if self.expect != "value":
            raise _Invalid
        if self.closers == ["}"] and self.key in _KEPT:
            assert self.top is not None
            self.top.members[self.key] = CONTAINER if container else _scalar(token)
        self.expect, self.empty = "next", False

    def open(self, closer: str, count: int) -> None:
        self.closers.extend(closer * count)
        self.expect, self.empty = ("key" if closer == "}" else "value"), True

    def close(self, closer: str, count: int) -> None:
        """``count`` containers closing: the innermost as it allows, the ones below it after their child."""
        closers = self.closers
        if len(closers) < count or closers[-count:] != [closer] * count:
            raise _Invalid
        if not (self.expect == "next" or (self.empty and self.expect == ("key" if closer == "}" else "value"))):
            raise _Invalid  # a "," or ":" left hanging
        del closers[-count:]
        self.expect, self.empty = "next", False

    def mark(self, mark: str) -> None:
        if mark == ":" and self.expect == "colon":
            self.expect = "value"
        elif mark == "," and self.expect == "next" and self.closers:
            self.expect, self.empty = ("key" if self.closers[-1] == "}" else "value"), False
        else:
            raise _Invalid

    def string(self, token: str) -> None:
        if self.expect == "key" and self.closers:
            if self.closers == ["}"]:
                self.key = json.loads(token)
            self.expect, self.empty = "colon", False
        else:
            self.value(token, container=False)


def _scalar(token: str) -> Any:
    try:
        return json.loads(token)
    except ValueError:  # an integer longer than Python converts: no usable id either
        return CONTAINER


def outline(text: bytes | str) -> Outline | None:
    """The outline of ``text``; None when it is not one valid JSON value, or too large to read."""
    if len(text) > LIMIT:
        return None
    try:
        source = text.decode("utf-8") if isinstance(text, bytes) else text
        return _walk(source)
    except (UnicodeDecodeError, _Invalid):
        return None


def _walk(source: str) -> Outline | None:
    walk, pos, steps = _Walk(), 0, 0
    while walk.top is None or walk.closers:
        match = _TOKEN.match(source, pos)
        steps += 1
        if match is None or steps > STEPS:
            raise _Invalid
        pos, kind = match.end(), match.lastgroup
        token = match.group(kind or "")
        if kind == "opens":
            walk.value("[", container=True)
            walk.open("]", token.count("["))
        elif kind == "closes":
            walk.close("]", token.count("]"))
        elif kind == "string":
            walk.string(token)
        elif token == "{":
            walk.value("{", container=True)
            walk.open("}", 1)
        elif token == "}":
            walk.close("}", 1)
        elif kind == "mark":
            walk.mark(token)
        else:
            walk.value(token, container=False)
    return walk.top if _TRAILING.match(source, pos) else None
