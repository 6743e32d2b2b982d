"""The job engine: a tool call running on its own, owned by one client, kept until its TTL.

A job is one call of a job-capable tool, run in its own asyncio task so it outlives the request
that started it. It has an unguessable id, an owner (a stdio connection, an HTTP session, or the
principal a sessionless request authenticated as: ``mcp/core/peers.py``), a status
(``working``, ``input_required``, ``completed``, ``failed``, ``cancelled``) with a message, the
last progress it reported, created / updated times, a TTL, and, once done, the result exactly
as the blocking call would have returned it.

The store is bounded: at most ``per_owner`` jobs for one owner and ``total`` in all, counting
finished ones until they expire; a new job makes room by dropping the oldest finished job, and
is refused when every job is still running. A finished job stays readable until ``ttl_s`` after
it was created (and at least ``linger_s`` after it finished); a job still working never expires.
An owner that goes away (stdio end of input, an HTTP session that ends) takes its jobs with it:
the running ones are cancelled, which stops their work (the toolkit kills a test process when its
call is cancelled, a language-server request is cancelled, a wait ends).

One owner never sees another's job: an id of someone else's job is answered exactly like an
id that never existed.

Pure asyncio and bookkeeping: what a job runs is a function handed in (``runner.py`` builds it
from the tool-call path), and time comes from injectable clocks.
"""

from __future__ import annotations

import asyncio
import contextvars
import datetime as dt
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from godot_bridge.errors import JobsError
from godot_bridge.tools.progress import ProgressFn
from godot_bridge.tools.results import ToolOutcome

log = logging.getLogger(__name__)

Status = Literal["working", "input_required", "completed", "failed", "cancelled"]
TERMINAL: frozenset[str] = frozenset({"completed", "failed", "cancelled"})

# The codes a job-engine refusal carries (the front ends map them to their protocol's errors).
NOT_FOUND = "JOB_NOT_FOUND"
FINISHED = "JOB_FINISHED"
LIMIT = "JOB_LIMIT"

# The toolkit's answer when the editor connection dropped under a call: the call may have partly
# applied, so the job fails and says where to look, instead of claiming a clean result.
EDITOR_LOST_CODES = frozenset({"DISCONNECTED"})
EDITOR_LOST = ("the editor disconnected while {tool} ran, so part of it may have applied: check the editor "
               "(history lists what the assistant changed; undo takes it back) before running it again")
# JSON-RPC error code a failed job carries (server error range; the front ends show it as is).
JOB_FAILED = -32603


@dataclass(frozen=True)
class JobLimits:
    default_ttl_s: float = 3600.0
    max_ttl_s: float = 4 * 3600.0  # a requested TTL above this is capped (results are kept in memory)
    min_ttl_s: float = 1.0
    per_owner: int = 16
    total: int = 64
    linger_s: float = 60.0  # a job finishing after its TTL is still readable this long
    cancel_wait_s: float = 10.0  # how long a cancel waits for the work (and its clean-up) to stop
    poll_interval_ms: int = 1000  # what clients are asked to poll at


