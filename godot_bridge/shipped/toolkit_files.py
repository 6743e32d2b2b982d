"""The Godot plugin this bridge ships: where its files are, which version they are.

The wheel carries ``addons/godot_mcp_toolkit/`` as the data directory ``godot_bridge/toolkit``
(see pyproject.toml), byte for byte; a checkout has it at the top of the repo. ``godot-bridge
init`` copies it from here into a project, and reads the MCP client entry the dock writes
(``ui/mcp_entry.json``) from here too, so both halves share one definition of it.
"""

from __future__ import annotations

import re
from pathlib import Path

from godot_bridge.errors import DefinitionError

ADDON_NAME = "godot_mcp_toolkit"
# Where the plugin lives inside a Godot project, as a relative path and as Godot names it.
ADDON_REL = f"addons/{ADDON_NAME}"
PLUGIN_CFG = "plugin.cfg"
PLUGIN_RES_PATH = f"res://{ADDON_REL}/{PLUGIN_CFG}"
CLIENT_ENTRY = "ui/mcp_entry.json"
# Files a copy of the toolkit never carries: Python's byte-code caches, the OS's folder litter.
_SKIP_NAMES = frozenset({"__pycache__", ".DS_Store", "Thumbs.db"})

_SECTION = re.compile(r"^\s*\[(?P<name>[^\]]+)\]\s*$")
_VERSION = re.compile(r'^\s*version\s*=\s*"(?P<value>[^"\\]*)"\s*$')


class ToolkitMissing(DefinitionError, RuntimeError):
    """Neither the installed package nor a checkout holds the toolkit."""


def toolkit_dir() -> Path:
    """The shipped toolkit: inside the installed package, else at the top of a checkout."""
    package = Path(__file__).resolve().parents[1]  # godot_bridge/, this module being godot_bridge/shipped/toolkit_files.py
    # The wheel ships addons/godot_mcp_toolkit/ as the data directory godot_bridge/toolkit (see pyproject.toml).
    candidates = (package / "toolkit", package.parent / "addons" / ADDON_NAME)
    for candidate in candidates:
        if (candidate / PLUGIN_CFG).is_file():
            return candidate
    raise ToolkitMissing(
        "the Godot plugin is not shipped with this bridge (looked in "
        + ", ".join(str(c) for c in candidates) + "); reinstall godot-bridge"
    )


def plugin_version(cfg_text: str) -> str | None:
    """``version`` of the ``[plugin]`` section of a plugin.cfg; None when it has none."""
    section = ""
    for line in cfg_text.splitlines():
        header = _SECTION.match(line)
        if header:
            section = header.group("name").strip()
            continue
        found = _VERSION.match(line)
        if found and section == "plugin":
            return found.group("value")
    return None


def read_version(addon: Path) -> str | None:
    """The version in ``addon``/plugin.cfg; None when the file is missing, unreadable or has none."""
    try:
        return plugin_version((addon / PLUGIN_CFG).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError):
        return None


def files(root: Path) -> dict[str, Path]:
    """Every file under ``root`` by its path relative to it (posix), sorted; symlinks are not followed."""
    found: dict[str, Path] = {}
    if not root.is_dir():
        return found
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root)
        if any(part in _SKIP_NAMES for part in rel.parts) or path.is_symlink() or not path.is_file():
            continue
        found[rel.as_posix()] = path
    return found
