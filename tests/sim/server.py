"""A stand-in for the godot_mcp_toolkit editor plugin (and the game's runtime server).

It speaks the toolkit's side of the wire for real (contract C1, C2, C3, C5, C14,
C16, C18, C20): a WebSocket server on 127.0.0.1, the registry entry in
``<data_home>/godot-mcp-toolkit/projects.json``, the token file under
``.../addons/godot_mcp_toolkit/project_instance_<12 hex>/mcp_token``, first-frame
auth with the toolkit's close codes, JSON-RPC replies, ``_queued``/``_executing``
progress, ``{"notification": ...}`` broadcasts (``notify`` sends any toolkit event, such as
``errors.reported``, from the editor's server or, on ``sim.runtime``, the game's), and a game that
starts, stops, or crashes (``crash_game``: the editor then pushes ``game_crashed``).

Replies follow a per-method *script* of steps (plain dicts, so a JSON file can
carry them to the subprocess form):

    {"result": {...}}                 reply with this result, verbatim
    {"fail": {"code", "error", "hint"?}}   reply {"success": false, ...}
    {"rpc_error": {"code", "message"}}     reply with a JSON-RPC error
    {"sleep": seconds}                 delay before the next step
    {"queued": true} / {"executing": true}  send the progress notification
    {"progress": {"progress", "total", "message"}}  send a counted _progress for this call
    {"push": {...}}                    broadcast a frame to every authed peer
    {"send": {...}}                    send a raw frame on this connection
    {"close": {"code", "reason"}}      close this connection mid-call
    {"abort": true}                    drop the TCP connection (editor killed)
    {"silence": true}                  never reply
    {"wait_cancel": seconds}           wait for the bridge's _cancel of this call, then stay silent
    {"default": true}                  reply as the unscripted simulator would
    {"echo": true}                     reply {"success": true, "method", "params}: what was asked, so
                                       a test can match concurrent answers to their calls

It is as strict as the toolkit where the toolkit is strict, so the bridge's tests meet the
toolkit's real failures: a method the toolkit does not serve in this mode (the vocabulary of
tests/data/reference/toolkit-methods.json, plus the methods of our own catalogue additions in
their channel's mode, plus registered extensions) is answered -32601; a
malformed frame gets the router's -32700/-32600; an inbound frame larger than the connection's
buffer (``ws_buffer_kb``, default 1024 KiB, fixed when the connection is accepted) is dropped
without a word, and a response larger than the buffer becomes ``RESPONSE_TOO_LARGE``;
``echo``, ``ping``, ``_cancel``, ``meta.set_limits``, ``editor.set_lsp_status`` and ``editor.confirm``
(nobody to ask, as outside an editor with a window, unless a test scripts the answer) validate and
answer as the toolkit does; the registry is written as the toolkit writes it
(tests/sim/registry.py). A test that needs a method the toolkit lacks scripts it, which makes
it known. An unscripted known method answers with the toolkit's result example
(tests/fixtures/toolkit/results, each checked against the real toolkit by the GDScript tests)
whose params equal the call's, else the method's first, placeholders filled (tests/sim/answers.py);
a method with no example (a project's extension) answers ``{"success": true, "method", "params"}``,
as every such method does in ``instant`` mode (benchmarks measure the wire, not the answers).
extensions.list/refresh, game.start/stop, debugger.get_log and the test commands behave as the
toolkit does. tests/engine/e2e/test_sim_parity.py compares these answers with the real toolkit's in the
Godot engine; what must still differ is listed, with why, in tests/sim/differences.json.
``instant=True`` skips recording and scripts entirely, for benchmarks.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from godot_bridge.consent.editor_dialog import CONFIRM_METHOD
from godot_bridge.safety import private_files
from godot_bridge.tools.catalogue import load_catalogue
from tests.sim import answers
from tests.sim.examples import example_result, load_examples
from tests.sim.hints import hint_for
from tests.sim.registry import APP_DIR, SimRegistry, canonical_key, instance_hash

log = logging.getLogger("tests.sim")

__all__ = ["APP_DIR", "Received", "SimRegistry", "ToolkitSim", "canonical_key", "instance_hash"]

AUTH_TIMEOUT = 2.0  # the toolkit's _AUTH_TIMEOUT_MS


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
        token_umask: int | None = None,
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
        # None: the token is written as this toolkit writes it (0700 folder, 0600 file); a umask
        # (0o022): as the reference toolkit writes it, with the process umask (0755 folder, 0644 file).
        self.token_umask = token_umask
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
        # What debugger.get_log returns, oldest first: a line (info) or an entry {level, message, source}.
        self.log_lines: list[Any] = []
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
        self._methods = TOOLKIT_METHODS[mode]
        self.limits = dict(LIMIT_DEFAULTS)  # KiB, as meta.set_limits leaves them
        self._buffers: dict[ServerConnection, int] = {}
        self.dropped: list[int] = []  # sizes of inbound frames too big for the buffer (lost, as in Godot)
        self.lsp_status: dict[str, Any] | None = None  # what editor.set_lsp_status stored
        self._inflight: set[str] = set()

    # -- lifecycle -------------------------------------------------------------

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def write_token(self) -> None:
        """As the toolkit writes it: a 0700 folder, a 0600 file, the raw token (no trailing newline, C2).
        With ``token_umask``, as the reference toolkit writes it: a fresh file with the umask's modes."""
        if self.token_umask is not None:
            folder = self.token_path.parent
            if not folder.is_dir():
                folder.mkdir(parents=True)
                folder.chmod(0o777 & ~self.token_umask)  # (mkdir applies this process's own umask)
            self.token_path.unlink(missing_ok=True)
            self.token_path.write_bytes(self.token.encode("utf-8"))
            self.token_path.chmod(0o666 & ~self.token_umask)
            return
        self.token_path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        with private_files.open_private(self.token_path) as file:
            file.write(self.token.encode("utf-8"))

    def entry(self) -> dict[str, Any]:
        """This editor's entry file, as registry_entry.gd build_entry() shapes it."""
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
        """(Re)write this editor's entry file and the projection; ``overrides`` replace fields
        (tests corrupt them this way). Returns the projected entry."""
        return self.registry.write_entry(self.key, {**self.entry(), **overrides})

    def publish_runtime(self, **overrides: Any) -> None:
        """(Re)write the game's overlay (entries/<hash>.runtime.json) and the projection."""
        runtime_port = self.runtime.port if self.runtime is not None else None
        overlay = {"_key": self.key, "runtime_port": runtime_port, "runtime_pid": os.getpid(),
                   "started_at": time.time(), "godot_version": self.godot_version}
        self.registry.write_overlay(self.key, {**overlay, **overrides})

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

    async def notify(self, name: str, params: dict[str, Any] | None = None) -> None:
        """A toolkit event as notifier.gd frames it (``errors.reported``, ``game_crashed``, ...), to every
        authed peer of this server: the editor's, or the game's on ``sim.runtime``."""
        await self.push(_event_frame(name, params or {}))

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
            self.publish_runtime()
        return self.runtime

    async def stop_game(self, *, notify: bool = True) -> None:
        """A clean stop: the game withdraws its overlay (a crashed game, runtime.stop(), leaves it)."""
        runtime, self.runtime = self.runtime, None
        if runtime is not None:
            await runtime.stop()
            self.registry.remove_overlay(self.key)
        if notify:
            await self.push({"notification": "game_stopped", "params": {}})

    async def crash_game(self, *, exit_code: int | None = None, last_lines: list[str] | None = None,
                         log_path: str = "") -> None:
        """The game process dies: its server goes without a word, and the editor, which saw the process
        end without a stop, pushes ``game_crashed``. The overlay goes too: a dead game's ``runtime_pid``
        is not alive, so the registry reader would not report its port either."""
        runtime, self.runtime = self.runtime, None
        if runtime is None:
            raise RuntimeError("crash_game: no game is running")
        runtime.kill_connections()
        await runtime.stop()
        self.registry.remove_overlay(self.key)
        await self.notify("game_crashed", {"exit_code": exit_code, "last_lines": list(last_lines or []),
                                           "log_path": log_path})

    # -- the wire --------------------------------------------------------------------

    async def _handle(self, ws: ServerConnection) -> None:
        self.connections += 1
        conn = self.connections
        self._all.add(ws)
        # The toolkit sizes a peer's buffers when it accepts it (ws_transport.gd buffer_bytes()):
        # a meta.set_limits later changes only connections accepted after it.
        self._buffers[ws] = self.limits["ws_buffer_kb"] * 1024
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
            async for raw in ws:
                self._on_frame(ws, conn, raw)
        except ConnectionClosed:
            pass
        finally:
            self._peers.discard(ws)
            self._all.discard(ws)
            self._buffers.pop(ws, None)

    def _buffer(self, ws: ServerConnection) -> int:
        return self._buffers.get(ws, self.limits["ws_buffer_kb"] * 1024)

    def knows(self, method: str) -> bool:
        """Dispatchable here: the toolkit serves it in this mode, an extension registered it, or a test
        scripted it (a scripted method stands for a handler the test brings along)."""
        if method in self._methods or self._scripts.get(method):
            return True
        return self.mode == "editor" and any(c.get("method") == method for c in self.extensions)

    def _on_frame(self, ws: ServerConnection, conn: int, raw: str | bytes) -> None:
        size = len(raw.encode("utf-8") if isinstance(raw, str) else raw)
        if size > self._buffer(ws):
            # Godot drops an inbound frame larger than the peer's buffer, silently and whole.
            self.dropped.append(size)
            return
        frame, fault = _parse(raw)
        if fault is not None:
            self._spawn(self._respond(ws, fault))
            return
        if not self.instant:
            self._note(Received(frame, conn))
        if frame["method"] == "_cancel":
            params = frame.get("params") if isinstance(frame.get("params"), dict) else {}
            key = _id_text(_normalize_id(params.get("request_id")))
            found = key in self._inflight
            self._cancel_event(key).set()
            if "id" in frame:
                self._spawn(self._reply(ws, frame["id"], {"cancelled": found, "success": True}))
            return
        if "id" not in frame:
            if frame["method"] == "echo":
                self._spawn(self._send(ws, _event_frame("echo", frame.get("params") or {})))
            return  # every other notification is ignored, as the router does
        if not self.knows(frame["method"]):
            self._spawn(self._respond(ws, _error(frame["id"], METHOD_NOT_FOUND, f"Method not found: {frame['method']}")))
            return
        self._spawn(self._serve(ws, frame))

    def _cancel_event(self, key: str) -> asyncio.Event:
        return self._cancelled.setdefault(key, asyncio.Event())

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _send(self, ws: ServerConnection, frame: dict[str, Any]) -> None:
        """A frame to one peer; one that does not fit its buffer is lost, as Godot loses it."""
        await self._send_text(ws, json.dumps(frame))

    async def _send_text(self, ws: ServerConnection, text: str) -> None:
        if len(text.encode("utf-8")) > self._buffer(ws):
            log.info("sim %s: dropped a %d-byte outbound frame", self.mode, len(text))
            return
        with contextlib.suppress(ConnectionClosed):
            await ws.send(text)

    async def _respond(self, ws: ServerConnection, response: dict[str, Any]) -> None:
        """A JSON-RPC response; one too big for the buffer becomes RESPONSE_TOO_LARGE (send_response).

        Encoded once, as ws_transport.gd encodes it (a 1 MiB result encoded twice cost every
        benchmark round trip, bridges and direct floor alike, ~11 ms).
        """
        text = json.dumps(response)
        ceiling = self._buffer(ws) - FRAME_HEADROOM_BYTES
        size = len(text.encode("utf-8"))
        if size > ceiling:
            message = (f"The response is {-(-size // 1024)} KiB; "
                       f"the WebSocket buffer allows {ceiling // 1024} KiB per frame")
            envelope = _fail("RESPONSE_TOO_LARGE", message)
            text = json.dumps({"jsonrpc": "2.0", "id": response.get("id"), "result": envelope})
        await self._send_text(ws, text)

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
        key = _id_text(frame["id"])
        self._inflight.add(key)
        try:
            await self._run(ws, frame)
        finally:
            self._inflight.discard(key)

    async def _run(self, ws: ServerConnection, frame: dict[str, Any]) -> None:
        rid, method = frame["id"], frame["method"]
        params = frame.get("params") if isinstance(frame.get("params"), dict) else {}
        steps = None if self.instant else self._next_script(method)
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
            elif "progress" in step:
                note = {"request_id": rid, **step["progress"]}
                await self._send(ws, {"jsonrpc": "2.0", "method": "_progress", "params": note})
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
                await self._respond(ws, {"jsonrpc": "2.0", "id": rid, "error": step["rpc_error"]})
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
                    await asyncio.wait_for(self._cancel_event(_id_text(rid)).wait(), float(step["wait_cancel"]))
                return
            elif step.get("default"):
                await self._reply(ws, rid, await self._default_async(method, params))
                return
            elif step.get("echo"):
                await self._reply(ws, rid, _echo(method, params))
                return
            else:
                raise ValueError(f"unknown sim step {step!r}")

    async def _reply(self, ws: ServerConnection, rid: Any, result: Any) -> None:
        await self._respond(ws, {"jsonrpc": "2.0", "id": rid, "result": result})

    async def _default_async(self, method: str, params: dict[str, Any]) -> Any:
        if self.mode == "editor" and self.game_enabled and method == "game.start":
            return await self._start_game_call(params)
        if self.mode == "editor" and self.game_enabled and method == "game.stop":
            if self.runtime is None:
                return {"success": True, "status": "not_running"}
            await self.stop_game()
            return {"success": True, "status": "stopped"}
        return self._default(method, params)

    async def _start_game_call(self, params: dict[str, Any]) -> dict[str, Any]:
        """game_commands.gd _cmd_start: a running game is refused (if_running "fail", the default) or
        kept ("return"); otherwise the game starts (every script compiles: the simulator has none)."""
        runtime_poll = params.get("runtime_poll", False)
        if self.runtime is not None:
            if params.get("if_running", "fail") == "fail":
                return _fail("ALREADY_PLAYING", "A game is already running",
                              "Pass if_running='return' to keep it, or call game_stop first.")
            return {"success": True, "status": "already_running", "runtime_poll": runtime_poll}
        await self.start_game()
        waits = params.get("wait_for_runtime", True)
        result = {"success": True, "status": "started", "scene_path": params.get("scene_path", ""),
                  "scripts_checked": 0, "wait_for_runtime": waits, "headless": False}
        if not waits:
            result["hint"] = "Not waiting for the game: runtime tools answer GAME_NOT_RUNNING until it has connected."
        return result

    def _default(self, method: str, params: dict[str, Any]) -> Any:
        """What an unscripted, known method answers: the toolkit's own commands as the toolkit
        answers them; any other handler as a plain success naming what it was asked."""
        if method == "extensions.list":
            return {"success": True, "commands": self.extensions}
        if method == "extensions.refresh":
            return {"success": True, "commands": self.extensions, "refreshed": True}
        if method == "ping":
            return {"success": True, "pong": True}
        if method == "echo":
            return {"success": True, "echo": params}
        if method == "meta.set_limits":
            return self._set_limits(params)
        if method == CONFIRM_METHOD:
            return self._confirm(params)
        if method == "editor.set_lsp_status":
            return self._set_lsp_status(params)
        if method == "debugger.get_log":
            return answers.log_reply(self.log_lines, params, "buffer" if self.mode == "runtime" else "file")
        if method == "test.list":
            return answers.test_list(self.project)
        if method == "test.run" and (refusal := answers.test_run_refusal(self.project)) is not None:
            return refusal
        example = None if self.instant else example_result(method, params)
        return answers.materialize(example) if example is not None else _echo(method, params)

    def _set_limits(self, params: dict[str, Any]) -> dict[str, Any]:
        """meta_commands.gd _cmd_set_limits: validate, clamp, report previous and applied."""
        unknown = [k for k in params if k not in LIMIT_BOUNDS]
        if unknown:
            return _fail("INVALID_PARAMS", f"Unknown limit(s): {', '.join(unknown)}; known: {', '.join(LIMIT_BOUNDS)}")
        if not params:
            return _fail("INVALID_PARAMS", f"Pass at least one of: {', '.join(LIMIT_BOUNDS)}")
        for key, value in params.items():
            if not _is_whole(value):
                return _fail("INVALID_PARAMS", f"{key} must be a whole number of KiB")
        applied, previous, clamped = {}, {}, []
        for key, value in params.items():
            low, high = LIMIT_BOUNDS[key]
            previous[key] = self.limits[key]
            self.limits[key] = applied[key] = min(max(int(value), low), high)
            if applied[key] != int(value):
                clamped.append(key)
        result: dict[str, Any] = {"success": True, "applied": applied, "previous": previous}
        if clamped:
            result["clamped"] = clamped
        if "ws_buffer_kb" in applied and applied["ws_buffer_kb"] != previous["ws_buffer_kb"]:
            result["hint"] = (
                "ws_buffer_kb: replies use it at once; live connections are closed once idle (1001) "
                "so the bridge reconnects with the new inbound size."
            )
        return result

    def _confirm(self, params: dict[str, Any]) -> dict[str, Any]:
        """confirm_commands.gd over a context with nobody to ask (the toolkit outside an editor with a
        window): params checked, then HEADLESS_UNSUPPORTED. A test scripts the person's answer."""
        message = params.get("message")
        if not isinstance(message, str) or not message.strip():
            return _fail("INVALID_PARAMS", "message must be a non-empty string" if message is not None
                         else "Missing required parameter(s): message")
        timeout = params.get("timeout_ms", 120000)
        if not _is_whole(timeout) or not 1 <= int(timeout) <= 600000:
            return _fail("INVALID_PARAMS", "timeout_ms must be a whole number from 1 to 600000")
        nobody = load_examples()[CONFIRM_METHOD][0]["result"]  # the example outside an editor with a window
        assert nobody["success"] is False
        return dict(nobody)

    def _set_lsp_status(self, params: dict[str, Any]) -> dict[str, Any]:
        """editor_status_commands.gd: every field optional (a missing state is stored as unavailable),
        a present one checked: the state enum, a whole port, string host/detail; the stored form back."""
        if "state" in params and params["state"] not in LSP_STATES:
            return _fail("INVALID_PARAMS", f"state must be one of {', '.join(LSP_STATES)}")
        if "port" in params and not _is_whole(params["port"]):
            return _fail("INVALID_PARAMS", "port must be a whole number")
        for key in ("host", "detail"):
            if key in params and not isinstance(params[key], str):
                return _fail("INVALID_PARAMS", f"{key} must be a string")
        port = params.get("port")
        self.lsp_status = {
            "state": params.get("state", "unavailable"),
            "host": params.get("host", ""),
            "port": int(port) if _is_whole(port) else 0,
            "detail": params.get("detail", ""),
        }
        return {"success": True, "lsp_status": dict(self.lsp_status)}


