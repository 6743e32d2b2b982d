"""What a call acts on: whether its question applies (``holds``) and the state an answer is bound to.

res:// paths are read by the bridge itself, from disk, through the path guard (a path that
leaves the project is refused before anything is read). user:// lives where the editor keeps
the game's data, which only the editor knows: it is listed through the toolkit's ``save.list``
(size and modification time of the file). A ``read`` target asks an existing read-only toolkit
method (``scene.get_tree``, ``checkpoint.diff``) and takes its answer as the state.

A state is a digest plus the facts the person is shown ("res://big.bin: 40.2 MiB"). Single files
are hashed byte by byte; a folder by the path, size and modification time of every file in it
(hashing gigabytes would hold the call for seconds). A read that fails is a state too ("could
not read"), so a question is still asked: a failure to look never lets a call through. A read
answered with a refusal of what the call acts on (``REFUSED``: it is not there, or not what the
call can act on) refuses the call before anyone is asked: the call would fail the same way.

A file on disk outside the project (``outside_project``, a copy into it) is judged here, with links
resolved; what it holds is read by the toolkit, which will copy it (``asset.inspect_source``).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import string
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from godot_bridge.consent.policy import UNDO_BUDGET_BYTES
from godot_bridge.consent.question import argument
from godot_bridge.errors import ToolError
from godot_bridge.safety.pathguard import PROJECT_PREFIX, project_file
from godot_bridge.safety.untrusted import without_nonces
from godot_bridge.tools.catalogue import AskTarget, AskWhen, ToolDef

# A toolkit read: (method, params) -> its raw answer; raises ToolError.
Read = Callable[[str, dict[str, Any]], Awaitable[Any]]
USER_PREFIX = "user://"
USER_LIST = "save.list"  # the toolkit's listing of a user:// folder
# A read target answering one of these says the call's target is not there, or is not one the call can
# act on (asset.inspect_source: a hidden source, bytes that are no asset): refused before asking.
REFUSED = frozenset({"NOT_FOUND", "NODE_NOT_FOUND", "NO_SCENE", "PATH_DENIED", "INVALID_PARAMS", "INVALID_PATH"})
# Files the editor keeps beside a file and deletes with it (FileRemoval.SIDECARS).
SIDECARS = (".import", ".uid")


@dataclass(frozen=True)
class State:
    value: str
    facts: list[str] = field(default_factory=list)


def size_text(size: int) -> str:
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if size >= scale:
            return f"{size / scale:.1f} {unit}"
    return f"{size} bytes"


def _hash_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while chunk := handle.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def _walk(folder: Path) -> list[tuple[str, int, int]]:
    """(relative path, size, mtime_ns) of every file under ``folder``; links are not followed."""
    found = []
    for root, dirs, files in os.walk(folder, followlinks=False):
        dirs.sort()
        for name in sorted(files):
            path = Path(root) / name
            try:
                info = path.lstat()
            except OSError:
                continue
            found.append((path.relative_to(folder).as_posix(), info.st_size, info.st_mtime_ns))
    return found


def _local_state(path: Path, shown: str) -> State:
    if path.is_dir():
        files = _walk(path)
        total = sum(size for _, size, _ in files)
        value = hashlib.sha256(json.dumps(files).encode()).hexdigest()
        return State(f"dir:{value}", [f"{shown}: a folder of {len(files)} files, {size_text(total)}"])
    if path.is_file():
        size = path.stat().st_size
        return State(f"file:{_hash_file(path)}", [f"{shown}: {size_text(size)}"])
    return State("absent", [f"{shown}: does not exist"])


def _inside(value: str, project: Path) -> bool:
    """The path on disk ``value`` is inside ``project`` once links are resolved (a link in the project
    to a file elsewhere is outside)."""
    try:
        return Path(os.path.realpath(value)).is_relative_to(project.resolve())
    except (OSError, ValueError, RuntimeError):
        return False


class _Fields(dict[str, str]):
    """A read's answer for ``shows``: its fields as text (a size in bytes as a size), "?" for one it lacks."""

    def __init__(self, answer: Any) -> None:
        fields = answer if isinstance(answer, Mapping) else {}
        super().__init__({str(k): size_text(v) if k == "bytes" and isinstance(v, int) else str(v)
                          for k, v in fields.items()})

    def __missing__(self, key: str) -> str:
        return "?"


def _undo_size(path: Path) -> int:
    """The bytes a delete of ``path`` must keep for undo: the file and its sidecars, or a whole folder."""
    if path.is_dir():
        return sum(size for _, size, _ in _walk(path))
    if not path.is_file():
        return 0
    sidecars = [path.with_name(path.name + suffix) for suffix in SIDECARS]
    return path.stat().st_size + sum(s.stat().st_size for s in sidecars if s.is_file())


