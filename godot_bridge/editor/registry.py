"""The machine-wide editor registry, ``projects.json`` (contract C16, C17, C20).

Each open editor publishes one entry, keyed by its canonical project path. The
bridge only reads; the toolkit writes. A missing or unreadable registry is an
empty one (plus one warning on stderr), never a crash: the editor may simply
not be open yet.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

APP_DIR = "godot-mcp-toolkit"
REGISTRY_FILE = "projects.json"


def data_dir(env: dict[str, str] | None = None, platform: str = sys.platform) -> Path:
    """The per-OS data directory the toolkit writes its registry under."""
    env = dict(os.environ if env is None else env)
    if platform.startswith("win"):
        base = env.get("APPDATA") or str(Path.home() / "AppData" / "Roaming")
    elif platform == "darwin":
        base = str(Path.home() / "Library" / "Application Support")
    else:
        base = env.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / APP_DIR


def registry_path(env: dict[str, str] | None = None, platform: str = sys.platform) -> Path:
    return data_dir(env, platform) / REGISTRY_FILE


def location_note(env: dict[str, str] | None = None, platform: str = sys.platform) -> str:
    """Which variable put the registry where it is, for errors: a client that passes on only some
    variables (Codex) drops XDG_DATA_HOME, and the bridge then looks in the default folder."""
    name = "APPDATA" if platform.startswith("win") else None if platform == "darwin" else "XDG_DATA_HOME"
    if name is None:
        return ""
    return f"under {name}" if (os.environ if env is None else env).get(name) else f"{name} is not set here"


def project_key(path: str | os.PathLike[str], platform: str = sys.platform) -> str:
    """Canonical key: backslashes to '/', no trailing '/', lowercased where the OS folds case."""
    key = str(path).replace("\\", "/")
    while len(key) > 1 and key.endswith("/"):
        key = key[:-1]
    if platform.startswith("win") or platform == "darwin":
        key = key.lower()
    return key


def _port(value: Any, low: int = 1, high: int = 65535) -> int | None:
    # bool is an int subclass in Python; a JSON true is not a port.
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if isinstance(value, float) and not value.is_integer():
        return None
    port = int(value)
    return port if low <= port <= high else None


def is_pid_alive(pid: int | None) -> bool:
    if pid is None or pid <= 0:
        return False
    if sys.platform.startswith("win"):  # pragma: no cover - exercised on Windows only
        import ctypes

        handle = ctypes.windll.kernel32.OpenProcess(0x1000, False, pid)  # PROCESS_QUERY_LIMITED_INFORMATION
        if not handle:
            return False
        ctypes.windll.kernel32.CloseHandle(handle)
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # exists, owned by someone else
    return True


# With is_pid_alive, how a reader tells a live entry from a stale one (pids get reused): its port
# answers. The language server's endpoint resolution probes its ports with it too.
async def tcp_accepts(host: str, port: int, timeout: float) -> bool:
    """True when something accepts a TCP connection on host:port within ``timeout``."""
    try:
        _, writer = await asyncio.wait_for(asyncio.open_connection(host, port), timeout)
    except (OSError, asyncio.TimeoutError):
        return False
    writer.close()
    with contextlib.suppress(Exception):
        await writer.wait_closed()
    return True


@dataclass(frozen=True)
class RegistryEntry:
    key: str
    port: int | None
    token_path: str
    pid: int | None
    started_at: float | None
    godot_version: str | None
    runtime_port_raw: int | None
    runtime_pid: int | None
    lsp_host: str | None
    lsp_port: int | None
    # Our extension (the reference ignores it): the Godot binary the editor runs, for editor_launch.
    godot_path: str | None = None

    @classmethod
    def from_json(cls, key: str, raw: dict[str, Any]) -> RegistryEntry:
        def _int(v: Any) -> int | None:
            return int(v) if isinstance(v, int | float) and not isinstance(v, bool) else None

        started = raw.get("started_at")
        return cls(
            key=str(raw.get("_key") or key),
            port=_port(raw.get("port")),
            token_path=raw.get("token_path") if isinstance(raw.get("token_path"), str) else "",
            pid=_int(raw.get("pid")),
            started_at=float(started) if isinstance(started, int | float) and not isinstance(started, bool) else None,
            godot_version=raw.get("godot_version") if isinstance(raw.get("godot_version"), str) else None,
            runtime_port_raw=_port(raw.get("runtime_port"), 1024, 65535),
            runtime_pid=_int(raw.get("runtime_pid")),
            lsp_host=raw.get("lsp_host") if isinstance(raw.get("lsp_host"), str) and raw.get("lsp_host") else None,
            lsp_port=_port(raw.get("lsp_port")),
            godot_path=raw.get("godot_path") if isinstance(raw.get("godot_path"), str) and raw.get("godot_path") else None,
        )

    @property
    def runtime_port(self) -> int | None:
        """The game's port, counted only while the game process that published it lives."""
        if self.runtime_port_raw is None or not is_pid_alive(self.runtime_pid):
            return None
        return self.runtime_port_raw


