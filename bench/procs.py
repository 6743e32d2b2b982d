"""The processes a benchmark run drives: the toolkit simulator and the bridges under test.

Everything here is started by the benchmark and stopped by it (``close()``); the
orchestrator keeps every handle in a ``ProcessPool`` so an exception or Ctrl-C
still stops them all. Only 127.0.0.1 addresses are used (the simulator binds
there and writes that into the registry).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import signal
import subprocess
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from tests.support.bridge_process import MODERN_META, ROOT, bridge_env

log = logging.getLogger("bench")

HANDSHAKE_VERSION = "2025-06-18"  # a version both bridges negotiate
CLIENT_INFO = {"name": "godot-bridge-bench", "version": "1"}
LINE_LIMIT = 64 * 1024 * 1024  # a 512 KiB result is sent twice by some bridges; leave room


def rss_kib(pid: int) -> int | None:
    """Resident set size of ``pid`` in KiB, from /proc (Linux only)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return None


# -- the simulator ---------------------------------------------------------------


@dataclass
class Sim:
    """``python -m tests.sim`` as a subprocess; ``info`` is its start-up JSON line."""

    data_home: Path
    project: Path
    instant: bool = True
    script: Path | None = None
    plugin_version: str = "1.0.2"  # the reference logs a major-version mismatch error for 0.x
    # The editor's frame buffer (KiB), as a project would raise it: the 1 MiB payloads do not fit the
    # toolkit's default 1024 KiB (1020 KiB of payload), and the reference cannot raise it itself.
    ws_buffer_kb: int | None = None
    info: dict[str, Any] = field(default_factory=dict)
    proc: asyncio.subprocess.Process | None = None

    async def start(self) -> Sim:
        argv = [sys.executable, "-m", "tests.sim", "--data-home", str(self.data_home), "--project", str(self.project),
                "--plugin-version", self.plugin_version]
        if self.instant:
            argv.append("--instant")
        if self.script is not None:
            argv += ["--script", str(self.script)]
        if self.ws_buffer_kb is not None:
            argv += ["--ws-buffer-kb", str(self.ws_buffer_kb)]
        stderr = open(self.data_home / "sim.stderr", "ab")  # noqa: SIM115 - handed to the child
        try:
            self.proc = await asyncio.create_subprocess_exec(
                *argv, stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE, stderr=stderr,
                cwd=str(ROOT), env={**os.environ, "PYTHONPATH": str(ROOT)},
            )
        finally:
            stderr.close()
        assert self.proc.stdout is not None
        line = await asyncio.wait_for(self.proc.stdout.readline(), 30)
        if not line:
            raise RuntimeError(f"the simulator exited before its start-up line; see {self.data_home / 'sim.stderr'}")
        self.info = json.loads(line)
        return self

    @property
    def port(self) -> int:
        return int(self.info["port"])

    @property
    def token(self) -> str:
        return str(self.info["token"])

    async def close(self) -> None:
        proc, self.proc = self.proc, None
        await _terminate(proc, signal.SIGTERM)


async def _terminate(proc: asyncio.subprocess.Process | None, sig: int) -> None:
    if proc is None or proc.returncode is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        proc.send_signal(sig)
    try:
        await asyncio.wait_for(proc.wait(), 10)
    except TimeoutError:
        with contextlib.suppress(ProcessLookupError):
            proc.kill()
        await proc.wait()


# -- the bridges -------------------------------------------------------------------


@dataclass(frozen=True)
class BridgeSpec:
    """How to launch one bridge: argv plus any environment of its own."""

    name: str  # "ours" or "reference"
    argv: tuple[str, ...]
    modern: bool  # speaks the 2026-07-28 era
    env: Mapping[str, str] = field(default_factory=dict)


def ours_spec() -> BridgeSpec:
    compile_bytecode(ROOT)
    return BridgeSpec("ours", (sys.executable, "-m", "godot_bridge"), modern=True)


def compile_bytecode(root: Path) -> bool:
    """Write ``godot_bridge``'s bytecode under ``root`` before timing it, as an install has it.

    The benchmark runs the bridge from the source tree. Where PYTHONDONTWRITEBYTECODE is set
    (as in some CI and sandbox shells) nothing would ever be cached there, and every spawn
    would compile the whole package again: ~50 ms of each start-up measured in this repo, a
    cost no installed bridge pays after its first launch (pip compiles on install; uvx's first
    run writes the cache). ``uvx`` cold and warm launches are measured separately.
    """
    import compileall

    return bool(compileall.compile_dir(str(root / "godot_bridge"), quiet=1, workers=1))


