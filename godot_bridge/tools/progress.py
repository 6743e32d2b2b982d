"""Tell the client what a tool call is waiting for (MCP ``notifications/progress``, both eras).

A call that waits (``game_start`` for the game's runtime channel, a command parked behind
another one in the editor, ``editor_wait_for_idle``) would otherwise be silent for seconds and
look hung. ``WaitReporter`` sends a progress notification with a message the moment a wait
starts or changes, then repeats it every ``interval`` seconds until the wait ends. Without a
progress callback (the client sent no progress token) it does nothing and starts no task.

The same reporter is the one progress line of a whole call (``dispatch.py`` opens it with an
``idle`` message): every reporter and step below reports through it (``await line(progress,
total, message)``, never backwards), and whenever nothing was reported for ``idle_interval``
seconds while the call still runs (a plain command the editor is slow to answer, a
language-server query, whatever the reason) it says itself what the call still waits for. So a
client that resets its request timeout on progress (the TypeScript SDK's 60 s) never times out
on long work.

A command that can count (``test_run``: suites done of all) reports ``counted(progress, total)``;
from then on every notification carries a total. MCP wants progress to grow with each
notification, so counts are shifted past what the waits already sent, and the repeats between two
counts grow by ``REPEAT_STEP`` (a thousandth: 999 repeats, over half an hour at 2 s, before they
would reach the next count).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from types import TracebackType

log = logging.getLogger(__name__)

ProgressFn = Callable[[float, float | None, str | None], Awaitable[None]]

INTERVAL_S = 2.0
# Longer than INTERVAL_S, so a wait being reported owns the line; short enough that a client
# resetting its timeout on progress hears something at least every 5 s.
HEARTBEAT_S = 3.0
REPEAT_STEP = 0.001


class WaitReporter:
    def __init__(self, report: ProgressFn | None, interval: float = INTERVAL_S, *, idle: str | None = None,
                 idle_interval: float = HEARTBEAT_S) -> None:
        self._report = report
        self.interval = interval
        # What the call waits for when no wait says more (e.g. "scene_get_tree: waiting for the Godot
        # editor to answer"), said after idle_interval seconds of silence; None: silence is fine.
        self.idle = idle
        self.idle_interval = idle_interval
        self.message: str | None = None
        self._fresh = False  # a new wait message, not sent yet
        self._last: float | None = None  # the progress value last sent (none yet)
        self._started = self._last_at = time.monotonic()
        self._base: float | None = None  # counts start after what the waits sent before them
        self._total: float | None = None
        self._counted: tuple[float, str] | None = None  # a count not sent yet: (progress, message)
        self._changed = asyncio.Event()
        self._lock = asyncio.Lock()  # one notification at a time, so they reach the client in order
        self._task: asyncio.Task[None] | None = None
        self._closed = False

    def waiting(self, message: str) -> None:
        """A wait starts (or changes what it waits for): report it now, then every interval."""
        if self._report is None or message == self.message:
            return
        self.message, self._fresh = message, True
        self._wake()

    def counted(self, progress: float, total: float, message: str) -> None:
        """The command reports how far it is (``progress`` of ``total``): sent at once."""
        if self._report is None:
            return
        if self._base is None:
            self._base = self._last or 0.0
        self._total = self._base + total
        self._counted = (self._base + progress, message)
        self._wake()

    def done(self) -> None:
        """The wait is over: no more reports of it (until the next ``waiting``)."""
        if self.message is not None:
            self.message = None
            self._changed.set()

    async def __call__(self, progress: float, total: float | None, message: str | None) -> None:
        """A report from below (a nested reporter, a tool's own steps): forwarded, moved past the
        last value sent when it would not grow."""
        if self._report is None:
            return
        if total is not None:
            self._total = total
        await self._send(progress, total, message)

    def _wake(self) -> None:
        self._changed.set()
        if self._task is None and not self._closed:
            self._task = asyncio.get_running_loop().create_task(self._run(), name="godot-bridge progress")

    async def __aenter__(self) -> WaitReporter:
        if self.idle is not None and self._report is not None:
            self._wake()
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        # Stop by flag, not by cancelling: on Python 3.11 wait_for() can swallow a cancel that
        # races the event it waits on (done() just set it), and the task would then wait forever.
        self.message = None
        self._closed = True
        self._changed.set()
        task, self._task = self._task, None
        if task is not None:
            await task
        # A count that arrived just before the reply is still news (the last suite finished).
        await self._send_counted()

    async def _run(self) -> None:
        while not self._closed:
            self._changed.clear()
            sent = await self._send_counted()
            due = await self._repeat(sent)
            try:
                await asyncio.wait_for(self._changed.wait(), None if due is None else max(0.0, due - time.monotonic()))
            except TimeoutError:
                pass

    async def _repeat(self, counted: bool) -> float | None:
        """Say the wait (at once when new, then every interval) or, with none, the idle message after
        idle_interval of silence. Returns when to look again; None: only when something changes."""
        if self.message is not None:
            if (self._fresh or time.monotonic() >= self._last_at + self.interval) and not counted:
                await self._send(None, self._total, self.message)
            self._fresh = False
            return self._last_at + self.interval
        if self.idle is not None:
            if time.monotonic() >= self._last_at + self.idle_interval:
                elapsed = time.monotonic() - self._started
                await self._send(None, self._total, f"{self.idle} ({elapsed:.0f} s so far)")
            return self._last_at + self.idle_interval
        return None

    async def _send_counted(self) -> bool:
        if self._counted is None:
            return False
        value, message = self._counted
        self._counted = None
        await self._send(value, self._total, message)
        return True

    async def _send(self, value: float | None, total: float | None, message: str | None) -> None:
        """One notification. ``value`` None: one step past the last (a repeat: 1 without a total,
        REPEAT_STEP between counts); any value is moved past the last, as progress must grow."""
        assert self._report is not None
        async with self._lock:
            if value is None:
                value = (self._last or 0.0) + (1.0 if self._total is None else REPEAT_STEP)
            elif self._last is not None and value <= self._last:
                value = self._last + REPEAT_STEP
            self._last, self._last_at = value, time.monotonic()
            try:
                await self._report(value, total if total is None or value <= total else None, message)
            except Exception as exc:  # a client gone away must not fail the call itself
                log.debug("progress notification failed: %s", exc)
