"""Start a tool call as a job: the link between the tool-call path (``tools/dispatch.py``) and the store.

Two ways in, one job: ``start_background`` is dispatch's hook for ``background: true`` (the call
was looked up and validated; the job runs the rest of it), ``start_call`` is what an MCP task
front end uses (``mcp/core/tasks.py``: the whole call runs as the job's work, so what it answers is
exactly what the blocking call would have). Either way the job belongs to the calling client's
list (``ToolList.owner``), says what cancelling the tool stops (the catalogue's ``job.cancel``),
and after a cancel calls the tool the catalogue names to undo what had started
(``job.after_cancel``: game_start's game is stopped).
"""

from __future__ import annotations

import logging
from typing import Any

from godot_bridge.errors import ToolError
from godot_bridge.jobs.engine import LIMIT, AfterCancel, Job, JobError, JobStore
from godot_bridge.tools import results
from godot_bridge.tools.catalogue import BACKGROUND_ARG, ToolDef
from godot_bridge.tools.dispatch import CALL_TOOL, CallWork, ToolDispatch
from godot_bridge.tools.results import ToolOutcome
from godot_bridge.tools.surface import ToolList

log = logging.getLogger(__name__)

JOB_STATUS = "job_status"


def started(job: Job) -> dict[str, Any]:
    """What ``background: true`` answers at once."""
    return {
        "job_id": job.id,
        "tool": job.tool,
        "status": job.status,
        "hint": f"Running in the background. Call {JOB_STATUS} with job_id to get the result (wait_s up to 25 "
        f"waits for it; through {CALL_TOOL} if your tool list does not show it yet); job_cancel stops it.",
    }


class JobRunner:
    def __init__(self, store: JobStore, dispatch: ToolDispatch) -> None:
        self.store = store
        self.dispatch = dispatch

    def refusal(self, tools: ToolList) -> ToolOutcome | None:
        """What ``start_background`` would answer now instead of starting a job (no room left), or None."""
        refusal = self.store.refusal(tools.owner)
        return None if refusal is None else results.failure(ToolError(LIMIT, refusal))

    def start_background(self, tool: ToolDef, tools: ToolList, work: CallWork) -> ToolOutcome:
        try:
            job = self._start(tool, tools, work, None)
        except JobError as err:
            return results.failure(ToolError(err.code, str(err)))
        # The answer sends the model to job_status: its group joins the client's list (and it is told).
        self.dispatch.load_for(JOB_STATUS, tools)
        return results.success(started(job))

    def start_call(self, tool: ToolDef, arguments: Any, tools: ToolList, ttl_ms: float | None = None,
                   caller: Any = None) -> Job:
        """The whole call of ``tool`` as a job (an MCP task); raises JobError when no room is left.
        ``caller``: how the person can be asked from inside the job (consent/caller.py)."""
        if isinstance(arguments, dict) and BACKGROUND_ARG in arguments:
            # A task already runs in the background; the flag would start a job inside the job.
            arguments = {k: v for k, v in arguments.items() if k != BACKGROUND_ARG}

        async def work(progress: Any) -> ToolOutcome:
            return await self.dispatch.call(tool.name, arguments, tools=tools, progress=progress, caller=caller)

        return self._start(tool, tools, work, ttl_ms)

    def _start(self, tool: ToolDef, tools: ToolList, work: CallWork, ttl_ms: float | None) -> Job:
        assert tool.job is not None
        return self.store.start(tools.owner, tool.name, work, ttl_s=self.store.ttl_for(ttl_ms),
                                cancel_note=tool.job.cancel, after_cancel=self._after_cancel(tool, tools))

    def _after_cancel(self, tool: ToolDef, tools: ToolList) -> AfterCancel | None:
        assert tool.job is not None
        name = tool.job.after_cancel
        if name is None:
            return None

        async def undo() -> str:
            outcome = await self.dispatch.call(name, {}, tools=tools)
            answer = outcome.structured if outcome.structured_is_object else {}
            if outcome.is_error:
                return f"{name} after the cancel answered: {answer.get('error') or 'an error'}."
            return f"{name} ran after the cancel: it succeeded."

        return undo
