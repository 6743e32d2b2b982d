"""Success hints (catalogue/hints.json) and prompts (catalogue/prompts.json): data validated at load."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from godot_bridge.content.prompts import PromptError, PromptService, load_prompts
from godot_bridge.tools.catalogue import CatalogueError, catalogue_dir, load_catalogue

TOOLISH = re.compile(r"\b(?:scene|node|script|game|runtime|debugger|editor|lsp|signal)_[a-z_]+\b")


@pytest.fixture
def cat_copy(tmp_path: Path) -> Path:
    target = tmp_path / "catalogue"
    shutil.copytree(catalogue_dir(), target)
    return target


def known_words() -> set[str]:
    """Tool names, group names and parameter names: what a hint or prompt may name."""
    cat = load_catalogue()
    params = {p for t in cat.tools.values() for p in t.input_schema.get("properties", {})}
    return set(cat.tools) | set(cat.groups) | params


def set_hints(directory: Path, hints: object) -> None:
    (directory / "hints.json").write_text(json.dumps(hints), encoding="utf-8")


def test_hints_reach_the_tools():
    cat = load_catalogue()
    hints = json.loads((catalogue_dir() / "hints.json").read_text(encoding="utf-8"))["hints"]
    assert len(hints) >= 50
    for name, hint in hints.items():
        assert cat.tools[name].success_hint == hint
        assert len(hint) <= 160, name  # a hint, not a manual
        for mentioned in TOOLISH.findall(hint):
            assert mentioned in known_words(), f"{name}'s hint names unknown tool {mentioned}"


@pytest.mark.parametrize("hints, why", [
    ({"hints": {"no_such_tool": "x"}}, "unknown tool 'no_such_tool'"),
    ({"hints": {"scene_open": ""}}, "non-empty string"),
    ({"hints": {"scene_create": "again"}}, "already sets its success_hint"),
    ({"tips": {}}, "expected an object"),
])
def test_bad_hints_stop_the_load(cat_copy: Path, hints: object, why: str):
    set_hints(cat_copy, hints)
    with pytest.raises(CatalogueError, match=re.escape(why)):
        load_catalogue(cat_copy)


def test_prompts_name_real_tools():
    cat = load_catalogue()
    for prompt in load_prompts().values():
        named = set(TOOLISH.findall("\n".join(prompt.text)))
        assert len(named & set(cat.tools)) >= 3, prompt.name
        assert named <= known_words(), named - known_words()


def test_prompt_rendering_and_its_errors():
    service = PromptService()
    text = service.get("debug-scene", {"node_path": "HUD/Score"})["messages"][0]["content"]["text"]
    assert "HUD/Score" in text and "{" not in text
    with pytest.raises(PromptError, match="unknown argument"):
        service.get("debug-scene", {"node_path": "A", "extra": "1"})
    with pytest.raises(PromptError, match="unknown prompt"):
        service.get("nope", {})


def test_prompt_file_placeholders_are_checked(tmp_path: Path):
    bad = {"prompts": [{"name": "p", "title": "t", "description": "d", "arguments": [], "text": ["{missing}"]}]}
    (tmp_path / "prompts.json").write_text(json.dumps(bad), encoding="utf-8")
    with pytest.raises(PromptError, match="names no argument"):
        load_prompts(tmp_path)
