"""Refuse unsafe file paths before a tool call leaves the bridge.

Every catalogue tool that declares ``path_params`` (``{param: [allowed prefixes]}``)
is checked, not only the always-on ones: the toolkit guards its own side too, but
a path that escapes the project must never reach the editor in the first place. The
check runs once per call, right after its arguments are validated (``CallGuard``, from
tools/dispatch.py): before the consent gate reads what the call acts on (``save.list``, a
file's hash), before a background job starts, and before the call is forwarded.

A value passes when it is absent/empty (optional params), a string, free of
control characters and backslashes, starts with one of the allowed prefixes
(``res://``, ``user://``, or narrower ones such as ``user://screenshots/``), and
the part after the prefix is relative, has no drive letter and no ``..`` segment.
A ``res://`` value must also stay inside the project folder once symbolic links are
resolved: ``res://link_out/x.gd`` through a link to ``/etc`` is refused (the LSP tools
apply the same rule to the files they read).

Wherever ``res://`` is allowed, a file's ``uid://`` is too (Godot 4.4+ projects reference files by
uid, so an assistant meets them and passes them on). The editor resolves it (the toolkit's file
guard, with ``ResourceUID``) and guards it as the ``res://`` path it names. Here a uid must be
well-formed; when the caller can resolve it from the project's files (``resolve_uid``: the
composition root passes godot_files/uids.py's), the path it names is checked like any ``res://``
value, links included; one the files do not name goes on to the editor, which knows every uid it
has scanned and answers NOT_FOUND for one it does not.

A path parameter may sit inside arrays of objects: ``frames[].texture_path`` names the
``texture_path`` of every item of ``frames``. ``path_literals`` lists words a parameter
takes instead of a path (``game_start.scene_path`` accepts ``"main"``).

A few parameters name a file on this machine instead (``disk_paths``: ``asset_import.source_path``,
a file to copy into the project). Such a path never has a ``..`` segment nor a hidden part (a
dot-leading folder or file: ``~/.ssh``, ``.env``, ``.config``), as written and once symbolic links
are resolved: those hold settings and secrets, never an asset. The toolkit refuses the same.

Both halves' rules are one table, tests/fixtures/toolkit/path_guard_cases.json: each row says what
this guard and the toolkit's (security/file_guard.gd) answer, and why where they differ.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, Protocol

from godot_bridge.errors import ToolError

_DRIVE = re.compile(r"^[A-Za-z]:")
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")
_MAX_SHOWN = 160  # a refused value is echoed back, but never a megabyte of it
PROJECT_PREFIX = "res://"  # the one prefix that names a file under the project folder
UID_PREFIX = "uid://"  # a project file by its uid: accepted wherever PROJECT_PREFIX is
_UID = re.compile(r"^uid://[a-z0-9]+$")

UidResolver = Callable[[str], "str | None"]


class PathGuarded(Protocol):
    name: str
    path_params: Mapping[str, Sequence[str]]
    path_literals: Mapping[str, Sequence[str]]


def _shown(value: str) -> str:
    text = value if len(value) <= _MAX_SHOWN else value[:_MAX_SHOWN] + "..."
    return repr(text)  # repr: NUL and other control characters stay visible


def _reason(value: str, prefixes: Sequence[str]) -> str | None:
    """Why ``value`` is refused, or None when it is acceptable."""
    if any(ord(ch) < 0x20 or ord(ch) == 0x7F for ch in value):
        return "it contains a NUL or other control character"
    if "\\" in value:
        return "it contains a backslash (use '/' separators)"
    if _DRIVE.match(value):
        return "it starts with a drive letter"
    if value.startswith("/"):
        return "it is an absolute filesystem path"
    prefix = next((p for p in prefixes if value.startswith(p)), None)
    if prefix is None:
        scheme = _SCHEME.match(value)
        got = f"'{scheme.group(0)}'" if scheme else "no 'res://'-style prefix"
        return f"it has {got}, which is outside the allowed prefixes"
    # What follows the scheme is what Godot resolves against the project or user dir.
    scheme = _SCHEME.match(value)
    rest = value[scheme.end() :] if scheme else value[len(prefix) :]
    if rest.startswith("/") or value[len(prefix) :].startswith("/"):
        return "the part after the prefix is an absolute path"
    if _DRIVE.match(rest) or any(_DRIVE.fullmatch(seg) for seg in rest.split("/")):
        return "it contains a drive letter"
    if ".." in rest.split("/"):
        return "it contains a '..' segment"
    return None


def _escapes_through_link(value: str, project: Path) -> bool:
    """True when the res:// value, resolved on disk, leaves the project folder.

    Resolution is not strict: a file about to be created has no inode yet, but a link
    among its existing parent folders is followed all the same.
    """
    rest = value[len(PROJECT_PREFIX) :]
    local = project.joinpath(*[seg for seg in rest.split("/") if seg])
    try:
        root = project.resolve()
        real = local.resolve()
    except (OSError, RuntimeError):  # a link loop: nothing sane lives behind it
        return True
    return not real.is_relative_to(root)


def check_path(param: str, value: Any, prefixes: Sequence[str], project: Path | None = None,
               literals: Sequence[str] = (), resolve_uid: UidResolver | None = None) -> None:
    """Raise PATH_DENIED when ``value`` is not an acceptable path for ``param``."""
    if value is None or value == "" or value in literals:
        return
    uid_too = PROJECT_PREFIX in prefixes
    allowed = " or ".join([*prefixes, *([UID_PREFIX] if uid_too else []), *(repr(word) for word in literals)])
    hint = (
        f"Pass {param} as a path under {' or '.join(prefixes)}, with '/' separators and no '..', "
        "drive letter, backslash or absolute path" + (", or a file's uid:// as Godot writes it." if uid_too else ".")
    )
    if not isinstance(value, str):
        raise ToolError("PATH_DENIED", f"{param} must be a path string, got {type(value).__name__}", hint=hint)
    if uid_too and value.startswith(UID_PREFIX):
        if not _UID.match(value):
            raise ToolError("PATH_DENIED", f"{param}={_shown(value)} refused: it is not a well-formed uid "
                            "(uid:// then lower-case letters and digits)", hint=hint)
        resolved = resolve_uid(value) if resolve_uid is not None else None
        if resolved is not None:
            check_path(f"{param} ({value} is {resolved})", resolved, prefixes, project, literals)
        return
    reason = _reason(value, prefixes)
    if reason is None and project is not None and value.startswith(PROJECT_PREFIX) \
            and _escapes_through_link(value, project):
        reason = "it leads outside the project folder through a symbolic link"
    if reason:
        raise ToolError("PATH_DENIED", f"{param}={_shown(value)} refused: {reason}; allowed: {allowed}", hint=hint)


def _hidden_part(path: str) -> str | None:
    """The first dot-leading folder or file name of ``path`` ("." itself is no name), else None."""
    return next((part for part in re.split(r"[\\/]", path) if part.startswith(".") and part not in (".", "..")), None)


def _disk_reason(value: str) -> str | None:
    if any(ord(ch) < 0x20 or ord(ch) == 0x7F for ch in value):
        return "it contains a NUL or other control character"
    if ".." in re.split(r"[\\/]", value):
        return "it contains a '..' segment"
    hidden = _hidden_part(value)
    if hidden is not None:
        return f"it is in a hidden folder or is a hidden file ({hidden}): those hold settings and secrets, not assets"
    try:
        real = os.path.realpath(value)
    except (OSError, ValueError):
        return "it cannot be resolved on disk"
    hidden = _hidden_part(real)
    if hidden is not None:
        return f"it leads into a hidden folder or file ({hidden}) through a symbolic link"
    return None


def check_disk_path(param: str, value: Any) -> None:
    """Raise PATH_DENIED when ``value`` is no acceptable path on this machine for ``param`` (above)."""
    if value is None or value == "":
        return
    hint = f"Pass {param} as the full path of the asset file, with no '..' and outside any hidden folder."
    if not isinstance(value, str):
        raise ToolError("PATH_DENIED", f"{param} must be a path string, got {type(value).__name__}", hint=hint)
    reason = _disk_reason(value)
    if reason:
        raise ToolError("PATH_DENIED", f"{param}={_shown(value)} refused: {reason}", hint=hint)


def values_at(args: Mapping[str, Any], key: str) -> Iterator[tuple[str, Any]]:
    """(label, value) for every value a path key names: "a", "a[].b", "a[].b[].c".

    A list at the end is checked item by item (``editor_refresh.file_paths``). Items that are
    not objects are skipped: schema validation has already refused them.
    """
    head, sep, tail = key.partition("[].")
    value = args.get(head)
    if not sep:
        if isinstance(value, list):
            for index, item in enumerate(value):
                yield f"{head}[{index}]", item
        else:
            yield head, value
        return
    if not isinstance(value, list):
        return
    for index, item in enumerate(value):
        if isinstance(item, Mapping):
            for label, found in values_at(item, tail):
                yield f"{head}[{index}].{label}", found


def check_paths(tool: PathGuarded, args: Mapping[str, Any], project: Path | None = None,
                resolve_uid: UidResolver | None = None) -> None:
    """Check every declared path parameter of ``tool`` in ``args``.

    ``project`` is the project folder; with it, res:// values are also resolved on disk.
    ``resolve_uid``: a uid:// value's res:// path from the project's files (None: not known there).
    """
    literals = getattr(tool, "path_literals", None) or {}
    for key, prefixes in (getattr(tool, "path_params", None) or {}).items():
        for label, value in values_at(args, key):
            check_path(label, value, prefixes, project, literals.get(key, ()), resolve_uid)
    for key in getattr(tool, "disk_paths", None) or ():
        check_disk_path(key, args.get(key))


@dataclass(frozen=True)
class CallGuard:
    """``check_paths`` for the project the bridge serves: what every tool call passes right after
    its arguments are validated (tools/dispatch.py), before anything of it can leave the bridge.

    ``project`` is read on each call (a configuration reload replaces the settings);
    ``resolve_uid(project, uid)``: the res:// path a uid names there (godot_files/uids.py's, passed in
    by the composition root: this layer reads no project files of its own)."""

    project: Callable[[], Path | None]
    resolve_uid: Callable[[Path, str], str | None] | None = None

    def __call__(self, tool: PathGuarded, args: Mapping[str, Any]) -> None:
        project = self.project()
        resolve = None if project is None or self.resolve_uid is None else partial(self.resolve_uid, project)
        check_paths(tool, args, project, resolve)


def project_file(param: str, value: str, project: Path) -> Path:
    """The file a res:// ``value`` names under ``project``, after the guard above (PATH_DENIED
    otherwise): for the bridge's own reads of what a call will act on (consent targets)."""
    check_path(param, value, [PROJECT_PREFIX], project)
    return project.joinpath(*[seg for seg in value[len(PROJECT_PREFIX):].split("/") if seg])
