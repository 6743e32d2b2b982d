"""A task waiting for the person (mcp/core/tasks.py over jobs/asking.py): its question reaches a
2025-11-25 client as an ``elicitation/create`` sent on its ``tasks/result``, and a 2026-07-28
client in ``tasks/get``'s ``inputRequests``, answered with ``tasks/update``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import anyio
import mcp_types as types
import pytest

from godot_bridge.consent.caller import JobAsker
from godot_bridge.consent.question import Question, UnusableAnswer
from godot_bridge.jobs import asking
from godot_bridge.jobs.engine import JobStore
from godot_bridge.mcp.core.peers import Peer
from godot_bridge.mcp.core.tasks import TaskParams, Tasks, UpdateParams
from godot_bridge.tools import results
from godot_bridge.tools.results import ToolOutcome

QUESTION = {"method": "elicitation/create", "params": {
    "message": "Delete res://old.tscn?", "requestedSchema": {"type": "object", "properties": {}}}}
TASKS_META = {"_meta": {"io.modelcontextprotocol/clientCapabilities": {
    "extensions": {"io.modelcontextprotocol/tasks": {}}}}}


class Owner:
    owner = "me"


@dataclass
class Session:
    sent: list[Any] = field(default_factory=list)
    answer: dict[str, Any] = field(default_factory=lambda: {"action": "accept", "content": {}})

    async def send_request(self, request: Any, result_type: Any) -> Any:
        self.sent.append(request)
        return types.ElicitResult.model_validate(self.answer)  # as the SDK reads the client's result


@dataclass
class Ctx:
    protocol_version: str
    params: dict[str, Any]
    session: Session = field(default_factory=Session)
    method: str = "tasks/result"
    lifespan_context: Peer = field(default_factory=lambda: Peer(Owner(), standing=True))  # type: ignore[arg-type]


async def asks(progress: Any) -> ToolOutcome:
    answer = await asking.ask(QUESTION)
    assert answer is not None
    return results.success({"answer": answer["action"]})


async def test_a_handshake_task_asks_through_tasks_result() -> None:
    store = JobStore()
    tasks = Tasks(store, None)  # type: ignore[arg-type]
    job = store.start("me", "node_delete", asks)
    ctx = Ctx("2025-11-25", {"taskId": job.id})
    result = await tasks.result(ctx, TaskParams(taskId=job.id))
    (sent,) = ctx.session.sent
    assert sent.method == "elicitation/create" and sent.params.message == "Delete res://old.tscn?"
    assert sent.params.meta == {"io.modelcontextprotocol/related-task": {"taskId": job.id}}
    assert result["structuredContent"] == {"answer": "accept"}
    assert result["_meta"] == {"io.modelcontextprotocol/related-task": {"taskId": job.id}}


async def test_a_modern_task_shows_its_question_and_takes_the_answer_by_update() -> None:
    store = JobStore()
    tasks = Tasks(store, None)  # type: ignore[arg-type]
    job = store.start("me", "node_delete", asks)
    while job.status != "input_required":
        await job.changed(1)
    ctx = Ctx("2026-07-28", {"taskId": job.id, **TASKS_META}, method="tasks/get")
    got = await tasks.get(ctx, TaskParams(taskId=job.id))
    assert got["status"] == "input_required" and got["statusMessage"] == "Delete res://old.tscn?"
    ((key, request),) = got["inputRequests"].items()
    assert request == QUESTION
    update = Ctx("2026-07-28", ctx.params, method="tasks/update")
    # An answer to a key never asked is ignored; the real one resumes the job.
    assert await tasks.update(update, UpdateParams(taskId=job.id, inputResponses={"other": {"action": "accept"}})) == {}
    assert job.status == "input_required"
    assert await tasks.update(update, UpdateParams(taskId=job.id, inputResponses={key: {"action": "decline"}})) == {}
    await job.wait(5)
    done = await tasks.get(ctx, TaskParams(taskId=job.id))
    assert done["status"] == "completed" and done["result"]["structuredContent"] == {"answer": "decline"}
    assert "inputRequests" not in done


async def asks_the_person(progress: Any) -> ToolOutcome:
    """A job's question as the consent gate asks it (consent/caller.py ``JobAsker``)."""
    try:
        answer = await JobAsker(timeout_s=60).ask(Question("node_delete", "Delete res://old.tscn", "why"))
    except UnusableAnswer as unusable:
        return results.success({"unusable": unusable.why})
    return results.success({"answer": answer.value})


@pytest.mark.parametrize(("sent", "why"), [({"action": "ACCEPT"}, "action: Input should be"),
                                           ({"action": "accept", "content": "yes"}, "content: Input should be")])
async def test_a_handshake_task_answer_that_cannot_be_read_ends_the_question_at_once(sent: dict[str, Any],
                                                                                     why: str) -> None:
    store = JobStore()
    tasks = Tasks(store, None)  # type: ignore[arg-type]
    job = store.start("me", "node_delete", asks_the_person)
    ctx = Ctx("2025-11-25", {"taskId": job.id}, Session(answer=sent))
    with anyio.fail_after(5):  # never the question's 60 s
        result = await tasks.result(ctx, TaskParams(taskId=job.id))
    assert why in result["structuredContent"]["unusable"], result


@pytest.mark.parametrize("responses", ["yes", [{"action": "accept"}], "key:yes", "key:{}", "key:ACCEPT"])
async def test_a_modern_task_answer_that_cannot_be_read_ends_the_question_at_once(responses: Any) -> None:
    store = JobStore()
    tasks = Tasks(store, None)  # type: ignore[arg-type]
    job = store.start("me", "node_delete", asks_the_person)
    while job.status != "input_required":
        await job.changed(1)
    (key,) = job.input_requests
    if isinstance(responses, str) and responses.startswith("key:"):
        responses = {key: {"yes": "yes", "{}": {}, "ACCEPT": {"action": "ACCEPT"}}[responses[4:]]}
    update = Ctx("2026-07-28", {"taskId": job.id, **TASKS_META}, method="tasks/update")
    assert await tasks.update(update, UpdateParams(taskId=job.id, inputResponses=responses)) == {}
    with anyio.fail_after(5):
        await job.wait(5)
    assert job.status == "completed" and "unusable" in job.outcome.structured, job.outcome
