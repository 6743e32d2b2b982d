"""The job engine (godot_bridge/jobs/engine.py): owners, caps, TTL, cancel, input_required."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from godot_bridge.errors import ToolError
from godot_bridge.jobs import asking
from godot_bridge.jobs.engine import FINISHED, LIMIT, NOT_FOUND, JobError, JobLimits, JobStore
from godot_bridge.tools import results
from godot_bridge.tools.results import ToolOutcome


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def done(payload: Any) -> Any:
    async def work(progress: Any) -> ToolOutcome:
        return results.success(payload)

    return work


def forever(started: asyncio.Event | None = None, stopped: list[str] | None = None) -> Any:
    async def work(progress: Any) -> ToolOutcome:
        await progress(1, 3, "suite 1 of 3 finished")
        if started is not None:
            started.set()
        try:
            await asyncio.sleep(3600)
        except asyncio.CancelledError:
            if stopped is not None:
                stopped.append("stopped")
            raise
        return results.success({})

    return work


async def test_a_job_runs_on_its_own_and_keeps_the_exact_result() -> None:
    store = JobStore()
    job = store.start("me", "test_run", done({"passed": True}))
    assert job.status == "working" and len(job.id) >= 24
    assert await job.wait(5)
    assert job.status == "completed"
    assert job.outcome == results.success({"passed": True})


async def test_another_owners_id_is_answered_like_one_that_never_existed() -> None:
    store = JobStore()
    job = store.start("me", "test_run", done({}))
    assert store.get("me", job.id) is job
    with pytest.raises(JobError) as theirs:
        store.get("someone else", job.id)
    with pytest.raises(JobError) as unknown:
        store.get("someone else", "no-such-id")
    assert theirs.value.code == unknown.value.code == NOT_FOUND
    assert str(theirs.value).replace(job.id, "X") == str(unknown.value).replace("no-such-id", "X")
    assert store.list("someone else") == []


async def test_cancel_stops_the_work_and_says_what_had_taken_effect() -> None:
    undone: list[str] = []

    async def after() -> str:
        undone.append("game_stop")
        return "game_stop ran after the cancel: it succeeded."

    store = JobStore()
    started, stopped = asyncio.Event(), []
    job = store.start("me", "game_start", forever(started, stopped), cancel_note="The start was abandoned.",
                      after_cancel=after)
    await started.wait()
    assert job.progress is not None and job.message == "suite 1 of 3 finished"
    await store.cancel("me", job.id)
    assert job.status == "cancelled" and stopped == ["stopped"] and undone == ["game_stop"]
    assert job.message == ("Cancelled. The start was abandoned. Last progress before the cancel: suite 1 of 3 "
                           "finished. game_stop ran after the cancel: it succeeded.")
    with pytest.raises(JobError) as again:
        await store.cancel("me", job.id)
    assert again.value.code == FINISHED


async def test_a_call_whose_editor_disconnected_fails_and_points_at_history_and_undo() -> None:
    async def work(progress: Any) -> ToolOutcome:
        return results.failure(ToolError("DISCONNECTED", "the editor connection dropped"))

    store = JobStore()
    job = store.start("me", "asset_import", work)
    await job.wait(5)
    assert job.status == "failed"
    assert "may have applied" in (job.message or "") and "undo" in (job.message or "")
    assert job.outcome is not None and job.outcome.structured["code"] == "DISCONNECTED"
    assert job.error is not None and job.error["data"] == {"result_code": "DISCONNECTED"}


async def test_finished_jobs_expire_after_their_ttl_never_while_working() -> None:
    clock = Clock()
    store = JobStore(JobLimits(linger_s=5), clock=clock)
    finished = store.start("me", "a", done({}), ttl_s=60)
    running = store.start("me", "b", forever(), ttl_s=60)
    await finished.wait(5)
    clock.now += 59
    assert {j.id for j in store.list("me")} == {finished.id, running.id}
    clock.now += 2
    assert [j.id for j in store.list("me")] == [running.id]  # still working: kept past its TTL
    with pytest.raises(JobError):
        store.get("me", finished.id)
    await store.aclose()


async def test_a_job_finishing_after_its_ttl_lingers_so_its_result_can_be_read() -> None:
    clock = Clock()
    store = JobStore(JobLimits(linger_s=30), clock=clock)
    gate = asyncio.Event()

    async def slow(progress: Any) -> ToolOutcome:
        await gate.wait()
        return results.success({"late": True})

    job = store.start("me", "a", slow, ttl_s=10)
    clock.now += 100
    gate.set()
    await job.wait(5)
    clock.now += 29
    assert store.get("me", job.id).outcome == results.success({"late": True})
    clock.now += 2
    assert store.list("me") == []


def test_requested_ttls_are_capped() -> None:
    store = JobStore(JobLimits(default_ttl_s=3600, max_ttl_s=7200, min_ttl_s=1))
    assert store.ttl_for(None) == 3600
    assert store.ttl_for(60_000) == 60
    assert store.ttl_for(10**12) == 7200
    assert store.ttl_for(1) == 1


async def test_the_caps_drop_the_oldest_finished_job_first_and_refuse_when_all_run() -> None:
    store = JobStore(JobLimits(per_owner=2, total=3))
    first = store.start("me", "a", done({}))
    second = store.start("me", "b", done({}))
    await first.wait(5)
    await second.wait(5)
    third = store.start("me", "c", forever())  # makes room: the oldest finished goes
    assert [j.id for j in store.list("me")] == [second.id, third.id]
    store.start("me", "d", forever())  # second goes
    with pytest.raises(JobError) as full:
        store.start("me", "e", forever())  # both of mine still run
    assert full.value.code == LIMIT and "job_cancel" in str(full.value)
    store.start("you", "f", forever())
    with pytest.raises(JobError) as all_full:
        store.start("them", "g", forever())  # three run in all
    assert all_full.value.code == LIMIT
    await store.aclose()


async def test_an_owner_that_goes_away_takes_its_jobs_with_it() -> None:
    store = JobStore()
    started, stopped = asyncio.Event(), []
    mine = store.start("me", "test_run", forever(started, stopped))
    theirs = store.start("you", "test_run", forever())
    await started.wait()
    await store.end_owner("me")
    assert stopped == ["stopped"] and mine.terminal
    assert store.list("me") == [] and store.list("you") == [theirs]
    await store.aclose()


async def test_a_job_waits_for_the_person_through_the_asking_seam() -> None:
    assert await asking.ask({"method": "elicitation/create", "params": {"message": "outside"}}) is None

    async def work(progress: Any) -> ToolOutcome:
        assert asking.in_job()
        answer = await asking.ask({"method": "elicitation/create", "params": {
            "message": "Delete 3 nodes?", "requestedSchema": {"type": "object", "properties": {}}}})
        assert answer is not None
        return results.success({"answer": answer["action"]})

    store = JobStore()
    seen: list[str] = []
    job = store.start("me", "node_delete", work)
    job.on_status(lambda j: seen.append(j.status))
    while job.status != "input_required":
        await job.changed(1)
    (key, request), = job.input_requests.items()
    assert request["params"]["message"] == "Delete 3 nodes?" and job.message == "Delete 3 nodes?"
    assert not job.answer("another key", {"action": "accept"})
    assert job.answer(key, {"action": "accept"})
    await job.wait(5)
    assert job.outcome == results.success({"answer": "accept"})
    assert seen == ["input_required", "working", "completed"] and job.input_requests == {}