class JobError(JobsError):
    """A request about jobs that cannot be served; ``code`` is one of the codes above."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class JobFailed(JobsError):
    """Raised by a job's work for a protocol-level failure (no tool result): the job fails with it."""

    def __init__(self, code: int, message: str, data: Any = None) -> None:
        super().__init__(message)
        self.code, self.message, self.data = code, message, data

    def error(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.data is not None:
            out["data"] = self.data
        return out


Work = Callable[[ProgressFn], Awaitable[ToolOutcome]]
# Runs after the work was cancelled; returns what it did ("the game was stopped"), or None.
AfterCancel = Callable[[], Awaitable[str | None]]
Listener = Callable[["Job"], None]

# The job whose work runs in this task (None outside any): how a tool call finds the job it runs
# in, to wait for the person through it (asking.py).
CURRENT_JOB: contextvars.ContextVar[Job | None] = contextvars.ContextVar("godot_bridge_job", default=None)


def iso(stamp: float) -> str:
    """An ISO 8601 UTC time with milliseconds, as MCP tasks carry them."""
    moment = dt.datetime.fromtimestamp(stamp, dt.timezone.utc)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


@dataclass
class Progress:
    value: float
    total: float | None
    message: str | None


@dataclass(eq=False)
class Job:
    id: str
    owner: str
    tool: str
    created_at: float  # wall clock (shown)
    ttl_s: float
    started: float  # monotonic (expiry)
    updated_at: float
    status: Status = "working"
    message: str | None = None
    progress: Progress | None = None
    outcome: ToolOutcome | None = None
    error: dict[str, Any] | None = None
    finished: float | None = None  # monotonic
    cancel_note: str | None = None  # what cancelling this tool stops (catalogue)
    after_cancel: AfterCancel | None = None
    # What the job waits for from the person: key -> the request (an MCP elicitation/create), and
    # the futures their answers resolve (asking.py).
    input_requests: dict[str, dict[str, Any]] = field(default_factory=dict)
    _answers: dict[str, asyncio.Future[dict[str, Any]]] = field(default_factory=dict)
    _task: asyncio.Task[None] | None = None
    _done: asyncio.Event = field(default_factory=asyncio.Event)
    _changed: asyncio.Event = field(default_factory=asyncio.Event)
    _listeners: list[Listener] = field(default_factory=list)
    _progress_listeners: list[ProgressFn] = field(default_factory=list)
    _store: JobStore | None = None

    @property
    def terminal(self) -> bool:
        return self.status in TERMINAL

    @property
    def ttl_ms(self) -> int:
        return int(self.ttl_s * 1000)

    def expired(self, now: float, linger_s: float) -> bool:
        if self.finished is None:
            return False
        return now >= max(self.started + self.ttl_s, self.finished + linger_s)

    # -- listening ---------------------------------------------------------------------------

    def on_status(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener(job)`` after each change of status (not of progress)."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def on_progress(self, report: ProgressFn) -> None:
        """Forward every progress report of the work to ``report`` (an MCP progress token)."""
        self._progress_listeners.append(report)

    async def wait(self, timeout: float | None = None) -> bool:
        """Wait until the job is finished (True) or ``timeout`` passed (False)."""
        if self.terminal:
            return True
        try:
            await asyncio.wait_for(self._done.wait(), timeout)
        except TimeoutError:
            return False
        return True

    def next_change(self) -> asyncio.Event:
        """Set at the job's next change of status. Take it *before* looking at the job, so a
        change between the look and the wait is not missed."""
        return self._changed

    async def changed(self, timeout: float | None = None) -> None:
        """Wait for the next change of status (or the timeout)."""
        try:
            await asyncio.wait_for(self._changed.wait(), timeout)
        except TimeoutError:
            pass

    # -- state changes -------------------------------------------------------------------------

    def _set(self, status: Status, message: str | None) -> None:
        self.status, self.message = status, message
        self.updated_at = self._wall()
        if status in TERMINAL:
            self.finished = self._store.clock() if self._store else time.monotonic()
            self._done.set()
        # A fresh event per change: every waiter of this one wakes, later waiters wait for the next.
        changed, self._changed = self._changed, asyncio.Event()
        changed.set()
        for listener in list(self._listeners):
            try:
                listener(self)
            except Exception:  # noqa: BLE001 - a listener is a notification; it must not break the job
                log.exception("job %s… listener failed", self.id[:6])

    def _wall(self) -> float:
        return self._store.wall() if self._store else time.time()

    async def _report(self, value: float, total: float | None, message: str | None) -> None:
        self.progress = Progress(value, total, message)
        if message:
            self.message = message
        self.updated_at = self._wall()
        for report in list(self._progress_listeners):
            try:
                await report(value, total, message)
            except Exception as exc:  # noqa: BLE001 - a client gone away must not fail the job
                log.debug("job %s… progress not delivered: %s", self.id[:6], exc)

    async def ask(self, key: str, request: dict[str, Any]) -> Any:
        """Wait for the person: the job is ``input_required`` until ``answer(key, ...)`` (asking.py)."""
        if key in self.input_requests or key in self._answers:
            raise ValueError(f"input request key {key!r} is already in use by this job")
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.input_requests[key] = request
        self._answers[key] = future
        self._set("input_required", str(request.get("params", {}).get("message") or "waiting for the person"))
        try:
            return await future
        finally:
            self.input_requests.pop(key, None)
            if not self.terminal and not self.input_requests and self.status == "input_required":
                self._set("working", None)

    def answer(self, key: str, response: Any) -> bool:
        """Deliver the answer to an outstanding input request, as the client sent it (or, where the
        client's front end could not read it, why): the asker reads it. False when none has that key."""
        future = self._answers.pop(key, None)
        if future is None or future.done() or key not in self.input_requests:
            return False
        future.set_result(response)
        return True

    # -- running ---------------------------------------------------------------------------------

    async def _run(self, work: Work) -> None:
        CURRENT_JOB.set(self)
        try:
            outcome = await work(self._report)
        except asyncio.CancelledError:
            await self._cancelled()
            return
        except JobFailed as failed:
            self.error = failed.error()
            self._set("failed", failed.message)
            return
        except Exception as exc:  # noqa: BLE001 - the job reports it; our log keeps the detail
            log.error("job %s… (%s) failed", self.id[:6], self.tool, exc_info=exc)
            self.error = {"code": JOB_FAILED, "message": "Internal error"}
            self._set("failed", "the bridge failed while running this job; see its stderr log")
            return
        self.outcome = outcome
        code = _error_code(outcome)
        if code in EDITOR_LOST_CODES:
            message = EDITOR_LOST.format(tool=self.tool)
            self.error = {"code": JOB_FAILED, "message": message, "data": {"result_code": code}}
            self._set("failed", message)
            return
        self._set("completed", None)

    async def _cancelled(self) -> None:
        for future in self._answers.values():
            future.cancel()
        parts = ["Cancelled."]
        if self.cancel_note:
            parts.append(self.cancel_note)
        if self.progress is not None and self.progress.message:
            parts.append(f"Last progress before the cancel: {self.progress.message}.")
        if self.after_cancel is not None:
            try:
                done = await self.after_cancel()
            except Exception as exc:  # noqa: BLE001 - the cancel stands; say the clean-up failed
                log.warning("job %s… clean-up after cancel failed: %s", self.id[:6], exc)
                done = f"Clean-up after the cancel failed: {exc}"
            if done:
                parts.append(done)
        self._set("cancelled", " ".join(parts))

    async def stop(self, wait_s: float) -> None:
        """Cancel the work and wait (bounded) until it stopped and the job says so."""
        if self.terminal or self._task is None:
            return
        self._task.cancel()
        await self.wait(wait_s)


def _error_code(outcome: ToolOutcome) -> str | None:
    if not outcome.is_error or not outcome.structured_is_object:
        return None
    code = outcome.structured.get("code")
    return code if isinstance(code, str) else None


class JobStore:
    """Every live job, in creation order."""

    def __init__(self, limits: JobLimits | None = None, *, clock: Callable[[], float] = time.monotonic,
                 wall: Callable[[], float] = time.time) -> None:
        self.limits = limits or JobLimits()
        self.clock, self.wall = clock, wall
        self._jobs: dict[str, Job] = {}
        self._listeners: list[Listener] = []

    def __len__(self) -> int:
        return len(self._jobs)

    def on_status(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener(job)`` after each status change of any job (MCP status notifications);
        returns the function that stops it."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def ttl_for(self, requested_ms: float | None) -> float:
        """The TTL a job gets, in seconds: the default, or what was asked within the limits."""
        if requested_ms is None:
            return self.limits.default_ttl_s
        return min(self.limits.max_ttl_s, max(self.limits.min_ttl_s, requested_ms / 1000.0))

    def start(self, owner: str, tool: str, work: Work, *, ttl_s: float | None = None,
              cancel_note: str | None = None, after_cancel: AfterCancel | None = None) -> Job:
        """A new job running ``work`` (its task starts now); refused with LIMIT when no room is left."""
        self.sweep()
        self._make_room(owner)
        now = self.wall()
        job = Job(id=secrets.token_urlsafe(18), owner=owner, tool=tool, created_at=now,
                  ttl_s=ttl_s if ttl_s is not None else self.limits.default_ttl_s, started=self.clock(),
                  updated_at=now, cancel_note=cancel_note, after_cancel=after_cancel, _store=self)
        job._listeners.append(self._fan_out)
        self._jobs[job.id] = job
        # A fresh context: the job must not inherit the starting request's (its response stream,
        # its cancel scope); it outlives that request.
        job._task = asyncio.get_running_loop().create_task(job._run(work), name=f"godot-bridge job {tool}",
                                                            context=contextvars.Context())
        log.info("job %s… started: %s (owner %s…, %d live)", job.id[:6], tool, owner[:8], len(self._jobs))
        return job

    def _fan_out(self, job: Job) -> None:
        for listener in list(self._listeners):
            try:
                listener(job)
            except Exception:  # noqa: BLE001 - a notification must not break the job
                log.exception("job listener failed")

    def refusal(self, owner: str) -> str | None:
        """Why a job of ``owner`` cannot start now (it would be refused LIMIT); None when it can, a
        finished job making room if need be. Asked before the person is, for a call that asks."""
        self.sweep()
        mine = [job for job in self._jobs.values() if job.owner == owner]
        if len(mine) >= self.limits.per_owner and not any(job.terminal for job in mine):
            return (f"{len(mine)} jobs of this client are still running (the limit is {self.limits.per_owner}): "
                    "wait for one to finish or cancel one with job_cancel")
        if len(self._jobs) >= self.limits.total and not any(job.terminal for job in self._jobs.values()):
            return (f"{len(self._jobs)} jobs are running in this bridge (the limit is {self.limits.total}): "
                    "wait for one to finish or cancel one")
        return None

    def _make_room(self, owner: str) -> None:
        refusal = self.refusal(owner)
        if refusal is not None:
            raise JobError(LIMIT, refusal)
        mine = [job for job in self._jobs.values() if job.owner == owner]
        if len(mine) >= self.limits.per_owner:
            self._drop_oldest_finished(mine)
        if len(self._jobs) >= self.limits.total:
            self._drop_oldest_finished(list(self._jobs.values()))

    def _drop_oldest_finished(self, jobs: list[Job]) -> None:
        oldest = min((job for job in jobs if job.terminal), key=lambda job: job.finished or 0.0)
        del self._jobs[oldest.id]
        log.info("job %s… dropped to make room", oldest.id[:6])

    def get(self, owner: str, job_id: str) -> Job:
        """The owner's job with this id; NOT_FOUND for an unknown, expired or someone else's id."""
        self.sweep()
        job = self._jobs.get(job_id) if isinstance(job_id, str) else None
        if job is None or job.owner != owner:
            raise JobError(NOT_FOUND, f"no job {job_id!r}: it never existed, it expired (results are kept for "
                           "their TTL), or it belongs to another client")
        return job

    def list(self, owner: str) -> list[Job]:
        self.sweep()
        return [job for job in self._jobs.values() if job.owner == owner]

    async def cancel(self, owner: str, job_id: str) -> Job:
        """Cancel the owner's job and wait (bounded) until its work stopped; FINISHED when it already ended."""
        job = self.get(owner, job_id)
        if job.terminal:
            raise JobError(FINISHED, f"job {job_id!r} already ended ({job.status}); there is nothing to cancel")
        await job.stop(self.limits.cancel_wait_s)
        return job

    def sweep(self) -> None:
        now = self.clock()
        for job in [j for j in self._jobs.values() if j.expired(now, self.limits.linger_s)]:
            del self._jobs[job.id]
            log.info("job %s… expired", job.id[:6])

    async def end_owner(self, owner: str) -> None:
        """The owner is gone: cancel its running jobs, wait (bounded) until their work stopped (the
        toolkit has been told, a test process killed), and forget all of them."""
        tasks = []
        for job in [j for j in self._jobs.values() if j.owner == owner]:
            del self._jobs[job.id]
            if not job.terminal and job._task is not None:
                job._task.cancel()
                tasks.append(job._task)
                log.info("job %s… cancelled: its client is gone", job.id[:6])
        if tasks:
            await asyncio.wait(tasks, timeout=self.limits.cancel_wait_s)

    async def aclose(self) -> None:
        """Cancel every running job and wait (bounded) for their work to stop."""
        tasks = [job._task for job in self._jobs.values() if job._task is not None and not job.terminal]
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.wait(tasks, timeout=self.limits.cancel_wait_s)
        self._jobs.clear()
