"""MCP over stdio: each input line read, decoded and routed to the lean path or the SDK path.

Every input line is decoded here (``core/json_input.py``). A request the lean path takes
(``lean_intake.take``, then ``lean_answers.LeanAnswers.can_serve``) is served on the spot, as a
request in flight (``lean_requests.py``); everything else is queued, in order, for the SDK path
(``sdk_loader.py`` loads it on first need: ``sdk_path.py``, the SDK's dispatcher and
``core/era_router.EraRouter``). Both paths write to the same pipe and share one record of
unanswered requests, so end of input waits for either.

``GODOT_BRIDGE_LEAN=0`` (or ``lean=False``) sends every line to the SDK: the reference the
lean path is compared against in tests and in ``bench``.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Awaitable, Callable
from typing import BinaryIO

import anyio

from godot_bridge.app import BridgeApp
from godot_bridge.mcp.core.eras import is_modern
from godot_bridge.mcp.core.json_input import decode_line
from godot_bridge.mcp.core.message_check import Dropped, Refused
from godot_bridge.mcp.core.peers import Peer
from godot_bridge.mcp.stdio import lean_intake, line_encoder
from godot_bridge.mcp.stdio.lean_answers import Handshake, LeanAnswers
from godot_bridge.mcp.stdio.lean_requests import LeanRequests
from godot_bridge.mcp.stdio.pending_requests import EOF_GRACE_S, Unanswered
from godot_bridge.mcp.stdio.pipes import LineReader, LineWriter, claim_stdout, open_reader, open_writer
from godot_bridge.mcp.stdio.sdk_loader import SdkLoader

log = logging.getLogger(__name__)

# The longest the editor dial waits for the first tools list to go out.
DIAL_DELAY_S = 1.0


def lean_wanted(env: dict[str, str] | None = None) -> bool:
    env = dict(os.environ) if env is None else env
    off = env.get("GODOT_BRIDGE_LEAN", "1").strip().lower() in ("0", "false", "no", "off")
    return line_encoder.available() and not off


class StdioServer:
    def __init__(self, app: BridgeApp, reader: LineReader, writer: LineWriter, *, lean_path: bool = True) -> None:
        self.app = app
        # The one client on this pipe, in both eras: its own tool lists (and, once the SDK path
        # loads, its log level and subscriptions).
        tools = app.tool_list()
        self.peer = Peer(tools, standing=True, fixed=app.tool_list(tools.owner, fixed=True))
        self._reader, self.writer = reader, writer
        self._lean = lean_path
        self.unanswered = Unanswered()
        self.handshake = Handshake()
        # Set once the first tools list is out (or something needs the editor): the editor dial,
        # and the websockets/watchfiles imports it brings (~20 ms on the event loop), wait for it,
        # so a handshake client's initialize -> tools/list pair is not held up between its two
        # answers.
        self.tools_listed = anyio.Event()
        self.answers = LeanAnswers(app, self.peer, self.handshake, self.write, self.tools_listed)
        self.lean = LeanRequests(self.answers.answer, self.write, self.unanswered, self._listed)
        self.sdk = SdkLoader(self)

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
        if modern:
            await self.sdk.publish_list_changed()
        elif self.handshake.seen or self.sdk.handshake_seen:
            await self.write(line_encoder.notify("notifications/tools/list_changed"))

    def _listed(self, modern: bool) -> None:
        self.tools_listed.set()
        self.peer.tools_for(modern).listed()

    # -- input ----------------------------------------------------------------------------
    async def serve(self, on_ready: Callable[[], Awaitable[None]] | None = None) -> None:
        async with anyio.create_task_group() as tg:
            self.sdk.bind(tg)
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
            await self.write(line_encoder.error(exc.rid, exc.code, exc.message))
            stand_in = line_encoder.encode(exc.in_place) if exc.in_place is not None else None
            if stand_in is not None and self.sdk.active:
                self._forward(stand_in)  # a malformed answer to a question the SDK path asked: it ends now
            return
        except Dropped as exc:
            log.info("dropped a malformed notification: %s", exc)
            return
        request = lean_intake.take(obj, self.handshake.version)
        if request is not None and self.answers.can_serve(request, self.sdk):
            self.lean.start(request)
            return
        note = lean_intake.notification(obj)
        if note == "notifications/cancelled":
            self.lean.cancel(obj)
        if note is not None and not self.sdk.active:
            return  # nothing on the SDK side to tell
        if isinstance(obj, dict) and obj.get("method") == "initialize" and "id" in obj and \
                not is_modern("initialize", obj.get("params")):
            self.handshake.seen = True
            self.handshake.version = None  # the SDK negotiates this handshake; it owns the era from now on
        self._forward(line)

    def _forward(self, line: bytes) -> None:
        self.tools_listed.set()  # the SDK path may need the editor (resources) and loads anyway
        self.sdk.feed(line)

    # -- end of input ---------------------------------------------------------------------
    async def _end_of_input(self) -> None:
        # Answer what is already running (a piped batch expects its answers), then stop the rest.
        if self.unanswered.count:
            log.info("end of input with %d request(s) unanswered; waiting up to %g s", self.unanswered.count, EOF_GRACE_S)
        with anyio.move_on_after(EOF_GRACE_S):
            await self.unanswered.idle.wait()
        self.lean.stop_all()
        # The client is gone: its jobs (and the processes they run) end with it.
        await self.app.jobs.end_owner(self.peer.tools.owner)
        await self.lean.wait_idle(5)
        await self.sdk.end()
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
