"""How many bytes of a model request come from our server, for the CLIs of B2's tests (issue 41's
figures; ``bench/`` reuses these). Same shape as Claude Code's (anthropic.Footprint):

* declarations: our tools as declared (Codex: the tools inside our namespace; chat CLIs: our
  ``{"type": "function", ...}`` objects);
* announced: our tools listed by name only (Qwen Code's deferred-tools reminder, one line each);
* instructions: the server's instructions as the CLI shows them (Codex: our namespace object around
  its tools, whose ``description`` they are; chat CLIs: each copy of the text in the messages).

And the size of one tool result as the model reads it: ``result_bytes``; ``measures()``: the four
CLIs for ``measure.py`` (``python -m tests.assistants.measure codex copilot qwen opencode``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from godot_bridge.app import INSTRUCTIONS
from tests.assistants.anthropic import Footprint
from tests.assistants.model_server import Adapter, ModelRequest, ToolResult, declared_bytes
from tests.assistants.openai_chat import message_text
from tests.assistants.openai_responses import namespace
from tests.assistants.scenarios import Runner


def _compact(obj: Any) -> int:
    return len(json.dumps(obj, separators=(",", ":"), ensure_ascii=False).encode())


def responses_footprint(request: ModelRequest, space: str) -> Footprint:
    """Codex: our namespace ``space`` (``codex.NAMESPACE``) in a Responses request."""
    ns = namespace(request, space)
    if ns is None:
        return Footprint(0, 0, 0)
    tools = [t for t in request.tools if t.namespace == space]
    declarations = declared_bytes(tools)
    return Footprint(declarations, 0, _compact(ns) - declarations)


def chat_footprint(request: ModelRequest, prefix: str) -> Footprint:
    """Copilot, Qwen Code, opencode: our tools are those whose name starts with ``prefix``."""
    mine = [t for t in request.tools if t.namespace == prefix]
    declared = [t for t in mine if "deferred" not in t.raw]
    announced = sum(len(str(t.raw["deferred"]).encode()) + 1 for t in mine if "deferred" in t.raw)
    messages = (request.request.json or {}).get("messages", [])
    copies = sum(message_text(m.get("content")).count(INSTRUCTIONS) for m in messages)
    return Footprint(declared_bytes(declared), announced, copies * len(INSTRUCTIONS.encode()))


def result_bytes(result: ToolResult) -> int:
    """A tool result as the model reads it, in UTF-8 bytes."""
    return len(result.text.encode())


def measures() -> dict[str, tuple[Callable[[], Adapter], Runner, Callable[[ModelRequest], int]]]:
    """For measure.py: each of B2's CLIs as (adapter factory, runner, our bytes in a request)."""
    from tests.assistants import codex, copilot, opencode, qwen

    return {
        "codex": (codex.adapter, codex.run, lambda r: responses_footprint(r, codex.NAMESPACE).total),
        "copilot": (copilot.adapter, copilot.run, lambda r: chat_footprint(r, copilot.PREFIX).total),
        "qwen": (qwen.adapter, qwen.run_approved, lambda r: chat_footprint(r, qwen.PREFIX).total),
        "opencode": (opencode.adapter, opencode.run, lambda r: chat_footprint(r, opencode.PREFIX).total),
    }
