"""Pure pieces of forwarding a tool call (contract C3, C8): routing and result shaping.

Kept free of sockets so the rules are unit-testable:

* ``route``: which channel a call goes to (tools/channels.py ``call_channel``, the one rule)
  and which params the toolkit gets: a ``channel_arg`` tool's ``channel`` argument is not
  read by the toolkit handlers, so it is stripped before sending.
* ``shape``: a toolkit reply as a ``ToolOutcome`` (verbatim, keys sorted; a tool with
  ``image_result`` handling as image + metadata; a link to a kept image is editor/screenshots.py's).
* ``crash_lines``: a few recent lines from a ``debugger.get_log`` reply, appended
  to runtime failures so the model sees why the game died.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from godot_bridge.errors import ToolError
from godot_bridge.tools import results
from godot_bridge.tools.channels import CHANNEL_ARG, EDITOR, RUNTIME, call_channel, takes_channel_arg
from godot_bridge.tools.results import ToolOutcome

# Runtime failures worth explaining with the game's last words.
CRASH_CONTEXT_CODES = frozenset({"TIMEOUT", "GAME_NOT_RUNNING", "COMPILATION_FAILED"})
CRASH_LINES = 8
CRASH_LINE_CHARS = 300


class ToolLike(Protocol):
    """The part of ``catalogue.ToolDef`` forwarding needs."""

    name: str
    method: str | None
    channel: str
    success_hint: str | None
    timeout_ms: int | None
    handling: Sequence[str]


def route(tool: ToolLike, args: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    """(channel, params) for a catalogue tool call."""
    if tool.channel not in (EDITOR, RUNTIME):
        raise ToolError("INTERNAL", f"{tool.name} is a {tool.channel}-channel tool and is not forwarded to Godot")
    channel = call_channel(tool, args)
    params = dict(args)
    if takes_channel_arg(tool):
        params.pop(CHANNEL_ARG, None)
    return channel, params


# Room for the editor to answer after a wait the caller asked for has run out.
WAIT_MARGIN_S = 10.0


def _ms(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) and value > 0 else None


def timeout_seconds(tool: ToolLike, args: dict[str, Any] | None = None) -> float | None:
    """The call's timeout: the catalogue's, grown to cover a wait the caller requested (``wait_param``)."""
    ms = _ms(getattr(tool, "timeout_ms", None))
    base = ms / 1000.0 if ms else None
    wait_param = getattr(tool, "wait_param", None)
    requested = _ms((args or {}).get(wait_param)) if wait_param else None
    if requested is None:
        return base
    return max(base or 0.0, requested / 1000.0 + WAIT_MARGIN_S)


def shape(payload: Any, success_hint: str | None = None, *, image: bool = False) -> ToolOutcome:
    """A toolkit reply as the MCP result: verbatim and sorted, or (``image``) a screenshot."""
    if image and isinstance(payload, dict):
        return results.screenshot(payload)
    return results.from_toolkit(payload, success_hint)


def toolkit_failure_code(payload: Any) -> str | None:
    if isinstance(payload, dict) and payload.get("success") is False:
        code = payload.get("code")
        return code if isinstance(code, str) and code else "INTERNAL"
    return None


def _clip(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= CRASH_LINE_CHARS else text[: CRASH_LINE_CHARS - 3] + "..."


def _entry_text(entry: Any) -> str | None:
    if isinstance(entry, str):
        return entry
    if isinstance(entry, dict):
        message = entry.get("message") or entry.get("text") or entry.get("line")
        if not isinstance(message, str) or not message:
            return json.dumps(entry, sort_keys=True, ensure_ascii=False)
        source = entry.get("source") or entry.get("file")
        line = entry.get("line") if isinstance(entry.get("line"), int) else None
        if isinstance(source, str) and source:
            return f"{message} ({source}:{line})" if line else f"{message} ({source})"
        return message
    return None


def crash_lines(log_reply: Any, limit: int = CRASH_LINES) -> list[str]:
    """The most telling recent lines of a ``debugger.get_log`` reply: errors first, then the tail."""
    if not isinstance(log_reply, dict) or log_reply.get("success") is False:
        return []
    errors = log_reply.get("error_buffer")
    picked: list[str] = []
    if isinstance(errors, list):
        picked += [t for t in (_entry_text(e) for e in errors[-limit:]) if t]
    for key in ("lines", "entries", "log", "messages"):
        tail = log_reply.get(key)
        if isinstance(tail, str):
            tail = tail.splitlines()
        if isinstance(tail, list) and tail:
            room = limit - len(picked)
            if room > 0:
                picked += [t for t in (_entry_text(e) for e in tail[-room:]) if t]
            break
    clipped = [_clip(t) for t in picked if t.strip()]
    return clipped[:limit]