_warned: set[str] = set()


def _warn_once(message: str) -> None:
    if message not in _warned:
        _warned.add(message)
        log.warning(message)


# The reference toolkit replaces the registry as tmp -> old file to .bak -> tmp into place: between
# the two renames the file is missing while .tmp and .bak exist. (Ours renames tmp over the file
# once, so it never leaves that gap; the retry is for the reference's.)
REWRITE_SUFFIXES = (".tmp", ".bak")
REWRITE_PAUSE_S = 0.02


def _mid_rewrite(path: Path) -> bool:
    return any(path.with_name(path.name + suffix).exists() for suffix in REWRITE_SUFFIXES)


def _read_text(path: Path) -> str | None:
    """The registry's text; None when there is none, after a retry if a rewrite was in progress.

    Believing a registry caught between the toolkit's two renames would drop a live game channel
    (its port "vanished"), so a missing file with the rewrite's side files present is read again
    once, and then the previous version (.bak) stands in for it.
    """
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        if not _mid_rewrite(path):
            return None
    time.sleep(REWRITE_PAUSE_S)  # the second rename follows the first within microseconds
    for candidate in (path, path.with_name(path.name + ".bak")):
        try:
            return candidate.read_text(encoding="utf-8")
        except FileNotFoundError:
            continue


def registry_problem(path: Path) -> str | None:
    """Why the registry file yields no entries at all, or None when it parses (the doctor and errors say it)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return "the registry file does not exist yet"
    except (OSError, UnicodeDecodeError) as exc:
        return f"the registry file cannot be read ({getattr(exc, 'strerror', None) or exc})"
    try:
        data = json.loads(text)
    except ValueError as exc:
        where = f" at line {exc.lineno}" if isinstance(exc, json.JSONDecodeError) else ""
        return f"the registry file is not valid JSON ({getattr(exc, 'msg', exc)}{where})"
    if not isinstance(data, dict) or not isinstance(data.get("by_path"), dict):
        return "the registry file has no 'by_path' object"
    return None


def read_registry(path: Path | None = None) -> dict[str, RegistryEntry]:
    """All entries by canonical key; empty (with a warning) when missing or corrupt."""
    path = path or registry_path()
    try:
        text = _read_text(path)
        if text is None:
            return {}
        raw = json.loads(text)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        _warn_once(f"registry {path} is unreadable ({exc}); treating it as empty")
        return {}
    by_path = raw.get("by_path") if isinstance(raw, dict) else None
    if not isinstance(by_path, dict):
        _warn_once(f"registry {path} has no 'by_path' object; treating it as empty")
        return {}
    return {
        project_key(k): RegistryEntry.from_json(k, v)
        for k, v in by_path.items()
        if isinstance(k, str) and isinstance(v, dict)
    }