# --- the toolkit's rules, as data and small functions ---------------------------------------------

PARSE_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND = -32700, -32600, -32601
FRAME_HEADROOM_BYTES = 4096  # ws_transport.gd: room for framing and the JSON-RPC wrapper
# settings_registration.gd: default and bounds (KiB) of the limits meta.set_limits tunes.
LIMIT_DEFAULTS = {"ws_buffer_kb": 1024, "script_read_cap_kb": 256, "save_read_cap_kb": 256}
LIMIT_BOUNDS = {"ws_buffer_kb": (64, 65536), "script_read_cap_kb": (1, 65536), "save_read_cap_kb": (1, 65536)}
LSP_STATES = ("active", "conflict", "unavailable")
METHODS_FILE = Path(__file__).resolve().parents[1] / "data" / "reference" / "toolkit-methods.json"


def _load_methods() -> dict[str, frozenset[str]]:
    """The JSON-RPC methods the toolkit serves in each mode (editor, runtime): the reference's, plus
    every catalogue tool's method in its channel's mode (our additions, e.g. time.* in the game;
    scripts/gd_drift.py proves the toolkit registers each one in that mode)."""
    by_mode: dict[str, set[str]] = {}
    for entry in json.loads(METHODS_FILE.read_text(encoding="utf-8")):
        by_mode.setdefault(entry["mode"], set()).add(entry["method"])
    for tool in load_catalogue().tools.values():
        if tool.method and tool.channel in ("editor", "runtime"):
            by_mode.setdefault(tool.channel, set()).add(tool.method)
    # What the bridge itself sends the editor besides tools: the person's question (consent/editor_dialog.py).
    by_mode.setdefault("editor", set()).add(CONFIRM_METHOD)
    return {mode: frozenset(methods) for mode, methods in by_mode.items()}


