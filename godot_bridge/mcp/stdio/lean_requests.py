"""The lean path's requests in flight on one pipe: started, cancelled by the client, stopped at end of input.

Each request runs as a plain asyncio task (not an anyio task group and cancel scope: those cost
~20% of the bridge's CPU per call under 16 callers). A request the client cancels is never
answered; one stopped at end of input is answered "Connection closed", as the SDK's dispatcher
answers; every other gets the answer ``answer`` gives it, or -32603 if that fails. The record of
unanswered requests (``pending_requests.py``) is the pipe's, shared with the SDK path.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import anyio

from godot_bridge.mcp.core.protocol import CONNECTION_CLOSED, INTERNAL_ERROR
from godot_bridge.mcp.stdio.lean_intake import Request
from godot_bridge.mcp.stdio import lean_intake, line_encoder
from godot_bridge.mcp.stdio.pending_requests import Unanswered

log = logging.getLogger(__name__)


@dataclass(slots=True)
class _InFlight:
    """One lean request's task."""

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


class LeanRequests:
    def __init__(self, answer: Callable[[Request], Awaitable[bytes | None]],
                 write: Callable[[bytes | None], Awaitable[None]], unanswered: Unanswered,
                 listed: Callable[[bool], None]) -> None:
        """``answer``: a request's answer line; ``listed(modern)``: a tools/list answer went out."""
        self._answer, self._write, self._unanswered, self._listed = answer, write, unanswered, listed
        self._in_flight: dict[Any, _InFlight] = {}
        self._running = 0  # tasks not yet finished (answer written or owed none)
        self._idle = asyncio.Event()
        self._idle.set()
        self._tasks: set[asyncio.Task[None]] = set()  # the loop keeps only weak references to tasks

    def start(self, request: Request) -> None:
        entry = _InFlight()
        self._in_flight[lean_intake.coerce_id(request.rid)] = entry  # a duplicate id replaces the older, as in the SDK
        self._unanswered.started(request.rid)
        if not self._running:
            self._idle.clear()
        self._running += 1
        task = asyncio.get_running_loop().create_task(self._run(request, entry))
        entry.task = task
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def cancel(self, note: dict[str, Any]) -> None:
        """The client's ``notifications/cancelled``: its request, if still running here, ends unanswered."""
        rid = lean_intake.cancelled_id(note)
        entry = self._in_flight.get(lean_intake.coerce_id(rid)) if rid is not None else None
        if entry is not None:
            entry.cancelled_by_client = True
            entry.stop()

    def stop_all(self) -> None:
        for entry in list(self._in_flight.values()):
            entry.stop()  # each then answers "Connection closed", as the SDK's dispatcher does

    async def wait_idle(self, timeout: float) -> None:
        with anyio.move_on_after(timeout):
            await self._idle.wait()

    async def _run(self, request: Request, entry: _InFlight) -> None:
        try:
            await self._run_one(request, entry)
        finally:
            self._running -= 1
            if not self._running:
                self._idle.set()

    async def _run_one(self, request: Request, entry: _InFlight) -> None:
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
            line = line_encoder.error(request.rid, INTERNAL_ERROR, "Internal error")
        finally:
            key = lean_intake.coerce_id(request.rid)
            if self._in_flight.get(key) is entry:
                del self._in_flight[key]
        if entry.cancelled_by_client:
            self._unanswered.finished(request.rid)  # a cancelled request is never answered
            return
        if line is None:  # stopped at end of input: answered as the SDK's dispatcher answers
            await self._write(line_encoder.error(request.rid, CONNECTION_CLOSED, "Connection closed"))
        else:
            await self._write(line)
            if request.method == "tools/list":
                self._listed(request.modern)
        self._unanswered.finished(request.rid)
