"""``completion/complete``: what a client may offer while the user types an argument.

* ``path`` of ``godot://scene/{path}``: the project's ``.tscn`` / ``.scn`` files; of
  ``godot://script/{path}``: its ``.gd`` files. ``file_path`` of the ``write-test`` prompt: ``.gd``
  files too, as ``res://`` paths.
* ``framework`` of ``write-test``: its choices, the frameworks installed in the project first.
* ``node_path`` of ``debug-scene``: the node paths of the scene open in the editor, when the editor
  answers; otherwise nothing.

Values start with what was typed (case-insensitive; a name without ``/`` also matches file names),
at most ``MAX_VALUES`` of them, with the ``total`` and whether there are more. Every file goes
through the path guard the resources use; hidden folders (``.godot/``, ``.git/``) and the plugin's
own folder are never listed. An argument or reference we know nothing about completes to nothing.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio

from godot_bridge.content.prompts import PromptService
from godot_bridge.content.resources import SCENE_PREFIX, SCRIPT_PREFIX, EditorView, ResourceError, on_disk
from godot_bridge.errors import ToolError
from godot_bridge.safety.pathguard import check_path

log = logging.getLogger(__name__)

MAX_VALUES = 100  # the most a completion result may carry (MCP)
MAX_FILES_SEEN = 20_000  # a walk of a huge project stops here and says there may be more
EDITOR_TIMEOUT_S = 2.0  # a completion is typed live: an editor that does not answer soon gives nothing
TOOLKIT_DIR = "addons/godot_mcp_toolkit"
SCENE_SUFFIXES = (".tscn", ".scn")
SCRIPT_SUFFIXES = (".gd",)
# A test framework is installed when its addon folder is in the project (as test_list finds them).
FRAMEWORK_ADDONS = {"gut": "addons/gut", "gdunit4": "addons/gdUnit4"}


@dataclass(frozen=True)
class Completion:
    values: list[str]
    total: int
    has_more: bool

    def result(self) -> dict[str, Any]:
        return {"completion": {"values": self.values, "total": self.total, "hasMore": self.has_more}}


NOTHING = Completion([], 0, False)


def _completion(matches: list[str], truncated: bool = False) -> Completion:
    return Completion(matches[:MAX_VALUES], len(matches), truncated or len(matches) > MAX_VALUES)


def matching(candidates: list[str], typed: str) -> list[str]:
    """Candidates starting with ``typed`` (case-insensitive), then, for a bare name, those whose
    last path segment does; each once, in the order given."""
    needle = typed.lower()
    first = [c for c in candidates if c.lower().startswith(needle)]
    if "/" in typed or not typed:
        return first
    taken = set(first)
    return first + [c for c in candidates if c not in taken and c.rsplit("/", 1)[-1].lower().startswith(needle)]


class CompletionService:
    def __init__(self, project: Path, editor: EditorView, prompts: PromptService) -> None:
        self.project = project
        self.editor = editor
        self.prompts = prompts

    async def complete(self, ref: dict[str, Any], argument: str, typed: str) -> Completion:
        """``ref``: the request's reference (``ref/resource`` with ``uri``, ``ref/prompt`` with ``name``)."""
        if ref.get("type") == "ref/resource":
            suffixes = {SCENE_PREFIX + "{path}": SCENE_SUFFIXES, SCRIPT_PREFIX + "{path}": SCRIPT_SUFFIXES}
            found = suffixes.get(str(ref.get("uri")))
            if found is None or argument != "path":
                return NOTHING
            prefix = "res://" if typed.startswith("res://") else ""
            return await self._files(found, typed, prefix)
        if ref.get("type") == "ref/prompt":
            return await self._prompt_argument(str(ref.get("name")), argument, typed)
        return NOTHING

    async def _prompt_argument(self, prompt: str, argument: str, typed: str) -> Completion:
        if (prompt, argument) == ("write-test", "file_path"):
            return await self._files(SCRIPT_SUFFIXES, typed, "res://")
        if (prompt, argument) == ("debug-scene", "node_path"):
            return _completion(matching(await self._open_scene_nodes(), typed))
        definition = self.prompts.prompts.get(prompt)
        arg = next((a for a in definition.arguments if a.name == argument), None) if definition else None
        if arg is None or not arg.choices:
            return NOTHING
        choices = list(arg.choices)
        if argument == "framework":
            installed = [c for c in choices if (self.project / FRAMEWORK_ADDONS.get(c, "\0")).is_dir()]
            choices = installed + [c for c in choices if c not in installed]
        return _completion(matching(choices, typed))

    # -- project files ----------------------------------------------------------------

    async def _files(self, suffixes: tuple[str, ...], typed: str, prefix: str) -> Completion:
        """Project files with these suffixes, as ``prefix`` + their path under ``res://``."""
        paths, truncated = await anyio.to_thread.run_sync(self._walk, suffixes)
        stem = typed[len("res://"):] if typed.startswith("res://") else typed
        return _completion([prefix + p for p in matching(paths, stem)], truncated)

    def _walk(self, suffixes: tuple[str, ...]) -> tuple[list[str], bool]:
        found: list[str] = []
        seen = 0
        for relative in self._project_files():
            seen += 1
            if seen > MAX_FILES_SEEN:
                return sorted(found), True
            if relative.endswith(suffixes) and self._guarded(relative):
                found.append(relative)
        return sorted(found), False

    def _project_files(self) -> Iterator[str]:
        root = self.project
        for folder, dirs, files in os.walk(root):  # symlinked folders are not entered
            rel_folder = Path(folder).relative_to(root).as_posix()
            rel_folder = "" if rel_folder == "." else rel_folder + "/"
            dirs[:] = sorted(d for d in dirs if not d.startswith(".") and rel_folder + d != TOOLKIT_DIR)
            for name in files:
                if not name.startswith("."):
                    yield rel_folder + name

    def _guarded(self, relative: str) -> bool:
        """The resources' own guard: a listed path is one ``resources/read`` would accept."""
        path = "res://" + relative
        try:
            check_path("path", path, ["res://"])
            on_disk(self.project, path)
        except (ResourceError, ToolError):
            return False
        return True

    # -- the editor --------------------------------------------------------------------

    async def _open_scene_nodes(self) -> list[str]:
        if not self.editor.connected:
            return []
        try:
            reply = await self.editor.call("scene.get_tree", {"max_depth": -1}, timeout=EDITOR_TIMEOUT_S)
        except ToolError as err:
            log.debug("node_path completion: the editor could not answer (%s)", err.message)
            return []
        if not isinstance(reply, dict) or reply.get("success") is False:
            return []
        return _node_paths(reply.get("tree"))


def _node_paths(root: Any) -> list[str]:
    """Every ``path`` in an editor scene tree, depth first (no recursion: a tree can be deep)."""
    out: list[str] = []
    stack = [root]
    while stack:
        node = stack.pop()
        if not isinstance(node, dict):
            continue
        path = node.get("path")
        if isinstance(path, str) and path:
            out.append(path)
        children = node.get("children")
        if isinstance(children, list):
            stack.extend(reversed(children))
    return out
