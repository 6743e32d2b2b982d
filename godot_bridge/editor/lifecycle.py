"""The ``editor_launch`` and ``editor_restart`` tools (bridge channel; our addition to the reference).

``editor_launch`` starts an editor for the project when none answers and waits until its
toolkit accepts our token. ``editor_restart`` is for a hung editor: it asks the editor to
save, stops it (the pid from the registry) and launches it again. A save that fails stops
the restart unless ``force`` is set, so unsaved work is never thrown away silently. The
Godot binary is resolved *before* anything is stopped: a restart that could not launch
again must not kill the editor.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from godot_bridge.config import Settings
from godot_bridge.editor import launch
from godot_bridge.editor.channel import HOST
from godot_bridge.editor.registry import RegistryEntry, is_pid_alive, tcp_accepts
from godot_bridge.errors import ToolError
from godot_bridge.tools import results
from godot_bridge.tools.results import ToolOutcome

Progress = Callable[[float, float | None, str | None], Awaitable[None]]
BridgeTool = Callable[[dict[str, Any], Progress | None], Awaitable[ToolOutcome]]

DEFAULT_TIMEOUT_S = 120
_NOTHING_TO_SAVE = frozenset({"NO_SCENE"})


class EditorCaller(Protocol):
    settings: Settings
    registry_file: Path
    headless: bool | None  # what the connected editor said in its handshake; None before one

    async def call(self, method: str, params: dict[str, Any] | None = None, *, channel: str = ..., timeout: float | None = None) -> Any: ...


@dataclass(frozen=True)
class LifecycleTiming:
    save_timeout: float = 15.0  # a hung editor gets this long to answer the save request
    stop_grace: float = 10.0  # SIGTERM -> SIGKILL
    poll: float = 0.2
    probe_timeout: float = 2.0


class EditorLifecycle:
    def __init__(self, editor: EditorCaller, timing: LifecycleTiming | None = None) -> None:
        self.editor = editor
        self.timing = timing or LifecycleTiming()

    @property
    def project(self) -> Path:
        return self.editor.settings.project_path

    def handlers(self) -> dict[str, BridgeTool]:
        return {"editor_launch": self.launch_tool, "editor_restart": self.restart_tool}

    # -- tools -------------------------------------------------------------------------------

    async def launch_tool(self, args: dict[str, Any], progress: Progress | None) -> ToolOutcome:
        try:
            return results.success(await self.launch(_timeout(args), progress, headless=bool(args.get("headless"))))
        except ToolError as err:
            return results.failure(err)

    async def restart_tool(self, args: dict[str, Any], progress: Progress | None) -> ToolOutcome:
        try:
            headless = args.get("headless")
            return results.success(await self.restart(_timeout(args), bool(args.get("force")), progress,
                                                      headless=headless if isinstance(headless, bool) else None))
        except ToolError as err:
            return results.failure(err)

    # -- launch ------------------------------------------------------------------------------

    async def launch(self, timeout: float, progress: Progress | None = None, *, headless: bool = False) -> dict[str, Any]:
        entry = self._entry()
        running = await self._running(entry)
        if running is not None:
            return {"status": "already_running", **running}
        self._check_project()
        binary = launch.find_godot(self.editor.settings.env, entry)
        return await self._start(binary, timeout, _Steps(progress, 2), {"status": "launched"}, headless)

    async def _running(self, entry: RegistryEntry | None) -> dict[str, Any] | None:
        """The live editor's facts when one answers; raises when one runs but does not answer."""
        if entry is None or entry.port is None or not is_pid_alive(entry.pid):
            return None
        if not await tcp_accepts(HOST, entry.port, self.timing.probe_timeout):
            return None
        try:
            ack = await self._probe(entry)
        except ToolError as err:
            raise ToolError(
                "EDITOR_UNRESPONSIVE",
                f"an editor for {self.project} is already running (pid {entry.pid}, port {entry.port}) "
                f"but does not answer: {err.message}",
                hint="Call editor_restart to save, stop and relaunch it (force=true if it cannot save).",
            ) from None
        return {"pid": entry.pid, "port": entry.port, "godot_version": ack.get("godot_version"),
                "headless": ack.get("headless")}

    async def _probe(self, entry: RegistryEntry) -> dict[str, Any]:
        assert entry.port is not None
        return await launch.probe_auth(
            entry.port, entry, project=self.project, token_path=self.editor.settings.token_path,
            registry_file=self.editor.registry_file, timeout=self.timing.probe_timeout,
        )

    async def _start(self, binary: launch.GodotBinary, timeout: float, steps: _Steps, base: dict[str, Any],
                     headless: bool) -> dict[str, Any]:
        started = launch.start_editor(binary, self.project, headless=headless)
        how = " without a window (--headless)" if headless else ""
        await steps.next(f"started {binary.path} (from {binary.origin}) as pid {started.pid}{how}")
        ready = await launch.wait_ready(
            self.project,
            self.editor.registry_file,
            timeout=timeout,
            token_path=self.editor.settings.token_path,
            launched=started,
            report=steps.detail,
            poll=self.timing.poll,
            probe_timeout=self.timing.probe_timeout,
        )
        await steps.next(f"editor ready on port {ready.port}")
        return {
            **base,
            "pid": started.pid,
            "port": ready.port,
            "godot": str(binary.path),
            "godot_from": binary.origin,
            "godot_version": ready.ack.get("godot_version"),
            "headless": headless,
            "command": started.command,
            "log": str(started.log_path),
        }

    def _check_project(self) -> None:
        if not (self.project / "project.godot").is_file():
            raise ToolError(
                "LAUNCH_FAILED",
                f"{self.project} has no project.godot, so Godot cannot open it as a project",
                hint="Point the bridge at the project folder (--project or GODOT_MCP_PROJECT_PATH).",
            )

    def _entry(self) -> RegistryEntry | None:
        return launch.current_entry(self.project, self.editor.registry_file)

    # -- restart -----------------------------------------------------------------------------

    async def restart(self, timeout: float, force: bool, progress: Progress | None = None, *,
                      headless: bool | None = None) -> dict[str, Any]:
        entry = self._entry()
        if entry is None or not is_pid_alive(entry.pid):
            raise ToolError(
                "EDITOR_NOT_RUNNING",
                f"no running editor for {self.project} in the registry ({self.editor.registry_file})",
                hint="Call editor_launch to start one.",
            )
        self._check_project()
        binary = launch.find_godot(self.editor.settings.env, entry)  # before stopping: we must be able to relaunch
        steps = _Steps(progress, 4)
        saved = await self._save()
        if saved["ok"] is False and not force:
            raise ToolError(
                "SAVE_FAILED",
                f"could not save before restarting ({saved['detail']}); the editor was left running",
                hint="Save in the editor by hand, or call editor_restart with force=true to restart without "
                "saving (unsaved changes are lost).",
            )
        await steps.next(f"save: {saved['detail']}")
        how = await launch.stop_editor(entry, grace=self.timing.stop_grace)
        await steps.next(f"old editor (pid {entry.pid}) {how}")
        # Unless told otherwise, relaunch the way the old editor ran (its handshake said whether it had a window).
        relaunch_headless = headless if headless is not None else bool(self.editor.headless)
        return await self._start(
            binary, timeout, steps, {"status": "restarted", "saved": saved["detail"], "stopped": how, "old_pid": entry.pid},
            relaunch_headless,
        )

    async def _save(self) -> dict[str, Any]:
        limit = self.timing.save_timeout
        try:
            reply = await asyncio.wait_for(self.editor.call("editor.save_scene", {}, timeout=limit), limit + 1)
        except (TimeoutError, asyncio.TimeoutError):
            return {"ok": False, "detail": f"the editor did not answer within {limit:g} s"}
        except ToolError as err:
            return {"ok": False, "detail": f"{err.code}: {err.message}"}
        if isinstance(reply, dict) and reply.get("success") is False:
            code = reply.get("code")
            if code in _NOTHING_TO_SAVE:
                return {"ok": True, "detail": "no scene open, nothing to save"}
            return {"ok": False, "detail": f"{code}: {reply.get('error')}"}
        path = reply.get("path") if isinstance(reply, dict) else None
        return {"ok": True, "detail": f"saved {path}" if isinstance(path, str) and path else "saved"}


class _Steps:
    """Progress notifications: numbered milestones, and free-text detail in between.

    MCP wants each notification's progress to be larger than the last, so detail messages
    count up inside the current step (n + 1/2, n + 2/3, ...) without reaching the next one.
    """

    def __init__(self, progress: Progress | None, total: int) -> None:
        self.progress, self.total, self.done, self._sub = progress, total, 0, 0

    async def next(self, message: str) -> None:
        self.done, self._sub = min(self.done + 1, self.total), 0
        await self._send(float(self.done), message)

    async def detail(self, message: str) -> None:
        self._sub += 1
        await self._send(self.done + self._sub / (self._sub + 1), message)

    async def _send(self, value: float, message: str) -> None:
        if self.progress is not None:
            await self.progress(value, float(self.total), message)


def _timeout(args: dict[str, Any]) -> float:
    value = args.get("timeout_s", DEFAULT_TIMEOUT_S)
    return float(value)
