"""OpenAI chat completions (``POST .../chat/completions``, ``stream: true``) for ``model_server``:
what GitHub Copilot CLI (BYOK, its default wire API), Qwen Code (auth type ``openai``) and opencode
(the ``@ai-sdk/openai-compatible`` provider) send their model.

Tools are ``{"type": "function", "function": {"name", "description", "parameters"}}``; each CLI
glues the server key to the tool name its own way (Copilot ``godot-mcp-toolkit-<tool>``, opencode
``godot-mcp-toolkit_<tool>``, Qwen ``mcp__godot-mcp-toolkit__<tool>``). ``parse`` splits a name
that starts with one of ``prefixes`` into namespace and bare name, so a scenario's bare name
matches exactly and ``qualified`` is the name the model must use.

Qwen Code declares no MCP tool at all: they are *deferred*. A ``<system-reminder>`` lists them as
``- "mcp__<server>__<tool>": "<description cut at 160 characters>"`` and the model reaches one
through Qwen's own ``tool_call`` function (``{"name": <full name>, "arguments": {...}}``). With
``deferred=True`` those listed names are ``announced`` and, so a scenario can call them, declarations
too (``raw``: ``{"deferred": <the listed line>}``); a call of one is written as a ``tool_call`` call.

Results come back as ``{"role": "tool", "tool_call_id", "content"}`` messages (a string or a list of
text parts). A request without tools (opencode's title request) is auxiliary.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from tests.assistants.model_server import CallReply, ModelRequest, RecordedRequest, Reply, Response
from tests.assistants.model_server import ToolDeclaration, ToolResult, parts_text

# One deferred tool in Qwen Code's reminder: - "mcp__server__tool": "description"
_DEFERRED_LINE = re.compile(r'^- "(?P<name>[^"]+)": "(?P<desc>(?:[^"\\]|\\.)*)"$', re.MULTILINE)
DEFERRED_CALLER = "tool_call"  # Qwen Code's bridge to a deferred tool


def deferred_lines(messages: Sequence[Mapping[str, Any]]) -> dict[str, str]:
    """name -> the listed line, for every tool a Qwen reminder lists (a later listing wins)."""
    found: dict[str, str] = {}
    for message in messages:
        text = parts_text(message.get("content"))
        if "<system-reminder>" not in text:
            continue
        for match in _DEFERRED_LINE.finditer(text):
            found[match["name"]] = match[0]
    return found


def results(messages: Sequence[Mapping[str, Any]]) -> tuple[ToolResult, ...]:
    names: dict[str, str] = {}
    for message in messages:
        for call in message.get("tool_calls") or []:
            names[str(call.get("id"))] = str(call.get("function", {}).get("name", ""))
    return tuple(ToolResult(str(m["tool_call_id"]), parts_text(m.get("content")), names.get(str(m["tool_call_id"]), ""))
                 for m in messages if m.get("role") == "tool" and "tool_call_id" in m)


class ChatAdapter:
    """``model_server.Adapter`` for chat completions. ``prefixes``: how the CLI prefixes our tools'
    names (longest first is tried first); ``deferred``: read Qwen Code's deferred-tool listing."""

    def __init__(self, prefixes: Sequence[str], *, deferred: bool = False) -> None:
        self.prefixes = sorted(prefixes, key=len, reverse=True)
        self.deferred = deferred
        self._hidden: set[str] = set()  # qualified names reachable only through tool_call
        self._answers = 0

    def _split(self, name: str) -> tuple[str, str]:
        for prefix in self.prefixes:
            if name.startswith(prefix) and len(name) > len(prefix):
                return prefix, name[len(prefix):]
        return "", name

    def _declaration(self, name: str, raw: Mapping[str, Any]) -> ToolDeclaration:
        namespace, bare = self._split(name)
        return ToolDeclaration(bare, raw, namespace)

    def parse(self, request: RecordedRequest) -> ModelRequest:
        body = request.json if isinstance(request.json, dict) else {}
        if request.method != "POST" or not request.route.endswith("/chat/completions"):
            return ModelRequest(request, auxiliary=True, kind=request.route)
        messages = body.get("messages", [])
        tools = [self._declaration(str(t.get("function", {}).get("name", "")), t) for t in body.get("tools") or []]
        if not tools:
            return ModelRequest(request, results=results(messages), auxiliary=True, kind="no-tools")
        listed: dict[str, str] = {}
        if self.deferred:
            declared = {t.qualified for t in tools}
            listed = {n: line for n, line in deferred_lines(messages).items() if n not in declared}
            self._hidden = set(listed)
            tools += [self._declaration(name, {"deferred": line}) for name, line in listed.items()]
        return ModelRequest(request, tuple(tools), results(messages), announced=tuple(listed))

    def respond(self, reply: Reply, request: ModelRequest) -> Response:
        self._answers += 1
        if isinstance(reply, CallReply):
            name, arguments = reply.namespace + reply.name, dict(reply.arguments)
            if name in self._hidden:
                name, arguments = DEFERRED_CALLER, {"name": name, "arguments": arguments}
            call = {"index": 0, "id": reply.call_id, "type": "function",
                    "function": {"name": name, "arguments": json.dumps(arguments)}}
            delta: dict[str, Any] = {"role": "assistant", "content": None, "tool_calls": [call]}
            finish = "tool_calls"
        else:
            delta, finish = {"role": "assistant", "content": reply.text}, "stop"
        return Response(chunks=self._stream(delta, finish))

    def _stream(self, delta: Mapping[str, Any], finish: str) -> list[bytes]:
        head = {"id": f"chatcmpl-{self._answers:03d}", "object": "chat.completion.chunk", "created": 0, "model": "m"}
        chunks = [{**head, "choices": [{"index": 0, "delta": delta, "finish_reason": None}]},
                  {**head, "choices": [{"index": 0, "delta": {}, "finish_reason": finish}]},
                  {**head, "choices": [], "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}]
        return [f"data: {json.dumps(c)}\n\n".encode() for c in chunks] + [b"data: [DONE]\n\n"]

    def respond_auxiliary(self, request: ModelRequest) -> Response:
        if request.kind in ("main", "no-tools"):  # a title request, or a main one the scenario waits past
            self._answers += 1
            return Response(chunks=self._stream({"role": "assistant", "content": "Godot session"}, "stop"))
        return Response.json({"object": "list", "data": [{"id": "m", "object": "model"}]})

    def unlock(self, tool: str, request: ModelRequest) -> CallReply | None:
        return None  # a deferred tool is called through tool_call directly (respond), no unlocking turn
