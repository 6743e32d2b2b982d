"""The Anthropic Messages API as Claude Code speaks it (``POST /v1/messages``, SSE when ``stream``).

Claude Code sends, besides the main loop's requests, small side requests with no tools (a quota probe,
a title for the session, ...): those are auxiliary and get a short text. ``count_tokens`` gets a count.
Claude Code defers MCP tools behind its ToolSearch tool: a deferred tool is declared with
``defer_loading: true`` and becomes callable once a ToolSearch result has referenced it; until then it
is only named, one line each, in a "deferred tools" listing (``ModelRequest.announced``). ``unlock``
answers a call of an undeclared tool with ``ToolSearch({"query": "select:<announced name>"})`` (Copilot CLI's
regex search, ``tool_search_tool``, with a pattern for its name).
``footprint`` measures what one MCP server adds to a request (schemas, names, instructions).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from tests.assistants.model_server import CallReply, ModelRequest, RecordedRequest, Reply, Response, TextReply
from tests.assistants.model_server import ToolDeclaration, ToolResult, declared_bytes, ours, parts_text, resolve, sse

MODEL = "claude-sonnet-4-5"
SEARCH_TOOL = "ToolSearch"
REGEX_SEARCH_TOOL = "tool_search_tool"  # Copilot CLI's, with an Anthropic provider: {"pattern", "limit"}


def tool_results(messages: list[Any]) -> tuple[ToolResult, ...]:
    names = {}
    out = []
    for msg in messages:
        content = msg.get("content") if isinstance(msg, dict) else None
        if not isinstance(content, list):
            continue
        for block in content:
            if not isinstance(block, dict):
                continue
            if block.get("type") == "tool_use":
                names[block.get("id")] = str(block.get("name", ""))
            elif block.get("type") == "tool_result":
                call_id = str(block.get("tool_use_id", ""))
                out.append(ToolResult(call_id, parts_text(block.get("content"), "\n"), names.get(call_id, ""),
                                      bool(block.get("is_error"))))
    return tuple(out)


def referenced_tools(messages: list[Any]) -> set[str]:
    """Tool names a ToolSearch result referenced (``tool_reference`` blocks): deferred tools now loaded."""
    found = set()
    for msg in messages:
        content = msg.get("content") if isinstance(msg, dict) else None
        for block in content if isinstance(content, list) else []:
            if isinstance(block, dict) and block.get("type") == "tool_result":
                inner = block.get("content")
                for ref in inner if isinstance(inner, list) else []:
                    if isinstance(ref, dict) and ref.get("type") == "tool_reference":
                        found.add(str(ref.get("tool_name", "")))
    return found


DEFERRED_HEAD = "The following deferred tools are now available via ToolSearch."


def texts(body: dict[str, Any]) -> list[str]:
    """Every text the model reads besides tool schemas: system blocks and message text blocks."""
    system = body.get("system")
    out = [system] if isinstance(system, str) else [b.get("text", "") for b in system or [] if isinstance(b, dict)]
    for msg in body.get("messages") or []:
        content = msg.get("content") if isinstance(msg, dict) else None
        if isinstance(content, str):
            out.append(content)
        for block in content if isinstance(content, list) else []:
            if isinstance(block, dict) and block.get("type") == "text":
                out.append(str(block.get("text", "")))
    return out


def deferred_listings(body: dict[str, Any]) -> list[list[str]]:
    """The names in each deferred-tools listing (a line after the heading, up to the next blank line)."""
    found = []
    for text in texts(body):
        for part in text.split(DEFERRED_HEAD)[1:]:
            lines = part.split("\n")[1:]
            names = []
            for line in lines:
                if not line.strip():
                    break
                names.append(line.strip())
            found.append(names)
    return found


class AnthropicAdapter:
    def parse(self, request: RecordedRequest) -> ModelRequest:
        body = request.json if isinstance(request.json, dict) else {}
        if not request.route.endswith("/v1/messages"):
            return ModelRequest(request, auxiliary=True, kind=request.route.rsplit("/", 1)[-1] or "other")
        messages = body.get("messages") or []
        loaded = referenced_tools(messages)
        tools = tuple(ToolDeclaration(str(t.get("name", "")), t) for t in body.get("tools") or []
                      if isinstance(t, dict) and (not t.get("defer_loading") or t.get("name") in loaded))
        announced = tuple(dict.fromkeys(n for names in deferred_listings(body) for n in names))
        auxiliary = not body.get("tools")
        return ModelRequest(request, tools, tool_results(messages), auxiliary, "side" if auxiliary else "main",
                            announced)

    def unlock(self, tool: str, request: ModelRequest) -> CallReply | None:
        """ToolSearch for a deferred tool: ``select:<name>`` when the request names it (deferred tools
        are listed by name in a reminder), else the bare name as keywords (ToolSearch then waits for
        servers still connecting, as Claude Code's prompt tells the model)."""
        if resolve(REGEX_SEARCH_TOOL, request.tools) is not None:
            return CallReply(REGEX_SEARCH_TOOL, {"pattern": re.escape(tool) + "$", "limit": 8},
                             f"toolu_unlock_{len(request.results):03d}")
        if resolve(SEARCH_TOOL, request.tools) is None:
            return None
        named = resolve(tool, [ToolDeclaration(n, {}) for n in request.announced])
        query = f"select:{named.name}" if named else tool
        return CallReply(SEARCH_TOOL, {"query": query, "max_results": 5},
                         f"toolu_unlock_{len(request.results):03d}")

    def respond(self, reply: Reply, request: ModelRequest) -> Response:
        body = request.request.json or {}
        if isinstance(reply, CallReply):
            block = {"type": "tool_use", "id": _tool_id(reply.call_id), "name": reply.name, "input": {}}
            deltas = [{"type": "input_json_delta", "partial_json": json.dumps(dict(reply.arguments))}]
            stop = "tool_use"
            message_content: list[dict[str, Any]] = [{**block, "input": dict(reply.arguments)}]
        else:
            block = {"type": "text", "text": ""}
            deltas = [{"type": "text_delta", "text": reply.text}]
            stop = "end_turn"
            message_content = [{"type": "text", "text": reply.text}]
        if not body.get("stream"):
            return Response.json(_message(message_content, stop, body))
        return Response(chunks=sse(_events(block, deltas, stop, body)))

    def respond_auxiliary(self, request: ModelRequest) -> Response:
        route = request.request.route
        if route.endswith("/count_tokens"):
            return Response.json({"input_tokens": len(request.request.body) // 4})
        if not route.endswith("/v1/messages"):
            return Response.json({"error": {"type": "not_found_error", "message": f"no {route} here"}}, 404)
        return self.respond(TextReply("ok"), request)


def _tool_id(call_id: str) -> str:
    return call_id if call_id.startswith("toolu_") else f"toolu_{call_id}"


def _message(content: list[dict[str, Any]], stop: str, body: dict[str, Any]) -> dict[str, Any]:
    return {"id": "msg_scripted", "type": "message", "role": "assistant", "model": body.get("model", MODEL),
            "content": content, "stop_reason": stop, "stop_sequence": None,
            "usage": {"input_tokens": 10, "output_tokens": 10}}


def _events(block: dict[str, Any], deltas: list[dict[str, Any]], stop: str,
            body: dict[str, Any]) -> list[tuple[str, Any]]:
    start = {**_message([], "", body), "stop_reason": None}
    return [
        ("message_start", {"type": "message_start", "message": start}),
        ("content_block_start", {"type": "content_block_start", "index": 0, "content_block": block}),
        *[("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": d}) for d in deltas],
        ("content_block_stop", {"type": "content_block_stop", "index": 0}),
        ("message_delta", {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None},
                           "usage": {"output_tokens": 10}}),
        ("message_stop", {"type": "message_stop"}),
    ]


@dataclass(frozen=True)
class Footprint:
    """The bytes of one request that come from one MCP server, by where Claude Code puts them."""

    declarations: int  # tool schemas in ``tools`` (loaded deferred tools)
    announced: int  # the server's tool names in deferred-tools listings, one line each
    instructions: int  # the server's section under "# MCP Server Instructions"

    @property
    def total(self) -> int:
        return self.declarations + self.announced + self.instructions


def footprint(request: ModelRequest, server_key: str) -> Footprint:
    body = request.request.json or {}
    prefix = f"mcp__{server_key}__"
    announced = sum(len(n.encode()) + 1 for names in deferred_listings(body) for n in names if n.startswith(prefix))
    heading = f"## {server_key}\n"
    instructions = 0
    for text in texts(body):
        start = text.find(heading)
        if start >= 0:
            end = text.find("\n\n", start + len(heading))
            instructions += len(text[start:end if end >= 0 else len(text)].encode())
    return Footprint(declared_bytes(ours(request.tools, server_key)), announced, instructions)
