"""Turn raw LSP answers into small, model-friendly dicts (pure functions).

Conventions for every payload: ``res://`` paths, 1-based ``line``/``column``,
kinds and severities as lowercase words instead of LSP's numbers, optional keys
left out rather than sent empty, and long lists capped with a ``total`` so the
model knows something was left out.
"""

from __future__ import annotations

import re
from typing import Any

from godot_bridge.lsp.uris import file_name, from_lsp_position, is_file_uri, map_file_uris, uri_to_res

SEVERITIES = {1: "error", 2: "warning", 3: "info", 4: "hint"}

_SYMBOL_KINDS = (
    "file module namespace package class method property field constructor enum interface function "
    "variable constant string number boolean array object key null enum_member struct event operator "
    "type_parameter"
).split()
_COMPLETION_KINDS = (
    "text method function constructor field variable class interface module property unit value enum "
    "keyword snippet color file reference folder enum_member constant struct event operator type_parameter"
).split()
# Children of these are parameters and locals, already visible in the signature (detail).
_CALLABLE_KINDS = {6, 9, 12}
_IDENTIFIER_TAIL = re.compile(r"[A-Za-z0-9_]*$")


def _kind(table: list[str], value: Any) -> str:
    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= len(table):
        return table[value - 1]
    return "unknown"


def _start(range_: Any) -> tuple[int, int]:
    return from_lsp_position(range_.get("start") if isinstance(range_, dict) else None)


def _end(range_: Any) -> tuple[int, int]:
    return from_lsp_position(range_.get("end") if isinstance(range_, dict) else None)


# ---------------------------------------------------------------- diagnostics


def diagnostic(raw: Any) -> dict[str, Any] | None:
    if not isinstance(raw, dict):
        return None
    line, column = _start(raw.get("range"))
    out: dict[str, Any] = {
        "line": line,
        "column": column,
        # LSP says a missing severity is the client's choice; treat it as an error to be safe.
        "severity": SEVERITIES.get(raw.get("severity"), "error"),  # type: ignore[arg-type]
        "message": str(raw.get("message") or "").strip(),
    }
    code = raw.get("code")
    if isinstance(code, str) and code:
        out["code"] = code  # Godot's numeric warning ids mean nothing to the model; names do
    return out


def diagnostics(raw: Any, *, include_warnings: bool = True) -> list[dict[str, Any]]:
    """Shaped, sorted by position; ``include_warnings=False`` keeps errors only."""
    shaped = [d for d in (diagnostic(r) for r in (raw if isinstance(raw, list) else [])) if d is not None]
    if not include_warnings:
        shaped = [d for d in shaped if d["severity"] == "error"]
    return sorted(shaped, key=lambda d: (d["line"], d["column"]))


