"""Start a Godot editor for the project, wait until its toolkit answers, stop a hung one.

The pieces behind ``editor_launch`` / ``editor_restart`` (godot_bridge/editor/lifecycle.py),
kept free of MCP so they are testable on their own:

* ``find_godot``: which binary — ``GODOT_BIN`` (a path, or a name on PATH), else the
  ``godot_path`` the toolkit published in this project's registry entry (our extension;
  the reference ignores the field).
* ``start_editor``: ``<godot> --editor --path <project>`` (``--headless`` first for an editor
  without a window: plugins load and the toolkit serves as usual, no display needed),
  detached (its own session / process group, so it outlives the bridge and a Ctrl-C in the
  client's terminal), with stdin closed and its output in a private log file in the user's own
  log folder (``log_folder``): the bridge's stdout carries protocol only.
* ``wait_ready``: poll the registry until this project's entry names a port that accepts
  our token (a real auth handshake through ``WsChannel``); the timeout says what was seen last.
* ``stop_editor``: SIGTERM, then SIGKILL after a grace period, only for a pid the registry
  names *and* whose editor port is listening (a stale entry's pid may have been reused).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import platformdirs

from godot_bridge import __version__
from godot_bridge.editor import token as tokens
from godot_bridge.editor.channel import HOST, WsChannel
from godot_bridge.editor.registry import RegistryEntry, is_pid_alive, project_key, read_registry, tcp_accepts
from godot_bridge.errors import ToolError
from godot_bridge.safety import private_files

GODOT_BIN = "GODOT_BIN"
APP_NAME = "godot-bridge"  # the bridge's folder name under the user's state and log folders
LOG_TAIL_CHARS = 600
# An entry written this long before our launch belongs to an earlier editor (clock granularity slack).
_STALE_SLACK_S = 2.0

Report = Callable[[str], Awaitable[None]]

_HINT_SET_BIN = (
    f"Set {GODOT_BIN} to the Godot 4 executable in the MCP server's environment (the \"env\" block of .mcp.json), "
    'e.g. "GODOT_BIN": "/usr/local/bin/godot". Opening the project once in Godot with the plugin enabled also '
    "publishes the path."
)


@dataclass(frozen=True)
class GodotBinary:
    path: Path
    origin: str  # "GODOT_BIN" or "the registry (godot_path)"


@dataclass(frozen=True)
class Ready:
    port: int
    pid: int | None
    ack: dict[str, Any]


@dataclass
class Launched:
    process: subprocess.Popen[bytes]
    command: list[str]
    log_path: Path
    started_at: float

    @property
    def pid(self) -> int:
        return self.process.pid

    def log_tail(self) -> str:
        try:
            text = self.log_path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""
        text = text.strip()
        return text if len(text) <= LOG_TAIL_CHARS else "..." + text[-LOG_TAIL_CHARS:]


# -- which binary --------------------------------------------------------------------------


def _resolve(raw: str, origin: str) -> GodotBinary:
    hint = _HINT_SET_BIN if origin == GODOT_BIN else f"Set {GODOT_BIN} to the Godot 4 executable."
    candidate = raw.strip()
    if os.sep not in candidate and "/" not in candidate and not Path(candidate).is_absolute():
        found = shutil.which(candidate)
        if found is None:
            raise ToolError("GODOT_NOT_FOUND", f"{origin}: {candidate!r} is not a file and not on PATH", hint=hint)
        candidate = found
    path = Path(candidate).expanduser()
    if not path.is_absolute():
        raise ToolError("GODOT_NOT_FOUND", f"{origin}: {raw!r} is a relative path; give an absolute one", hint=hint)
    if not path.exists():
        raise ToolError("GODOT_NOT_FOUND", f"{origin}: {path} does not exist", hint=hint)
    if not path.is_file():
        raise ToolError("GODOT_NOT_FOUND", f"{origin}: {path} is not a file", hint=hint)
    if not os.access(path, os.X_OK):
        raise ToolError("GODOT_NOT_FOUND", f"{origin}: {path} is not executable", hint=f"chmod +x {path}, or {hint}")
    return GodotBinary(path, origin)


def find_godot(env: Mapping[str, str], entry: RegistryEntry | None) -> GodotBinary:
    """GODOT_BIN, else the path the toolkit published; GODOT_NOT_FOUND says how to set it."""
    raw = str(env.get(GODOT_BIN, "")).strip()
    if raw:
        return _resolve(raw, GODOT_BIN)
    if entry is not None and entry.godot_path:
        return _resolve(entry.godot_path, "the registry (godot_path)")
    raise ToolError(
        "GODOT_NOT_FOUND",
        f"no Godot executable to start: {GODOT_BIN} is not set and the registry has no godot_path for this project",
        hint=_HINT_SET_BIN,
    )


# -- starting and stopping -------------------------------------------------------------------


def log_folder() -> Path:
    """The user's own log folder for the bridge (platformdirs: ``$XDG_STATE_HOME/godot-bridge/log``
    on Linux, ``~/Library/Logs/godot-bridge`` on macOS, ``%LOCALAPPDATA%\\godot-bridge\\Logs`` on
    Windows), created private. Not the shared temp folder: there another local account could
    create the log's predictable name first."""
    folder = platformdirs.user_log_path(APP_NAME, appauthor=False)
    folder.mkdir(mode=private_files.OWNER_ONLY_FOLDER, parents=True, exist_ok=True)
    if private_files.has_unix_permissions():
        os.chmod(folder, private_files.OWNER_ONLY_FOLDER)  # mkdir's mode passes through the umask
    return folder


