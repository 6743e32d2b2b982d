"""WaitReporter: progress at once, then on every interval, new message at once, silence after; as a call's
line (with an idle message), never silent for long."""

from __future__ import annotations

import asyncio

from godot_bridge.tools.progress import WaitReporter


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


class Sent:
    def __init__(self) -> None:
        self.items: list[tuple[float, float | None, str | None]] = []
        self.changed = asyncio.Event()

    async def __call__(self, progress: float, total: float | None, message: str | None) -> None:
        self.items.append((progress, total, message))
        self.changed.set()

    async def count(self, n: int) -> None:
        while len(self.items) < n:
            self.changed.clear()
            await asyncio.wait_for(self.changed.wait(), 2)


async def test_heartbeat_speaks_when_the_call_is_silent_and_only_then():
    sent = Sent()
    async with WaitReporter(sent, idle="scene_get_tree: waiting for the Godot editor to answer", idle_interval=0.05) as beat:
        await sent.count(2)  # silence: it says what the call waits for, again and again
        assert all(m is not None and m.startswith("scene_get_tree: waiting for the Godot editor to answer (")
                   for _, _, m in sent.items)
        await beat(0.5, None, "queued behind another command")  # a report from below goes through, moved on
        await sent.count(4)
    count = len(sent.items)
    await asyncio.sleep(0.2)
    assert len(sent.items) == count  # nothing once the call is over
    values = [p for p, _, _ in sent.items]
    assert values == sorted(values) and len(set(values)) == len(values)  # always growing
    assert sent.items[2][2] == "queued behind another command" and sent.items[2][0] > sent.items[1][0]


async def test_heartbeat_is_silent_for_a_quick_call_and_keeps_a_counted_total():
    sent = Sent()
    async with WaitReporter(sent, idle="x", idle_interval=10):
        await asyncio.sleep(0.05)
    assert sent.items == []
    async with WaitReporter(sent, idle="test_run: waiting for the Godot editor to answer", idle_interval=0.05) as beat:
        await beat(1, 3, "1 of 3 suites")
        await sent.count(2)
        await beat(1, 3, "2 of 3 suites")  # not above what the heartbeat sent: moved past it
    (p1, t1, _), (p2, t2, _), (p3, t3, m3) = sent.items[:3]
    assert (t1, t2, t3) == (3, 3, 3) and p1 < p2 < p3 <= 3 and m3 == "2 of 3 suites"


async def test_heartbeat_survives_a_client_that_is_gone():
    async def gone(progress: float, total: float | None, message: str | None) -> None:
        raise OSError("broken pipe")

    async with WaitReporter(gone, idle="x", idle_interval=0.01) as beat:
        await beat(1, None, "still fine")
        await asyncio.sleep(0.05)


async def test_heartbeat_passes_a_first_report_of_zero_as_it_is():
    sent = Sent()
    async with WaitReporter(sent, idle="x", idle_interval=10) as beat:
        await beat(0, 3, "starting")
        await beat(3, 3, "done")
    assert [(p, t) for p, t, _ in sent.items] == [(0, 3), (3, 3)]