def count_by_severity(items: list[dict[str, Any]]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for item in items:
        counts[item["severity"]] = counts.get(item["severity"], 0) + 1
    return counts


# ---------------------------------------------------------------- symbols


def symbols(raw: Any) -> list[dict[str, Any]]:
    """DocumentSymbol trees or SymbolInformation lists, flattened with a ``container`` name."""
    out: list[dict[str, Any]] = []
    _flatten(raw if isinstance(raw, list) else [], None, out)
    return out


def _flatten(items: list[Any], container: str | None, out: list[dict[str, Any]]) -> None:
    for item in items:
        if not isinstance(item, dict) or not isinstance(item.get("name"), str):
            continue
        kind = item.get("kind")
        location = item.get("location")
        range_ = item.get("range") if "range" in item else (location or {}).get("range")
        selection = item.get("selectionRange") or range_
        line, column = _start(selection)
        entry: dict[str, Any] = {"name": item["name"], "kind": _kind(_SYMBOL_KINDS, kind), "line": line}
        end_line = _end(range_)[0]
        if end_line > line:
            entry["end_line"] = end_line
        detail = item.get("detail")
        if isinstance(detail, str) and detail.strip() and detail.strip() != item["name"]:
            entry["detail"] = detail.strip()
        parent = container or item.get("containerName") or None
        if isinstance(parent, str) and parent:
            entry["container"] = parent
        out.append(entry)
        children = item.get("children")
        if isinstance(children, list) and kind not in _CALLABLE_KINDS:
            _flatten(children, item["name"], out)


# ---------------------------------------------------------------- hover


def hover_text(raw: Any) -> str | None:
    """The text of a Hover (MarkupContent, MarkedString or a list of them), or None if empty."""
    if not isinstance(raw, dict):
        return None
    parts = _hover_parts(raw.get("contents"))
    text = "\n\n".join(p.strip() for p in parts if p.strip())
    return text or None


def _hover_parts(contents: Any) -> list[str]:
    if isinstance(contents, str):
        return [contents]
    if isinstance(contents, dict) and isinstance(contents.get("value"), str):
        return [contents["value"]]
    if isinstance(contents, list):
        return [p for c in contents for p in _hover_parts(c)]
    return []


# ---------------------------------------------------------------- completion


def identifier_prefix(line_text: str, column: int) -> str:
    """The identifier characters just left of 1-based ``column`` (what the user has typed)."""
    before = line_text[: max(column - 1, 0)]
    match = _IDENTIFIER_TAIL.search(before)
    return match.group(0) if match else ""


def _is_subsequence(needle: str, haystack: str) -> bool:
    it = iter(haystack)
    return all(ch in it for ch in needle)


def completion_items(raw: Any, prefix: str) -> tuple[list[dict[str, Any]], bool]:
    """Shaped items ranked against ``prefix`` like an editor would, plus the isIncomplete flag.

    Godot returns every candidate in scope and leaves filtering to the client, so
    without this a ``limit`` of 10 would mostly be unrelated names. Rank: exact
    prefix, then case-insensitive prefix, then subsequence; others dropped. Within
    a rank the server's order (sortText, then arrival) is kept.
    """
    incomplete = False
    items: Any = raw
    if isinstance(raw, dict):
        incomplete = bool(raw.get("isIncomplete"))
        items = raw.get("items")
    if not isinstance(items, list):
        return [], incomplete
    candidates = [i for i in items if isinstance(i, dict) and isinstance(i.get("label"), str)]
    candidates.sort(key=lambda i: str(i.get("sortText") or ""))  # stable: ties keep arrival order
    ranked: list[tuple[int, dict[str, Any]]] = []
    lowered = prefix.lower()
    for item in candidates:
        name = str(item.get("filterText") or item["label"])
        if not prefix or name.startswith(prefix):
            rank = 0
        elif name.lower().startswith(lowered):
            rank = 1
        elif _is_subsequence(lowered, name.lower()):
            rank = 2
        else:
            continue
        ranked.append((rank, item))
    ranked.sort(key=lambda pair: pair[0])
    return [_completion_item(item) for _, item in ranked], incomplete


def _completion_item(item: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"label": item["label"], "kind": _kind(_COMPLETION_KINDS, item.get("kind"))}
    detail = item.get("detail")
    if isinstance(detail, str) and detail.strip() and detail.strip() != item["label"]:
        out["detail"] = detail.strip()
    edit = item.get("textEdit")
    insert = edit.get("newText") if isinstance(edit, dict) else item.get("insertText")
    if isinstance(insert, str) and insert and insert != item["label"]:
        out["insert"] = insert
    return out


# ---------------------------------------------------------------- locations


def location(project_path: str, uri: Any, range_: Any) -> dict[str, Any] | None:
    if not isinstance(uri, str) or not uri:
        return None
    line, column = _start(range_)
    out: dict[str, Any] = {"line": line, "column": column}
    res = uri_to_res(project_path, uri)
    if res is not None:
        out["file"] = res
    elif is_file_uri(uri):
        # Outside the project (an addon symlinked in, an engine stub): the file's name, never
        # the machine path (no tool takes one, and it tells the model about the user's disk).
        out["outside_project"] = file_name(uri)
    else:
        out["uri"] = uri  # another scheme (gdscript://native/...): no machine path in it
    return out


def where(loc: dict[str, Any]) -> str:
    """The file a shaped location points at, whichever key says it."""
    return str(loc.get("file") or loc.get("outside_project") or loc.get("uri"))


def locations(project_path: str, raw: Any) -> list[dict[str, Any]]:
    """Location | Location[] | LocationLink[] | null -> sorted, de-duplicated location dicts."""
    items = raw if isinstance(raw, list) else [raw] if isinstance(raw, dict) else []
    seen: set[tuple[Any, ...]] = set()
    out: list[dict[str, Any]] = []
    for item in items:
        if not isinstance(item, dict):
            continue
        if "targetUri" in item:
            target = item.get("targetSelectionRange") or item.get("targetRange")
            shaped = location(project_path, item.get("targetUri"), target)
        else:
            shaped = location(project_path, item.get("uri"), item.get("range"))
        if shaped is None:
            continue
        key = (where(shaped), shaped["line"], shaped["column"])
        if key not in seen:
            seen.add(key)
            out.append(shaped)
    out.sort(key=lambda loc: (where(loc), loc["line"], loc["column"]))
    return out


# ---------------------------------------------------------------- file URIs in text


def without_file_uris(project_path: str, value: Any) -> Any:
    """``value`` (a tool's payload) with every ``file:`` URI in its strings shown as ``res://`` /
    a file name (``uris.map_file_uris``): hover links, diagnostic messages, symbol details."""
    if isinstance(value, str):
        return map_file_uris(project_path, value)
    if isinstance(value, dict):
        return {key: without_file_uris(project_path, item) for key, item in value.items()}
    if isinstance(value, list):
        return [without_file_uris(project_path, item) for item in value]
    return value
