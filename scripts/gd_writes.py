#!/usr/bin/env python3
"""CI: every file change the toolkit makes goes through checkpoints/project_writes.gd.

The checkpoint journal can only restore what it saw: a write, delete, rename, resource
save, project-settings save or folder change that calls the engine directly would be missed, and
a restore would leave the project half put back. So outside a short list of exempt files (each
with its reason), any of these in addons/godot_mcp_toolkit/ (examples excluded) is a problem:

  - FileAccess.WRITE / READ_WRITE / WRITE_READ (a file opened for writing)
  - ResourceSaver.save(, ProjectSettings.save(, ProjectSettings.save_custom(
  - DirAccess.remove_absolute / rename_absolute / copy_absolute / make_dir_absolute /
    make_dir_recursive_absolute, and remove / rename / copy / make_dir* on a variable holding a
    DirAccess
  - AtomicFile.write_text / write_json / remove, .save_png( / save_jpg / save_webp / save_exr,
    .save( on a variable holding a ConfigFile
  - EditorInterface.save_scene / save_scene_as / save_all_scenes
  - ProjectWrites.raw_write( (the door's own unjournalled write)

A raw call is also accepted inside a function that announces the change itself, i.e. whose body
calls both ProjectWrites.before( and ProjectWrites.after( (the editor's scene save is written by
the editor, so it cannot be wrapped). An exemption that no longer covers a raw call is stale and
is reported too. Comments and string contents are ignored (the shared lexer blanks them).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gd_common import REPO, TOOLKIT, enclosing, fail_exit, functions, gd_files, lex  # noqa: E402

# File (repo-relative) -> why it may change files without the journal.
EXEMPT: dict[str, str] = {
    "addons/godot_mcp_toolkit/checkpoints/project_writes.gd": "the door itself",
    "addons/godot_mcp_toolkit/checkpoints/journal_store.gd": "the journal's own files under .godot/",
    "addons/godot_mcp_toolkit/checkpoints/checkpoint_restore.gd": "a restore writes from the journal and records it there",
    "addons/godot_mcp_toolkit/registry/store/atomic_file.gd": "the primitive the machine-wide registry writes with",
    "addons/godot_mcp_toolkit/registry/registry_client.gd": "the machine-wide registry, outside the project",
    "addons/godot_mcp_toolkit/registry/store/registry_lock.gd": "the registry's lock folder, outside the project",
    "addons/godot_mcp_toolkit/security/auth.gd": "the token file: a secret is never copied into a journal",
    "addons/godot_mcp_toolkit/paths/project_paths.gd": "the token file's folder",
}

_RAW = [
    re.compile(r"\bFileAccess\s*\.\s*(?:WRITE|READ_WRITE|WRITE_READ)\b"),
    re.compile(r"\bResourceSaver\s*\.\s*save\s*\("),
    re.compile(r"\bProjectSettings\s*\.\s*save(?:_custom)?\s*\("),
    re.compile(
        r"\bDirAccess\s*\.\s*(?:remove_absolute|rename_absolute|copy_absolute|make_dir_absolute"
        r"|make_dir_recursive_absolute)\s*\("
    ),
    re.compile(r"\bAtomicFile\s*\.\s*(?:write_text|write_json|remove)\s*\("),
    re.compile(r"\.\s*save_(?:png|jpg|webp|exr)\s*\("),
    re.compile(r"\bEditorInterface\s*\.\s*save_(?:scene|scene_as|all_scenes)\s*\("),
    re.compile(r"\braw_write\s*\("),
]
_DIR_VAR = re.compile(r"\bvar\s+(\w+)\s*(?::\s*DirAccess\s*)?(?::\s*=|=)\s*DirAccess\s*\.\s*open\b|\bvar\s+(\w+)\s*:\s*DirAccess\b")
_CONFIG_VAR = re.compile(r"\bvar\s+(\w+)\s*(?::\s*ConfigFile\s*)?(?::\s*=|=)\s*ConfigFile\s*\.\s*new\b|\bvar\s+(\w+)\s*:\s*ConfigFile\b")
_ANNOUNCES = (re.compile(r"\bProjectWrites\s*\.\s*before\s*\("), re.compile(r"\bProjectWrites\s*\.\s*after\s*\("))


def _receiver_patterns(code: str) -> list[re.Pattern[str]]:
    """Writes through a DirAccess or ConfigFile held in a variable of this file."""
    patterns: list[re.Pattern[str]] = []
    for regex, methods in ((_DIR_VAR, r"remove|rename|copy|make_dir|make_dir_recursive"), (_CONFIG_VAR, r"save|save_encrypted\w*")):
        names = {name for match in regex.finditer(code) for name in match.groups() if name}
        for name in sorted(names):
            patterns.append(re.compile(rf"\b{re.escape(name)}\s*\.\s*(?:{methods})\s*\("))
    return patterns


def raw_writes(text: str) -> list[tuple[int, str]]:
    """(line, call) of every raw write in a GDScript source that no announcing function wraps."""
    code = lex(text).code
    funcs = functions(code)
    found: list[tuple[int, str]] = []
    for pattern in _RAW + _receiver_patterns(code):
        for match in pattern.finditer(code):
            func = enclosing(funcs, match.start())
            if func is not None and all(announce.search(func.body(code)) for announce in _ANNOUNCES):
                continue
            found.append((code.count("\n", 0, match.start()) + 1, match.group(0).strip()))
    return sorted(found)


def run(repo: Path) -> list[str]:
    problems: list[str] = []
    for rel in gd_files(repo, TOOLKIT, exclude=((TOOLKIT / "examples").as_posix(),)):
        key = rel.as_posix()
        hits = raw_writes((repo / rel).read_text(encoding="utf-8"))
        if key in EXEMPT:
            if not hits:
                problems.append(f"{key}: exempt ({EXEMPT[key]}) but changes no file: drop it from EXEMPT")
            continue
        for line, call in hits:
            problems.append(
                f"{key}:{line}: `{call}` changes a file behind the checkpoint journal's back; "
                "use checkpoints/project_writes.gd (or announce with ProjectWrites.before/after)"
            )
    for key in EXEMPT:
        if not (repo / key).is_file():
            problems.append(f"{key}: listed in EXEMPT but does not exist")
    return problems


def main() -> int:
    return fail_exit(run(REPO), "every toolkit file change goes through the checkpoint journal", "gd_writes")


if __name__ == "__main__":
    sys.exit(main())
