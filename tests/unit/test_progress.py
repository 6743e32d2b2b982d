"""WaitReporter: progress at once, then on every interval, new message at once, silence after."""

from __future__ import annotations

import asyncio

from godot_bridge.progress import WaitReporter


async def test_reports_at_once_then_on_each_interval_and_stops():
    sent: list[tuple[float, str | None]] = []
    changed = asyncio.Event()

    async def report(progress: float, total: float | None, message: str | None) -> None:
        sent.append((progress, message))
        changed.set()

    async with WaitReporter(report, interval=0.05) as waits:
        waits.waiting("waiting for A")
        await asyncio.wait_for(changed.wait(), 1)
        assert sent == [(1, "waiting for A")]  # at once
        while len(sent) < 3:  # then again and again while the wait lasts
            changed.clear()
            await asyncio.wait_for(changed.wait(), 1)
        waits.waiting("waiting for B")
        while sent[-1][1] != "waiting for B":
            changed.clear()
            await asyncio.wait_for(changed.wait(), 1)
        waits.done()
        count = len(sent)
        await asyncio.sleep(0.2)
        assert len(sent) == count  # nothing after the wait ended
    assert [p for p, _ in sent] == list(range(1, len(sent) + 1))


async def test_without_a_callback_it_does_nothing():
    async with WaitReporter(None) as waits:
        waits.waiting("x")
        assert waits.message is None


async def test_a_failing_client_does_not_fail_the_wait():
    async def report(progress: float, total: float | None, message: str | None) -> None:
        raise OSError("client gone")

    async with WaitReporter(report, interval=0.01) as waits:
        waits.waiting("x")
        await asyncio.sleep(0.05)
