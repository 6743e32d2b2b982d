"""Which .gd files a project-wide diagnostics scan should look at.

Mirrors what Godot itself imports: hidden (dot) folders and files are skipped,
as is any folder holding a ``.gdignore``. Top-level ``addons/`` is third-party
code the user rarely wants reported, so it is opt-in. Symlinks are never
followed: they can point outside the project or loop.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

CHUNK_SIZE = 20


@dataclass
class ScriptWalk:
    scripts: list[str] = field(default_factory=list)  # res:// paths, sorted
    unreadable_dirs: list[str] = field(default_factory=list)  # res:// folders we could not list


def find_scripts(project_root: Path, *, include_addons: bool = False) -> ScriptWalk:
    walk = ScriptWalk()
    stack: list[tuple[Path, str]] = [(project_root, "")]
    while stack:
        directory, rel = stack.pop()
        try:
            with os.scandir(directory) as it:
                entries = list(it)
        except OSError:
            walk.unreadable_dirs.append(f"res://{rel}")
            continue
        for entry in entries:
            if entry.name.startswith(".") or entry.is_symlink():
                continue
            child_rel = f"{rel}{entry.name}"
            if entry.is_dir(follow_symlinks=False):
                if not rel and entry.name == "addons" and not include_addons:
                    continue
                if (Path(entry.path) / ".gdignore").exists():
                    continue
                stack.append((Path(entry.path), child_rel + "/"))
            elif entry.is_file(follow_symlinks=False) and entry.name.lower().endswith(".gd"):
                walk.scripts.append(f"res://{child_rel}")
    walk.scripts.sort()
    walk.unreadable_dirs.sort()
    return walk


def chunks(items: list[str], size: int = CHUNK_SIZE) -> list[list[str]]:
    return [items[i : i + size] for i in range(0, len(items), size)]
