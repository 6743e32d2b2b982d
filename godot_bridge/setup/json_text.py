"""Change one member of a JSON (or JSON-with-comments) document by editing its text, no other byte.

MCP client files are the user's: other servers, comments (VS Code's ``.vscode/mcp.json`` and
Gemini CLI's ``settings.json`` allow ``//`` and ``/* */`` comments and trailing commas), their own
indentation. Parsing to data and writing the data back would lose all of that, and no library on
PyPI both parses JSON with comments and edits it in place without a JavaScript runtime, so this
module does the smallest surgical edit instead:

* ``blank`` replaces comments (and, where allowed, trailing commas) with spaces of the same
  length, so the standard library's parser reads the document and every offset stays the
  offset in the original text;
* ``members`` walks one object of that blanked text with ``json.JSONDecoder.raw_decode`` and
  gives each member's key and value spans;
* ``set_member`` replaces a member's value text, or inserts a new member after the last one
  (a comma after the old last value, the new member on its own line before the closing brace,
  indented like its siblings; the file's trailing-comma style kept);
* ``remove_member`` takes a member out again. When the member is exactly what ``set_member``
  inserted, removing it gives back the text from before the insertion byte for byte (it tries
  the inverse edits and keeps the one whose re-insertion reproduces the current text).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from godot_bridge.errors import SetupError

_WS = " \t\r\n"
_DECODER = json.JSONDecoder()


class JsonTextError(SetupError, ValueError):
    """The text is not a JSON document this module can edit; the message says where."""


@dataclass(frozen=True)
class Member:
    key: str
    key_start: int  # the opening quote of the key
    value_start: int
    value_end: int  # just after the value


@dataclass(frozen=True)
class ObjectSpan:
    start: int  # the "{"
    end: int  # just after the "}"
    members: tuple[Member, ...]


def _line_col(text: str, pos: int) -> tuple[int, int]:
    line = text.count("\n", 0, pos) + 1
    return line, pos - (text.rfind("\n", 0, pos) + 1) + 1


def blank(text: str, *, comments: bool, trailing_commas: bool = True) -> str:
    """``text`` with comments (and trailing commas, unless not ``trailing_commas``) as spaces, newlines
    kept; unchanged when not ``comments``. Raises JsonTextError for an unterminated string or comment."""
    if not comments:
        return text
    out = list(text)
    i, n = 0, len(text)
    last_comma = -1  # a comma not yet followed by anything but blanks
    while i < n:
        c = text[i]
        if c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            if j >= n:
                line, col = _line_col(text, i)
                raise JsonTextError(f"unterminated string at line {line} column {col}")
            i, last_comma = j + 1, -1
        elif text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            for k in range(i, end):
                out[k] = " " if text[k] != "\r" else "\r"
            i = end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            if end < 0:
                line, col = _line_col(text, i)
                raise JsonTextError(f"unterminated /* comment at line {line} column {col}")
            for k in range(i, end + 2):
                if text[k] not in "\r\n":
                    out[k] = " "
            i = end + 2
        elif c == ",":
            last_comma = i
            i += 1
        elif c in "}]":
            if last_comma >= 0 and trailing_commas:
                out[last_comma] = " "  # a trailing comma: JSONC allows it, json does not
            last_comma = -1
            i += 1
        else:
            if c not in _WS:
                last_comma = -1
            i += 1
    return "".join(out)


def _skip_ws(text: str, pos: int) -> int:
    while pos < len(text) and text[pos] in _WS:
        pos += 1
    return pos


def _decode_error(exc: json.JSONDecodeError) -> JsonTextError:
    return JsonTextError(f"{exc.msg} at line {exc.lineno} column {exc.colno}")


def loads(text: str, *, comments: bool) -> Any:
    """The document's data; JsonTextError saying where it is wrong. A BOM is allowed."""
    body = blank(text, comments=comments)
    try:
        return json.loads(body.removeprefix("\ufeff"))
    except json.JSONDecodeError as exc:
        raise _decode_error(exc) from None


def object_at(blanked: str, start: int) -> ObjectSpan:
    """The object whose "{" is at ``start`` in blanked text (the text must already parse)."""
    if blanked[start] != "{":
        raise JsonTextError(f"expected an object at offset {start}")
    found: list[Member] = []
    pos = _skip_ws(blanked, start + 1)
    try:
        while blanked[pos] != "}":
            key, key_end = _DECODER.raw_decode(blanked, pos)
            colon = _skip_ws(blanked, key_end)
            value_start = _skip_ws(blanked, colon + 1)
            _, value_end = _DECODER.raw_decode(blanked, value_start)
            found.append(Member(str(key), pos, value_start, value_end))
            pos = _skip_ws(blanked, value_end)
            if blanked[pos] == ",":
                pos = _skip_ws(blanked, pos + 1)
    except json.JSONDecodeError as exc:
        raise _decode_error(exc) from None
    return ObjectSpan(start, pos + 1, tuple(found))


