"""A throwaway Godot project for the set-up commands' tests (init, uninstall), and a byte-exact
snapshot of a folder, to tell what a command wrote or gave back."""

from __future__ import annotations

from pathlib import Path

import pytest

PROJECT_GODOT = 'config_version=5\n\n[application]\n\nconfig/name="Demo"\n'


@pytest.fixture
def project(tmp_path: Path) -> Path:
    folder = tmp_path / "game"
    folder.mkdir()
    (folder / "project.godot").write_text(PROJECT_GODOT, encoding="utf-8")
    return folder


def snapshot(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}
