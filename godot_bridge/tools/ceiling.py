"""A ceiling on the size of one tool result (GODOT_MCP_RESULT_LIMIT, KiB).

A result travels to the client twice (text block and ``structuredContent``) on one stdio
line; a 20 MiB payload became a 40 MiB line that clients choke on. Above the ceiling the
call is answered with ``RESULT_TOO_LARGE`` instead, naming the tool's own parameters that
narrow what it returns.

Both are last resorts: the toolkit pages each read to one answer's size at the source
(tools/answer_budget.py), so a default answer never comes near either.

The toolkit has a ceiling of its own, the WebSocket frame (``RESPONSE_TOO_LARGE``); it cannot
know which tool a client called, so its hint is generic. The bridge does know: it answers such
a failure with the same hint naming that tool's parameters, and the bridge setting that raises
the frame (``GODOT_MCP_WS_BUFFER_LIMIT``).
"""

from __future__ import annotations

import re
from typing import Any

from godot_bridge.config import DEFAULT_RESULT_LIMIT_KB
from godot_bridge.errors import ToolError
from godot_bridge.tools import results
from godot_bridge.tools.results import ToolOutcome

__all__ = ["DEFAULT_RESULT_LIMIT_KB", "check", "narrowing_params", "result_size"]

ENV_NAME = "GODOT_MCP_RESULT_LIMIT"
FRAME_ENV_NAME = "GODOT_MCP_WS_BUFFER_LIMIT"
FRAME_CODE = "RESPONSE_TOO_LARGE"
# Parameter names that usually bound how much a tool returns.
_NARROWING = re.compile(r"limit|max|depth|count|offset|page|start|end|range|filter|pattern|query|include|fields"
                        r"|prefix|region|subtree|root_path|mask|sections")


def result_size(outcome: ToolOutcome) -> int:
    """About how many characters the result puts on the wire (content plus its structured copy)."""
    size = 0
    text_size = 0
    for block in outcome.content:
        for key in ("text", "data"):
            value = block.get(key)
            if isinstance(value, str):
                size += len(value)
                if key == "text":
                    text_size += len(value)
    if outcome.has_structured:
        size += text_size  # structuredContent repeats the text block's payload
    return size


def narrowing_params(schema: Any) -> list[str]:
    props = schema.get("properties") if isinstance(schema, dict) else None
    return [name for name in props if _NARROWING.search(name)] if isinstance(props, dict) else []


def narrowing_advice(tool_name: str, schema: Any) -> str:
    """How to ask ``tool_name`` for less, naming only parameters it has."""
    params = narrowing_params(schema)
    if params:
        return f"call {tool_name} again with a tighter {', '.join(params)}"
    return f"call {tool_name} on a smaller part (one node, file or resource at a time)"


def check(tool_name: str, schema: Any, outcome: ToolOutcome, limit_kb: int) -> ToolOutcome | None:
    """None when the result fits and is not the toolkit's frame failure; else the failure to answer
    with instead (RESULT_TOO_LARGE, or RESPONSE_TOO_LARGE with this tool's own hint)."""
    if outcome.is_error:
        return _frame_failure(tool_name, schema, outcome)
    limit = limit_kb * 1024
    size = result_size(outcome)
    if size <= limit:
        return None
    narrow = narrowing_advice(tool_name, schema)
    return results.failure(
        ToolError(
            "RESULT_TOO_LARGE",
            f"{tool_name} produced a result of about {size} bytes, above the bridge's limit of {limit} bytes "
            f"({ENV_NAME}={limit_kb} KiB); it was not sent",
            hint=f"Ask for less: {narrow}. Or raise {ENV_NAME} (KiB) in the bridge's environment.",
            extra={"size_bytes": size, "limit_bytes": limit},
        )
    )


def _frame_failure(tool_name: str, schema: Any, outcome: ToolOutcome) -> ToolOutcome | None:
    """The toolkit's RESPONSE_TOO_LARGE with a hint for this tool; None for any other failure."""
    body = outcome.structured if outcome.structured_is_object else None
    if not isinstance(body, dict) or body.get("code") != FRAME_CODE:
        return None
    extra = {key: value for key, value in body.items() if key not in ("success", "error", "code", "hint")}
    return results.failure(
        ToolError(
            FRAME_CODE,
            str(body.get("error", "the answer did not fit the editor's WebSocket frame")),
            hint=f"Ask for less: {narrowing_advice(tool_name, schema)}. Or raise {FRAME_ENV_NAME} (KiB) in "
            "the bridge's environment; it sets the editor's frame size.",
            extra=extra,
        )
    )
