"""MCP resources: what a client can read without calling a tool.

* ``godot://project/info``: project name, main scene, Godot version, whether the editor and the game
  are connected, read-only mode.
* ``godot://roots``: the folders ``res://`` paths resolve against.
* ``godot://errors``: the errors and warnings the editor and the game pushed (``pushed_errors``);
  subscribable, so a client hears each change instead of polling.
* ``godot://scene/{path}``: a scene's node tree. When the editor is connected it is asked
  (``scene.get_tree`` with the scene's path), and its answer is used only when it says it is
  about that very scene; otherwise the ``.tscn`` is read from disk (godot_files/scenes.py: inherited
  and instanced scenes included), so the resource also works with no editor running (unsaved
  editor changes are then not in it). One shape whichever answers, scene.get_tree's: ``tree``,
  ``returned``, ``total_nodes``, ``has_more``; ``source`` says which. A tree larger than one
  answer (tools/answer_budget.py) is cut breadth-first, as the editor cuts it, and says so.
* ``godot://script/{path}``: a script's text, read from disk (no editor needed), wrapped as
  untrusted content (contract C21).
* ``godot://screenshots/<id>.png``: a screenshot taken with ``image_response_mode: link``, as
  long as the bridge keeps it (editor/screenshot_store.py); listed newest first after the static resources.

``{path}`` is a project path with or without its ``res://`` prefix (``levels/a.tscn`` or
``res://levels/a.tscn``), or a ``uid://`` (resolved from the project's files, godot_files/uids.py),
percent-decoded. Every path goes through the path guard and, on disk, must stay inside the
project after symlinks are resolved. Answers name the ``res://`` path, and the file's ``uid``
when it has one.
"""

from __future__ import annotations

import base64
import json
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import unquote

from godot_bridge import __version__
from godot_bridge.godot_files import uids
from godot_bridge.godot_files.text_format import project_settings
from godot_bridge.editor.screenshot_store import MIME as PNG_MIME
from godot_bridge.editor.screenshot_store import URI_PREFIX as SCREENSHOT_PREFIX
from godot_bridge.editor.screenshot_store import ImageStore
from godot_bridge.editor.pushed_errors import ERRORS_URI, ErrorStore
from godot_bridge.godot_files.scenes import Loaded, SceneFormatError, count_nodes, cut_tree, read_scene
from godot_bridge.errors import RequestError, ToolError
from godot_bridge.safety import untrusted
from godot_bridge.safety.pathguard import check_path
from godot_bridge.tools.answer_budget import budget_bytes, text_size

log = logging.getLogger(__name__)

JSON = "application/json"
SCENE_PREFIX = "godot://scene/"
JOBS_URI = "godot://jobs"
SCRIPT_PREFIX = "godot://script/"
DEFAULT_SCRIPT_LIMIT_KB = 512
SCENE_LIMIT_KB = 2048  # a big level is still well under this as text
EDITOR_TIMEOUT_S = 5.0
SCENE_RESERVE = 400  # the cut's hint and flags
SCENE_CUT_HINT = ("Cut at one answer's size: nodes with child_count have more below. Open the scene (scene_open) "
                  "and read one's branch with scene_get_tree root_path (its path): the same tree from there.")
_ATTR_UNSAFE = re.compile(r"[^A-Za-z0-9_.:/-]")


class ResourceError(RequestError):
    """A read that cannot be answered; ``not_found`` distinguishes a missing file from a bad request."""

    def __init__(self, message: str, *, not_found: bool = False) -> None:
        super().__init__(message)
        self.not_found = not_found


class EditorView(Protocol):
    """The part of ``EditorBridge`` resources read."""

    @property
    def connected(self) -> bool: ...

    @property
    def editor_port(self) -> int | None: ...

    @property
    def runtime_port(self) -> int | None: ...

    godot_version_text: str | None
    headless: bool | None  # the editor's handshake: it runs without a window (None before one)

    async def call(self, method: str, params: dict[str, Any] | None = None, *, channel: str = ...,
                   timeout: float | None = None) -> Any: ...


@dataclass(frozen=True)
class ResourceDef:
    uri: str
    name: str
    title: str
    description: str
    mime_type: str

    def listing(self, key: str = "uri") -> dict[str, Any]:
        return {key: self.uri, "name": self.name, "title": self.title, "description": self.description,
                "mimeType": self.mime_type}


