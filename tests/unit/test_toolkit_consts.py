"""The figures both halves use are read from the toolkit's GDScript (godot_bridge/tools/toolkit_consts.py)."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest

from godot_bridge.consent.policy import UNDO_BUDGET_BYTES
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
])
def test_the_bridge_uses_the_toolkits_figure(value: int, file: str, name: str) -> None:
    """Each figure as the toolkit's source states it (read here independently of the reader)."""
    source = (REPO / "addons" / "godot_mcp_toolkit" / file).read_text(encoding="utf-8")
    stated = re.search(rf"^const {name} := ([\d *]+)$", source, re.M)
    assert stated is not None, f"{file} no longer defines {name}"
    assert value == math.prod(int(part) for part in stated[1].split("*"))


def test_the_child_count_room_fits_the_field_it_keeps_room_for() -> None:
    """The room a cut node keeps holds its child_count field (up to five digits)."""
    assert scenes._CHILD_COUNT_BYTES >= len(',"child_count":99999')
