"""MCP tasks over the job engine, in both protocol eras (``godot_bridge/jobs``).

**2025-11-25** (tasks in the core protocol): the ``tasks`` capability; job-capable tools say
``execution.taskSupport: "optional"`` in ``tools/list`` (``app.py``); a ``tools/call`` with
``params.task`` answers ``{task}`` at once; ``tasks/get``, ``tasks/result`` (waits, then answers
exactly the call's result with ``_meta["io.modelcontextprotocol/related-task"]``; a task waiting
for the person gets its ``elicitation/create`` through it), ``tasks/list``, ``tasks/cancel``
(answers the task, ``cancelled``), and ``notifications/tasks/status`` on the client's standing
channel. The call's progress token keeps reporting while the task works.

**2026-07-28** (the ``io.modelcontextprotocol/tasks`` extension, advertised in ``server/discover``):
a ``tools/call`` of a job-capable tool from a request whose ``_meta`` client capabilities declare
the extension answers ``{resultType: "task", taskId, ...}`` (the server decides; an old-style
``params.task`` never makes a tool a task); ``tasks/get`` inlines ``result`` / ``error`` /
``inputRequests``, ``tasks/update`` delivers ``inputResponses``, ``tasks/cancel`` acknowledges;
``notifications/tasks`` ride ``subscriptions/listen`` streams whose filter names ``taskIds``.
``tasks/result`` and ``tasks/list`` are gone there (-32601); a request that did not declare the
extension gets -32021.

Whether a call becomes a task is decided with every call's route (``calls.py``); the task result
is returned by the ``tools/call`` middleware's short-circuit (``sdk_server.py``, ``Tasks.start``):
the SDK refuses a task result from the call-tool handler (its result sieve knows only
``CallToolResult``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from typing import Any

import anyio
from mcp.shared.exceptions import MCPError
from mcp.shared.subscriptions import SUBSCRIPTION_ID_META_KEY
from mcp_types import (
    INVALID_PARAMS,
    INVALID_REQUEST,
    METHOD_NOT_FOUND,
    MISSING_REQUIRED_CLIENT_CAPABILITY,
    ElicitRequest,
    ElicitResult,
    RequestParams,
    SubscriptionFilter,
    SubscriptionsAcknowledgedNotification,
)
from pydantic import Field, ValidationError

from godot_bridge.consent.caller import Caller, JobAsker, can_elicit_form
from godot_bridge.consent.question import UnusableAnswer, described
from godot_bridge.jobs.engine import FINISHED, JOB_FAILED, Job, JobError, JobStore, iso
from godot_bridge.jobs.runner import JobRunner
from godot_bridge.mcp.core.calls import ToolCall, progress_params
from godot_bridge.mcp.core.elicitation import unusable
from godot_bridge.mcp.core.eras import (
    TASKS_MODERN_ONLY,
    TASKS_REMOVED_IN_MODERN,
    declares_tasks_extension,
    is_modern_version,
)
from godot_bridge.mcp.core.era_channels import notification
from godot_bridge.mcp.core.listen import AckWatch, beside
from godot_bridge.mcp.core.peers import Peer
from godot_bridge.mcp.core.protocol import (
    CLIENT_CAPABILITIES_META_KEY,
    SERVER_INFO_META_KEY,
    TASKS_EXTENSION,
    call_result,
)
from godot_bridge.tools.catalogue import ToolDef

log = logging.getLogger(__name__)

RELATED_TASK_META_KEY = "io.modelcontextprotocol/related-task"
STATUS_NOTIFICATION = "notifications/tasks/status"  # 2025-11-25
MODERN_NOTIFICATION = "notifications/tasks"  # 2026-07-28, on listen streams
NOT_A_TASK = "{name} does not run as a task (its execution.taskSupport is forbidden): call it without params.task"
_REMOVED = ("Method not found: {method} is not part of the 2026-07-28 tasks extension (tasks/get carries the "
            "result and the state)")
_MODERN_ONLY = ("Method not found: {method} is the 2026-07-28 tasks extension's; a 2025-11-25 task gets its input "
                "through tasks/result")


def _in_its_era(ctx: Any) -> None:
    """Refuse (-32601) a tasks method the era of this request does not have (``eras.py``'s tables)."""
    if is_modern_version(ctx.protocol_version):
        if ctx.method in TASKS_REMOVED_IN_MODERN:
            raise MCPError(METHOD_NOT_FOUND, _REMOVED.format(method=ctx.method))
    elif ctx.method in TASKS_MODERN_ONLY:
        raise MCPError(METHOD_NOT_FOUND, _MODERN_ONLY.format(method=ctx.method))


def _missing_extension(method: str) -> MCPError:
    return MCPError(MISSING_REQUIRED_CLIENT_CAPABILITY,
                    f"Missing required client capability: {method} needs the {TASKS_EXTENSION} extension declared in "
                    f"_meta[{CLIENT_CAPABILITIES_META_KEY!r}].extensions",
                    data={"requiredCapabilities": {"extensions": {TASKS_EXTENSION: {}}}})


def _requested_ttl(params: Mapping[str, Any]) -> float | None:
    task = params.get("task")
    ttl = task.get("ttl") if isinstance(task, Mapping) else None
    return float(ttl) if isinstance(ttl, int | float) and not isinstance(ttl, bool) and ttl > 0 else None


# -- the task shapes -------------------------------------------------------------------------------


def _base(job: Job) -> dict[str, Any]:
    out: dict[str, Any] = {"taskId": job.id, "status": job.status, "createdAt": iso(job.created_at),
                           "lastUpdatedAt": iso(job.updated_at)}
    if job.message:
        out["statusMessage"] = job.message
    return out


def _error(job: Job) -> dict[str, Any]:
    """The JSON-RPC error a failed task carries."""
    return job.error or {"code": JOB_FAILED, "message": job.message or "the task failed"}


def handshake_task(job: Job, poll_ms: int) -> dict[str, Any]:
    """A 2025-11-25 ``Task``."""
    return {**_base(job), "ttl": job.ttl_ms, "pollInterval": poll_ms}


def modern_task(job: Job, poll_ms: int) -> dict[str, Any]:
    """A 2026-07-28 ``DetailedTask``: the task and, by status, its result, error or input requests."""
    out = {**_base(job), "ttlMs": job.ttl_ms, "pollIntervalMs": poll_ms}
    if job.status == "completed" and job.outcome is not None:
        out["result"] = call_result(job.outcome, True)
    elif job.status == "failed":
        out["error"] = _error(job)
    elif job.status == "input_required":
        out["inputRequests"] = dict(job.input_requests)
    return out


# -- request params --------------------------------------------------------------------------------


class TaskParams(RequestParams):
    task_id: str = Field(alias="taskId")


class UpdateParams(TaskParams):
    # Any JSON: an answer the consent gate cannot read is a tool result that says so, not -32602.
    input_responses: Any = Field(alias="inputResponses")


class ListParams(RequestParams):
    cursor: str | None = None


def _peer(ctx: Any) -> Peer:
    peer = ctx.lifespan_context
    assert isinstance(peer, Peer), "EraRouter serves every request with its peer"
    return peer


class Tasks:
    """The MCP face of the job engine, registered on the SDK server (``install``)."""

    def __init__(self, store: JobStore, runner: JobRunner) -> None:
        self.store, self.runner = store, runner
        self._notes: set[asyncio.Task[None]] = set()
        self._server: Any = None

    @property
    def poll_ms(self) -> int:
        return self.store.limits.poll_interval_ms

    def install(self, server: Any) -> None:
        self._server = server
        server.extensions[TASKS_EXTENSION] = {}
        server.add_request_handler("tasks/get", TaskParams, self.get)
        server.add_request_handler("tasks/result", TaskParams, self.result)
        server.add_request_handler("tasks/list", ListParams, self.list)
        server.add_request_handler("tasks/cancel", TaskParams, self.cancel)
        server.add_request_handler("tasks/update", UpdateParams, self.update)

    # -- tools/call → a task ------------------------------------------------------------------

    def start(self, ctx: Any, call: ToolCall, tool: ToolDef, peer: Peer) -> dict[str, Any]:
        """Start ``call`` of the job-capable ``tool`` as a task; its answer (the SDK's call-tool
        middleware returns it: the SDK stamps nothing on a short-circuit)."""
        modern = call.modern
        try:
            # A question asked inside the task waits for the client's answer through the task,
            # when the client declared form elicitation; otherwise the call previews with a token.
            asker = JobAsker() if can_elicit_form(ctx.session.client_capabilities) else None
            job = self.runner.start_call(tool, call.target_arguments, peer.tools_for(modern),
                                         None if modern else _requested_ttl(call.params), Caller(peer, asker=asker))
        except JobError as err:
            raise MCPError(INVALID_REQUEST, str(err)) from None
        if modern:
            created = {key: value for key, value in modern_task(job, self.poll_ms).items()
                       if key not in ("result", "error", "inputRequests")}
            return {**created, "resultType": "task", "_meta": {SERVER_INFO_META_KEY: self._server.server_info_stamp}}
        self._follow_handshake(job, peer, call.progress_token)
        return {"task": handshake_task(job, self.poll_ms)}

    def _follow_handshake(self, job: Job, peer: Peer, token: Any) -> None:
        """Progress on the call's token and status changes, to the client's standing channel."""
        if token is not None:
            async def progress(value: float, total: float | None, message: str | None) -> None:
                notify = peer.channel()
                if notify is None:
                    return
                body = progress_params(token, value, total, message)
                body["_meta"] = {RELATED_TASK_META_KEY: {"taskId": job.id}}
                await notify("notifications/progress", body)

            job.on_progress(progress)

        def status(changed: Job) -> None:
            notify = peer.channel()
            if notify is not None:
                self._spawn(notify(STATUS_NOTIFICATION, handshake_task(changed, self.poll_ms)))

        job.on_status(status)

    def _spawn(self, coro: Any) -> None:
        async def quiet() -> None:
            try:
                await coro
            except Exception as exc:  # noqa: BLE001 - a notification the client can no longer hear
                log.debug("task notification not delivered: %s", exc)

        task = asyncio.get_running_loop().create_task(quiet())
        self._notes.add(task)
        task.add_done_callback(self._notes.discard)

    # -- tasks/* ------------------------------------------------------------------------------------

    def owns(self, owner: str, task_id: str) -> bool:
        try:
            self.store.get(owner, task_id)
        except JobError:
            return False
        return True

    def _job(self, ctx: Any, task_id: str) -> Job:
        if is_modern_version(ctx.protocol_version) and not declares_tasks_extension(ctx.params):
            raise _missing_extension(ctx.method)
        try:
            return self.store.get(_peer(ctx).tools.owner, task_id)
        except JobError as err:
            raise MCPError(INVALID_PARAMS, f"Failed to retrieve task: {err}") from None

    async def get(self, ctx: Any, params: TaskParams) -> dict[str, Any]:
        job = self._job(ctx, params.task_id)
        if is_modern_version(ctx.protocol_version):
            return modern_task(job, self.poll_ms)
        return handshake_task(job, self.poll_ms)

    async def result(self, ctx: Any, params: TaskParams) -> dict[str, Any]:
        _in_its_era(ctx)
        job = self._job(ctx, params.task_id)
        asked: set[str] = set()
        while True:
            change = job.next_change()
            if job.terminal:
                break
            if not await self._ask(ctx, job, asked):
                await change.wait()
        related = {RELATED_TASK_META_KEY: {"taskId": job.id}}
        if job.outcome is not None:
            return {**call_result(job.outcome, False), "_meta": related}
        if job.status == "cancelled":
            raise MCPError(INVALID_REQUEST, f"task {job.id} was cancelled: {job.message}")
        error = _error(job)
        raise MCPError(error["code"], error["message"], data=error.get("data"))

    async def _ask(self, ctx: Any, job: Job, asked: set[str]) -> bool:
        """A 2025-11-25 task waiting for the person: its questions not yet ``asked`` go to the client
        as server requests on the ``tasks/result`` request (the answer resumes the job). False:
        there was nothing new to ask."""
        new = [(key, request) for key, request in job.input_requests.items() if key not in asked]
        for key, request in new:
            asked.add(key)
            body = dict(request)
            body["params"] = {**request.get("params", {}), "_meta": {RELATED_TASK_META_KEY: {"taskId": job.id}}}
            try:
                answer = await ctx.session.send_request(ElicitRequest.model_validate(body), ElicitResult)
            except (MCPError, ValidationError) as exc:  # no answer the job can use: it says so at once
                job.answer(key, unusable(exc))
                continue
            job.answer(key, answer.model_dump(mode="json", by_alias=True, exclude_none=True))
        return bool(new)

    async def list(self, ctx: Any, params: ListParams) -> dict[str, Any]:
        _in_its_era(ctx)
        return {"tasks": [handshake_task(job, self.poll_ms) for job in self.store.list(_peer(ctx).tools.owner)]}

    async def cancel(self, ctx: Any, params: TaskParams) -> dict[str, Any]:
        modern = is_modern_version(ctx.protocol_version)
        job = self._job(ctx, params.task_id)
        try:
            await self.store.cancel(job.owner, job.id)
        except JobError as err:
            if err.code == FINISHED and modern:
                return {}  # a cancel of a finished task is acknowledged: it is eventually consistent
            raise MCPError(INVALID_PARAMS, f"Cannot cancel task: {err}") from None
        return {} if modern else handshake_task(job, self.poll_ms)

    async def update(self, ctx: Any, params: UpdateParams) -> dict[str, Any]:
        _in_its_era(ctx)
        job = self._job(ctx, params.task_id)
        responses = params.input_responses
        if not isinstance(responses, Mapping):  # no answer to any of its questions: each says so at once
            refusal = UnusableAnswer(f"inputResponses is {described(responses)}, not an object")
            responses = {key: refusal for key in list(job.input_requests)}
        for key, response in responses.items():
            job.answer(key, response)  # read by the question's asker; keys not outstanding are ignored
        return {}



# -- 2026-07-28: notifications/tasks on listen streams ---------------------------------------------


class _TaskAck(AckWatch):
    """The listen request's session, adding the accepted ``taskIds`` to the stream's ack."""

    def __init__(self, session: Any, task_ids: list[str]) -> None:
        super().__init__(session)
        self._task_ids = task_ids

    def shape(self, notification: Any) -> Any:
        if isinstance(notification, SubscriptionsAcknowledgedNotification):
            honored = notification.params.notifications.model_dump(by_alias=True, exclude_none=True)
            notification.params.notifications = SubscriptionFilter.model_validate({**honored, "taskIds": self._task_ids})
        return notification


class TaskListen:
    """``subscriptions/listen``: the inner handler, plus ``notifications/tasks`` for the caller's tasks
    the filter's ``taskIds`` name (each carries the whole ``DetailedTask``, as ``tasks/get`` would)."""

    def __init__(self, inner: Any, tasks: Tasks) -> None:
        self.inner, self.tasks = inner, tasks

    async def __call__(self, ctx: Any, params: Any) -> Any:
        raw = ctx.params if isinstance(ctx.params, Mapping) else {}
        wanted = raw.get("notifications", {}).get("taskIds") if isinstance(raw.get("notifications"), Mapping) else None
        if wanted is None:
            return await self.inner(ctx, params)
        if not declares_tasks_extension(raw):
            raise _missing_extension("subscriptions/listen with taskIds")
        owner = _peer(ctx).tools.owner
        accepted = [task_id for task_id in wanted if isinstance(task_id, str) and self.tasks.owns(owner, task_id)]
        ack = _TaskAck(ctx.session, accepted)
        send, recv = anyio.create_memory_object_stream[Job](256)

        def changed(job: Job) -> None:
            if job.id in accepted:
                try:
                    send.send_nowait(job)
                except (anyio.WouldBlock, anyio.ClosedResourceError):
                    log.debug("listen stream %r: task backlog full, dropped one", ctx.request_id)

        stop = self.tasks.store.on_status(changed)

        async def forward() -> None:
            await ack.acked.wait()
            async for job in recv:
                body = {**modern_task(job, self.tasks.poll_ms), "_meta": {SUBSCRIPTION_ID_META_KEY: ctx.request_id}}
                await ctx.session.send_notification(notification(MODERN_NOTIFICATION, body),
                                                    related_request_id=ctx.request_id)

        try:
            return await beside(self.inner, ctx, params, ack, forward)
        finally:
            stop()
            send.close()
            recv.close()
