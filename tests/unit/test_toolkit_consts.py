"""The figures both halves use are read from the toolkit's GDScript (godot_bridge/tools/toolkit_consts.py)."""

from __future__ import annotations

import importlib.util
import math
import re
import sys
from pathlib import Path

import pytest

from godot_bridge.consent.policy import UNDO_BUDGET_BYTES
from godot_bridge.editor import pushed_errors
from godot_bridge.editor.link import DEFAULT_EDITOR_PORT
from godot_bridge.godot_files import scenes
from godot_bridge.lsp.endpoint import DEFAULT_PORT as LSP_PORT
from godot_bridge.tools import toolkit_consts
from godot_bridge.tools.answer_budget import budget_bytes

REPO = Path(__file__).resolve().parents[2]
read = toolkit_consts.toolkit_int.__wrapped__  # uncached, for the scratch toolkits below


@pytest.fixture
def toolkit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A scratch toolkit folder in place of the shipped one."""
    monkeypatch.setattr(toolkit_consts, "toolkit_dir", lambda: tmp_path)
    return tmp_path


def test_a_figure_and_a_product_are_read(toolkit: Path) -> None:
    (toolkit / "a.gd").write_text("const OTHER := 7\nconst SIZE := 32 * 1024 * 1024\nconst BYTES := 12000\n")
    assert read("a.gd", "SIZE") == 32 * 1024 * 1024
    assert read("a.gd", "BYTES") == 12000


@pytest.mark.parametrize("text", ["const NAME_TOO := 3\n", "const NAME := 1.5\n", "var NAME := 3\n",
                                  "## const NAME := 3\n"])
def test_no_such_integer_const_is_a_packaging_error_naming_it(toolkit: Path, text: str) -> None:
    (toolkit / "a.gd").write_text(text)
    with pytest.raises(RuntimeError, match=r"a\.gd .*`const NAME := <integer>`"):
        read("a.gd", "NAME")


def test_a_missing_file_is_a_packaging_error(toolkit: Path) -> None:
    with pytest.raises(RuntimeError, match="missing"):
        read("nowhere.gd", "NAME")


@pytest.mark.parametrize(("value", "file", "name"), [
    (budget_bytes(), "contract/answer_budget.gd", "BYTES"),
    (UNDO_BUDGET_BYTES, "commands/filesystem/file_removal.gd", "UNDO_BYTES_LIMIT"),
    (scenes._CHILD_COUNT_BYTES, "commands/scene/node_query.gd", "CHILD_COUNT_BYTES"),
    (DEFAULT_EDITOR_PORT, "transport/mcp_server.gd", "PORT_MIN"),
    (LSP_PORT, "paths/lsp_publisher.gd", "DEFAULT_PORT"),
    (pushed_errors.STACK_LIMIT, "logs/error_store.gd", "MAX_STACK_FRAMES"),
])
def test_the_bridge_uses_the_toolkits_figure(value: int, file: str, name: str) -> None:
    """Each figure as the toolkit's source states it (read here independently of the reader)."""
    assert value == _stated(file, name)


def test_a_pushed_stack_is_cut_where_the_toolkits_error_store_cuts_it() -> None:
    """The bridge keeps as many frames of a pushed error as the toolkit's error store sends."""
    frames = [{"file": "res://a.gd", "line": n + 1, "function": "f"} for n in range(200)]
    entry = pushed_errors.parse_entry("game", {"id": 1, "severity": "error", "message": "m", "stack": frames})
    assert len(entry.stack) == _stated("logs/error_store.gd", "MAX_STACK_FRAMES")


def test_the_stack_cut_follows_the_toolkits_figure(toolkit: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Another figure in the toolkit's error store is the bridge's cut: nothing in Python restates it."""
    (toolkit / "logs").mkdir()
    (toolkit / "logs" / "error_store.gd").write_text("const MAX_STACK_FRAMES := 5\n")
    toolkit_consts.toolkit_int.cache_clear()
    try:  # a fresh copy of the module, so the one every other test imported keeps the shipped figure
        spec = importlib.util.spec_from_file_location("pushed_errors_copy", pushed_errors.__file__)
        assert spec is not None and spec.loader is not None
        copy = importlib.util.module_from_spec(spec)
        monkeypatch.setitem(sys.modules, spec.name, copy)  # dataclasses look their module up there
        spec.loader.exec_module(copy)
    finally:
        toolkit_consts.toolkit_int.cache_clear()
    frames = [{"file": "res://a.gd", "line": n + 1, "function": "f"} for n in range(9)]
    entry = copy.parse_entry("game", {"id": 1, "severity": "error", "message": "m", "stack": frames})
    assert [frame.line for frame in entry.stack] == [1, 2, 3, 4, 5]


def _stated(file: str, name: str) -> int:
    source = (REPO / "addons" / "godot_mcp_toolkit" / file).read_text(encoding="utf-8")
    stated = re.search(rf"^const {name} := ([\d *]+)$", source, re.M)
    assert stated is not None, f"{file} no longer defines {name}"
    return math.prod(int(part) for part in stated[1].split("*"))


def test_the_child_count_room_fits_the_field_it_keeps_room_for() -> None:
    """The room a cut node keeps holds its child_count field (up to five digits)."""
    assert scenes._CHILD_COUNT_BYTES >= len(',"child_count":99999')