STATIC = (
    ResourceDef("godot://project/info", "project-info", "Godot project info",
                "Project name, main scene, Godot version, editor/game connection, read-only mode.", JSON),
    ResourceDef("godot://roots", "roots", "Project roots",
                "The folder res:// paths resolve against, and the path prefixes tools accept.", JSON),
    ResourceDef(ERRORS_URI, "errors", "Godot errors",
                "Errors and warnings the editor and the running game reported, with file, line, stack and "
                "repeat count. Subscribe to hear changes.", JSON),
    ResourceDef(JOBS_URI, "jobs", "Background jobs",
                "Your jobs (calls started with background: true, MCP tasks): status, message, progress.", JSON),
)
TEMPLATES = (
    ResourceDef(SCENE_PREFIX + "{path}", "scene", "Scene tree",
                "Node tree (name, class, path) of a scene file, e.g. godot://scene/levels/main.tscn.", JSON),
    ResourceDef(SCRIPT_PREFIX + "{path}", "script", "Script text",
                "Text of a script under res://, e.g. godot://script/player.gd, wrapped as untrusted data.",
                "text/plain"),
)


def res_path(project: Path, raw: str) -> str:
    """The ``res://`` path a template's ``{path}`` names (a ``uid://`` resolved from the project's
    files), refused (ResourceError) when unsafe or, for a uid, when no file has it."""
    text = unquote(raw)
    if not text:
        raise ResourceError("the resource URI names no path (expected e.g. godot://scene/main.tscn)")
    if text.startswith(uids.PREFIX):
        found = uids.resolve(project, text)
        if found is None:
            raise ResourceError(f"no file of the project has the uid {text} (a file's uid is in its header or its "
                                ".uid file; the editor's table is .godot/uid_cache.bin); pass its res:// path",
                                not_found=True)
        text = found
    path = text if text.startswith("res://") else "res://" + text
    try:
        check_path("path", path, ["res://"])
    except ToolError as err:
        raise ResourceError(err.message) from None
    return path


def on_disk(project: Path, path: str) -> Path:
    """Where ``res://...`` lives; refused when it resolves (symlinks too) outside the project."""
    root = project.resolve()
    target = (root / path[len("res://"):]).resolve()
    if target != root and root not in target.parents:
        raise ResourceError(f"{path} resolves outside the project folder ({target}); refused")
    return target


def _read_text(file: Path, path: str, limit_kb: int) -> str:
    try:
        size = file.stat().st_size
    except FileNotFoundError:
        raise ResourceError(f"{path} does not exist in the project", not_found=True) from None
    except OSError as exc:
        raise ResourceError(f"{path} cannot be read ({exc.strerror or exc})") from None
    if not file.is_file():
        raise ResourceError(f"{path} is not a file")
    if size > limit_kb * 1024:
        raise ResourceError(f"{path} is {size // 1024} KiB, over the {limit_kb} KiB read limit; "
                            "use the script_read tool with start_line/end_line")
    try:
        return file.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise ResourceError(f"{path} is not UTF-8 text") from None
    except OSError as exc:
        raise ResourceError(f"{path} cannot be read ({exc.strerror or exc})") from None


# The reading client's jobs (godot_bridge/jobs/background.py), by the owner its tool list names.
JobsView = Callable[[str], dict[str, Any]]