def root(blanked: str) -> ObjectSpan:
    start = _skip_ws(blanked, 1 if blanked.startswith("\ufeff") else 0)
    if start >= len(blanked) or blanked[start] != "{":
        raise JsonTextError("the top level is not a JSON object")
    return object_at(blanked, start)


def find(obj: ObjectSpan, key: str) -> Member | None:
    """The member named ``key``; the last one when a key repeats (JSON parsers keep the last)."""
    return next((m for m in reversed(obj.members) if m.key == key), None)


# -- layout ------------------------------------------------------------------------------------


def _line_start(text: str, pos: int) -> int:
    return text.rfind("\n", 0, pos) + 1


def _indent_at(text: str, pos: int) -> str:
    """The blanks before ``pos`` on its line, or None-like "" when something else precedes it."""
    start = _line_start(text, pos)
    prefix = text[start:pos]
    return prefix if prefix.strip(" \t") == "" else ""


def _only_blanks_before(text: str, pos: int) -> bool:
    return text[_line_start(text, pos):pos].strip(" \t") == ""


def indent_unit(text: str, blanked: str) -> str:
    """The document's indentation step (from its top-level members), two spaces when it shows none."""
    top = root(blanked)
    for member in top.members:
        if _only_blanks_before(text, member.key_start):
            unit = _indent_at(text, member.key_start)
            if unit:
                return unit
    return "  "


def render(value: Any, indent: str, unit: str, nl: str = "\n") -> str:
    """``value`` as JSON whose lines after the first start with ``indent`` (the member's own)."""
    lines = json.dumps(value, indent=unit, ensure_ascii=False).split("\n")
    return nl.join([lines[0], *(indent + line for line in lines[1:])])


def _newline(text: str) -> str:
    return "\r\n" if "\r\n" in text else "\n"


def _multiline(text: str, obj: ObjectSpan) -> bool:
    return "\n" in text[obj.start:obj.end]


def _comma_after(blanked_comments: str, pos: int) -> int | None:
    """Where the comma after a value at ``pos`` is (comments already blanked), None when there is none."""
    at = _skip_ws(blanked_comments, pos)
    return at if at < len(blanked_comments) and blanked_comments[at] == "," else None


# -- edits ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Doc:
    """A document's text, read for editing: ``comments`` says whether JSONC is allowed."""

    text: str
    comments: bool

    @property
    def blanked(self) -> str:
        return blank(self.text, comments=self.comments)

    @property
    def without_comments(self) -> str:
        """Comments blanked, trailing commas kept (to see the file's comma style)."""
        return blank(self.text, comments=self.comments, trailing_commas=False)

    def data(self) -> Any:
        return loads(self.text, comments=self.comments)

    def object(self, path: tuple[str, ...]) -> ObjectSpan | None:
        """The object at ``path`` from the root (None when a step is missing or not an object)."""
        blanked = self.blanked
        obj = root(blanked)
        for key in path:
            member = find(obj, key)
            if member is None or blanked[member.value_start] != "{":
                return None
            obj = object_at(blanked, member.value_start)
        return obj


def _member_indent(text: str, obj: ObjectSpan, unit: str) -> str:
    """How a new member of ``obj`` is indented: like its siblings, else one step past the object's line."""
    for member in reversed(obj.members):
        if _only_blanks_before(text, member.key_start):
            return _indent_at(text, member.key_start)
    return _leading_blanks(text, obj.start) + unit


def _leading_blanks(text: str, pos: int) -> str:
    start = _line_start(text, pos)
    end = start
    while end < len(text) and text[end] in " \t":
        end += 1
    return text[start:end]


