"""All or nothing: a failure while staging changes nothing, one while swapping puts everything back."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from godot_bridge.setup import file_batch
from godot_bridge.setup.file_batch import BatchError, Change


def _tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _dirs(root: Path) -> list[str]:
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_dir())


def test_writes_creates_folders_and_deletes(tmp_path: Path) -> None:
    (tmp_path / "keep.txt").write_bytes(b"old")
    (tmp_path / "gone.txt").write_bytes(b"bye")
    os.chmod(tmp_path / "keep.txt", 0o600)
    file_batch.apply([
        Change(tmp_path / "keep.txt", b"new"),
        Change(tmp_path / "a" / "b" / "c.txt", b"deep"),
        Change(tmp_path / "gone.txt", None),
        Change(tmp_path / "never-was.txt", None),
    ])
    assert _tree(tmp_path) == {"keep.txt": b"new", "a/b/c.txt": b"deep"}
    assert (tmp_path / "keep.txt").stat().st_mode & 0o777 == 0o600, "a replaced file keeps its mode"


def test_a_failed_swap_puts_every_file_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "one.txt").write_bytes(b"one")
    (tmp_path / "gone.txt").write_bytes(b"bye")
    before = _tree(tmp_path)
    calls = []
    real = os.replace

    def flaky(src: str | Path, dst: str | Path) -> None:
        calls.append(dst)
        if len(calls) == 3:
            raise OSError(28, "No space left on device")
        real(src, dst)

    monkeypatch.setattr(file_batch, "_replace", flaky)
    with pytest.raises(BatchError, match=r"three\.txt: No space left on device; every file was put back"):
        file_batch.apply([
            Change(tmp_path / "one.txt", b"ONE"),
            Change(tmp_path / "new" / "two.txt", b"two"),
            Change(tmp_path / "gone.txt", None),
            Change(tmp_path / "new" / "three.txt", b"three"),
        ])
    assert _tree(tmp_path) == before, "contents as before, no temp file left"
    assert _dirs(tmp_path) == [], "the folder it made is gone"


def test_a_failed_stage_writes_nothing(tmp_path: Path) -> None:
    (tmp_path / "one.txt").write_bytes(b"one")
    (tmp_path / "blocker").write_bytes(b"a file where a folder must go")
    before = _tree(tmp_path)
    with pytest.raises(BatchError, match="nothing was changed"):
        file_batch.apply([
            Change(tmp_path / "one.txt", b"ONE"),
            Change(tmp_path / "made" / "x.txt", b"x"),
            Change(tmp_path / "blocker" / "inside.txt", b"cannot"),
        ])
    assert _tree(tmp_path) == before
    assert _dirs(tmp_path) == []


def test_refuses_to_write_through_a_symlink(tmp_path: Path) -> None:
    (tmp_path / "real.txt").write_bytes(b"real")
    (tmp_path / "link.txt").symlink_to(tmp_path / "real.txt")
    with pytest.raises(BatchError, match="symbolic link"):
        file_batch.apply([Change(tmp_path / "link.txt", b"x")])
    assert (tmp_path / "real.txt").read_bytes() == b"real"
