"""A task waiting for the person (mcp/tasks.py over jobs/asking.py): its question reaches a
2025-11-25 client as an ``elicitation/create`` sent on its ``tasks/result``, and a 2026-07-28
client in ``tasks/get``'s ``inputRequests``, answered with ``tasks/update``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import mcp_types as types

from godot_bridge.jobs import asking
from godot_bridge.jobs.engine import JobStore
from godot_bridge.mcp.peers import Peer
from godot_bridge.mcp.tasks import TaskParams, Tasks, UpdateParams
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

    async def send_request(self, request: Any, result_type: Any) -> Any:
        self.sent.append(request)
        return types.ElicitResult(action="accept", content={})


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
    tasks = Tasks(store, None, None)  # type: ignore[arg-type]
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
    tasks = Tasks(store, None, None)  # type: ignore[arg-type]
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