class ResourceService:
    def __init__(self, project: Path, editor: EditorView, *, read_only: Callable[[], bool],
                 script_limit_kb: Callable[[], int | None], images: ImageStore | None = None,
                 errors: ErrorStore | None = None, jobs: JobsView | None = None) -> None:
        self.project = project
        self.editor = editor
        self.jobs = jobs
        self.images = images if images is not None else ImageStore()
        self.errors = errors if errors is not None else ErrorStore()
        self._read_only = read_only
        self._script_limit_kb = script_limit_kb

    def list(self) -> list[dict[str, Any]]:
        return [r.listing() for r in STATIC] + [image.resource() for image in self.images.images()]

    def templates(self) -> list[dict[str, Any]]:
        return [r.listing("uriTemplate") for r in TEMPLATES]

    async def read(self, uri: str, owner: str | None = None) -> list[dict[str, Any]]:
        """The ``contents`` array of ``resources/read`` for the client ``owner``; raises ResourceError."""
        if uri == JOBS_URI:
            return [_json(uri, self.jobs(owner) if self.jobs is not None and owner is not None else {"jobs": []})]
        if uri == "godot://project/info":
            return [_json(uri, self.project_info())]
        if uri == "godot://roots":
            return [_json(uri, self.roots())]
        if uri == ERRORS_URI:
            return [_json(uri, self.errors.document())]
        if uri.startswith(SCENE_PREFIX):
            return [_json(uri, await self.scene(res_path(self.project, uri[len(SCENE_PREFIX):])))]
        if uri.startswith(SCRIPT_PREFIX):
            path = res_path(self.project, uri[len(SCRIPT_PREFIX):])
            return [{"uri": uri, "mimeType": "text/plain", "text": self.script(path)}]
        if uri.startswith(SCREENSHOT_PREFIX):
            return [self.screenshot(uri)]
        known = ", ".join([r.uri for r in STATIC] + [r.uri for r in TEMPLATES])
        raise ResourceError(f"unknown resource {uri!r}; known: {known}", not_found=True)

    # -- the resources ------------------------------------------------------------

    def project_info(self) -> dict[str, Any]:
        settings: dict[str, str] = {}
        try:
            settings = project_settings((self.project / "project.godot").read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as exc:
            log.debug("project.godot unreadable: %s", exc)
        main_scene = settings.get("application/run/main_scene")
        main_uid = None
        if main_scene is not None and main_scene.startswith(uids.PREFIX):  # Godot 4.4+ writes the uid
            main_uid, main_scene = main_scene, uids.resolve(self.project, main_scene) or main_scene
        return {
            "project": {
                "name": settings.get("application/config/name"),
                "path": str(self.project),
                "main_scene": main_scene,
                **({"main_scene_uid": main_uid} if main_uid else {}),
            },
            "godot_version": self.editor.godot_version_text,
            "editor": {"connected": self.editor.connected, "port": self.editor.editor_port,
                       "headless": self.editor.headless},
            "game": {"connected": self.editor.runtime_port is not None, "port": self.editor.runtime_port},
            "read_only": self._read_only(),
            "bridge_version": __version__,
        }

    def roots(self) -> dict[str, Any]:
        return {
            "roots": [{"prefix": "res://", "path": str(self.project)}],
            "accepted_prefixes": ["res://", "user://"],
            "note": "user:// is the game's save folder; Godot resolves it per project and platform.",
        }

    async def scene(self, path: str) -> dict[str, Any]:
        uid = {"uid": found} if (found := uids.uid_of(self.project, path)) else {}
        if self.editor.connected:
            tree = await self._scene_from_editor(path)
            if tree is not None:
                return {"scene_path": path, **uid, "source": "editor", **tree}
        if not path.endswith(".tscn"):
            raise ResourceError(f"{path} is not a text scene (.tscn); binary scenes are read only through "
                                "the editor (open it with scene_open, then scene_get_tree)")
        text = _read_text(on_disk(self.project, path), path, SCENE_LIMIT_KB)
        try:
            tree = read_scene(text, self._project_file)
        except SceneFormatError as exc:
            raise ResourceError(f"{path} cannot be read as a scene: {exc}") from None
        total = count_nodes(tree)
        # scene.get_tree's shape (the editor's answer), cut as the editor cuts it: at one answer's size.
        answer: dict[str, Any] = {"scene_path": path, **uid, "source": "file", "tree": {}, "returned": total,
                                  "total_nodes": total, "has_more": False}
        room = budget_bytes() - SCENE_RESERVE - text_size(answer)
        answer["tree"], answer["returned"] = cut_tree(tree, room)
        if answer["returned"] < total:
            answer.update(has_more=True, truncated=True, hint=SCENE_CUT_HINT)
        return answer

    def _project_file(self, path: str, uid: str | None) -> Loaded | None:
        """Another file a scene reads (an instanced or inherited scene, a script): by its path, else by
        its uid (Godot finds a moved file that way), through the path guard; None when unreadable."""
        found = self._read_project_file(path)
        if found is None and uid:
            moved = uids.resolve(self.project, uid)
            found = self._read_project_file(moved) if moved else None
        return found

    def _read_project_file(self, path: str) -> Loaded | None:
        if not path.startswith("res://"):
            return None
        try:
            check_path("path", path, ["res://"])
            return Loaded(path, _read_text(on_disk(self.project, path), path, SCENE_LIMIT_KB))
        except (ToolError, ResourceError):
            return None

    async def _scene_from_editor(self, path: str) -> dict[str, Any] | None:
        try:
            reply = await self.editor.call("scene.get_tree", {"scene_path": path, "max_depth": -1},
                                           timeout=EDITOR_TIMEOUT_S)
        except ToolError as err:
            log.debug("scene resource: the editor could not answer (%s); reading the file", err.message)
            return None
        if not isinstance(reply, dict) or reply.get("success") is False:
            return None
        # The editor's tree is of its edited scene; trust it only when it says that is this file.
        named = reply.get("scene_path") or reply.get("file_path")
        if named != path:
            return None
        return {k: v for k, v in reply.items() if k not in ("success", "scene_path", "file_path")}

    def screenshot(self, uri: str) -> dict[str, Any]:
        image = self.images.find(uri)
        if image is None:
            raise ResourceError(
                f"no screenshot {uri} is kept: it was never taken in this bridge session, or it was dropped "
                f"to keep the last {self.images.max_count} screenshots within {self.images.max_bytes // 2**20} "
                "MiB; take it again", not_found=True)
        return {"uri": uri, "mimeType": PNG_MIME, "blob": base64.b64encode(image.data).decode("ascii")}

    def script(self, path: str) -> str:
        limit = self._script_limit_kb() or DEFAULT_SCRIPT_LIMIT_KB
        text = _read_text(on_disk(self.project, path), path, limit)
        return untrusted.wrap(text, kind="script", source=_ATTR_UNSAFE.sub("_", path))


def _json(uri: str, value: Any) -> dict[str, Any]:
    return {"uri": uri, "mimeType": JSON,
            "text": json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)}