class Targets:
    def __init__(self, project: Callable[[], Path], read: Read) -> None:
        self._project = project
        self._read = read

    # -- conditions ---------------------------------------------------------------------------

    async def holds(self, tool: ToolDef, args: Mapping[str, Any], when: AskWhen) -> bool:
        if when.arg is not None:
            return argument(tool, args, when.arg) == when.equals
        value = args.get(when.param)
        if not isinstance(value, str) or not value:
            return False
        if when.exists is not None:
            return await self._exists(when.param, value)
        if when.outside_project is not None:
            return not _inside(value, self._project())
        if not value.startswith(PROJECT_PREFIX):
            return False  # the undo budget is the toolkit's for project files
        path = project_file(when.param, value, self._project())
        return await asyncio.to_thread(_undo_size, path) > UNDO_BUDGET_BYTES

    async def _exists(self, param: str, value: str) -> bool:
        if value.startswith(PROJECT_PREFIX):
            return project_file(param, value, self._project()).exists()
        if value.startswith(USER_PREFIX):
            return await self._user_entry(value) is not None
        return False

    async def _user_entry(self, value: str) -> dict[str, Any] | None:
        """The toolkit's listing entry of the user:// file ``value``; None when there is none."""
        folder, _, name = value.rstrip("/").rpartition("/")
        if folder.endswith(":/"):  # "user://save.json": the folder is user:// itself
            folder += "/"
        answer = await self._read(USER_LIST, {"path": folder})
        if not isinstance(answer, Mapping) or answer.get("success") is False:
            return None
        files = answer.get("files")
        return next((f for f in files if isinstance(f, Mapping) and f.get("name") == name), None) \
            if isinstance(files, list) else None

    async def check_needs(self, tool: ToolDef, args: Mapping[str, Any]) -> None:
        """Raise NOT_FOUND when a target the call needs (``asks.needs``) does not exist."""
        for need in tool.asks.needs if tool.asks is not None else []:
            assert need.exists is not None
            value = args.get(need.exists)
            if isinstance(value, str) and value and not await self._exists(need.exists, value):
                raise ToolError("NOT_FOUND", f"{need.exists}: {value} does not exist; nothing was asked or done",
                                extra={"param": need.exists})

    # -- states -------------------------------------------------------------------------------

    async def state(self, tool: ToolDef, args: Mapping[str, Any]) -> State:
        """The state of everything ``tool``'s question is bound to, as it is now."""
        parts: list[State] = []
        for target in tool.asks.target if tool.asks is not None else []:
            parts.append(await self._one(target, args))
        if not parts:
            return State("")
        return State("|".join(p.value for p in parts), [fact for p in parts for fact in p.facts])

    async def _one(self, target: AskTarget, args: Mapping[str, Any]) -> State:
        if target.file is not None:
            value = args.get(target.file)
            if not isinstance(value, str) or not value:
                return State("-")
            if value.startswith(USER_PREFIX):
                return await self._user_state(value)
            path = project_file(target.file, value, self._project())
            return await asyncio.to_thread(_local_state, path, value)
        assert target.read is not None
        params = {k: args.get(v[1:]) if isinstance(v, str) and v.startswith("$") else v
                  for k, v in target.args.items()}
        try:
            answer = await self._read(target.read, {k: v for k, v in params.items() if v is not None})
        except ToolError as err:
            return State(f"unreadable:{err.code}", [f"its current state could not be read ({err.message})"])
        if isinstance(answer, Mapping) and answer.get("success") is False and answer.get("code") in REFUSED:
            # The call would fail the same way after the question.
            hint = answer.get("hint")
            raise ToolError(str(answer["code"]), f"{answer.get('error') or 'refused'}; nothing was asked or done",
                            hint=hint if isinstance(hint, str) else "")
        # Text from the project comes wrapped with a fresh random nonce on every read: not a change.
        text = without_nonces(json.dumps(answer, sort_keys=True, separators=(",", ":"), default=str))
        facts = [string.Formatter().vformat(target.shows, (), _Fields(answer))] if target.shows else []
        return State(f"read:{hashlib.sha256(text.encode()).hexdigest()}", facts)

    async def _user_state(self, value: str) -> State:
        try:
            entry = await self._user_entry(value)
        except ToolError as err:
            return State(f"unreadable:{err.code}", [f"{value}: could not be listed ({err.message})"])
        if entry is None:
            return State("absent", [f"{value}: does not exist"])
        size = entry.get("bytes")
        shown = size_text(size) if isinstance(size, int) and size >= 0 else "size unknown"
        return State(f"user:{size}:{entry.get('modified')}", [f"{value}: {shown}"])
