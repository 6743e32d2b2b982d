"""Which folder is the Godot project, and which folder the MCP clients open (where their files go).

Both ``init`` and ``doctor`` start from a folder: ``--project``, else ``GODOT_MCP_PROJECT_PATH``,
else the working directory. The project is found in it as the bridge finds it (config.py: the
folder itself, else its one subfolder with a ``project.godot``). The client files belong in the
folder the assistant opens, which is not always the project:

* pointed at a repository whose project is in a subfolder (``repo/`` with ``repo/game/``): the
  repository, and the entry names the project's path;
* pointed at the project from the root of a repository above it (``cd repo; init --project
  game``): that root;
* otherwise the project folder itself.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from godot_bridge.config import ProjectSearch

VCS_MARKERS = (".git", ".hg", ".svn")


@dataclass(frozen=True)
class Location:
    search: ProjectSearch
    root: Path  # where the client files go

    @property
    def project(self) -> Path:
        return self.search.project or self.search.folder

    @property
    def below_root(self) -> bool:
        """The project is not the folder the clients open: the entry must name it."""
        return self.search.project is not None and self.search.project != self.root


def start_folder(arg: str | None, env: Mapping[str, str]) -> tuple[Path, str]:
    if arg:
        return Path(arg).expanduser().resolve(), "--project"
    if env.get("GODOT_MCP_PROJECT_PATH"):
        return Path(env["GODOT_MCP_PROJECT_PATH"]).expanduser().resolve(), "GODOT_MCP_PROJECT_PATH"
    return Path(os.getcwd()).resolve(), "the working directory"


def locate(arg: str | None, env: Mapping[str, str]) -> Location:
    folder, origin = start_folder(arg, env)
    search = ProjectSearch.run(folder, origin)
    if search.project is not None and search.project != folder:
        return Location(search, folder)
    cwd = Path(os.getcwd()).resolve()
    project = search.project or folder
    if cwd != project and project.is_relative_to(cwd) and any((cwd / m).exists() for m in VCS_MARKERS):
        return Location(search, cwd)
    return Location(search, project)
