"""The toolkit context's roles are answered by both contexts (``scripts/gd_roles.py``).

The editor's context cannot load outside the editor, so no engine test meets it: this static check
is what keeps it in step with the runtime context the GDScript tests use. Each case below breaks a
scratch copy of the toolkit the way a change could, and the check names what broke.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "scripts"))

import gd_roles  # noqa: E402

TOOLKIT = "addons/godot_mcp_toolkit"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A scratch copy of the toolkit (and a GDScript test folder) to break."""
    shutil.copytree(REPO / TOOLKIT, tmp_path / TOOLKIT, ignore=shutil.ignore_patterns(".godot"))
    (tmp_path / "tests" / "godot").mkdir(parents=True)
    return tmp_path


def _edit(repo: Path, rel: str, old: str, new: str) -> None:
    path = repo / TOOLKIT / rel
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{rel} no longer holds {old!r}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_both_contexts_answer_every_role() -> None:
    assert gd_roles.check(REPO) == []


def test_the_roles_are_the_context_s_members() -> None:
    assert set(gd_roles.roles(REPO)) == {"host", "scenes", "edits", "project", "game", "debugger", "viewport",
                                         "person"}


def test_an_editor_role_call_left_to_the_base_is_named(repo: Path) -> None:
    _edit(repo, "editor/editor_context.gd", "\tfunc is_busy() -> bool:\n", "\tfunc _was_busy() -> bool:\n")
    assert gd_roles.check(repo) == [
        f"{TOOLKIT}/editor/editor_context.gd:EditorProject: leaves project.is_busy to the base's placeholder "
        f"({TOOLKIT}/context/project_role.gd)"]


def test_a_runtime_call_that_is_unavailable_in_the_base_must_be_answered(repo: Path) -> None:
    _edit(repo, "context/runtime_debugger.gd", "func debug_continue() -> Error:", "func _debug_continue() -> Error:")
    assert gd_roles.check(repo) == [
        f"{TOOLKIT}/context/runtime_debugger.gd: leaves debugger.debug_continue to the base's placeholder "
        f"({TOOLKIT}/context/debug_role.gd)"]


def test_a_harmless_default_is_a_fair_runtime_answer_but_not_the_editor_s(repo: Path) -> None:
    """The runtime context has no filesystem to watch (the base's null); the editor has one."""
    _edit(repo, "editor/editor_context.gd", "\tfunc filesystem() -> Object:\n", "\tfunc _filesystem() -> Object:\n")
    problems = gd_roles.check(repo)
    assert [p for p in problems if "runtime" in p] == []
    assert problems == [f"{TOOLKIT}/editor/editor_context.gd:EditorProject: leaves project.filesystem to the "
                        f"base's placeholder ({TOOLKIT}/context/project_role.gd)"]


def test_a_signature_that_differs_from_the_role_is_named(repo: Path) -> None:
    _edit(repo, "context/runtime_game.gd",
          "func play_scene(path: String = \"\", extra_args: PackedStringArray = PackedStringArray()) -> Error:",
          "func play_scene(path: String = \"\", extra_args: Array = []) -> Error:")
    assert gd_roles.check(repo) == [
        f"{TOOLKIT}/context/runtime_game.gd: game.play_scene takes (String = \"\", Array = []) -> Error, the role "
        "says (String = \"\", PackedStringArray = PackedStringArray()) -> Error"]


def test_a_role_a_context_does_not_set_is_named(repo: Path) -> None:
    _edit(repo, "editor/editor_context.gd", "\tviewport = EditorViewport.new(scenes)\n", "")
    assert gd_roles.check(repo) == [f"{TOOLKIT}/editor/editor_context.gd: sets no `viewport` role"]


def test_a_caller_naming_what_the_role_lacks_is_named(repo: Path) -> None:
    (repo / "tests" / "godot" / "test_x.gd").write_text(
        "extends RefCounted\n\n\nfunc test_x(context: RefCounted) -> void:\n"
        "\tcontext.scenes.open_scene(\"res://a.tscn\")\n\tcontext.scenes.play_scene()\n")
    assert gd_roles.check(repo) == ["tests/godot/test_x.gd:6: the `scenes` role has no `play_scene`"]


def test_a_context_without_roles_is_named(repo: Path) -> None:
    """The one-object context (every call on the context itself) is what this check replaces."""
    (repo / TOOLKIT / "context" / "toolkit_context.gd").write_text(
        "@tool\nextends RefCounted\n\n\nfunc scene_root() -> Node:\n\treturn null\n")
    assert gd_roles.check(repo) == [f"{TOOLKIT}/context/toolkit_context.gd: declares no roles "
                                    "(`var <role>: <Role> = null`)"]
