"""Tell the client what a tool call is waiting for (MCP ``notifications/progress``, both eras).

A call that waits (``game_start`` for the game's runtime channel, a command parked behind
another one in the editor, ``editor_wait_for_idle``) would otherwise be silent for seconds and
look hung. ``WaitReporter`` sends a progress notification with a message the moment a wait
starts or changes, then repeats it every ``interval`` seconds until the wait ends. Without a
progress callback (the client sent no progress token) it does nothing and starts no task.

``Heartbeat`` is the one progress line of a whole call, which every reporter below it reports
through: it forwards each report (never backwards), and whenever nothing was reported for
``interval`` seconds while the call still runs (a plain command the editor is slow to answer, a
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
    def __init__(self, report: ProgressFn | None, interval: float = INTERVAL_S) -> None:
        self._report = report
        self.interval = interval
        self.message: str | None = None
        self._last = 0.0  # the progress value last sent
        self._base: float | None = None  # counts start after what the waits sent before them
        self._total: float | None = None
        self._counted: tuple[float, str] | None = None  # a count not sent yet: (progress, message)
        self._changed = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._closed = False

    def waiting(self, message: str) -> None:
        """A wait starts (or changes what it waits for): report it now, then every interval."""
        if self._report is None or message == self.message:
            return
        self.message = message
        self._changed.set()
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run(), name="godot-bridge progress")

    def counted(self, progress: float, total: float, message: str) -> None:
        """The command reports how far it is (``progress`` of ``total``): sent at once."""
        if self._report is None:
            return
        if self._base is None:
            self._base = self._last
        self._total = self._base + total
        self._counted = (self._base + progress, message)
        self._changed.set()
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run(), name="godot-bridge progress")

    def done(self) -> None:
        """The wait is over: no more reports (until the next ``waiting``)."""
        if self.message is not None:
            self.message = None
            self._changed.set()

    async def __aenter__(self) -> WaitReporter:
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
            await self._changed.wait()
            self._changed.clear()
            while not self._closed:
                sent = await self._send_counted()
                if self.message is None:
                    break
                if not sent:
                    await self._send(self._last + (1 if self._total is None else REPEAT_STEP), self.message)
                try:
                    await asyncio.wait_for(self._changed.wait(), self.interval)
                    self._changed.clear()
                except TimeoutError:
                    pass

    async def _send_counted(self) -> bool:
        if self._counted is None:
            return False
        value, message = self._counted
        self._counted = None
        # Never backwards, even if repeats ran past a count (they stop short of the next one).
        await self._send(max(value, self._last + REPEAT_STEP), message)
        return True

    async def _send(self, value: float, message: str) -> None:
        assert self._report is not None
        self._last = value  # progress must increase with each notification
        try:
            await self._report(value, self._total, message)
        except Exception as exc:  # a client gone away must not fail the call itself
            log.debug("progress notification failed: %s", exc)


class Heartbeat:
    """A call's progress line: pass-through, increasing, and never silent for ``interval`` seconds."""

    def __init__(self, report: ProgressFn, waiting_for: str, interval: float = HEARTBEAT_S) -> None:
        self._report = report
        self.waiting_for = waiting_for  # e.g. "scene_get_tree: waiting for the Godot editor to answer"
        self.interval = interval
        self._started = self._last_at = time.monotonic()
        self._last: float | None = None  # the progress value last sent (none yet)
        self._total: float | None = None
        self._lock = asyncio.Lock()  # one notification at a time, so they reach the client in order
        self._stop = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    async def __call__(self, progress: float, total: float | None, message: str | None) -> None:
        """A report from below: forwarded, moved past the last value sent when it would not grow."""
        async with self._lock:
            if total is not None:
                self._total = total
            if self._last is not None and progress <= self._last:
                progress = self._last + REPEAT_STEP
            await self._send(progress, total if total is None or progress <= total else None, message)

    async def __aenter__(self) -> Heartbeat:
        self._task = asyncio.get_running_loop().create_task(self._beat(), name="godot-bridge heartbeat")
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        # By flag, not by cancelling (see WaitReporter.__aexit__).
        self._stop.set()
        task, self._task = self._task, None
        if task is not None:
            await task

    async def _beat(self) -> None:
        while not self._stop.is_set():
            due = self._last_at + self.interval - time.monotonic()
            if due > 0:
                try:
                    await asyncio.wait_for(self._stop.wait(), due)
                except TimeoutError:
                    pass
                continue
            async with self._lock:
                if self._stop.is_set():
                    break
                step = 1.0 if self._total is None else REPEAT_STEP
                value = (self._last or 0.0) + step
                total = self._total if self._total is not None and value <= self._total else None
                elapsed = time.monotonic() - self._started
                await self._send(value, total, f"{self.waiting_for} ({elapsed:.0f} s so far)")

    async def _send(self, value: float, total: float | None, message: str | None) -> None:
        self._last, self._last_at = value, time.monotonic()
        try:
            await self._report(value, total, message)
        except Exception as exc:  # a client gone away must not fail the call itself
            log.debug("progress notification failed: %s", exc)
