"""A registry read that lands between the toolkit's two renames (tmp -> .bak -> projects.json)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from godot_bridge.editor import registry


def write(path: Path, port: int) -> None:
    path.write_text(json.dumps({"by_path": {"/p": {"port": port, "token_path": "/t"}}}), encoding="utf-8")


@pytest.fixture
def reg(tmp_path: Path) -> Path:
    return tmp_path / "projects.json"


def test_second_rename_during_the_pause_is_read(reg: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(reg.with_name("projects.json.bak"), 6550)
    write(reg.with_name("projects.json.tmp"), 6551)
    pauses: list[float] = []

    def toolkit_finishes(seconds: float) -> None:
        pauses.append(seconds)
        os.replace(reg.with_name("projects.json.tmp"), reg)

    monkeypatch.setattr(registry.time, "sleep", toolkit_finishes)
    assert registry.read_registry(reg)["/p"].port == 6551
    assert pauses == [registry.REWRITE_PAUSE_S]  # retried once


def test_still_missing_after_the_retry_reads_the_previous_version(reg: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(reg.with_name("projects.json.bak"), 6550)
    write(reg.with_name("projects.json.tmp"), 6551)
    monkeypatch.setattr(registry.time, "sleep", lambda s: None)
    assert registry.read_registry(reg)["/p"].port == 6550


def test_plainly_missing_registry_is_empty_at_once(reg: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def no_pause(seconds: float) -> None:
        raise AssertionError("no rewrite in progress: nothing to wait for")

    monkeypatch.setattr(registry.time, "sleep", no_pause)
    assert registry.read_registry(reg) == {}
