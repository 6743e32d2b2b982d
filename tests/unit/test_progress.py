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


async def test_counts_carry_a_total_and_never_go_backwards():
    sent: list[tuple[float, float | None, str | None]] = []
    changed = asyncio.Event()

    async def report(progress: float, total: float | None, message: str | None) -> None:
        sent.append((progress, total, message))
        changed.set()

    async def next_report() -> None:
        changed.clear()
        await asyncio.wait_for(changed.wait(), 1)

    async with WaitReporter(report, interval=0.05) as waits:
        waits.waiting("running tests")
        await asyncio.wait_for(changed.wait(), 1)
        assert sent == [(1, None, "running tests")]  # a plain wait: no total yet
        waits.counted(1, 3, "suite a done")
        while sent[-1][2] != "suite a done":
            await next_report()
        assert sent[-1][1:] == (sent[-1][0] + 2, "suite a done")  # shifted past the waits, total too
        count = len(sent)
        while len(sent) < count + 2:  # the wait repeats between counts, with the total, below the next count
            await next_report()
        assert all(total == sent[-1][1] for _, total, _ in sent[count:])
        assert all(progress < sent[count - 1][0] + 1 for progress, _, _ in sent[count:])
        waits.counted(2, 3, "suite b done")
        while sent[-1][2] != "suite b done":
            await next_report()
        waits.done()
    values = [p for p, _, _ in sent]
    assert values == sorted(values) and len(set(values)) == len(values)  # strictly increasing
    assert sent[-1][0] == sent[count - 1][0] + 1  # one count further


async def test_counts_without_a_wait_are_sent_alone():
    sent: list[tuple[float, float | None, str | None]] = []

    async def report(progress: float, total: float | None, message: str | None) -> None:
        sent.append((progress, total, message))

    async with WaitReporter(report, interval=0.01) as waits:
        waits.counted(1, 2, "one")
        await asyncio.sleep(0.05)
        waits.counted(2, 2, "two")
        await asyncio.sleep(0.05)
    assert sent == [(1, 2, "one"), (2, 2, "two")]