def _log_path(project: Path) -> Path:
    safe = "".join(c if c.isalnum() else "_" for c in project_key(project))[-60:]
    return log_folder() / f"editor-{safe}.log"


def editor_command(binary: GodotBinary, project: Path, *, headless: bool = False) -> list[str]:
    return [str(binary.path), *(["--headless"] if headless else []), "--editor", "--path", str(project)]


def start_editor(binary: GodotBinary, project: Path, *, headless: bool = False) -> Launched:
    """Spawn the editor detached from us; raises LAUNCH_FAILED when the OS refuses."""
    command = editor_command(binary, project, headless=headless)
    detach: dict[str, Any]
    if sys.platform.startswith("win"):  # pragma: no cover - exercised on Windows only
        flags = subprocess.DETACHED_PROCESS | subprocess.CREATE_NEW_PROCESS_GROUP  # type: ignore[attr-defined]
        detach = {"creationflags": flags}
    else:
        detach = {"start_new_session": True}
    try:
        # The editor's output is for this user only, in a folder of theirs.
        log_path = _log_path(project)
        with private_files.open_private(log_path) as log_file:
            process = subprocess.Popen(  # noqa: S603 - the binary is the user's own GODOT_BIN / published path
                command,
                stdin=subprocess.DEVNULL,
                stdout=log_file,
                stderr=subprocess.STDOUT,
                cwd=str(project),
                close_fds=True,
                **detach,
            )
    except OSError as exc:
        raise ToolError(
            "LAUNCH_FAILED",
            f"could not start {binary.path} (from {binary.origin}): {exc.strerror or exc}",
            hint=_HINT_SET_BIN,
        ) from exc
    # Reap it when it exits, so a finished editor is not a zombie that still "has" its pid.
    threading.Thread(target=process.wait, daemon=True, name=f"godot-editor-{process.pid}").start()
    return Launched(process, command, log_path, time.time())


def _signal(pid: int, sig: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, sig)


async def _gone(pid: int, within: float) -> bool:
    deadline = time.monotonic() + within
    while is_pid_alive(pid):
        if time.monotonic() >= deadline:
            return False
        await asyncio.sleep(0.05)
    return True


