"""Shaping raw LSP answers into compact payloads: the variants real servers send."""

from __future__ import annotations

from godot_bridge.lsp import shape

PROJECT = "/p"


def rng(line: int, ch: int, end_line: int | None = None, end_ch: int = 0) -> dict:
    return {"start": {"line": line, "character": ch}, "end": {"line": line if end_line is None else end_line, "character": end_ch}}


def test_diagnostic_fields() -> None:
    raw = [
        {"range": rng(4, 2), "severity": 2, "message": " unused \n", "code": "UNUSED_VARIABLE"},
        {"range": rng(1, 0), "message": "no severity given"},
        {"range": rng(0, 0), "severity": 3, "message": "fyi", "code": 12},
        "junk",
    ]
    assert shape.diagnostics(raw) == [
        {"line": 1, "column": 1, "severity": "info", "message": "fyi"},
        {"line": 2, "column": 1, "severity": "error", "message": "no severity given"},
        {"line": 5, "column": 3, "severity": "warning", "message": "unused", "code": "UNUSED_VARIABLE"},
    ]
    assert [d["line"] for d in shape.diagnostics(raw, include_warnings=False)] == [2]
    assert shape.diagnostics(None) == []


def test_flat_symbol_information() -> None:
    raw = [
        {"name": "Player", "kind": 5, "location": {"uri": "file:///p/a.gd", "range": rng(0, 0, 20)}},
        {"name": "jump", "kind": 6, "containerName": "Player", "location": {"uri": "file:///p/a.gd", "range": rng(3, 0)}},
        {"name": "odd", "kind": 99, "location": {"uri": "file:///p/a.gd", "range": rng(5, 0)}},
    ]
    assert shape.symbols(raw) == [
        {"name": "Player", "kind": "class", "line": 1, "end_line": 21},
        {"name": "jump", "kind": "method", "line": 4, "container": "Player"},
        {"name": "odd", "kind": "unknown", "line": 6},
    ]


def test_nested_classes_keep_their_members() -> None:
    inner = {"name": "Inner", "kind": 5, "range": rng(2, 0, 6), "children": [{"name": "f", "kind": 12, "range": rng(3, 1)}]}
    raw = [{"name": "Outer", "kind": 5, "range": rng(0, 0, 9), "children": [inner]}]
    assert [(s["name"], s.get("container")) for s in shape.symbols(raw)] == [("Outer", None), ("Inner", "Outer"), ("f", "Inner")]


def test_hover_variants() -> None:
    assert shape.hover_text({"contents": {"kind": "markdown", "value": "  doc  "}}) == "doc"
    assert shape.hover_text({"contents": "plain"}) == "plain"
    assert shape.hover_text({"contents": [{"language": "gdscript", "value": "var x"}, "more"]}) == "var x\n\nmore"
    assert shape.hover_text({"contents": []}) is None
    assert shape.hover_text({"contents": {"kind": "plaintext", "value": "   "}}) is None
    assert shape.hover_text(None) is None


def test_identifier_prefix() -> None:
    assert shape.identifier_prefix("\tself.pos", 10) == "pos"
    assert shape.identifier_prefix("\tself.pos", 7) == ""
    assert shape.identifier_prefix("x", 1) == ""
    assert shape.identifier_prefix("abc", 99) == "abc"


def test_completion_list_object_and_insert_text() -> None:
    raw = {
        "isIncomplete": True,
        "items": [
            {"label": "b_func", "kind": 3, "sortText": "2", "insertText": "b_func()"},
            {"label": "a_var", "kind": 6, "sortText": "1", "textEdit": {"newText": "a_var", "range": rng(0, 0)}},
            {"kind": 3},
        ],
    }
    items, incomplete = shape.completion_items(raw, "")
    assert incomplete is True
    assert items == [{"label": "a_var", "kind": "variable"}, {"label": "b_func", "kind": "function", "insert": "b_func()"}]
    assert shape.completion_items(None, "x") == ([], False)


def test_locations_dedupe_and_sort() -> None:
    loc = {"uri": "file:///p/b.gd", "range": rng(2, 1)}
    raw = [loc, dict(loc), {"uri": "file:///p/a.gd", "range": rng(9, 0)}, {"uri": "", "range": rng(0, 0)}, None]
    assert shape.locations(PROJECT, raw) == [
        {"file": "res://a.gd", "line": 10, "column": 1},
        {"file": "res://b.gd", "line": 3, "column": 2},
    ]
    assert shape.locations(PROJECT, loc) == [{"file": "res://b.gd", "line": 3, "column": 2}]
    assert shape.locations(PROJECT, None) == []
    assert shape.locations(PROJECT, [{"uri": "gdscript://native/Node", "range": rng(0, 0)}]) == [
        {"uri": "gdscript://native/Node", "line": 1, "column": 1}
    ]
