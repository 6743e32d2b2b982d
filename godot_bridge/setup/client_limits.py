"""How long an MCP client must let the bridge work: the time limits ``init`` writes into each entry.

Clients give up on a tool call the bridge is still working on: Codex after 60 s unless the
entry's ``tool_timeout_sec`` says otherwise, Copilot CLI and opencode after the MCP SDK's 60 s
unless the entry's ``timeout`` (ms) does, opencode even stops waiting for the bridge to start
after 5 s. ``test_run``, ``asset_import``, ``game_step_until`` and an editor the bridge starts
first all outlive that. So each entry carries, under the client's own key (mcp_entry.json
``timeouts``), a limit above the longest one call can block before the bridge answers it
itself: the bridge then always speaks first, with its own timeout error and what to do,
instead of the client cutting the call off with nothing to go on.

That longest call is derived from the tool catalogue, the one place the bridge's own limits
are defined: for each tool, the bound the bridge puts on it (``forward.timeout_seconds``, the
catalogue's ``timeout_ms`` grown to the longest wait its schema lets a caller ask for), plus an
editor started first by ``GODOT_MCP_AUTOLAUNCH``. An editor's progress restarts the bridge's
own deadline, so a call that keeps reporting progress may run longer; no fixed limit covers
that, and the bridge's progress notifications keep the clients that listen for them waiting.
"""

from __future__ import annotations

import math
from typing import Any

from godot_bridge.editor.autolaunch import DEFAULT_TIMEOUT_S as AUTOLAUNCH_S
from godot_bridge.editor.forward import timeout_seconds
from godot_bridge.shipped.mcp_entry import ClientSpec
from godot_bridge.tools.catalogue import Catalogue, ToolDef, load_catalogue

# A cold ``uvx`` start resolves, downloads and compiles the bridge and its dependencies before
# it answers (a warm start answers in about 1.5 s); Codex's default 10 s is too short for that.
START_S = 60.0
# Lifecycle tools (editor_launch, editor_restart) wait for an editor for ``timeout_s`` seconds.
_SECONDS_PARAM = "timeout_s"


def _maximum(tool: ToolDef, param: str | None) -> Any:
    if not param:
        return None
    return tool.input_schema.get("properties", {}).get(param, {}).get("maximum")


def tool_bound_s(tool: ToolDef) -> float:
    """The longest the bridge lets one call of ``tool`` block: its own timeout at the longest wait allowed."""
    wait = _maximum(tool, tool.wait_param)
    bound = timeout_seconds(tool, {tool.wait_param: wait} if tool.wait_param and wait else None) or 0.0
    seconds = _maximum(tool, _SECONDS_PARAM)
    return max(bound, float(seconds) if isinstance(seconds, int | float) else 0.0)


def longest_call_s(catalogue: Catalogue | None = None) -> int:
    """Seconds one tools/call may block at most: an autolaunched editor, then the slowest tool.
    Rounded up to a whole minute: room for the connect and hand-over steps around the call."""
    tools = (catalogue or load_catalogue()).tools.values()
    return math.ceil((AUTOLAUNCH_S + max(tool_bound_s(t) for t in tools)) / 60) * 60


def values(catalogue: Catalogue | None = None) -> dict[str, float]:
    """Each kind of limit (mcp_entry.json ``timeouts``) in its unit; ``init`` records them for the dock."""
    call_s = longest_call_s(catalogue)
    return {"call_ms": call_s * 1000, "call_s": call_s, "start_s": START_S}


def keyed(client: ClientSpec, limits: dict[str, float]) -> dict[str, float]:
    """``limits`` (by kind) under ``client``'s own keys; a kind ``limits`` lacks is left out."""
    return {key: float(limits[kind]) for key, kind in client.timeouts.items() if kind in limits}


def floors(client: ClientSpec, catalogue: Catalogue | None = None) -> dict[str, float]:
    """The time limits ``client``'s entry needs, by its own key and unit (empty: it has none to set)."""
    return keyed(client, values(catalogue)) if client.timeouts else {}
