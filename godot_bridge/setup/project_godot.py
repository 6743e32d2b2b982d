"""Enable an editor plugin in a ``project.godot`` by inserting text, changing no other byte.

Godot keeps the enabled plugins in ``[editor_plugins] enabled=PackedStringArray("res://...")``.
``enable_plugin`` adds one path to that list, or adds the key or the section when missing, and
leaves everything else exactly as it was: comments, odd spacing, line endings, a value spread
over several lines, other plugins. It works on the text through a small scanner that knows
where each ``key=value`` entry starts and ends (strings and brackets may span lines), so a line
inside a multi-line string that happens to look like ``[section]`` is not mistaken for one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from godot_bridge.errors import SetupError
from godot_bridge.godot_files.text_format import value_end

PLUGINS_SECTION = "editor_plugins"
ENABLED_KEY = "enabled"
# Godot 4 writes project.godot with config_version=5; 4 and below are Godot 3 projects.
MIN_CONFIG_VERSION = 5

_LIST = re.compile(r"PackedStringArray\s*\(", re.ASCII)


class ProjectFileError(SetupError, ValueError):
    """The project.godot cannot be changed safely; the message says why and what to do."""


@dataclass(frozen=True)
class Entry:
    section: str
    key: str
    value_start: int  # first character of the value
    value_end: int  # just after its last character (trailing blanks excluded)
    line_end: int  # just after the newline that ends the entry (len(text) at the end of the file)


@dataclass(frozen=True)
class Section:
    name: str
    header_end: int  # just after the header line's newline


def _line_end(text: str, pos: int) -> int:
    newline = text.find("\n", pos)
    return len(text) if newline < 0 else newline + 1


def _value_end(text: str, pos: int) -> int:
    """Where the value starting at ``pos`` ends: the newline at bracket depth 0, outside strings."""
    end = value_end(text, pos, "\n")
    if end is None:
        raise ProjectFileError("project.godot ends inside an unfinished value (an open quote or bracket)")
    return end


def scan(text: str) -> tuple[list[Section], list[Entry]]:
    """The sections and ``key=value`` entries of a project.godot, with their offsets in ``text``."""
    sections: list[Section] = []
    entries: list[Entry] = []
    section, pos = "", 0
    while pos < len(text):
        start = pos
        while start < len(text) and text[start] in " \t\r\ufeff":
            start += 1
        end = _line_end(text, start)
        line = text[start:end].rstrip("\r\n")
        if not line.strip() or line[0] in ";#":
            pos = end
            continue
        if line[0] == "[":
            section = line.strip()[1:].split("]", 1)[0].strip()
            sections.append(Section(section, end))
            pos = end
            continue
        key, eq, _ = line.partition("=")
        if not eq:
            raise ProjectFileError(f"project.godot has a line that is neither a section, a comment nor key=value: "
                                   f"{line.strip()[:60]!r}")
        value_start = start + len(key) + 1
        while value_start < len(text) and text[value_start] in " \t":
            value_start += 1
        stop = _value_end(text, value_start)
        value_end = stop
        while value_end > value_start and text[value_end - 1] in " \t\r":
            value_end -= 1
        pos = _line_end(text, stop)
        entries.append(Entry(section, key.strip().strip('"'), value_start, value_end, pos))
    return sections, entries


def _strings(inner: str) -> list[tuple[str, int]]:
    """The quoted strings of a PackedStringArray's contents, each with the offset just after it."""
    found: list[tuple[str, int]] = []
    i, expect_item = 0, True
    while i < len(inner):
        char = inner[i]
        if char in " \t\r\n":
            i += 1
        elif char == "," and not expect_item:
            expect_item = True
            i += 1
        elif char == '"' and expect_item:
            j, chars = i + 1, []
            while inner[j] != '"':
                if inner[j] == "\\":
                    j += 1
                chars.append(inner[j])
                j += 1
            found.append(("".join(chars), j + 1))
            i, expect_item = j + 1, False
        else:
            raise ProjectFileError(f"[{PLUGINS_SECTION}] {ENABLED_KEY} is not a list of quoted paths "
                                   f"(unexpected {char!r}); fix it in Godot's Project Settings > Plugins")
    return found


def _add_to_list(text: str, entry: Entry, plugin: str) -> str | None:
    value = text[entry.value_start:entry.value_end]
    opened = _LIST.match(value)
    if opened is None or not value.endswith(")"):
        raise ProjectFileError(f"[{PLUGINS_SECTION}] {ENABLED_KEY} is {value[:60]!r}, not a PackedStringArray(...) "
                               "of plugin paths; is this a Godot 4 project?")
    inner_start = entry.value_start + opened.end()
    items = _strings(text[inner_start:entry.value_end - 1])
    if plugin in (path for path, _ in items):
        return None
    if items:
        at = inner_start + items[-1][1]
        return text[:at] + f', "{plugin}"' + text[at:]
    at = entry.value_end - 1
    return text[:at] + f'"{plugin}"' + text[at:]


def _config_version(entries: list[Entry], text: str) -> int | None:
    for entry in entries:
        if entry.section == "" and entry.key == "config_version":
            raw = text[entry.value_start:entry.value_end].strip()
            return int(raw) if raw.isdigit() else None
    return None