def insert_member(doc: Doc, obj: ObjectSpan, key: str, value: Any) -> str:
    """``doc``'s text with ``"key": value`` added as the last member of ``obj``."""
    text = doc.text
    unit = indent_unit(text, doc.blanked)
    nl = _newline(text)
    close = obj.end - 1
    if not _multiline(text, obj):
        compact = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
        if obj.members:
            at = obj.members[-1].value_end
            return text[:at] + f", {json.dumps(key)}: {compact}" + text[at:]
        indent = _leading_blanks(text, obj.start)
        inner = indent + unit
        body = f"{nl}{inner}{json.dumps(key)}: {render(value, inner, unit, nl)}{nl}{indent}"
        return text[:obj.start + 1] + body + text[close:]
    indent = _member_indent(text, obj, unit)
    trailing = False
    edits: list[tuple[int, int, str]] = []
    if obj.members:
        last = obj.members[-1]
        comma = _comma_after(doc.without_comments, last.value_end)
        trailing = comma is not None
        if not trailing:
            edits.append((last.value_end, last.value_end, ","))
    member_text = f"{json.dumps(key)}: {render(value, indent, unit, nl)}" + ("," if trailing else "")
    if _only_blanks_before(text, close):
        at = _line_start(text, close)
        edits.append((at, at, f"{indent}{member_text}{nl}"))
    else:
        edits.append((close, close, f"{nl}{indent}{member_text}{nl}{_leading_blanks(text, obj.start)}"))
    return _apply(text, edits)


def _apply(text: str, edits: list[tuple[int, int, str]]) -> str:
    for start, end, new in sorted(edits, key=lambda e: e[0], reverse=True):
        text = text[:start] + new + text[end:]
    return text


def set_member(doc: Doc, path: tuple[str, ...], key: str, value: Any) -> str:
    """The text with ``path``/``key`` set to ``value``: its value's text replaced, or the member inserted.

    Every step of ``path`` must exist as an object (callers create missing ones with one insert)."""
    obj = doc.object(path)
    if obj is None:
        raise JsonTextError(f"{'.'.join(path) or 'the top level'} is not an object")
    member = find(obj, key)
    if member is None:
        return insert_member(doc, obj, key, value)
    text = doc.text
    unit = indent_unit(text, doc.blanked)
    indent = _leading_blanks(text, member.key_start)
    return text[:member.value_start] + render(value, indent, unit, _newline(text)) + text[member.value_end:]


def _line_removal(doc: Doc, obj: ObjectSpan, index: int) -> list[tuple[int, int, str]]:
    """Remove member ``index`` with the lines it stands on (multi-line objects)."""
    text, plain = doc.text, doc.without_comments
    member = obj.members[index]
    comma = _comma_after(plain, member.value_end)
    end = comma + 1 if comma is not None else member.value_end
    # Blanks and a comment after it on the same line belong to it.
    line_end = text.find("\n", end)
    line_end = len(text) if line_end < 0 else line_end + 1
    start = member.key_start
    rest_blank = plain[end:line_end].strip() == ""
    if _only_blanks_before(text, start) and rest_blank:
        start, end = _line_start(text, start), line_end
    edits = [(start, end, "")]
    if index == len(obj.members) - 1 and comma is None and index > 0:
        prev_comma = _comma_after(plain, obj.members[index - 1].value_end)
        if prev_comma is not None:
            edits.append((prev_comma, prev_comma + 1, ""))
    return edits


def _span_removals(doc: Doc, obj: ObjectSpan, index: int) -> list[list[tuple[int, int, str]]]:
    """Other ways to take member ``index`` out: from the value before it, or up to the key after it."""
    member = obj.members[index]
    options = []
    if index > 0:
        options.append([(obj.members[index - 1].value_end, member.value_end, "")])
    if index + 1 < len(obj.members):
        options.append([(member.key_start, obj.members[index + 1].key_start, "")])
    if len(obj.members) == 1:
        options.append([(obj.start + 1, obj.end - 1, "")])
    return options


def remove_member(doc: Doc, path: tuple[str, ...], key: str,
                  reinsert: Callable[[str], str] | None = None) -> str | None:
    """The text without ``path``/``key``; None when there is no such member.

    ``reinsert(text)`` says how the member would have been inserted into ``text``; the removal
    whose result it turns back into the current text is preferred, so undoing our own insert
    restores the file exactly."""
    obj = doc.object(path)
    if obj is None:
        return None
    member = find(obj, key)
    if member is None:
        return None
    index = obj.members.index(member)
    lines, spans = _line_removal(doc, obj, index), _span_removals(doc, obj, index)
    # On one line, cut spans, not lines; an object holding only this member most likely was "{}".
    single = not _multiline(doc.text, obj) or len(obj.members) == 1
    candidates = [*spans, lines] if single else [lines, *spans]
    results = [_apply(doc.text, edits) for edits in candidates]
    if reinsert is not None:
        for result in results:
            try:
                if reinsert(result) == doc.text:
                    return result
            except JsonTextError:
                continue
    for result in results:
        try:
            loads(result, comments=doc.comments)
        except JsonTextError:
            continue
        return result
    raise JsonTextError(f"cannot take {key!r} out of this layout without breaking the file; remove it by hand")
