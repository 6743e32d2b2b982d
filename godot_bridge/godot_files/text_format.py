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

from godot_bridge.errors import GodotFileError

_KEY = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_/]*)\s*=\s*")
_NAME = re.compile(r"\[([A-Za-z_][A-Za-z0-9_]*)")
_CALL_ARG = re.compile(r'^\w+\(\s*"?([^")]*?)"?\s*\)$')
_STRINGS = re.compile(r'"((?:[^"\\]|\\.)*)"')
_SECTION = re.compile(r"^\[(?P<name>[^\]\s]+)(?P<attrs>[^\]]*)\]\s*$")
_OPEN, _CLOSE = "([{", ")]}"
# An attribute whose value is a plain string or a bare word: most of them, read in one match.
_SIMPLE_ATTR = re.compile(r'\s*([A-Za-z_][A-Za-z0-9_/]*)=("(?:[^"\\]|\\.)*"|[^\s"()\[\]{}]+)(?=[\s\]])')
_NESTING = re.compile(r'["(\[{]')
_SPECIALS: dict[str, re.Pattern[str]] = {}


class GodotFormatError(GodotFileError, ValueError):
    """The text is not what it should be; the message says why."""


def unquote(value: str) -> str:
    """A Godot string literal's text (``"a \\"b\\""`` -> ``a "b"``); anything else as it is."""
    value = value.strip()
    if value[:1] in ("&", "^"):  # StringName / NodePath literals
        value = value[1:]
    if len(value) >= 2 and value[0] == value[-1] == '"':
        if "\\" not in value:
            return value[1:-1]
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


def value_end(text: str, start: int, stops: str) -> int | None:
    """Where the variant value starting at ``start`` ends: the first character of ``stops`` outside
    strings and brackets (a ``]`` that closes nothing is a stop too), else the end of ``text``; None
    when ``text`` ends inside a string or an open bracket. Hops from one character that matters to
    the next, so a long string or byte array costs one regex search."""
    special = _SPECIALS.get(stops)
    if special is None:
        special = _SPECIALS[stops] = re.compile("[" + re.escape('\\"' + _OPEN + _CLOSE + stops) + "]")
    depth, in_string, i = 0, False, start
    while True:
        found = special.search(text, i)
        if found is None:
            return None if in_string or depth else len(text)
        i, char = found.start(), found.group()
        if in_string:
            if char == "\\":
                i += 1
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in _OPEN:
            depth += 1
        elif depth and char in _CLOSE:
            depth -= 1
        elif not depth and char in stops:
            return i
        i += 1


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
        simple = _SIMPLE_ATTR.match(line, i)
        if simple is not None:
            attrs[simple.group(1)] = simple.group(2)
            i = simple.end()
            continue
        key = _KEY.match(line, i)
        end = value_end(line, key.end(), " \t]") if key is not None else None
        if key is None or end is None or end == key.end():
            return None  # not a header after all (or one we cannot read): never guessed at
        attrs[key.group(1)] = line[key.end():end]
        i = end


def sections(text: str, props: Sequence[str] = ()) -> Iterator[Section]:
    """Every section of a text resource, in file order, with the body properties named in ``props``.

    A property's value may span lines (a string, an array, a dictionary): the next line that starts
    a header or a property is the one after its end, so nothing inside it is read as either."""
    current: Section | None = None
    pos, number = 0, 1
    while pos < len(text):
        newline = text.find("\n", pos)
        line_end = len(text) if newline < 0 else newline
        line = text[pos:line_end]
        stripped = line.strip()
        section = header(stripped, number) if stripped.startswith("[") else None
        if section is not None:
            if current is not None:
                yield current
            current = section
        elif (key := _KEY.match(text, pos)) is not None and key.end() <= line_end:
            # A value with no string or bracket ends with its line; only the others are scanned.
            nested = _NESTING.search(text, key.end(), line_end)
            end = value_end(text, key.end(), "\n") if nested is not None else line_end
            if end is None:
                break  # the file ends inside this value: nothing after it is a section
            if current is not None and key.group(1) in props:
                current.props[key.group(1)] = text[key.end():end].strip()
            number += text.count("\n", pos, end)
            line_end = end
        pos, number = line_end + 1, number + 1
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
