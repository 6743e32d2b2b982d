"""MCP over stdio with the lean path in front and the SDK loaded only when needed.

Every input line is decoded here (``core/json_input.py``). A request the lean path takes (``hot_methods.py``)
is served on the spot; everything else is queued, in order, for the SDK path (``sdk_dispatch.py``'s
dispatcher and ``core/era_router.EraRouter``, built by ``sdk_path.SdkBackend``). The SDK is imported in a
worker thread the first time a line needs it, so lean calls keep being answered while it loads
(importing it on the event loop stalled every call ~0.8 s). Both paths write to the
same pipe and share one record of unanswered requests, so end of input waits for either.

``GODOT_BRIDGE_LEAN=0`` (or ``lean=False``) sends every line to the SDK: the reference the
lean path is compared against in tests and in ``bench``.
"""

from __future__ import annotations

import asyncio
import importlib
import logging
import os
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, BinaryIO, Protocol

import anyio
import anyio.abc

from godot_bridge.app import INSTRUCTIONS, BridgeApp
from godot_bridge.mcp.core.eras import LATEST_HANDSHAKE, is_modern, needs_envelope
from godot_bridge.mcp.core.calls import CallPath, CallRefused, Route, progress_params
from godot_bridge.mcp.stdio import hot_methods
from godot_bridge.mcp.core.message_check import Dropped, Refused
from godot_bridge.mcp.stdio.pipes import LineReader, LineWriter, claim_stdout, open_reader, open_writer
from godot_bridge.mcp.core.peers import Peer
from godot_bridge.mcp.core.protocol import (
    CONNECTION_CLOSED,
    INTERNAL_ERROR,
    METHOD_NOT_FOUND,
    client_name,
    ping_result,
    stamped,
    TOOLS_LIST_CACHE_SCOPE,
    TOOLS_LIST_TTL_MS,
    tools_result,
)
from godot_bridge.mcp.stdio.pending_requests import EOF_GRACE_S, Unanswered
from godot_bridge.mcp.core.json_input import decode_line

log = logging.getLogger(__name__)

# The longest the editor dial waits for the first tools list to go out.
DIAL_DELAY_S = 1.0
# The longest a tool-list change waits for the SDK path that is loading to be there to carry it.
BACKEND_LOAD_WAIT_S = 30.0


def lean_wanted(env: dict[str, str] | None = None) -> bool:
    env = dict(os.environ) if env is None else env
    off = env.get("GODOT_BRIDGE_LEAN", "1").strip().lower() in ("0", "false", "no", "off")
    return hot_methods.available() and not off


@dataclass(slots=True)
class _InFlight:
    """One lean request's task. Plain asyncio (not an anyio task group and cancel scope): those
    cost ~20% of the bridge's CPU per call under 16 callers."""

    task: asyncio.Task[None] | None = None
    started: bool = False
    stopped: bool = False  # stopped by us: the client's cancel or end of input (not the loop's shutdown)
    cancelled_by_client: bool = False

    def stop(self) -> None:
        if self.stopped:
            return
        self.stopped = True
        if self.started and self.task is not None:  # else it sees ``stopped`` when it starts
            self.task.cancel()


class Backend(Protocol):
    """What the front needs from the SDK path (``sdk_path.SdkBackend``)."""

    @property
    def handshake_seen(self) -> bool: ...

    def feed(self, line: bytes) -> None: ...

    def end(self) -> None: ...

    async def run(self) -> None: ...

    async def publish_list_changed(self) -> None: ...

    @property
    def errors(self) -> Any: ...  # its ErrorFeed


