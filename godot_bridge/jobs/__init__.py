"""Long work in the background: one job engine, and the ways a client reaches it.

``engine`` holds the jobs (who owns each, its status, progress and result, its TTL, the caps);
``asking`` is the seam through which a job waits for the person (``input_required``);
``background`` is the front end for clients without MCP tasks: the ``background: true``
argument of a job-capable tool, the ``job_status`` / ``job_cancel`` tools and ``godot://jobs``.
The MCP task front ends of both protocol eras live with the protocol (``mcp/core/tasks.py``).

Which tools are job-capable, and what cancelling one undoes, is catalogue data (a tool's
``job`` entry, ``tools/catalogue.py``).
"""
