"""The OpenAI Responses API as Codex speaks it (``wire_api = "responses"``), for ``model_server``.

Codex posts ``/v1/responses`` with ``stream: true`` and the whole conversation in ``input``. Its MCP
tools are not plain functions: each server is one ``{"type": "namespace", "name":
"mcp__<server key, '-' made '_'>", "description": <the server's instructions>, "tools": [...]}``
whose tools keep their bare names. The model calls one with a ``function_call`` item carrying both
``namespace`` and ``name``; a call that names the tool any other way (``mcp__x__tool`` as one name,
or a tool the request did not declare) is answered by Codex itself with "unsupported call: ...".
Tool results come back as ``function_call_output`` items (``output``: a string, or a list of
``input_text``/``input_image`` parts) in the next request's ``input``.

For a model whose catalog entry says ``supports_search_tool`` Codex declares no MCP tool: it declares
``{"type": "tool_search", "execution": "client"}`` (``SEARCH_TOOL``), which the model calls with a
``tool_search_call`` item (``arguments``: ``query``, ``limit``); the next request's ``input`` carries a
``tool_search_output`` item with the same ``call_id`` whose ``tools`` are the namespaces found, each with
its matching tools (``searched``).

The answer is an SSE stream: ``response.created``, one ``response.output_item.done`` (the call or
the message), ``response.completed`` (Codex waits for it before acting).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from tests.assistants.model_server import CallReply, ModelRequest, RecordedRequest, Reply, Response, TextReply
from tests.assistants.model_server import ToolDeclaration, ToolResult, parts_text, sse

SEARCH_TOOL = "tool_search"
_USAGE = {"input_tokens": 0, "input_tokens_details": None, "output_tokens": 0, "output_tokens_details": None,
          "total_tokens": 0}


def declarations(tools: Sequence[Mapping[str, Any]]) -> tuple[ToolDeclaration, ...]:
    """Every callable tool of a request, namespaced ones with their namespace."""
    out: list[ToolDeclaration] = []
    for tool in tools:
        if tool.get("type") == "namespace":
            space = str(tool.get("name", ""))
            out += [ToolDeclaration(str(t.get("name", "")), t, space) for t in tool.get("tools", [])]
        elif tool.get("type") == SEARCH_TOOL:
            out.append(ToolDeclaration(SEARCH_TOOL, tool))
        elif tool.get("name"):
            out.append(ToolDeclaration(str(tool["name"]), tool))
    return tuple(out)


def namespace(request: ModelRequest, name: str) -> Mapping[str, Any] | None:
    """The namespace object ``name`` exactly as sent (its description is the server's instructions)."""
    body = request.request.json or {}
    return next((t for t in body.get("tools", []) if t.get("type") == "namespace" and t.get("name") == name), None)


def searched(items: Sequence[Mapping[str, Any]], call_id: str) -> list[str] | None:
    """The tools the ``tool_search_output`` for ``call_id`` carries, in order, each as namespace + name
    (None: no such output)."""
    for item in items:
        if item.get("type") == "tool_search_output" and item.get("call_id") == call_id:
            found = []
            for tool in item.get("tools") or []:
                inner = tool.get("tools") if tool.get("type") == "namespace" else [tool]
                space = str(tool.get("name", "")) if tool.get("type") == "namespace" else ""
                found += [space + str(t.get("name", "")) for t in inner or []]
            return found
    return None


def results(items: Sequence[Mapping[str, Any]]) -> tuple[ToolResult, ...]:
    calls = {str(i.get("call_id")): i for i in items if i.get("type") == "function_call"}
    out = []
    for item in items:
        if item.get("type") == "tool_search_output":
            out.append(ToolResult(str(item.get("call_id")), json.dumps(item.get("tools")), SEARCH_TOOL))
            continue
        if item.get("type") != "function_call_output":
            continue
        call = calls.get(str(item.get("call_id")), {})
        name = str(call.get("namespace", "")) + str(call.get("name", ""))
        out.append(ToolResult(str(item.get("call_id")), parts_text(item.get("output")), name))
    return tuple(out)


class ResponsesAdapter:
    """``model_server.Adapter`` for Codex. Every request but a ``.../responses`` POST is auxiliary."""

    def __init__(self) -> None:
        self._answers = 0

    def parse(self, request: RecordedRequest) -> ModelRequest:
        body = request.json if isinstance(request.json, dict) else {}
        if request.method != "POST" or not request.route.endswith("/responses"):
            return ModelRequest(request, auxiliary=True, kind=request.route)
        items = body.get("input", [])
        items = items if isinstance(items, list) else []
        # A tool a search found is callable from then on, though the request does not declare it.
        found = [t for i in items if i.get("type") == "tool_search_output" for t in i.get("tools") or []]
        return ModelRequest(request, declarations([*body.get("tools", []), *found]), results(items))

    def respond(self, reply: Reply, request: ModelRequest) -> Response:
        self._answers += 1
        rid = f"resp_{self._answers:03d}"
        if isinstance(reply, CallReply) and reply.name == SEARCH_TOOL and not reply.namespace:
            item: dict[str, Any] = {"type": "tool_search_call", "id": f"ts_{self._answers:03d}",
                                    "call_id": reply.call_id, "status": "completed", "execution": "client",
                                    "arguments": dict(reply.arguments)}
        elif isinstance(reply, CallReply):
            item = {"type": "function_call", "id": f"fc_{self._answers:03d}", "call_id": reply.call_id,
                                    "name": reply.name, "arguments": json.dumps(dict(reply.arguments))}
            if reply.namespace:
                item["namespace"] = reply.namespace
        else:
            item = {"type": "message", "role": "assistant", "id": f"msg_{self._answers:03d}",
                    "content": [{"type": "output_text", "text": reply.text, "annotations": []}]}
        events: list[dict[str, Any]] = [{"type": "response.created", "response": {"id": rid}},
                  {"type": "response.output_item.done", "output_index": 0, "item": item},
                  {"type": "response.completed", "response": {"id": rid, "usage": _USAGE}}]
        return Response(chunks=sse((e["type"], e) for e in events))

    def respond_auxiliary(self, request: ModelRequest) -> Response:
        if request.kind == "main":  # a main request the scenario is not ready for: a neutral answer
            return self.respond(TextReply("(waiting)"), request)
        return Response.json({"object": "list", "data": []})

    def unlock(self, tool: str, request: ModelRequest) -> CallReply | None:
        """A model that searches (``tool_search`` declared) searches for a tool it lacks by its name's words;
        otherwise Codex declared every tool it listed and there is nothing to unlock."""
        if not any(t.name == SEARCH_TOOL and not t.namespace for t in request.tools):
            return None
        return CallReply(SEARCH_TOOL, {"query": tool.replace("_", " "), "limit": 8},
                         f"call_search_{len(request.results):03d}")
