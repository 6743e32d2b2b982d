"""Refuse unsafe file paths before a tool call leaves the bridge.

Every catalogue tool that declares ``path_params`` (``{param: [allowed prefixes]}``)
is checked, not only the always-on ones: the toolkit guards its own side too, but
a path that escapes the project must never reach the editor in the first place.

A value passes when it is absent/empty (optional params), a string, free of
control characters and backslashes, starts with one of the allowed prefixes
(``res://``, ``user://``, or narrower ones such as ``user://screenshots/``), and
the part after the prefix is relative, has no drive letter and no ``..`` segment.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from godot_bridge.errors import ToolError

_DRIVE = re.compile(r"^[A-Za-z]:")
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")
_MAX_SHOWN = 160  # a refused value is echoed back, but never a megabyte of it


class PathGuarded(Protocol):
    name: str
    path_params: Mapping[str, Sequence[str]]


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


def check_path(param: str, value: Any, prefixes: Sequence[str]) -> None:
    """Raise PATH_DENIED when ``value`` is not an acceptable path for ``param``."""
    if value is None or value == "":
        return
    allowed = " or ".join(prefixes)
    hint = (
        f"Pass {param} as a path under {allowed}, with '/' separators and no '..', "
        "drive letter, backslash or absolute path."
    )
    if not isinstance(value, str):
        raise ToolError("PATH_DENIED", f"{param} must be a path string, got {type(value).__name__}", hint=hint)
    reason = _reason(value, prefixes)
    if reason:
        raise ToolError("PATH_DENIED", f"{param}={_shown(value)} refused: {reason}; allowed: {allowed}", hint=hint)


def check_paths(tool: PathGuarded, args: Mapping[str, Any]) -> None:
    """Check every declared path parameter of ``tool`` in ``args`` (lists are checked item by item)."""
    for param, prefixes in (getattr(tool, "path_params", None) or {}).items():
        value = args.get(param)
        if isinstance(value, list):
            for item in value:
                check_path(param, item, prefixes)
        else:
            check_path(param, value, prefixes)
