"""The relay between bridges and the engine host (tests/godot/e2e/host): a browser cannot listen,
so the relay listens for it.

The host dials the relay's engine side (``ws://127.0.0.1:<engine_port>``) twice over:

* ``/control``: one connection for the host's life. The host sends events (``listen``/``unlisten``
  a port, ``register`` the registry entry and token, ``set_runtime``/``clear_runtime``, ``reply``
  to a request); the relay sends requests (``connect``: dial back as connection N; test hooks
  such as ``undo`` or ``read_file``).
* ``/peer/<n>``: one connection per bridge connection. When a bridge connects to a port the host
  listens on, the relay asks the host (``connect``) to dial ``/peer/<n>`` and pairs the two. Every
  text (and binary) frame then passes unchanged both ways, and so do close codes: the toolkit's
  1001-1999, which a browser cannot send, arrive as 4001-4999 (host/relay_peer.gd) and are closed
  on the bridge's side with the real code. Auth is the toolkit's own: the relay never looks at a
  frame.

The relay runs its own event loop in a thread, so one relay serves every test of a session
whatever loop each test runs in. ``stop()`` ends everything it started.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed

log = logging.getLogger("tests.engine.e2e.relay")

# host/relay_peer.gd: a browser may only send 1000 and 3000-4999.
CARRIED_BASE = 4000
CONNECT_TIMEOUT = 10.0
# Close codes a server may send on the wire (RFC 6455 7.4.1; 1005, 1006 and 1015 are never sent).
_SENDABLE = {1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014}

EventHandler = Callable[[dict[str, Any]], None]


def real_code(carried: int | None) -> int | None:
    """The toolkit's close code for the code the engine could send."""
    if carried is not None and CARRIED_BASE < carried < CARRIED_BASE + 1000:
        return carried - CARRIED_BASE + 1000
    return carried


def _sendable(code: int | None) -> bool:
    return code is not None and (code in _SENDABLE or 3000 <= code <= 4999)