def reference_paths(prefix: Path) -> tuple[Path, Path]:
    """(node binary, dist/index.js) of an ``npm install --prefix`` of the reference bridge."""
    modules = prefix / "node_modules"
    node = modules / "node" / "bin" / "node"
    if not node.exists():
        node = modules / ".bin" / "node"
    return node, modules / "@npgamedev" / "godot-mcp-server" / "dist" / "index.js"


def reference_spec(prefix: Path) -> BridgeSpec:
    node, entry = reference_paths(prefix)
    missing = [str(p) for p in (node, entry) if not p.exists()]
    if missing:
        raise FileNotFoundError(
            "the reference bridge is not installed (missing " + ", ".join(missing) + "); run:\n"
            f"  npm install --prefix {prefix} @npgamedev/godot-mcp-server@1.0.2 node@22"
        )
    return BridgeSpec("reference", (str(node), str(entry)), modern=False)


def node_version(spec: BridgeSpec) -> str | None:
    try:
        out = subprocess.run([spec.argv[0], "--version"], capture_output=True, text=True, timeout=20, check=True)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip()


class BridgeError(RuntimeError):
    pass


class StdioBridge:
    """A bridge under test, spoken to with raw JSON-RPC lines (the way an MCP client does).

    Lean on purpose: the client's own cost is part of every round trip we time, so the
    reader only decodes each line and resolves the waiter; nothing is kept per message.
    stderr goes to a file (both bridges log one line per call, and a full pipe would stall them).
    """

    def __init__(self, spec: BridgeSpec, data_home: Path, project: Path, stderr_path: Path,
                 extra_env: Mapping[str, str] | None = None) -> None:
        self.spec = spec
        env = bridge_env(data_home, project, {"GODOT_MCP_CONFIG_VERSION": "1", **spec.env, **(extra_env or {})})
        self.env = env
        self.stderr_path = stderr_path
        self.proc: asyncio.subprocess.Process | None = None
        self.spawned_at = 0.0
        self.notifications = 0
        self.junk_lines = 0  # stdout lines that are not JSON (a stdio server must print none)
        self._waiters: dict[int, asyncio.Future[tuple[dict[str, Any], int]]] = {}
        self._next_id = 0
        self._reader: asyncio.Task[None] | None = None

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def rss_kib(self) -> int | None:
        return rss_kib(self.pid)

    async def start(self) -> StdioBridge:
        stderr = open(self.stderr_path, "ab")  # noqa: SIM115 - handed to the child
        try:
            self.spawned_at = time.perf_counter()
            self.proc = await asyncio.create_subprocess_exec(
                *self.spec.argv, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=stderr,
                env=self.env, cwd=str(ROOT), limit=LINE_LIMIT,
            )
        finally:
            stderr.close()
        self._reader = asyncio.create_task(self._read())
        return self

    async def _read(self) -> None:
        assert self.proc and self.proc.stdout
        try:
            while line := await self.proc.stdout.readline():
                try:
                    msg = json.loads(line)
                except ValueError:  # not protocol: a wrapper's chatter (py-spy) or a bridge bug; counted
                    self.junk_lines += 1
                    continue
                rid = msg.get("id")
                if "method" in msg:
                    if rid is not None:  # a server->client request: we offer no client features
                        await self._send({"jsonrpc": "2.0", "id": rid,
                                          "error": {"code": -32601, "message": "not supported by the benchmark"}})
                    else:
                        self.notifications += 1
                    continue
                fut = self._waiters.pop(rid, None)
                if fut is not None and not fut.done():
                    fut.set_result((msg, len(line)))
        finally:
            err = BridgeError(f"{self.name} closed its stdout (exit {self.proc.returncode}); see {self.stderr_path}")
            for fut in self._waiters.values():
                if not fut.done():
                    fut.set_exception(err)
            self._waiters.clear()

    async def _send(self, msg: dict[str, Any]) -> None:
        assert self.proc and self.proc.stdin
        self.proc.stdin.write(json.dumps(msg, separators=(",", ":")).encode() + b"\n")
        await self.proc.stdin.drain()

    async def request(self, method: str, params: dict[str, Any] | None = None, *, modern: bool = False,
                      timeout: float = 60.0) -> tuple[dict[str, Any], int]:
        """(the JSON-RPC response, its line length in bytes)."""
        self._next_id += 1
        rid = self._next_id
        if modern:
            params = {**(params or {}), "_meta": MODERN_META}
        msg: dict[str, Any] = {"jsonrpc": "2.0", "id": rid, "method": method}
        if params is not None:
            msg["params"] = params
        fut: asyncio.Future[tuple[dict[str, Any], int]] = asyncio.get_running_loop().create_future()
        self._waiters[rid] = fut
        await self._send(msg)
        return await asyncio.wait_for(fut, timeout)

    async def notify(self, method: str, params: dict[str, Any] | None = None) -> None:
        msg: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            msg["params"] = params
        await self._send(msg)

    async def initialize(self) -> dict[str, Any]:
        resp, _ = await self.request("initialize", {"protocolVersion": HANDSHAKE_VERSION, "capabilities": {},
                                                    "clientInfo": CLIENT_INFO})
        result = resp.get("result")
        if not isinstance(result, dict):
            raise BridgeError(f"{self.name} refused initialize: {resp}")
        await self.notify("notifications/initialized")
        return result

    async def tools(self, *, modern: bool = False) -> list[dict[str, Any]]:
        resp, _ = await self.request("tools/list", modern=modern)
        if "result" not in resp:
            raise BridgeError(f"{self.name} tools/list failed: {resp}")
        return list(resp["result"]["tools"])

    async def call(self, name: str, arguments: dict[str, Any], *, modern: bool = False) -> tuple[dict[str, Any], int]:
        """A tools/call that must succeed; returns (result, response bytes)."""
        resp, size = await self.request("tools/call", {"name": name, "arguments": arguments}, modern=modern)
        result = resp.get("result")
        if not isinstance(result, dict) or result.get("isError"):
            raise BridgeError(f"{self.name} {name} failed: {json.dumps(resp)[:500]}")
        return result, size

    async def close(self) -> int | None:
        """Close stdin (the MCP way to end a stdio server); kill only if it will not go."""
        proc, self.proc = self.proc, None
        if proc is None:
            return None
        if proc.stdin and not proc.stdin.is_closing():
            proc.stdin.close()
        try:
            await asyncio.wait_for(proc.wait(), 10)
        except TimeoutError:
            log.warning("%s did not exit 10 s after stdin closed; killing it", self.name)
            await _terminate(proc, signal.SIGKILL)
        if self._reader is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._reader, 5)
        return proc.returncode