def enable_plugin(text: str, plugin: str) -> str | None:
    """``text`` with ``plugin`` (a res:// path to its plugin.cfg) enabled; None when it already is.

    Raises ProjectFileError when the file is not one we can change without guessing."""
    newline = "\r\n" if "\r\n" in text else "\n"
    sections, entries = scan(text)
    version = _config_version(entries, text)
    if version is not None and version < MIN_CONFIG_VERSION:
        raise ProjectFileError(f"project.godot has config_version={version}: a Godot 3 project. "
                               "The toolkit needs Godot 4.2 or newer; open the project in Godot 4 to convert it first")
    enabled = [e for e in entries if e.section == PLUGINS_SECTION and e.key == ENABLED_KEY]
    if enabled:
        return _add_to_list(text, enabled[-1], plugin)  # Godot reads the last one when a key repeats
    line = f'{ENABLED_KEY}=PackedStringArray("{plugin}"){newline}'
    section = next((s for s in reversed(sections) if s.name == PLUGINS_SECTION), None)
    if section is not None:
        in_section = [e for e in entries if e.section == PLUGINS_SECTION]
        at = in_section[-1].line_end if in_section else section.header_end
        if not in_section and text[at:at + len(newline)] == newline:
            at += len(newline)  # Godot's own layout: a blank line after the header
        lead = newline if at > 0 and not text[:at].endswith("\n") else ""
        # Keep a blank line between our key and a section header that follows right away.
        tail = newline if not in_section and text[at:at + 1] == "[" else ""
        return text[:at] + lead + line + tail + text[at:]
    lead = "" if not text or text.endswith("\n") else newline
    gap = "" if not text or (text + lead).endswith(newline * 2) else newline
    return text + lead + gap + f"[{PLUGINS_SECTION}]{newline}{newline}" + line


def enabled_plugins(text: str) -> list[str]:
    """The plugin paths ``[editor_plugins] enabled`` lists (empty when none)."""
    _, entries = scan(text)
    enabled = [e for e in entries if e.section == PLUGINS_SECTION and e.key == ENABLED_KEY]
    if not enabled:
        return []
    entry = enabled[-1]
    opened = _LIST.match(text[entry.value_start:entry.value_end])
    if opened is None:
        return []
    return [path for path, _ in _strings(text[entry.value_start + opened.end():entry.value_end - 1])]


def _removals(text: str, plugin: str) -> list[str]:
    """Ways to take ``plugin`` out of the enabled list, most likely first: the list item alone; when it
    is the only item, the key line, or that line with the blank lines and section header around it."""
    _, entries = scan(text)
    enabled = [e for e in entries if e.section == PLUGINS_SECTION and e.key == ENABLED_KEY]
    if not enabled:
        return []
    entry = enabled[-1]
    value = text[entry.value_start:entry.value_end]
    opened = _LIST.match(value)
    if opened is None or not value.endswith(")"):
        return []
    inner_start = entry.value_start + opened.end()
    inner = text[inner_start:entry.value_end - 1]
    items = _strings(inner)
    index = next((i for i, (path, _) in enumerate(items) if path == plugin), None)
    if index is None:
        return []
    ends = [inner_start + end for _, end in items]
    if len(items) > 1:
        if index > 0:
            return [text[:ends[index - 1]] + text[ends[index]:]]
        return [text[:inner_start] + text[inner_start + inner.index('"', ends[0] - inner_start):]]
    key_start = text.rfind("\n", 0, entry.value_start) + 1
    # Where a removal may start: the key's line, up to three lines above it (a header init added
    # with its blank lines), or right after the text before them; and end: the key's line end, or
    # one blank line after it.
    starts = [key_start]
    for _ in range(3):
        if starts[-1] == 0:
            break
        starts.append(text.rfind("\n", 0, starts[-1] - 1) + 1)
    starts.append(len(text[:starts[-1]].rstrip("\r\n")))
    stops = [entry.line_end]
    newline = "\r\n" if text.startswith("\r\n", entry.line_end) else "\n"
    if text.startswith(newline, entry.line_end):
        stops.append(entry.line_end + len(newline))
    out = [text[:a] + text[b:] for a in starts for b in stops]
    out.append(text[:inner_start] + text[entry.value_end - 1:])  # the list emptied, key kept
    return out


def disable_plugin(text: str, plugin: str) -> str | None:
    """``text`` without ``plugin`` in ``[editor_plugins] enabled``; None when it is not there.

    Of the ways to take it out, the one that ``enable_plugin`` turns back into ``text`` wins, so
    undoing ``godot-bridge init`` restores the file byte for byte (a key or section that init
    added goes again); otherwise the path alone leaves the list."""
    options = _removals(text, plugin)
    if not options:
        return None
    inverse = []
    for option in options:
        try:
            if enable_plugin(option, plugin) == text:
                inverse.append(option)
        except ProjectFileError:
            continue
    if not inverse:
        return options[0]
    # Several may enable back to this text (init adds a section with blank lines, or one newline to a
    # file without a final one): the least text wins, keeping a final newline the file has.
    ends = [o for o in inverse if o.endswith("\n") == text.endswith("\n")] or inverse
    return min(ends, key=len)
