"""Real public Godot projects (tests/fixtures/projects/<name>/, each with a README naming its
repository, commit and licence) inside the engine host's project, where the end-to-end tests open
them through the real bridge.

Each one is copied to ``res://fixtures/<name>/`` with its ``res://`` paths pointing there (the
files are the project's own; only the root moves), and its autoloads added to the host's
project.godot (its scripts name them). Its imported assets (``stand_ins.json``: images, sounds,
fonts) are not in the repository and this engine could not import them anyway: each gets what the
editor's import leaves beside an asset, a ``<asset>.import`` remap, pointing at a small resource of
the asset's class (an image's stand-in has its size), so a scene, a resource or a script's
preload() that names the asset loads it as in the project.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.support.gd_engine import REPO

FIXTURES = REPO / "tests" / "fixtures" / "projects"
MOUNT = "fixtures"
STAND_INS = "stand_ins.json"
IMPORTED = ".godot/imported/fixtures"
# An abstract class a file names -> the concrete class that stands in for it.
CONCRETE = {"Texture2D": "PlaceholderTexture2D", "Texture": "PlaceholderTexture2D", "AudioStream": "AudioStreamWAV",
            "Font": "FontFile", "Mesh": "ArrayMesh"}
# Files of the project itself; the fixture's README and stand-in list stay out of the engine.
TEXT_SUFFIXES = (".tscn", ".tres", ".gd", ".gdshader")
SKIPPED = ("README.md", STAND_INS, "project.godot")


@dataclass(frozen=True)
class FixtureProject:
    name: str
    source: Path
    stand_ins: list[dict[str, Any]] = field(default_factory=list)
    autoloads: dict[str, str] = field(default_factory=dict)

    @property
    def root(self) -> str:
        return f"res://{MOUNT}/{self.name}/"

    def res(self, path: str) -> str:
        """A path of the original project (``res://a/b.tscn``) where the host holds it."""
        return self.root + path.removeprefix("res://")


def moved(text: str, project: FixtureProject) -> str:
    return text.replace("res://", project.root)


def load_fixture(source: Path) -> FixtureProject:
    base = FixtureProject(source.name, source)
    stand_file = source / STAND_INS
    listed = json.loads(stand_file.read_text(encoding="utf-8")) if stand_file.is_file() else {}
    stand_ins = [{"path": path, **entry} for path, entry in listed.items()]
    return FixtureProject(source.name, source, stand_ins, _autoloads(source, base))


def _autoloads(source: Path, base: FixtureProject) -> dict[str, str]:
    """The ``[autoload]`` section of the fixture's project.godot (one ``Name="*res://..."`` a line)."""
    settings = source / "project.godot"
    if not settings.is_file():
        return {}
    found: dict[str, str] = {}
    section = ""
    for line in settings.read_text(encoding="utf-8").splitlines():
        if line.startswith("["):
            section = line.strip()
        elif section == "[autoload]" and "=" in line:
            name, value = line.split("=", 1)
            found[name.strip()] = moved(value.strip(), base)
    return found


def fixture_projects() -> list[FixtureProject]:
    if not FIXTURES.is_dir():
        return []
    return [load_fixture(path) for path in sorted(FIXTURES.iterdir()) if (path / STAND_INS).is_file()]


def install(project_dir: Path) -> list[FixtureProject]:
    """Copies every fixture project into ``project_dir`` and registers their autoloads there."""
    projects = fixture_projects()
    autoloads: dict[str, str] = {}
    for project in projects:
        target = project_dir / MOUNT / project.name
        for file in sorted(project.source.rglob("*")):
            if not file.is_file() or file.name in SKIPPED:
                continue
            dest = target / file.relative_to(project.source)
            dest.parent.mkdir(parents=True, exist_ok=True)
            if file.suffix in TEXT_SUFFIXES:
                dest.write_text(moved(file.read_text(encoding="utf-8"), project), encoding="utf-8")
            else:
                shutil.copy(file, dest)
        for entry in project.stand_ins:
            _stand_in(project_dir, project, entry)
        autoloads.update(project.autoloads)
    if autoloads:
        settings = project_dir / "project.godot"
        lines = "".join(f"{name}={value}\n" for name, value in autoloads.items())
        settings.write_text(settings.read_text(encoding="utf-8").rstrip("\n") + "\n\n[autoload]\n\n" + lines,
                            encoding="utf-8")
    return projects


def _stand_in(project_dir: Path, project: FixtureProject, entry: dict[str, Any]) -> None:
    """``<asset>.import`` remapping the asset to a stand-in resource of its class."""
    asset = project.res(str(entry["path"]))
    cls = CONCRETE.get(str(entry["class"]), str(entry["class"]))
    rel = asset.removeprefix("res://")
    stand_in = f"{IMPORTED}/{project.name}/{rel.removeprefix(project.root.removeprefix('res://'))}.tres"
    body = f'[gd_resource type="{cls}" format=3]\n\n[resource]\n'
    if "size" in entry:
        width, height = entry["size"]
        body += f"size = Vector2({width}, {height})\n"
    (project_dir / stand_in).parent.mkdir(parents=True, exist_ok=True)
    (project_dir / stand_in).write_text(body, encoding="utf-8")
    remap = f'[remap]\n\nimporter="stand_in"\ntype="{cls}"\npath="res://{stand_in}"\n'
    (project_dir / f"{rel}.import").parent.mkdir(parents=True, exist_ok=True)
    (project_dir / f"{rel}.import").write_text(remap, encoding="utf-8")
