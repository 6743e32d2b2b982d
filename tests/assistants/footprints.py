"""How many bytes of a model request come from our server, for the CLIs of B2's tests (``bench/``
reuses these). Same shape as Claude Code's (anthropic.Footprint):

* declarations: our tools as declared (Codex: the tools inside our namespace; chat CLIs: our
  ``{"type": "function", ...}`` objects);
* announced: our tools listed by name only (Qwen Code's deferred-tools reminder, one line each);
* instructions: the server's instructions as the CLI shows them (Codex: our namespace object around
  its tools, whose ``description`` they are; chat CLIs: each copy of the text in the messages).

``claude_footprint`` and ``schema_bytes`` (Gemini CLI: our declarations) give the other two CLIs'
figures as one number.
"""

from __future__ import annotations

import json
from typing import Any

from godot_bridge.app import INSTRUCTIONS
from tests.assistants.anthropic import Footprint, footprint, texts
from tests.assistants.model_server import ModelRequest, declared_bytes, ours, parts_text
from tests.assistants.openai_responses import namespace
from tests.assistants.sandbox import SERVER_KEY


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


def responses_search_footprint(request: ModelRequest, space: str) -> Footprint:
    """Codex with a model that searches: our namespace in the tools (none: every MCP tool is deferred) and
    each of our namespaces a search brought back (``tool_search_output`` in the input: the tools found)."""
    base = responses_footprint(request, space)
    items = (request.request.json or {}).get("input", [])
    found = [t for i in items if isinstance(i, dict) and i.get("type") == "tool_search_output"
             for t in i.get("tools") or [] if t.get("name") == space]
    return Footprint(base.declarations, sum(_compact(t) for t in found), base.instructions)


def anthropic_deferring_footprint(request: ModelRequest, prefix: str) -> Footprint:
    """Copilot CLI with an Anthropic provider: our tools it declared without ``defer_loading`` or loaded by a
    search (what the model reads; a deferred schema is left out of the model's context by the API), and each
    copy of our instructions."""
    mine = [t for t in request.tools if t.name.startswith(prefix)]
    copies = sum(text.count(INSTRUCTIONS) for text in texts(request.request.json or {}))
    return Footprint(declared_bytes(mine), 0, copies * len(INSTRUCTIONS.encode()))


def chat_footprint(request: ModelRequest, prefix: str) -> Footprint:
    """Copilot, Qwen Code, opencode: our tools are those whose name starts with ``prefix``."""
    mine = [t for t in request.tools if t.namespace == prefix]
    declared = [t for t in mine if "deferred" not in t.raw]
    announced = sum(len(str(t.raw["deferred"]).encode()) + 1 for t in mine if "deferred" in t.raw)
    messages = (request.request.json or {}).get("messages", [])
    copies = sum(parts_text(m.get("content")).count(INSTRUCTIONS) for m in messages)
    return Footprint(declared_bytes(declared), announced, copies * len(INSTRUCTIONS.encode()))


def claude_footprint(request: ModelRequest) -> int:
    """Claude Code: our deferred tools' names, the schemas it loaded and our instructions."""
    return footprint(request, SERVER_KEY).total


def schema_bytes(request: ModelRequest) -> int:
    """Our tool declarations as sent (Gemini CLI)."""
    return declared_bytes(ours(request.tools, SERVER_KEY))
