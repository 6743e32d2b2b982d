"""Waiting for the person from inside a job: the seam that puts a job in ``input_required``.

A tool call that needs the person's answer before it goes on (confirming an irreversible step)
asks through ``ask``. Inside a job, the job becomes ``input_required`` with the request, and the
client's front end delivers it: a 2025-11-25 client through ``tasks/result`` (as an
``elicitation/create`` request), a 2026-07-28 client through ``tasks/get`` (``inputRequests``)
and ``tasks/update``. Outside a job ``ask`` returns None: the caller asks the way a plain call
does. The request is an MCP input request, ``{"method": "elicitation/create", "params": {...}}``;
the answer is the client's ``ElicitResult`` (``{"action": "accept" | "decline" | "cancel", ...}``) as
it was sent, whatever it is, or the ``UnusableAnswer`` its front end read in it (consent/caller.py
``JobAsker`` reads it).
"""

from __future__ import annotations

import itertools
from typing import Any

from godot_bridge.jobs.engine import CURRENT_JOB

_keys = itertools.count(1)


def in_job() -> bool:
    """Whether the running tool call is a job's work (its questions go through the job)."""
    return CURRENT_JOB.get() is not None


async def ask(request: dict[str, Any]) -> Any:
    """Ask the person through the running job and wait for the answer; None outside a job."""
    job = CURRENT_JOB.get()
    if job is None:
        return None
    # Keys are unique over a job's life (MCP tasks require it); a counter never repeats one.
    return await job.ask(f"input-{next(_keys)}", request)
