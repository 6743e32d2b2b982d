"""The toolkit's commands live by domain: ``commands/<domain>/`` holds everything of one domain, and
``<domain>`` is the name of the catalogue file ``catalogue/tools/<domain>.json`` that holds its tools.

So a newcomer goes from a tool to its code in one guess: tool ``animation_player_control`` is in
``catalogue/tools/animation.json``, and its command is registered under ``commands/animation/``.

And the toolkit's folders stand in layers (``scripts/gd_layers.py`` ranks them): each uses only the
layers below it, nothing below ``commands/`` uses a command domain, and no folder cycle forms.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
TOOLKIT = REPO / "addons" / "godot_mcp_toolkit"
COMMANDS = TOOLKIT / "commands"
CATALOGUE = REPO / "catalogue" / "tools"

# Files at the top of commands/ that are not a domain's: the editor's list of command files.
TOP_LEVEL = {"command_domains.gd"}
# Catalogue files whose tools the toolkit does not serve (the bridge or the language server does).
NOT_TOOLKIT = {"jobs", "lifecycle", "lsp"}
# Catalogue methods registered by a subsystem outside commands/, with where and why.
OUTSIDE_COMMANDS = {
    # The extension loader owns the extension registry it refreshes.
    "extensions.refresh": "extensions/extension_loader.gd",
}
_REGISTER = re.compile(r"""(?:register_command\(|_reg\(registry,)\s*"([^"]+)\"""")


def _catalogue() -> dict[str, list[dict]]:
    return {path.stem: json.loads(path.read_text())["tools"] for path in sorted(CATALOGUE.glob("*.json"))}


def _registrations() -> dict[str, list[Path]]:
    found: dict[str, list[Path]] = {}
    for path in sorted(TOOLKIT.rglob("*.gd")):
        for method in _REGISTER.findall(path.read_text(encoding="utf-8")):
            found.setdefault(method, []).append(path.relative_to(TOOLKIT))
    return found


def test_every_command_file_sits_in_a_domain_folder() -> None:
    loose = sorted(p.name for p in COMMANDS.glob("*.gd") if p.name not in TOP_LEVEL)
    assert loose == [], f"move these into commands/<domain>/: {loose}"
    nested = sorted(str(p.relative_to(COMMANDS)) for p in COMMANDS.glob("*/*/**/*.gd"))
    assert nested == [], f"a domain folder is flat: {nested}"


def test_domain_folders_and_catalogue_files_match() -> None:
    folders = {p.name for p in COMMANDS.iterdir() if p.is_dir()}
    served = {name for name in _catalogue() if name not in NOT_TOOLKIT}
    assert sorted(folders - served) == [], "a domain folder with no catalogue/tools/<domain>.json"
    assert sorted(served - folders) == [], "a catalogue file with no commands/<domain>/ folder"
    assert not NOT_TOOLKIT & folders, "a catalogue file listed as not the toolkit's has a folder"


def test_each_tool_is_registered_in_its_catalogue_files_folder() -> None:
    registered = _registrations()
    misplaced = []
    for domain, tools in _catalogue().items():
        for tool in tools:
            method = tool.get("method")
            if method is None or tool["channel"] not in ("editor", "runtime"):
                continue
            places = registered.get(method, [])
            if method in OUTSIDE_COMMANDS:  # registered through a constant there
                owner = TOOLKIT / OUTSIDE_COMMANDS[method]
                assert places == [] and f'"{method}"' in owner.read_text(encoding="utf-8"), method
                continue
            home = Path("commands") / domain
            if not places or any(place.parent != home for place in places):
                misplaced.append(f"{tool['name']} ({method}): catalogue/tools/{domain}.json, registered in "
                                 f"{[str(p) for p in places] or 'nothing'}")
    assert misplaced == []


def test_every_command_file_is_listed_where_it_is_registered() -> None:
    """Each *_commands.gd is registered by exactly one listing: the editor's, the game's, or the
    toolkit's own composition (the wire's commands)."""
    listings = {
        "commands/command_domains.gd": TOOLKIT / "commands" / "command_domains.gd",
        "runtime/runtime_domains.gd": TOOLKIT / "runtime" / "runtime_domains.gd",
        "core/toolkit_app.gd": TOOLKIT / "core" / "toolkit_app.gd",
    }
    named: dict[str, list[str]] = {}
    for label, path in listings.items():
        for res in re.findall(r'"res://addons/godot_mcp_toolkit/(commands/[^"]+_commands\.gd)"', path.read_text()):
            named.setdefault(res, []).append(label)
    files = sorted(str(p.relative_to(TOOLKIT)) for p in COMMANDS.glob("*/*_commands.gd"))
    assert sorted(named) == files, "a command file no listing registers, or a listing naming a missing file"
    assert {f: n for f, n in named.items() if len(n) != 1} == {}


# --- the folders in layers (scripts/gd_layers.py) -------------------------------------------------

sys.path.insert(0, str(REPO / "scripts"))
import gd_layers  # noqa: E402


def test_the_folders_stand_in_layers_without_a_cycle() -> None:
    # A folder uses only lower layers (nothing below commands/ uses a command domain), every folder
    # has a rank, and no folder cycle forms, the command domains' uses of one another included.
    assert gd_layers.check(REPO) == []


def _tree(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / gd_layers.TOOLKIT / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("extends RefCounted\n" + text, encoding="utf-8")


def test_the_layer_check_fails_on_an_upward_use_and_a_cycle(tmp_path: Path) -> None:
    res = "res://addons/godot_mcp_toolkit"
    _tree(tmp_path, {
        "base/leaf.gd": "",
        # A guard reaching into a command domain (and, rightly, down to a leaf).
        "security/guard.gd": f'const Leaf := preload("../base/leaf.gd")\nconst X := preload("{res}/commands/a/a.gd")\n',
        # Two domains using each other: the same rank, allowed one way, never round.
        "commands/a/a.gd": f'const B := preload("{res}/commands/b/b.gd")\n',
        "commands/b/b.gd": f'const PATH := "{res}/commands/a/a.gd"\n',
        # Named in a comment only: not a use.
        "base/other.gd": f'# preload("{res}/commands/a/a.gd")\n',
        "newroom/thing.gd": "",
    })
    problems = [p for p in gd_layers.check(tmp_path) if "which holds no script" not in p]
    text = "\n".join(problems)
    assert len(problems) == 3, text
    assert "security/guard.gd: uses commands/a/a.gd" in text and "nothing below commands/ may use a command" in text
    cycle = "folder cycle: commands/a -> commands/b (commands/a/a.gd); commands/b -> commands/a (commands/b/b.gd)"
    assert cycle in text
    assert "newroom/: no rank" in text


def test_the_layer_reader_sees_every_way_a_script_is_named() -> None:
    seen = {(use.source, use.target) for use in gd_layers.uses(REPO)}
    assert {
        # relative preload
        ("registry/registry_client.gd", "paths/project_key.gd"),
        # extends "res://..."
        ("editor/editor_context.gd", "context/toolkit_context.gd"),
        # a path constant loaded later
        ("core/toolkit_app.gd", "registry/registry_client.gd"),
        # a list of command files
        ("runtime/runtime_domains.gd", "commands/runtime/runtime_commands.gd"),
        # a class_name
        ("examples/mcp_extensions/word_tools_extension.gd", "extensions/mcp_toolkit_extension.gd"),
    } <= seen