class StdioServer:
    def __init__(self, app: BridgeApp, reader: LineReader, writer: LineWriter, *, lean_path: bool = True) -> None:
        self.app = app
        self.calls = CallPath(app)
        # The one client on this pipe, in both eras: its own tool lists (and, once the SDK path
        # loads, its log level and subscriptions).
        tools = app.tool_list()
        self.peer = Peer(tools, standing=True, fixed=app.tool_list(tools.owner, fixed=True))
        self._reader, self.writer = reader, writer
        self._lean = lean_path
        self.unanswered = Unanswered()
        self._in_flight: dict[Any, _InFlight] = {}
        self._backend: Backend | None = None
        self._backend_ready = anyio.Event()
        self._backend_done = anyio.Event()
        self._pending: list[bytes] = []  # lines for the SDK path while it loads
        self._loading = False
        # Pushed Godot errors are delivered by the SDK path's feed (error_feed.py): the first one loads
        # it; what arrives meanwhile is kept here and handed over.
        self._early_errors: list[Any] = []
        app.errors.on_change(self._on_errors)
        # The handshake era's negotiated version while the lean path owns it; None once the SDK does.
        self.handshake_version: str | None = LATEST_HANDSHAKE
        self.handshake_params: dict[str, Any] | None = None
        self.handshake_seen = False
        self._tools_wire: dict[bool, tuple[list[dict[str, Any]], list[dict[str, Any]] | None]] = {}
        self._tg: anyio.abc.TaskGroup | None = None
        # Set once the first tools list is out (or something needs the editor): the editor dial,
        # and the websockets/watchfiles imports it brings (~20 ms on the event loop), wait for it,
        # so a handshake client's initialize -> tools/list pair is not held up between its two
        # answers.
        self.tools_listed = anyio.Event()
        self._running = 0  # lean request tasks not yet finished (answer written or owed none)
        self._lean_idle = asyncio.Event()
        self._lean_idle.set()
        self._tasks: set[asyncio.Task[None]] = set()  # the loop keeps only weak references to tasks

    # -- output ---------------------------------------------------------------------------
    async def write(self, line: bytes | None) -> None:
        if line is None:
            return
        try:
            await self.writer.write(line)
        except (OSError, RuntimeError) as exc:
            log.debug("dropped an answer: the client is gone (%s)", exc)

    async def notify_list_changed(self, modern: bool) -> None:
        """Tell the client its list of one era changed: the handshake list on the pipe itself, the
        2026-07-28 list on its subscriptions/listen streams."""
        if not modern:
            if self.handshake_seen or (self._backend is not None and self._backend.handshake_seen):
                await self.write(hot_methods.notify("notifications/tools/list_changed"))
            return
        if self._backend is None and self._loading:
            # The SDK path is loading for an earlier line, maybe the 2026-07-28 client's
            # subscriptions/listen: the change must reach the stream that request opens.
            with anyio.move_on_after(BACKEND_LOAD_WAIT_S):
                await self._backend_ready.wait()
        if self._backend is not None:
            await self._backend.publish_list_changed()

    # -- input ----------------------------------------------------------------------------
    async def serve(self, on_ready: Callable[[], Awaitable[None]] | None = None) -> None:
        async with anyio.create_task_group() as tg:
            self._tg = tg
            if on_ready is not None:
                tg.start_soon(on_ready)
            while line := await self._reader.readline():
                await self._route(line)
            await self._end_of_input()
            tg.cancel_scope.cancel()

    async def _route(self, line: bytes) -> None:
        text = line.strip()
        if not text:
            return
        if not self._lean:
            self._forward(line)
            return
        try:
            obj = decode_line(text)
        except Refused as exc:
            await self.write(hot_methods.error(exc.rid, exc.code, exc.message))
            stand_in = hot_methods.encode(exc.in_place) if exc.in_place is not None else None
            if stand_in is not None and (self._backend is not None or self._loading):
                self._forward(stand_in)  # a malformed answer to a question the SDK path asked: it ends now
            return
        except Dropped as exc:
            log.info("dropped a malformed notification: %s", exc)
            return
        request = hot_methods.take(obj, self.handshake_version)
        if request is not None and not self._lean_can_serve(request):
            request = None
        if request is not None:
            self._start(request)
            return
        note = hot_methods.notification(obj)
        if note == "notifications/cancelled":
            self._cancel(obj)
        if note is not None and self._backend is None and not self._loading:
            return  # nothing on the SDK side to tell
        if isinstance(obj, dict) and obj.get("method") == "initialize" and "id" in obj and \
                not is_modern("initialize", obj.get("params")):
            self.handshake_seen = True
            self.handshake_version = None  # the SDK negotiates this handshake; it owns the era from now on
        self._forward(line)

    def _lean_can_serve(self, request: hot_methods.Request) -> bool:
        if request.method == "initialize":
            # Once the SDK path exists, it negotiates: its handshake connection must know the version.
            return self._backend is None and not self._loading
        if request.method == "tools/list":
            return self._tools_wire_of(request.modern) is not None
        if request.method == "tools/call":
            call = request.call = self.calls.read(request.params, request.modern)
            # A task, or a call that may ask the person (its question travels as an elicitation
            # request, an input_required answer with a sealed state, or a preview): the SDK path's.
            return self.calls.route(call, self.peer.tools_for(request.modern)) is Route.AT_ONCE
        return True

    def _cancel(self, obj: dict[str, Any]) -> None:
        rid = hot_methods.cancelled_id(obj)
        entry = self._in_flight.get(hot_methods.coerce_id(rid)) if rid is not None else None
        if entry is not None:
            entry.cancelled_by_client = True
            entry.stop()

    # -- the SDK path ---------------------------------------------------------------------
    def _forward(self, line: bytes) -> None:
        self.tools_listed.set()  # the SDK path may need the editor (resources) and loads anyway
        if self._backend is not None:
            self._backend.feed(line)
            return
        if not self._loading:
            log.info("loading the MCP SDK path for a message the lean path does not serve")
            self._start_loading()
        self._pending.append(line)

    def _on_errors(self, new: list[Any]) -> None:
        if self._backend is not None:
            return  # its feed listens to the store itself
        if not new:
            # A new game session with nothing reported yet: only a resource subscriber would hear of
            # it, and subscribing already loaded the SDK path. No reason to load it for this.
            return
        self._early_errors.extend(new)
        if not self._loading and self._tg is not None:
            log.info("loading the MCP SDK path to deliver pushed Godot errors")
            self._start_loading()

    def _start_loading(self) -> None:
        self._loading = True
        assert self._tg is not None
        self._tg.start_soon(self._load_backend)

    async def _load_backend(self) -> None:
        # Imported in a worker thread: the event loop keeps serving lean calls meanwhile.
        server = await anyio.to_thread.run_sync(importlib.import_module, "godot_bridge.mcp.stdio.sdk_path")
        backend: Backend = server.SdkBackend(self)
        backend.errors.backlog(self._early_errors)
        self._early_errors = []
        for line in self._pending:
            backend.feed(line)
        self._pending.clear()
        self._backend = backend
        self._backend_ready.set()
        try:
            await backend.run()
        finally:
            self._backend_done.set()

    # -- lean requests --------------------------------------------------------------------
    def _start(self, request: hot_methods.Request) -> None:
        entry = _InFlight()
        self._in_flight[hot_methods.coerce_id(request.rid)] = entry  # a duplicate id replaces the older, as in the SDK
        self.unanswered.started(request.rid)
        if not self._running:
            self._lean_idle.clear()
        self._running += 1
        task = asyncio.get_running_loop().create_task(self._run(request, entry))
        entry.task = task
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _run(self, request: hot_methods.Request, entry: _InFlight) -> None:
        try:
            await self._run_one(request, entry)
        finally:
            self._running -= 1
            if not self._running:
                self._lean_idle.set()

    async def _run_one(self, request: hot_methods.Request, entry: _InFlight) -> None:
        line: bytes | None = None
        entry.started = True
        try:
            if not entry.stopped:
                line = await self._answer(request)
        except asyncio.CancelledError:
            if not entry.stopped:
                raise  # the loop is shutting down: not ours to swallow
            current = asyncio.current_task()
            if current is not None:
                current.uncancel()
        except Exception as exc:  # noqa: BLE001 - the wire gets no internals; our log gets the detail
            log.error("request handler failed", exc_info=exc)
            line = hot_methods.error(request.rid, INTERNAL_ERROR, "Internal error")
        finally:
            key = hot_methods.coerce_id(request.rid)
            if self._in_flight.get(key) is entry:
                del self._in_flight[key]
        if entry.cancelled_by_client:
            self.unanswered.finished(request.rid)  # a cancelled request is never answered
            return
        if line is None:  # stopped at end of input: answered as the SDK's dispatcher answers
            await self.write(hot_methods.error(request.rid, CONNECTION_CLOSED, "Connection closed"))
        else:
            await self.write(line)
            if request.method == "tools/list":
                self.tools_listed.set()
                self.peer.tools_for(request.modern).listed()
        self.unanswered.finished(request.rid)

    async def _answer(self, request: hot_methods.Request) -> bytes | None:
        method, rid, modern = request.method, request.rid, request.modern
        if not modern and (refusal := needs_envelope(method)) is not None:
            return hot_methods.error(rid, METHOD_NOT_FOUND, refusal)
        if method == "tools/call":
            return await self._call(request)
        if method == "tools/list":
            return hot_methods.response(rid, self._tools_list(modern))
        if method == "initialize":
            self.handshake_seen = True
            self.handshake_version = hot_methods.negotiated(request.params)
            self.handshake_params = request.params
            self.peer.tools.client = client_name(request.params)
            return hot_methods.response(rid, hot_methods.initialize_result(self.handshake_version, INSTRUCTIONS))
        if method == "server/discover":
            return hot_methods.response(rid, hot_methods.discover_result(INSTRUCTIONS))
        return hot_methods.response(rid, stamped(ping_result(modern), modern))  # ping, in either era

    def _tools_wire_of(self, modern: bool) -> list[dict[str, Any]] | None:
        """The tools array laid out for the wire, rebuilt when the app's list changes; None: not coverable."""
        tools = self.app.tools(self.peer.tools_for(modern))
        cached = self._tools_wire.get(modern)
        if cached is None or cached[0] is not tools:
            shaped = [hot_methods.wire_tool(tool, modern) for tool in tools]
            cached = (tools, None if any(t is None for t in shaped) else shaped)  # type: ignore[misc]
            self._tools_wire[modern] = cached
        return cached[1]

    def _tools_list(self, modern: bool) -> dict[str, Any]:
        tools = self._tools_wire_of(modern)
        if tools is None:  # the list changed between routing and serving into a shape we do not cover
            raise RuntimeError("a tool has fields the lean layout does not cover; see hot_methods.wire_tool")
        result = tools_result(tools, modern)
        if modern:
            result = {"cacheScope": TOOLS_LIST_CACHE_SCOPE, **result, "ttlMs": TOOLS_LIST_TTL_MS}
        return stamped(result, modern)

    async def _call(self, request: hot_methods.Request) -> bytes | None:
        self.tools_listed.set()  # a call needs the editor now
        call = request.call
        assert call is not None  # read when the lean path took it (_lean_can_serve)
        progress = None
        if call.progress_token is not None:
            token = call.progress_token

            async def progress(done: float, total: float | None, message: str | None) -> None:
                await self.write(hot_methods.notify("notifications/progress", progress_params(token, done, total, message)))
        try:
            result = await self.calls.run(call, self.peer, progress, splice=hot_methods.splice)
        except CallRefused as exc:
            return hot_methods.error(request.rid, exc.code, exc.message)
        result["content"] = [hot_methods.wire_content(block) for block in result["content"]]
        return hot_methods.response(request.rid, stamped(result, request.modern))

    # -- end of input ---------------------------------------------------------------------
    async def _end_of_input(self) -> None:
        # Answer what is already running (a piped batch expects its answers), then stop the rest.
        if self.unanswered.count:
            log.info("end of input with %d request(s) unanswered; waiting up to %g s", self.unanswered.count, EOF_GRACE_S)
        with anyio.move_on_after(EOF_GRACE_S):
            await self.unanswered.idle.wait()
        for entry in list(self._in_flight.values()):
            entry.stop()  # each then answers "Connection closed", as the SDK's dispatcher does
        # The client is gone: its jobs (and the processes they run) end with it.
        await self.app.jobs.end_owner(self.peer.tools.owner)
        with anyio.move_on_after(5):
            await self._lean_idle.wait()
        if self._loading or self._backend is not None:
            with anyio.move_on_after(30):  # the import may still be running
                await self._backend_ready.wait()
            if self._backend is not None:
                self._backend.end()
                await self._backend_done.wait()
        with anyio.move_on_after(5):  # answers written but still buffered must reach the client
            await self.writer.flush()


