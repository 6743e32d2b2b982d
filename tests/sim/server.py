"""A stand-in for the godot_mcp_toolkit editor plugin (and the game's runtime server).

It speaks the toolkit's side of the wire for real (contract C1, C2, C3, C5, C14,
C16, C18, C20): a WebSocket server on 127.0.0.1, the registry entry in
``<data_home>/godot-mcp-toolkit/projects.json``, the token file under
``.../addons/godot_mcp_toolkit/project_instance_<12 hex>/mcp_token``, first-frame
auth with the toolkit's close codes, JSON-RPC replies, ``_queued``/``_executing``
progress, ``{"notification": ...}`` broadcasts, and a game that starts and stops.

Replies follow a per-method *script* of steps (plain dicts, so a JSON file can
carry them to the subprocess form):

    {"result": {...}}                 reply with this result, verbatim
    {"fail": {"code", "error", "hint"?}}   reply {"success": false, ...}
    {"rpc_error": {"code", "message"}}     reply with a JSON-RPC error
    {"sleep": seconds}                 delay before the next step
    {"queued": true} / {"executing": true}  send the progress notification
    {"push": {...}}                    broadcast a frame to every authed peer
    {"send": {...}}                    send a raw frame on this connection
    {"close": {"code", "reason"}}      close this connection mid-call
    {"abort": true}                    drop the TCP connection (editor killed)
    {"silence": true}                  never reply
    {"wait_cancel": seconds}           wait for the bridge's _cancel of this call, then stay silent
    {"default": true}                  reply as the unscripted simulator would

Unscripted methods get an echo-ish success: ``{"success": true, "method", "params"}``
(plus real behaviour for extensions.list/refresh, game.start/stop, debugger.get_log,
meta.set_limits, echo and ping). ``instant=True`` skips recording and scripts
entirely, for benchmarks.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import os
import secrets
import sys
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed

log = logging.getLogger("tests.sim")

APP_DIR = "godot-mcp-toolkit"
AUTH_TIMEOUT = 2.0  # the toolkit's _AUTH_TIMEOUT_MS


def canonical_key(project: str | os.PathLike[str], platform: str = sys.platform) -> str:
    """The toolkit's project key: '/' separators, no trailing '/', lowercased where the OS folds case."""
    key = str(project).replace("\\", "/")
    while len(key) > 1 and key.endswith("/"):
        key = key[:-1]
    if platform.startswith("win") or platform == "darwin":
        key = key.lower()
    return key


def instance_hash(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()[:12]


class SimRegistry:
    """``projects.json`` as the toolkit writes it: ``{"by_path": {key: entry}}``, atomically replaced."""

    def __init__(self, data_home: Path) -> None:
        self.dir = Path(data_home) / APP_DIR
        self.path = self.dir / "projects.json"

    def read(self) -> dict[str, dict[str, Any]]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (FileNotFoundError, ValueError):
            return {}
        by_path = data.get("by_path") if isinstance(data, dict) else None
        return by_path if isinstance(by_path, dict) else {}

    def _write(self, by_path: dict[str, dict[str, Any]]) -> None:
        self.write_raw(json.dumps({"by_path": by_path}, indent=1))

    def write_raw(self, text: str) -> None:
        self.dir.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(self.path.name + ".tmp")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, self.path)

    def update(self, key: str, **fields: Any) -> dict[str, Any]:
        by_path = self.read()
        entry = dict(by_path.get(key) or {"_key": key})
        entry.update(fields)
        by_path[key] = entry
        self._write(by_path)
        return entry

    def remove(self, key: str) -> None:
        by_path = self.read()
        by_path.pop(key, None)
        self._write(by_path)


@dataclass
class _Script:
    steps: list[dict[str, Any]]
    times: int | None  # None = forever


@dataclass
class Received:
    frame: dict[str, Any]
    conn: int
    at: float = field(default_factory=time.monotonic)

    @property
    def method(self) -> str | None:
        return self.frame.get("method")

    @property
    def params(self) -> Any:
        return self.frame.get("params")


