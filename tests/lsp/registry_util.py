"""Helpers to write a projects.json registry and to stand up a 'live editor' for the liveness check."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from godot_bridge.editor.registry import project_key


def entry(project: str | Path, *, pid: int | None, port: int | None, started_at: float | None,
          lsp_port: int | None, lsp_host: str | None = "127.0.0.1") -> tuple[str, dict[str, Any]]:
    key = project_key(project)
    return key, {
        "_key": key,
        "port": port,
        "token_path": "",
        "pid": pid,
        "started_at": started_at,
        "godot_version": "4.5.0",
        "runtime_port": None,
        "runtime_pid": None,
        "lsp_host": lsp_host,
        "lsp_port": lsp_port,
    }


def write_registry(path: Path, *entries: tuple[str, dict[str, Any]]) -> Path:
    path.write_text(json.dumps({"by_path": dict(entries)}), encoding="utf-8")
    return path


@contextmanager
def listening_port() -> Iterator[int]:
    """A real socket accepting connections, standing in for a live editor's WebSocket port."""
    server = socket.create_server(("127.0.0.1", 0))
    try:
        yield server.getsockname()[1]
    finally:
        server.close()


def closed_port() -> int:
    with socket.create_server(("127.0.0.1", 0)) as server:
        return server.getsockname()[1]


def dead_pid() -> int:
    """The pid of a process that has already exited (and been reaped)."""
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


LIVE_PID = os.getpid()
