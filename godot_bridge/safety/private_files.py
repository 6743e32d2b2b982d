"""Files only their owner may read: a secret on a shared machine.

The token file lets whoever reads it run code in the editor as its owner, so the toolkit creates
it 0600 in a 0700 folder. A token file group or other users can read or write (``exposure``) is
made private when it is the user's own (``make_private``: other toolkits write it with the
process umask), and refused when it cannot be. Files the bridge writes itself are created 0600
from their first byte (``open_private``). Windows has no such mode bits (a file in the user's
profile is private by its ACL), so there all of these are no-ops.
"""

from __future__ import annotations

import os
import shlex
import stat
from pathlib import Path
from typing import BinaryIO

from godot_bridge.errors import GuardError

OWNER_ONLY = 0o600
OWNER_ONLY_FOLDER = 0o700
_GROUP_OTHERS = {"group": (stat.S_IRGRP, stat.S_IWGRP), "others": (stat.S_IROTH, stat.S_IWOTH)}


def has_unix_permissions() -> bool:
    return os.name == "posix"


def exposure(path: Path) -> str | None:
    """Who besides the owner may read or write ``path``, e.g. "readable by group and others (mode
    0644)"; None when only the owner may (or the platform has no mode bits). Raises OSError when
    ``path`` cannot be looked at."""
    if not has_unix_permissions():
        return None
    mode = stat.S_IMODE(path.stat().st_mode)
    readers = [who for who, (read, _write) in _GROUP_OTHERS.items() if mode & read]
    writers = [who for who, (_read, write) in _GROUP_OTHERS.items() if mode & write]
    if not readers and not writers:
        return None
    parts = []
    if readers:
        parts.append("readable by " + " and ".join(readers))
    if writers:
        parts.append("writable by " + " and ".join(writers))
    return f"{', '.join(parts)} (mode {mode:04o})"


class CannotMakePrivate(GuardError):
    """A too-open file the bridge may not make private; the message says why."""


def make_private(path: Path, *, folder: bool = False) -> str | None:
    """Make the user's own ``path`` private (0600, and its folder 0700 when ``folder``): what was
    too open, e.g. "readable by group and others (mode 0644)", or None when all was private already.

    Raises CannotMakePrivate when the file (or folder) belongs to another account or a chmod fails,
    OSError when ``path`` cannot be looked at.
    """
    if not has_unix_permissions():
        return None
    exposed = exposure(path)
    parent = path.parent
    parent_mode = stat.S_IMODE(parent.stat().st_mode)
    parent_open = folder and bool(parent_mode & 0o077)
    if exposed is None and not parent_open:
        return None
    changes = [(path, OWNER_ONLY)] if exposed is not None else []
    if parent_open:
        changes.append((parent, OWNER_ONLY_FOLDER))
    for target, _mode in changes:
        owner = target.stat().st_uid
        if owner != os.geteuid():
            raise CannotMakePrivate(f"{target} belongs to another account (uid {owner})")
    for target, mode in changes:
        try:
            os.chmod(target, mode)
        except OSError as exc:
            raise CannotMakePrivate(f"chmod {mode:o} {target} failed: {exc.strerror or exc}") from exc
    still = exposure(path)
    if still is not None:  # a file system that ignores chmod
        raise CannotMakePrivate(f"{path} is still {still} after chmod 600")
    said = [exposed] if exposed is not None else []
    if parent_open:
        said.append(f"in a folder others can open (mode {parent_mode:04o})")
    return ", ".join(said)


def fix_command(path: Path) -> str:
    """The shell command that makes ``path`` private again."""
    return f"chmod 600 {shlex.quote(str(path))}"


def open_private(path: Path) -> BinaryIO:
    """``path`` opened for writing (truncated), 0600 before anything is written to it; a symlink in
    its place is refused where the platform can tell (O_NOFOLLOW)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags, OWNER_ONLY)
    try:
        if has_unix_permissions():
            os.fchmod(fd, OWNER_ONLY)  # an existing file keeps its old mode through O_CREAT
        return os.fdopen(fd, "wb")
    except BaseException:
        os.close(fd)
        raise