class Relay:
    """Listens on the engine side and, on the host's request, on the bridge side's ports."""

    def __init__(self, on_event: EventHandler) -> None:
        self.on_event = on_event
        self.engine_port = 0
        self.close_codes: list[tuple[int, int | None, str]] = []  # (port, code the bridge saw, reason)
        self.bridge_connections = 0
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="e2e-relay", daemon=True)
        self._engine_server: Server | None = None
        self._ports: dict[int, Server] = {}
        self._control: ServerConnection | None = None
        self._control_ready: asyncio.Event | None = None
        self._dialled: dict[str, asyncio.Future[ServerConnection]] = {}
        self._replies: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._next_id = 0
        self._tasks: set[asyncio.Task[Any]] = set()

    # -- lifecycle (called from the test's thread) ---------------------------------------

    def start(self) -> Relay:
        self._thread.start()
        self._run(self._start()).result(10)
        return self

    def stop(self) -> None:
        if not self._thread.is_alive():
            return
        with contextlib.suppress(Exception):
            self._run(self._stop()).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)
        self._loop.close()

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.engine_port}"

    def request(self, op: str, **params: Any) -> Future[dict[str, Any]]:
        """Ask the host something (a test hook); the future holds its reply."""
        return self._run(self._request(op, params))

    async def ask(self, op: str, timeout: float = 10.0, **params: Any) -> dict[str, Any]:
        """``request`` from a coroutine on any loop."""
        return await asyncio.wait_for(asyncio.wrap_future(self.request(op, **params)), timeout)

    def wait_control(self, timeout: float) -> bool:
        """True once the host's control link is up."""
        return bool(self._run(self._wait_control(timeout)).result(timeout + 1))

    def _run(self, coro: Any) -> Future[Any]:
        return asyncio.run_coroutine_threadsafe(coro, self._loop)

    # -- the relay's own loop ----------------------------------------------------------------

    async def _start(self) -> None:
        self._control_ready = asyncio.Event()
        self._engine_server = await serve(self._engine_side, "127.0.0.1", 0, compression=None,
                                          ping_interval=None, max_size=None)
        self.engine_port = self._engine_server.sockets[0].getsockname()[1]

    async def _stop(self) -> None:
        for port in list(self._ports):
            await self._unlisten(port)
        if self._engine_server is not None:
            self._engine_server.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._engine_server.wait_closed(), 5)
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _wait_control(self, timeout: float) -> bool:
        assert self._control_ready is not None
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._control_ready.wait(), timeout)
        return self._control_ready.is_set()

    async def _request(self, op: str, params: dict[str, Any]) -> dict[str, Any]:
        if self._control is None:
            raise RuntimeError("the engine host is not connected to the relay")
        self._next_id += 1
        rid = self._next_id
        reply: asyncio.Future[dict[str, Any]] = self._loop.create_future()
        self._replies[rid] = reply
        await self._control.send(json.dumps({"op": op, "id": rid, **params}))
        return await reply

    async def _engine_side(self, ws: ServerConnection) -> None:
        path = ws.request.path if ws.request is not None else ""
        if path == "/control":
            await self._serve_control(ws)
        elif path.startswith("/peer/") and path[6:] in self._dialled:
            waiting = self._dialled.pop(path[6:])
            if not waiting.done():
                waiting.set_result(ws)
                await ws.wait_closed()  # the pump (in the bridge connection's task) owns it now
        else:
            await ws.close(1008, f"unknown relay path {path}")

    async def _serve_control(self, ws: ServerConnection) -> None:
        self._control = ws
        assert self._control_ready is not None
        self._control_ready.set()
        try:
            async for raw in ws:
                event = json.loads(raw)
                await self._on_event(event)
        except ConnectionClosed:
            pass
        finally:
            self._control = None
            for reply in self._replies.values():
                if not reply.done():
                    reply.set_exception(RuntimeError("the engine host left before replying"))

    async def _on_event(self, event: dict[str, Any]) -> None:
        kind = event.get("event")
        if kind == "listen":
            await self._listen(int(event["port"]))
        elif kind == "unlisten":
            await self._unlisten(int(event["port"]))
        elif kind == "reply":
            reply = self._replies.pop(int(event.get("id") or 0), None)
            if reply is not None and not reply.done():
                reply.set_result(event)
        else:
            try:
                self.on_event(event)
            except Exception:  # a broken handler must not take the relay down; the test sees the log
                log.exception("relay event handler failed on %s", kind)

    async def _listen(self, port: int) -> None:
        await self._unlisten(port)

        async def handler(bridge: ServerConnection) -> None:
            await self._bridge_side(port, bridge)

        self._ports[port] = await serve(handler, "127.0.0.1", port, compression=None, ping_interval=None,
                                        max_size=None)

    async def _unlisten(self, port: int) -> None:
        server = self._ports.pop(port, None)
        if server is not None:
            server.close(close_connections=False)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(server.wait_closed(), 5)

    async def _bridge_side(self, port: int, bridge: ServerConnection) -> None:
        """One bridge connection: have the engine dial back, then pump both ways until either closes."""
        task = asyncio.current_task()
        if task is not None:
            self._tasks.add(task)
        self.bridge_connections += 1
        cid = str(self.bridge_connections)
        dialled: asyncio.Future[ServerConnection] = self._loop.create_future()
        self._dialled[cid] = dialled
        try:
            if self._control is None:
                await bridge.close(1011, "engine host not connected")
                return
            await self._control.send(json.dumps({"op": "connect", "port": port, "id": cid}))
            try:
                engine = await asyncio.wait_for(dialled, CONNECT_TIMEOUT)
            except TimeoutError:
                await bridge.close(1011, "the engine did not dial back")
                return
            await self._pump(port, bridge, engine)
        finally:
            self._dialled.pop(cid, None)
            if task is not None:
                self._tasks.discard(task)

    async def _pump(self, port: int, bridge: ServerConnection, engine: ServerConnection) -> None:
        async def forward(source: ServerConnection, target: ServerConnection) -> None:
            with contextlib.suppress(ConnectionClosed):
                async for message in source:
                    await target.send(message)

        to_engine = asyncio.create_task(forward(bridge, engine))
        to_bridge = asyncio.create_task(forward(engine, bridge))
        done, _pending = await asyncio.wait({to_engine, to_bridge}, return_when=asyncio.FIRST_COMPLETED)
        if to_bridge in done:
            # The engine closed: the bridge sees the toolkit's own code and reason.
            code = real_code(engine.close_code)
            reason = engine.close_reason or ""
            self.close_codes.append((port, code, reason))
            if _sendable(code):
                await bridge.close(code, reason)
            else:
                bridge.transport.abort()
        else:
            code = bridge.close_code
            if _sendable(code):
                await engine.close(code, bridge.close_reason or "")
            else:
                engine.transport.abort()
        for task in (to_engine, to_bridge):
            task.cancel()
        await asyncio.gather(to_engine, to_bridge, return_exceptions=True)
