"""The bridge's reading of a .tscn against the case table the toolkit's node listing runs too.

tests/fixtures/toolkit/scene_listing_cases.json: scenes under tests/fixtures/toolkit/scenes/ and the
tree each lists. godot_bridge/godot_files/scenes.py reads them from their text here; the toolkit's
commands/scene/node_query.gd lists the same scenes instantiated in the engine
(tests/godot/test_scene_listing.gd), so the file's rule and the editor's cannot drift apart.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from godot_bridge.godot_files.scenes import Loaded, read_scene

REPO = Path(__file__).resolve().parents[2]
CASES = json.loads((REPO / "tests" / "fixtures" / "toolkit" / "scene_listing_cases.json").read_text(encoding="utf-8"))


def _load(path: str, uid: str | None) -> Loaded | None:
    """A res:// path of the engine tests' project, whose res:// is the repository's root."""
    file = REPO / path.removeprefix("res://")
    return Loaded(path, file.read_text(encoding="utf-8")) if file.is_file() else None


@pytest.mark.parametrize("case", CASES["cases"], ids=lambda case: case["scene"].rsplit("/", 1)[-1])
def test_a_scene_file_lists_what_the_editor_lists(case: dict[str, Any]) -> None:
    text = (REPO / case["scene"].removeprefix("res://")).read_text(encoding="utf-8")
    assert read_scene(text, _load) == case["tree"], case["what"]
