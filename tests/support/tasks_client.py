"""The official Python SDK client (the installed ``mcp``) speaking MCP tasks to the bridge.

The SDK has no task engine on either side; what it offers a client is its extension seam: a
``ClientExtension`` advertises ``io.modelcontextprotocol/tasks`` in every request's capabilities
and claims the ``resultType: "task"`` shape of ``tools/call``, and its resolver drives the task
with ``tasks/get`` sent through the session (``send_request``), as an application would. So
``client.call_tool`` returns the task's final result, and the test can send ``tasks/*`` itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Literal

import anyio
import mcp_types as types
from mcp.client.extension import ClaimContext, ClientExtension, ResultClaim
from mcp.client.session import ClientSession
from pydantic import Field, TypeAdapter

TASKS = "io.modelcontextprotocol/tasks"
RAW = types.Request[dict[str, Any], str]
ANY: TypeAdapter[dict[str, Any]] = TypeAdapter(dict[str, Any])


class CreatedTask(types.Result):
    result_type: Literal["task"] = Field(alias="resultType")
    task_id: str
    status: str
    ttl_ms: int | None = None
    poll_interval_ms: int | None = None


class TaskRequest(RAW):
    # Over HTTP the task id rides in Mcp-Name, as the extension requires (the SDK sets it from this).
    name_param: ClassVar[str | None] = "taskId"


async def request(session: ClientSession, method: str, params: dict[str, Any]) -> dict[str, Any]:
    """A request the SDK has no method for (``tasks/get`` and friends), its result as sent."""
    kind = TaskRequest if "taskId" in params else RAW
    return await session.send_request(kind(method=method, params=params), ANY)


class TasksExtension(ClientExtension):
    identifier = TASKS

    def __init__(self) -> None:
        self.created: list[CreatedTask] = []  # every task the server created for this client
        self.polls = 0

    def claims(self) -> Sequence[ResultClaim[Any]]:
        return (ResultClaim(result_type="task", model=CreatedTask, resolve=self._resolve),)

    async def _resolve(self, created: CreatedTask, ctx: ClaimContext) -> types.CallToolResult:
        self.created.append(created)
        while True:
            task = await request(ctx.session, "tasks/get", {"taskId": created.task_id})
            self.polls += 1
            if task["status"] == "completed":
                return types.CallToolResult.model_validate(task["result"])
            if task["status"] in ("failed", "cancelled"):
                raise RuntimeError(f"task {created.task_id} ended {task['status']}: {task.get('statusMessage')}")
            await anyio.sleep(min(0.2, (task.get("pollIntervalMs") or 200) / 1000))
