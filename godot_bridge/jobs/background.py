"""Jobs for clients without MCP tasks: ``job_status``, ``job_cancel`` and ``godot://jobs``.

Claude Code, Cursor, Codex and most hosts speak no MCP tasks. They start a job with the
``background: true`` argument of a job-capable tool (``runner.py``), then:

* ``job_status(job_id, wait_s)`` answers as soon as the job finishes or ``wait_s`` (at most 25 s,
  under every client's request timeout) passes. A finished job answers exactly what the blocking
  call would have; one still running answers its status, message and progress. Without a
  ``job_id`` it lists the caller's jobs.
* ``job_cancel(job_id)`` stops the work and answers what had already taken effect.
* ``godot://jobs`` is the caller's jobs as a resource.

A client only ever sees its own jobs (``engine.py``).
"""

from __future__ import annotations

from typing import Any

from godot_bridge.errors import ToolError
from godot_bridge.jobs.engine import Job, JobError, JobStore, iso
from godot_bridge.tools import results
from godot_bridge.tools.progress import ProgressFn
from godot_bridge.tools.results import ToolOutcome
from godot_bridge.tools.surface import ToolList

MAX_WAIT_S = 25.0


def summary(job: Job) -> dict[str, Any]:
    """A job as the model and ``godot://jobs`` see it (the result itself is in job_status)."""
    out: dict[str, Any] = {
        "job_id": job.id,
        "tool": job.tool,
        "status": job.status,
        "created_at": iso(job.created_at),
        "updated_at": iso(job.updated_at),
        "ttl_ms": job.ttl_ms,
    }
    if job.message:
        out["message"] = job.message
    if job.progress is not None:
        progress: dict[str, Any] = {"progress": job.progress.value}
        if job.progress.total is not None:
            progress["total"] = job.progress.total
        out["progress"] = progress
    if job.input_requests:
        out["waiting_for"] = [request.get("params", {}).get("message") for request in job.input_requests.values()]
    return out


def _failure(err: JobError) -> ToolOutcome:
    return results.failure(ToolError(err.code, str(err)))


class JobTools:
    """The two always-on job tools (caller tools of dispatch: they answer about the caller's own jobs)."""

    def __init__(self, store: JobStore) -> None:
        self.store = store

    def handlers(self) -> dict[str, Any]:
        return {"job_status": self.status, "job_cancel": self.cancel}

    async def status(self, args: dict[str, Any], progress: ProgressFn | None, tools: ToolList) -> ToolOutcome:
        job_id = args.get("job_id")
        if job_id is None:
            return results.success({"jobs": [summary(job) for job in self.store.list(tools.owner)]})
        try:
            job = self.store.get(tools.owner, job_id)
        except JobError as err:
            return _failure(err)
        wait = min(MAX_WAIT_S, max(0.0, float(args.get("wait_s", 0))))
        if wait and not job.terminal:
            await job.wait(wait)
        return self.answer(job)

    @staticmethod
    def answer(job: Job) -> ToolOutcome:
        """The job's result once it has one (exactly the blocking call's); else where it stands."""
        if job.status == "completed" and job.outcome is not None:
            return job.outcome
        if job.status == "failed":
            extra: dict[str, Any] = {"job_id": job.id, "status": "failed"}
            if job.outcome is not None and job.outcome.structured_is_object:
                extra["result"] = job.outcome.structured
            return results.failure(ToolError("JOB_FAILED", job.message or "the job failed", extra=extra))
        view = summary(job)
        if not job.terminal:
            view["hint"] = "Still running: call job_status again (wait_s up to 25 waits for the result)."
        return results.success(view)

    async def cancel(self, args: dict[str, Any], progress: ProgressFn | None, tools: ToolList) -> ToolOutcome:
        try:
            job = await self.store.cancel(tools.owner, args.get("job_id"))
        except JobError as err:
            return _failure(err)
        return results.success(summary(job))

    def resource(self, owner: str) -> dict[str, Any]:
        """``godot://jobs`` for this client."""
        return {"jobs": [summary(job) for job in self.store.list(owner)]}
