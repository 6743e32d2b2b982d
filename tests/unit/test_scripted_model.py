"""The scripted model the assistant tests talk to (tests/assistants/model_server.py): a turn's call of a
tool the request does not declare, after discover_tools said to go through call_tool."""

from __future__ import annotations

import json
from typing import Any

from godot_bridge.tools.groups import CALL_THROUGH
from tests.assistants.model_server import (
    CallReply, ModelRequest, RecordedRequest, ToolCall, ToolDeclaration, ToolResult, _Script,
)

LOADED = ToolCall("classdb_search", {"query": "Sprite"})
THROUGH = ToolCall("call_tool", {"name": "classdb_search", "arguments": {"query": "Sprite"}})


class NoUnlock:
    """An adapter with no tool search: a tool not declared cannot be made so."""

    def unlock(self, tool: str, request: ModelRequest) -> CallReply | None:
        return None


def request(said: dict[str, Any]) -> ModelRequest:
    """A main request declaring only the always-on tools, after a discover_tools that answered ``said``."""
    raw = RecordedRequest("POST", "/v1/chat", {}, b"", None)
    declared = tuple(ToolDeclaration(f"mcp_godot_{name}", {}) for name in ("discover_tools", "call_tool"))
    return ModelRequest(raw, declared, (ToolResult("call_001", json.dumps(said)),))


def test_told_to_go_through_call_tool_the_model_does() -> None:
    script = _Script([ToolCall(LOADED.tool, LOADED.arguments, instead=THROUGH)])
    served, _ = script.decide(0, request({"how_to_call": CALL_THROUGH}), NoUnlock())  # type: ignore[arg-type]
    assert served.declared == "mcp_godot_call_tool"
    assert isinstance(served.reply, CallReply) and served.reply.arguments == THROUGH.arguments


def test_told_the_tools_are_listed_a_missing_tool_stays_missing() -> None:
    script = _Script([ToolCall(LOADED.tool, LOADED.arguments, instead=THROUGH)])
    served, _ = script.decide(0, request({"how_to_call": "Loaded. Call them by name."}), NoUnlock())  # type: ignore[arg-type]
    assert served.declared is None, "the client was said to have re-listed: its missing tool is a failure to see"