TOOLKIT_METHODS = _load_methods()


def _is_whole(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and float(value).is_integer()


def _fail(code: str, error: str, hint: str = "") -> dict[str, Any]:
    """mcp_toolkit_error.gd fail(): its own hint, else the code's default hint."""
    return {"success": False, "error": error, "code": code, "hint": hint or hint_for(code)}


def _echo(method: str, params: dict[str, Any]) -> dict[str, Any]:
    return {"success": True, "method": method, "params": params}


def _error(rid: Any, code: int, message: str) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": rid, "error": {"code": code, "message": message}}


def _event_frame(name: str, params: dict[str, Any]) -> dict[str, Any]:
    """notifier.gd event_frame: params left out when empty."""
    return {"notification": name, "params": params} if params else {"notification": name}


def _normalize_id(raw: Any) -> Any:
    """JSON numbers arrive as floats in Godot; a whole one goes back to int."""
    if isinstance(raw, float) and raw.is_integer():
        return int(raw)
    return raw


def _id_text(rid: Any) -> str:
    # Cancels are matched on the id's text form, as the dispatch lane does.
    return rid if isinstance(rid, str) else json.dumps(rid)


def _parse(raw: str | bytes) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """server_request_router.gd parse(): (frame, None) or ({}, the error response), checked in JSON-RPC order."""
    try:
        frame = json.loads(raw)
    except ValueError as exc:
        return {}, _error(None, PARSE_ERROR, f"Parse error: {exc}")
    if not isinstance(frame, dict):
        return {}, _error(None, INVALID_REQUEST, "Invalid request: expected one JSON object per frame")
    if "id" in frame:
        frame["id"] = _normalize_id(frame["id"])
    rid = frame.get("id")
    good_id = rid is None or (isinstance(rid, int | str) and not isinstance(rid, bool))
    fault = ""
    if "jsonrpc" in frame and frame["jsonrpc"] != "2.0":
        fault = 'jsonrpc must be "2.0"'
    elif "id" in frame and not good_id:
        fault = "id must be a string, a whole number or null"
    elif not isinstance(frame.get("method"), str) or not frame["method"]:
        fault = "method must be a non-empty string"
    elif frame.get("params") is not None and not isinstance(frame["params"], dict):
        fault = "params must be an object"
    if fault:
        return {}, _error(rid if good_id else None, INVALID_REQUEST, f"Invalid request: {fault}")
    return frame, None