class ToolkitSim:
    def __init__(
        self,
        data_home: str | os.PathLike[str],
        project: str | os.PathLike[str],
        *,
        mode: str = "editor",
        godot_version: str = "4.4.1",
        plugin_version: str = "0.1.0",
        headless: bool = False,
        token: str | None = None,
        auth_timeout: float = AUTH_TIMEOUT,
        instant: bool = False,
        extensions: list[dict[str, Any]] | None = None,
        game: bool = True,
        lsp_port: int | None = 6005,
    ) -> None:
        if mode not in ("editor", "runtime"):
            raise ValueError(f"mode must be 'editor' or 'runtime', not {mode!r}")
        self.data_home = Path(data_home)
        self.project = str(project)
        self.key = canonical_key(self.project)
        self.mode = mode
        self.godot_version = godot_version
        self.plugin_version = plugin_version
        self.headless = headless
        self.token = token or secrets.token_hex(32)
        self.auth_timeout = auth_timeout
        self.instant = instant
        self.extensions: list[dict[str, Any]] = list(extensions or [])
        self.game_enabled = game
        self.lsp_port = lsp_port
        self.registry = SimRegistry(self.data_home)
        name = Path(self.key).name or "project"
        self.token_path = (
            self.data_home / "godot" / "app_userdata" / name / "addons" / "godot_mcp_toolkit"
            / f"project_instance_{instance_hash(self.key)}" / "mcp_token"
        )
        self.port: int | None = None
        self.received: list[Received] = []
        self.auth_frames: list[Any] = []
        self.log_lines: list[str] = []
        self.error_buffer: list[dict[str, Any]] = []
        self.answer_pings = True
        self.frozen = False  # accept connections but never answer the auth frame (a hung editor)
        self.runtime: ToolkitSim | None = None
        self.connections = 0
        self._server: Server | None = None
        self._peers: set[ServerConnection] = set()
        self._all: set[ServerConnection] = set()
        self._scripts: dict[str, deque[_Script]] = {}
        self._cancelled: dict[str, asyncio.Event] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._changed = asyncio.Event()

    # -- lifecycle -------------------------------------------------------------

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def write_token(self) -> None:
        self.token_path.parent.mkdir(parents=True, exist_ok=True)
        self.token_path.write_text(self.token, encoding="utf-8")  # raw, no trailing newline (C2)

    def entry(self) -> dict[str, Any]:
        return {
            "_key": self.key,
            "port": self.port,
            "token_path": str(self.token_path),
            "pid": os.getpid(),
            "started_at": time.time(),
            "godot_version": self.godot_version,
            "runtime_port": None,
            "runtime_pid": None,
            "lsp_host": "127.0.0.1" if self.lsp_port else None,
            "lsp_port": self.lsp_port,
        }

    def publish(self, **overrides: Any) -> dict[str, Any]:
        """(Re)write this editor's registry entry; ``overrides`` replace fields (tests corrupt them this way)."""
        fields = self.entry()
        if self.runtime is not None and self.runtime.port:
            fields.update(runtime_port=self.runtime.port, runtime_pid=os.getpid())
        fields.update(overrides)
        return self.registry.update(self.key, **fields)

    async def start(self, port: int = 0, *, publish: bool = True) -> ToolkitSim:
        self._server = await serve(
            self._handle,
            "127.0.0.1",
            port,
            compression=None,
            ping_interval=None,
            max_size=None,
        )
        self.port = self._server.sockets[0].getsockname()[1]
        if self.mode == "editor":
            self.write_token()
            if publish:
                self.publish()
        log.info("sim %s listening on %s", self.mode, self.port)
        return self

    async def stop(self) -> None:
        """The editor goes away: connections drop (no close frame), the port closes.

        Like the real toolkit, the registry entry is left behind (stale entries linger, C16).
        """
        if self.runtime is not None:
            await self.stop_game(notify=False)
        self.kill_connections()
        if self._server is not None:
            self._server.close(close_connections=False)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 2.0)
            self._server = None
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    async def restart(self, port: int = 0, *, new_token: bool = False) -> int:
        """Editor restart, on another port (a fresh random one unless ``port`` is given)."""
        old = self.port
        await self.stop()
        if new_token:
            self.token = secrets.token_hex(32)
        while True:
            await self.start(port)
            if port or self.port != old:
                return self.port or 0
            await self.stop()  # the OS handed back the same port; a move is what we want

    def kill_connections(self) -> None:
        for ws in list(self._all):
            with contextlib.suppress(Exception):
                ws.transport.abort()

    async def close_connections(self, code: int = 1001, reason: str = "going away") -> None:
        for ws in list(self._all):
            with contextlib.suppress(Exception):
                await ws.close(code, reason)

    # -- scripting and observation -------------------------------------------------

    def script(self, method: str, *steps: dict[str, Any], times: int | None = 1) -> None:
        self._scripts.setdefault(method, deque()).append(_Script(list(steps), times))

    def requests(self, method: str | None = None) -> list[Received]:
        return [r for r in self.received if "id" in r.frame and (method is None or r.method == method)]

    def notifications(self, method: str | None = None) -> list[Received]:
        return [r for r in self.received if "id" not in r.frame and (method is None or r.method == method)]

    async def wait_for(self, method: str | None = None, *, where: Any = None, after: int = 0, timeout: float = 5.0) -> Received:
        """The first frame received (from index ``after`` on) matching ``method`` and ``where(frame)``."""
        async with asyncio.timeout(timeout):
            index = after
            while True:
                while index < len(self.received):
                    record = self.received[index]
                    index += 1
                    if (method is None or record.method == method) and (where is None or where(record.frame)):
                        return record
                event = self._changed
                await event.wait()

    def _note(self, record: Received) -> None:
        self.received.append(record)
        event, self._changed = self._changed, asyncio.Event()
        event.set()

    async def push(self, message: dict[str, Any]) -> None:
        """A broadcast to every authed peer (extensions.changed, game_stopped, ...)."""
        text = json.dumps(message)
        for ws in list(self._peers):
            with contextlib.suppress(ConnectionClosed):
                await ws.send(text)

    @property
    def peer_count(self) -> int:
        return len(self._peers)

    # -- the game (Mode B) --------------------------------------------------------

    async def start_game(self) -> ToolkitSim:
        if self.runtime is None:
            self.runtime = ToolkitSim(
                self.data_home, self.project, mode="runtime", token=self.token, auth_timeout=self.auth_timeout
            )
            await self.runtime.start()
            self.registry.update(self.key, runtime_port=self.runtime.port, runtime_pid=os.getpid())
        return self.runtime

    async def stop_game(self, *, notify: bool = True) -> None:
        runtime, self.runtime = self.runtime, None
        if runtime is not None:
            await runtime.stop()
            if self.registry.read().get(self.key):
                self.registry.update(self.key, runtime_port=None, runtime_pid=None)
        if notify:
            await self.push({"notification": "game_stopped", "params": {}})

    # -- the wire --------------------------------------------------------------------

    async def _handle(self, ws: ServerConnection) -> None:
        self.connections += 1
        conn = self.connections
        self._all.add(ws)
        try:
            try:
                first = await asyncio.wait_for(ws.recv(), self.auth_timeout)
            except TimeoutError:
                await ws.close(1008, "auth timeout")
                return
            try:
                hello = json.loads(first)
            except ValueError:
                hello = None
            self.auth_frames.append(hello)
            if self.frozen:
                await ws.wait_closed()
                return
            if not isinstance(hello, dict) or hello.get("auth") != self.token:
                await ws.close(1008, "invalid token")
                return
            if self.mode == "editor":
                ack: dict[str, Any] = {
                    "authed": True,
                    "godot_version": self.godot_version,
                    "version": self.plugin_version,
                    "headless": self.headless,
                }
            else:
                ack = {"authed": True}
            await ws.send(json.dumps(ack))
            self._peers.add(ws)
            if self.instant:
                await self._serve_instant(ws)
            else:
                async for raw in ws:
                    self._on_frame(ws, conn, raw)
        except ConnectionClosed:
            pass
        finally:
            self._peers.discard(ws)
            self._all.discard(ws)

    async def _serve_instant(self, ws: ServerConnection) -> None:
        async for raw in ws:
            frame = json.loads(raw)
            if "id" not in frame:
                continue
            method, params = frame.get("method"), frame.get("params")
            result = self._default(method, params) if method in _STATEFUL else {"success": True, "method": method, "params": params}
            await ws.send(json.dumps({"jsonrpc": "2.0", "id": frame["id"], "result": result}))

    def _on_frame(self, ws: ServerConnection, conn: int, raw: str | bytes) -> None:
        try:
            frame = json.loads(raw)
        except ValueError:
            self._spawn(self._send(ws, {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}}))
            return
        if not isinstance(frame, dict) or not isinstance(frame.get("method"), str):
            self._spawn(self._send(ws, {"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "Invalid Request"}}))
            return
        # id coercion as the toolkit does it: a whole float is the int it stands for.
        if isinstance(frame.get("id"), float) and frame["id"].is_integer():
            frame["id"] = int(frame["id"])
        self._note(Received(frame, conn))
        if "id" not in frame:
            self._on_notification(ws, frame)
            return
        self._spawn(self._serve(ws, frame))

    def _on_notification(self, ws: ServerConnection, frame: dict[str, Any]) -> None:
        params = frame.get("params") if isinstance(frame.get("params"), dict) else {}
        if frame["method"] == "_cancel":
            # Matched by the id's text form, as the toolkit's dispatch lane does.
            self._cancel_event(params.get("request_id")).set()
        elif frame["method"] == "echo":
            self._spawn(self._send(ws, {"jsonrpc": "2.0", "method": "echo", "params": params}))

    def _cancel_event(self, rid: Any) -> asyncio.Event:
        return self._cancelled.setdefault(json.dumps(rid) if not isinstance(rid, str) else rid, asyncio.Event())

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _send(self, ws: ServerConnection, frame: dict[str, Any]) -> None:
        with contextlib.suppress(ConnectionClosed):
            await ws.send(json.dumps(frame))

    def _next_script(self, method: str) -> list[dict[str, Any]] | None:
        queue = self._scripts.get(method)
        if not queue:
            return None
        script = queue[0]
        if script.times is not None:
            script.times -= 1
            if script.times <= 0:
                queue.popleft()
        return script.steps

    async def _serve(self, ws: ServerConnection, frame: dict[str, Any]) -> None:
        rid, method = frame["id"], frame["method"]
        params = frame.get("params") if isinstance(frame.get("params"), dict) else {}
        steps = self._next_script(method)
        if steps is None:
            if method == "ping" and not self.answer_pings:
                return
            await self._reply(ws, rid, await self._default_async(method, params))
            return
        for step in steps:
            if "sleep" in step:
                await asyncio.sleep(float(step["sleep"]))
            elif step.get("queued"):
                await self._send(ws, {"jsonrpc": "2.0", "method": "_queued", "params": {"request_id": rid}})
            elif step.get("executing"):
                await self._send(ws, {"jsonrpc": "2.0", "method": "_executing", "params": {"request_id": rid}})
            elif "push" in step:
                await self.push(step["push"])
            elif "send" in step:
                await self._send(ws, step["send"])
            elif "result" in step:
                await self._reply(ws, rid, step["result"])
                return
            elif "fail" in step:
                await self._reply(ws, rid, {"success": False, **step["fail"]})
                return
            elif "rpc_error" in step:
                await self._send(ws, {"jsonrpc": "2.0", "id": rid, "error": step["rpc_error"]})
                return
            elif "close" in step:
                spec = step["close"] if isinstance(step["close"], dict) else {}
                await ws.close(int(spec.get("code", 1011)), str(spec.get("reason", "")))
                return
            elif step.get("abort"):
                ws.transport.abort()
                return
            elif step.get("silence"):
                return
            elif "wait_cancel" in step:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._cancel_event(rid).wait(), float(step["wait_cancel"]))
                return
            elif step.get("default"):
                await self._reply(ws, rid, await self._default_async(method, params))
                return
            else:
                raise ValueError(f"unknown sim step {step!r}")

    async def _reply(self, ws: ServerConnection, rid: Any, result: Any) -> None:
        await self._send(ws, {"jsonrpc": "2.0", "id": rid, "result": result})

    async def _default_async(self, method: str, params: dict[str, Any]) -> Any:
        if self.mode == "editor" and self.game_enabled and method == "game.start":
            if self.runtime is not None:
                return {"success": True, "status": "already_running"}
            await self.start_game()
            return {"success": True, "status": "started", "scene_path": params.get("scene_path", "")}
        if self.mode == "editor" and self.game_enabled and method == "game.stop":
            if self.runtime is None:
                return {"success": False, "error": "no game is running", "code": "GAME_NOT_RUNNING"}
            await self.stop_game()
            return {"success": True, "status": "stopped"}
        return self._default(method, params)

    def _default(self, method: str, params: Any) -> Any:
        if method == "extensions.list":
            return {"success": True, "commands": self.extensions}
        if method == "extensions.refresh":
            return {"success": True, "commands": self.extensions, "refreshed": True}
        if method == "ping":
            return {"success": True, "pong": True}
        if method == "echo":
            return params
        if method == "meta.set_limits":
            return {"success": True, "applied": params}
        if method == "debugger.get_log":
            limit = params.get("limit", 200) if isinstance(params, dict) else 200
            lines = self.log_lines[-int(limit):] if limit else list(self.log_lines)
            reply: dict[str, Any] = {"success": True, "lines": lines, "count": len(lines), "source": "cache"}
            if self.error_buffer:
                reply["error_buffer"] = list(self.error_buffer)
            return reply
        return {"success": True, "method": method, "params": params}


_STATEFUL = frozenset({"extensions.list", "extensions.refresh", "ping", "echo"})