async def stop_editor(entry: RegistryEntry, *, grace: float = 10.0) -> str:
    """Stop the editor the registry entry names; returns how ("terminated" / "killed" / "not running")."""
    pid = entry.pid
    if pid is None or not is_pid_alive(pid):
        return "not running"
    if pid in (os.getpid(), os.getppid()):
        raise ToolError("LAUNCH_FAILED", f"the registry names pid {pid}, which is this bridge or its client; not stopping it")
    if entry.port is None or not await tcp_accepts(HOST, entry.port, 1.0):
        # The editor died and its pid may now belong to an unrelated process: never signal that.
        raise ToolError(
            "LAUNCH_FAILED",
            f"the registry names pid {pid} but nothing listens on its editor port {entry.port}; "
            "it may not be Godot any more, so it was not stopped",
            hint="Close the old editor by hand if it is still open, then call editor_launch.",
        )
    _signal(pid, signal.SIGTERM)
    if await _gone(pid, grace):
        return "terminated"
    kill = getattr(signal, "SIGKILL", signal.SIGTERM)
    _signal(pid, kill)
    if await _gone(pid, grace):
        return "killed"
    raise ToolError("LAUNCH_FAILED", f"the editor (pid {pid}) did not exit after SIGTERM and SIGKILL")


# -- readiness ---------------------------------------------------------------------------------


async def probe_auth(
    port: int, entry: RegistryEntry | None, *, project: Path, token_path: Path | None, registry_file: Path,
    timeout: float, label: str = "editor",
) -> dict[str, Any]:
    """One real auth handshake on ``port`` with this project's token; returns the ack or raises ToolError."""

    def read_token() -> tuple[str, str]:
        value, source = tokens.load(token_path, entry, project=str(project), registry_file=registry_file)
        return value, source.describe()

    channel = WsChannel(label=label, port=port, default_timeout=timeout)
    try:
        return await channel.open(read_token, __version__, connect_timeout=timeout, auth_timeout=timeout)
    finally:
        await channel.aclose(graceful=False)


def current_entry(project: Path, registry_file: Path) -> RegistryEntry | None:
    return read_registry(registry_file).get(project_key(project))


async def wait_ready(
    project: Path,
    registry_file: Path,
    *,
    timeout: float,
    token_path: Path | None = None,
    launched: Launched | None = None,
    report: Report | None = None,
    poll: float = 0.2,
    probe_timeout: float = 2.0,
) -> Ready:
    """Until the project's registry entry names a port that accepts our token; TIMEOUT names the last state."""
    deadline = time.monotonic() + timeout
    seen = ""

    async def note(state: str) -> None:
        nonlocal seen
        if state != seen:
            seen = state
            if report is not None:
                await report(state)

    while True:
        if launched is not None and launched.process.poll() is not None:
            tail = launched.log_tail()
            raise ToolError(
                "LAUNCH_FAILED",
                f"Godot (pid {launched.pid}) exited with code {launched.process.returncode} before the toolkit was "
                f"ready; last state: {seen or 'nothing seen yet'}" + (f". Its output ends: {tail}" if tail else ""),
                hint="Check that the project opens in Godot by hand and that the godot_mcp_toolkit plugin is enabled.",
            )
        entry = current_entry(project, registry_file)
        fresh = entry is not None and (
            launched is None or entry.started_at is None or entry.started_at >= launched.started_at - _STALE_SLACK_S
        )
        if entry is None or entry.port is None:
            await note("no registry entry for the project yet (Godot is starting or the plugin is not enabled)")
        elif not fresh:
            await note(f"only the old registry entry (port {entry.port}) from before the launch")
        elif not await tcp_accepts(HOST, entry.port, probe_timeout):
            await note(f"registry entry for port {entry.port}, but nothing listens there yet")
        else:
            try:
                ack = await probe_auth(
                    entry.port, entry, project=project, token_path=token_path, registry_file=registry_file,
                    timeout=probe_timeout,
                )
            except ToolError as err:
                await note(f"port {entry.port} listens but auth did not succeed: {err.message}")
            else:
                await note(f"toolkit ready on port {entry.port}")
                return Ready(entry.port, entry.pid, ack)
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise ToolError(
                "TIMEOUT",
                f"the editor for {project} was not ready within {timeout:g} s; last seen: {seen}"
                + (f" (Godot pid {launched.pid} is left running; its output is in {launched.log_path})" if launched else ""),
                hint="Godot may still be importing the project: call editor_launch again with a longer timeout_s, "
                "or check that the godot_mcp_toolkit plugin is enabled in this project.",
            )
        await asyncio.sleep(min(poll, remaining))