class DirectClient:
    """A WebSocket client that talks to the simulator the way a bridge does, with no bridge in between.

    Its round trip is the floor under every bridge round trip: the simulator's own time per
    request plus one WebSocket hop and one JSON encode/decode on each side.
    """

    def __init__(self, port: int, token: str) -> None:
        self.url = f"ws://127.0.0.1:{port}"
        self.token = token
        self.name = "direct"
        self._ws: ClientConnection | None = None
        self._waiters: dict[int, asyncio.Future[tuple[Any, int]]] = {}
        self._next_id = 0
        self._reader: asyncio.Task[None] | None = None

    async def start(self) -> DirectClient:
        self._ws = await connect(self.url, proxy=None, compression=None, ping_interval=None, max_size=None)
        await self._ws.send(json.dumps({"auth": self.token, "version": "bench"}))
        ack = json.loads(await self._ws.recv())
        if not ack.get("authed"):
            raise BridgeError(f"the simulator refused our token: {ack}")
        self._reader = asyncio.create_task(self._read())
        return self

    async def _read(self) -> None:
        assert self._ws is not None
        async for raw in self._ws:
            msg = json.loads(raw)
            fut = self._waiters.pop(msg.get("id"), None)
            if fut is not None and not fut.done():
                fut.set_result((msg.get("result"), len(raw)))

    async def call(self, method: str, params: dict[str, Any]) -> tuple[Any, int]:
        assert self._ws is not None
        self._next_id += 1
        rid = self._next_id
        fut: asyncio.Future[tuple[Any, int]] = asyncio.get_running_loop().create_future()
        self._waiters[rid] = fut
        frame = {"jsonrpc": "2.0", "id": rid, "method": method, "params": params}
        await self._ws.send(json.dumps(frame, ensure_ascii=False, separators=(",", ":")))
        return await asyncio.wait_for(fut, 60)

    async def close(self) -> None:
        ws, self._ws = self._ws, None
        if ws is not None:
            await ws.close()
        if self._reader is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._reader, 5)


class ProcessPool:
    """Every process and connection a run opened, so one ``aclose()`` stops them all."""

    def __init__(self) -> None:
        self._items: list[Any] = []

    def add(self, item: Any) -> Any:
        self._items.append(item)
        return item

    async def discard(self, item: Any) -> None:
        if item in self._items:
            self._items.remove(item)
        await item.close()

    async def aclose(self) -> None:
        while self._items:
            item = self._items.pop()
            try:
                await item.close()
            except Exception:
                log.exception("stopping %r failed", item)