async def run_stdio(app: BridgeApp, *, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None,
                    lean_path: bool | None = None) -> None:
    wire = stdout or claim_stdout()
    # The writer first: nothing may read input before we know where answers go.
    writer = await open_writer(wire)
    reader = await open_reader(stdin or sys.stdin.buffer)
    app.prepare()
    front = StdioServer(app, reader, writer, lean_path=lean_wanted() if lean_path is None else lean_path)
    send_announce, recv_announce = anyio.create_memory_object_stream[None](16)
    changed: set[bool] = set()  # the eras whose list changed since the announcer last ran (True: 2026-07-28)

    def announce(modern: bool) -> None:
        # Called from sync code (surface changes); the announcer task does the I/O.
        changed.add(modern)
        try:
            send_announce.send_nowait(None)
        except anyio.WouldBlock:
            pass  # announcements are already queued and unsent; one more would say nothing new

    front.peer.tools.on_change = lambda: announce(False)
    assert front.peer.fixed is not None
    front.peer.fixed.on_change = lambda: announce(True)

    async def announcer() -> None:
        with anyio.move_on_after(DIAL_DELAY_S):  # a client that lists no tools still gets its editor
            await front.tools_listed.wait()
        await app.start()
        async with recv_announce:
            async for _ in recv_announce:
                for modern in sorted(changed):
                    changed.discard(modern)
                    await front.notify_list_changed(modern)

    try:
        await front.serve(on_ready=announcer)
    finally:
        reader.close()
        writer.close()
        with anyio.CancelScope(shield=True):
            await app.aclose()
