"""Start an MCP client entry exactly as the client would, and see whether a bridge answers.

``godot-bridge doctor`` runs the entry's ``command`` with its ``args`` and ``env`` (over the
current environment, as clients do) in the folder the client starts it in, sends ``initialize``
on stdin, and waits a few seconds for the answer on stdout. What it learns: the command does not
exist, the process exits (with its last stderr lines), nothing answers in time, something that
is not this bridge answers, or a bridge of which version answers. Stdin is then closed, which
ends the bridge; a process that does not end is killed, so nothing is left running.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from godot_bridge import __version__

START_TIMEOUT = 10.0  # a cold `uvx` start compiles and resolves first; a warm one answers in about 1.5 s
_STOP_TIMEOUT = 3.0
_INITIALIZE = {
    "jsonrpc": "2.0", "id": 1, "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {},
               "clientInfo": {"name": "godot-bridge-doctor", "version": __version__}},
}


@dataclass(frozen=True)
class ProbeResult:
    ok: bool
    detail: str  # what happened, for the doctor line
    server: str | None = None  # serverInfo.name
    version: str | None = None  # serverInfo.version
    missing: bool = False  # the command was not found


def resolve(command: str, path: str | None) -> str | None:
    """The executable a client would start: a path as given, a bare name looked up on PATH."""
    if os.sep in command or (os.altsep and os.altsep in command):
        return command if Path(command).is_file() and os.access(command, os.X_OK) else None
    return shutil.which(command, path=path)


def _tail(data: bytes, lines: int = 3) -> str:
    text = data.decode("utf-8", "replace").strip().splitlines()
    return " | ".join(line.strip() for line in text[-lines:] if line.strip())


async def _stop(proc: asyncio.subprocess.Process) -> None:
    if proc.stdin is not None and not proc.stdin.is_closing():
        proc.stdin.close()
    try:
        await asyncio.wait_for(proc.wait(), _STOP_TIMEOUT)
    except asyncio.TimeoutError:
        with contextlib.suppress(ProcessLookupError):
            proc.kill()
        await proc.wait()


def _answer(line: bytes) -> tuple[str | None, str | None, str | None]:
    """(serverInfo.name, serverInfo.version, problem) from the first stdout line."""
    try:
        message = json.loads(line)
    except ValueError:
        return None, None, f"wrote something that is not JSON-RPC on stdout: {line[:120]!r}"
    result = message.get("result") if isinstance(message, dict) else None
    info = result.get("serverInfo") if isinstance(result, dict) else None
    if not isinstance(info, dict):
        error = message.get("error") if isinstance(message, dict) else None
        return None, None, f"answered initialize without serverInfo ({json.dumps(error or message)[:160]})"
    return str(info.get("name", "")), str(info.get("version", "")), None


async def probe(command: str, args: Sequence[str], env: Mapping[str, str], cwd: Path,
                timeout: float = START_TIMEOUT) -> ProbeResult:
    """Start ``command args`` with ``env`` in ``cwd``, send initialize, wait ``timeout`` s for the answer."""
    exe = resolve(command, env.get("PATH"))
    if exe is None:
        return ProbeResult(False, f"{command} is not found (not on PATH, or not an executable file)", missing=True)
    try:
        proc = await asyncio.create_subprocess_exec(
            exe, *args, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE, cwd=str(cwd), env=dict(env))
    except OSError as exc:
        return ProbeResult(False, f"{command} cannot be started ({exc.strerror or exc})", missing=True)
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    errors = asyncio.ensure_future(proc.stderr.read())  # drained all along: a full pipe would stall it
    try:
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            proc.stdin.write((json.dumps(_INITIALIZE) + "\n").encode())
            await proc.stdin.drain()
        try:
            line = await asyncio.wait_for(proc.stdout.readline(), timeout)
        except asyncio.TimeoutError:
            return ProbeResult(False, f"started, but did not answer initialize within {timeout:g} s")
        if not line:
            await _stop(proc)
            said = _tail(await errors)
            return ProbeResult(False, f"exited with status {proc.returncode} before answering"
                               + (f": {said}" if said else ""))
        name, version, problem = _answer(line)
        if problem is not None:
            return ProbeResult(False, problem)
        return ProbeResult(True, f"{name} {version} answered initialize", server=name, version=version)
    finally:
        await _stop(proc)
        if not errors.done():
            errors.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await errors
