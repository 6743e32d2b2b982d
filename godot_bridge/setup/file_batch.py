"""Write a set of files all or nothing: stage each beside its target, then swap them in.

``apply`` first writes every new content to a temporary file in the target's own folder
(creating missing folders) and reads every file it will replace or delete into memory. Only
when all of that worked does it rename the staged files over their targets, one atomic rename
each, and delete what is to be deleted. If a rename fails half-way, the files already swapped
are put back from memory and the folders it made are removed, so a failure never leaves a
half-written file nor a half-applied set. What it cannot undo (a restore that fails too) is
named in the error.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from godot_bridge.errors import SetupError

_TMP_PREFIX = ".godot-bridge-"


@dataclass(frozen=True)
class Change:
    path: Path
    data: bytes | None  # None: delete the file


class BatchError(SetupError, RuntimeError):
    """The batch was not applied; the message names the file and says what state was left."""


@dataclass
class _Staged:
    change: Change
    temp: Path | None = None
    original: bytes | None = None  # the bytes before, None when the file did not exist
    mode: int | None = None


@dataclass
class _Batch:
    staged: list[_Staged] = field(default_factory=list)
    made_dirs: list[Path] = field(default_factory=list)
    swapped: list[_Staged] = field(default_factory=list)

    def discard(self) -> None:
        for item in self.staged:
            if item.temp is not None:
                with contextlib.suppress(OSError):
                    item.temp.unlink()
        for folder in reversed(self.made_dirs):
            with contextlib.suppress(OSError):
                folder.rmdir()  # only ever empty: nothing of ours is left in it


# Indirection so a test can make the n-th rename fail.
_replace = os.replace


def _why(exc: OSError) -> str:
    return exc.strerror or str(exc)


def _make_dirs(folder: Path, batch: _Batch) -> None:
    missing: list[Path] = []
    probe = folder
    while not probe.exists():
        missing.append(probe)
        probe = probe.parent
    for path in reversed(missing):
        path.mkdir()
        batch.made_dirs.append(path)


def _write_temp(target: Path, data: bytes, mode: int | None) -> Path:
    fd, name = tempfile.mkstemp(prefix=_TMP_PREFIX, suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(name, mode if mode is not None else 0o666 & ~_umask())
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(name)
        raise
    return Path(name)


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current


def refusal(change: Change) -> str | None:
    """Why ``change`` will not be made, None when it can be: a read-only target.

    A rename would replace a read-only file all the same (its folder is writable), but a file made
    read-only is one its owner did not want changed, so it is refused, saying so."""
    try:
        mode = change.path.lstat().st_mode
    except OSError:
        return None
    if stat.S_ISLNK(mode) or mode & stat.S_IWUSR:
        return None
    verb = "remove" if change.data is None else "replace"
    return (f"{change.path} is read-only (mode {stat.S_IMODE(mode):04o}): not going to {verb} it; make it writable "
            "(chmod u+w) if it should change")


def _stage(change: Change, batch: _Batch) -> None:
    item = _Staged(change)
    batch.staged.append(item)
    target = change.path
    if target.is_symlink():
        raise BatchError(f"{target} is a symbolic link; not writing through it")
    if target.exists():
        item.original = target.read_bytes()
        item.mode = target.stat().st_mode & 0o7777
        problem = refusal(change)
        if problem is not None:
            raise BatchError(problem)
    if change.data is not None:
        _make_dirs(target.parent, batch)
        item.temp = _write_temp(target, change.data, item.mode)


def _restore(item: _Staged) -> str | None:
    """Put one swapped file back; the problem when that failed too."""
    target = item.change.path
    try:
        if item.original is None:
            target.unlink(missing_ok=True)
        else:
            temp = _write_temp(target, item.original, item.mode)
            os.replace(temp, target)
    except OSError as exc:
        return f"{target} ({_why(exc)})"
    return None


def _swap(item: _Staged) -> None:
    if item.change.data is None:
        if item.original is not None:
            item.change.path.unlink()
    else:
        assert item.temp is not None
        _replace(item.temp, item.change.path)
        item.temp = None


def apply(changes: Sequence[Change]) -> None:
    """All of ``changes`` or none of them; raises BatchError saying which file failed and why."""
    batch = _Batch()
    current: Path | None = None
    try:
        for change in changes:
            current = change.path
            _stage(change, batch)
    except OSError as exc:
        batch.discard()
        where = exc.filename or current  # the folder that could not be made, when that was it
        raise BatchError(f"cannot write {where}: {_why(exc)}; nothing was changed") from exc
    except BatchError as exc:
        batch.discard()
        raise BatchError(f"{exc}; nothing was changed") from None
    try:
        for item in batch.staged:
            current = item.change.path
            _swap(item)
            batch.swapped.append(item)
    except OSError as exc:
        stuck = [problem for item in reversed(batch.swapped) if (problem := _restore(item)) is not None]
        batch.discard()
        if stuck:
            raise BatchError(f"cannot write {current}: {_why(exc)}; could not put back " + ", ".join(stuck)) from exc
        raise BatchError(f"cannot write {current}: {_why(exc)}; every file was put back as it was") from exc
