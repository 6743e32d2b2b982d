"""Read Godot's own text files without an editor: ``project.godot`` and the text resource format
(``.tscn`` / ``.tres``) it shares with them.

Only what the bridge needs: a project's settings as written, and a resource file's sections (its
``[gd_scene ...]`` / ``[ext_resource ...]`` / ``[node ...]`` / ``[editable ...]`` headers with their
attributes, and the few body properties asked for). Pure functions over text, so they are
unit-testable and never touch the editor or its state.

A header's attribute values are Godot variant text: a string, a number, an array
(``groups=["mobs", "enemies"]``), a call (``instance=ExtResource("1_abc")``,
``parent_id_path=PackedInt32Array(1, 2)``). A ``]`` inside one does not end the header, and a
line that only looks like a header inside a multi-line string or a multi-line value (a
property's text, an animation's keys) is not one. No parser on PyPI reads Godot 4.6's format
(godot-parser fails on a quarter of the official demo projects' scenes and takes seconds on a
big one), so this scanner reads the headers and skips the bodies.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

# The characters that change a scanner's state: an escape, a quote, an opening or closing bracket.
_TOKENS = re.compile(r'\\.|"|[\[\]{}()]')
_OPEN = {"[": "]", "{": "}", "(": ")"}
_CLOSE = frozenset(_OPEN.values())
_KEY = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_/]*)\s*=\s*")
_NAME = re.compile(r"\[([A-Za-z_][A-Za-z0-9_]*)")
_CALL_ARG = re.compile(r'^\w+\(\s*"?([^")]*?)"?\s*\)$')
_STRINGS = re.compile(r'"((?:[^"\\]|\\.)*)"')
_SECTION = re.compile(r"^\[(?P<name>[^\]\s]+)(?P<attrs>[^\]]*)\]\s*$")


class GodotFormatError(ValueError):
    """The text is not what it should be; the message says why."""


def unquote(value: str) -> str:
    """A Godot string literal's text (``"a \\"b\\""`` -> ``a "b"``); anything else as it is."""
    value = value.strip()
    if value[:1] in ("&", "^"):  # StringName / NodePath literals
        value = value[1:]
    if len(value) >= 2 and value[0] == value[-1] == '"':
        return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), value[1:-1])
    return value


def call_arg(value: str) -> str:
    """``ExtResource("1_abc")`` -> ``1_abc``; ``ExtResource( 1 )`` -> ``1`` (Godot 3's spelling)."""
    match = _CALL_ARG.match(value.strip())
    return match.group(1) if match else value


def string_list(value: str) -> list[str]:
    """``["a", "b"]`` (a header's ``groups``) -> ``["a", "b"]``."""
    return [unquote(f'"{text}"') for text in _STRINGS.findall(value)]


def project_settings(text: str) -> dict[str, str]:
    """``section/key`` -> value (unquoted) for every simple line of a ``project.godot``."""
    out: dict[str, str] = {}
    section = ""
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(";"):
            continue
        match = _SECTION.match(line)
        if match:
            section = match.group("name")
            continue
        key, eq, value = line.partition("=")
        if eq and section:
            out[f"{section}/{key.strip()}"] = unquote(value)
    return out


# -- the text resource format ---------------------------------------------------------------------


@dataclass
class Section:
    """One ``[kind attr=value ...]`` header, its attributes as raw variant text, and the body
    properties that were asked for (raw text, single-line values only)."""

    kind: str
    attrs: dict[str, str]
    line: int  # 1-based, for messages
    props: dict[str, str] = field(default_factory=dict)

    def text(self, key: str) -> str | None:
        """An attribute's value as text (a string unquoted), None when absent."""
        raw = self.attrs.get(key)
        return None if raw is None else unquote(raw)


class _Depth:
    """Whether a position in the file is inside a string or an open bracket of a value."""

    def __init__(self) -> None:
        self.in_string = False
        self.stack: list[str] = []

    @property
    def top_level(self) -> bool:
        return not self.in_string and not self.stack

    def feed(self, line: str) -> None:
        for token in _TOKENS.finditer(line):
            char = token.group(0)
            if len(char) == 2:  # an escape: only inside strings, never a state change
                continue
            if char == '"':
                self.in_string = not self.in_string
            elif self.in_string:
                continue
            elif char in _OPEN:
                self.stack.append(_OPEN[char])
            elif char in _CLOSE and self.stack and self.stack[-1] == char:
                self.stack.pop()


def _value_end(text: str, start: int) -> int:
    """Where the variant value starting at ``start`` ends (exclusive), brackets and strings balanced."""
    depth = _Depth()
    i = start
    while i < len(text):
        char = text[i]
        if char == "\\" and depth.in_string:
            i += 2
            continue
        if depth.top_level and (char.isspace() or char == "]"):
            return i
        depth.feed(char)
        i += 1
    return i


def header(line: str, number: int = 0) -> Section | None:
    """The section a header line declares, None when the line is not a header."""
    match = _NAME.match(line)
    if match is None:
        return None
    attrs: dict[str, str] = {}
    i = match.end()
    while True:
        while i < len(line) and line[i].isspace():
            i += 1
        if i < len(line) and line[i] == "]":
            return Section(match.group(1), attrs, number)
        key = _KEY.match(line, i)
        if key is None:
            return None  # not a header after all (or one we cannot read): never guessed at
        end = _value_end(line, key.end())
        if end == key.end():
            return None
        attrs[key.group(1)] = line[key.end():end]
        i = end


def sections(text: str, props: Sequence[str] = ()) -> Iterator[Section]:
    """Every section of a text resource, in file order, with the body properties named in ``props``."""
    depth = _Depth()
    current: Section | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        if depth.top_level:
            stripped = line.strip()
            if stripped.startswith("["):
                section = header(stripped, number)
                if section is not None:
                    if current is not None:
                        yield current
                    current = section
                    continue
            elif current is not None and props:
                key = _KEY.match(line)
                if key is not None and key.group(1) in props:
                    end = _value_end(line, key.end())
                    current.props[key.group(1)] = line[key.end():end]
        depth.feed(line)
    if current is not None:
        yield current


def file_uid(text: str) -> str | None:
    """The ``uid://`` a text resource's first header names (``[gd_scene ... uid="uid://..."]``)."""
    first = text.lstrip().split("\n", 1)[0]
    section = header(first.strip())
    if section is None or section.kind not in ("gd_scene", "gd_resource"):
        return None
    uid = section.text("uid")
    return uid if uid and uid.startswith("uid://") else None
