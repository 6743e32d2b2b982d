"""The Gemini API as Gemini CLI speaks it: ``POST /v1beta/models/<model>:streamGenerateContent?alt=sse``
for the main loop, ``:generateContent`` for its side questions (the model router's choice, whether the
user or the model speaks next, ...), ``:countTokens``.

Tools arrive as ``tools[].functionDeclarations[]`` (schema in ``parametersJsonSchema`` or
``parameters``); results as ``functionResponse`` parts in the user's turn, the text the model reads in
``response.output`` (or ``response.content`` parts, or ``response.error``). A side question is answered
with one JSON object holding every field those questions ask for, so each reads its own.
"""

from __future__ import annotations

import json
from typing import Any

from tests.assistants.model_server import CallReply, ModelRequest, RecordedRequest, Reply, Response, TextReply
from tests.assistants.model_server import ToolDeclaration, ToolResult, sse

# One answer for every side question (routing, next speaker, ...): each reads the keys it needs.
SIDE_ANSWER = {"reasoning": "scripted test model", "model_choice": "flash", "next_speaker": "user",
               "complexity_reasoning": "scripted", "complexity_score": 1}


def declarations(body: dict[str, Any]) -> tuple[ToolDeclaration, ...]:
    out = []
    for tool in body.get("tools") or []:
        for decl in tool.get("functionDeclarations") or [] if isinstance(tool, dict) else []:
            if isinstance(decl, dict):
                out.append(ToolDeclaration(str(decl.get("name", "")), decl))
    return tuple(out)


def _response_text(response: Any) -> tuple[str, bool]:
    if not isinstance(response, dict):
        return json.dumps(response), False
    if "error" in response:
        error = response["error"]
        return error if isinstance(error, str) else json.dumps(error), True
    if "output" in response:
        output = response["output"]
        return output if isinstance(output, str) else json.dumps(output), False
    content = response.get("content")
    if isinstance(content, list):
        texts = [str(p.get("text", "")) for p in content if isinstance(p, dict) and "text" in p]
        return "\n".join(texts), False
    return json.dumps(response), False


def tool_results(body: dict[str, Any]) -> tuple[ToolResult, ...]:
    out = []
    for content in body.get("contents") or []:
        for part in content.get("parts") or [] if isinstance(content, dict) else []:
            found = part.get("functionResponse") if isinstance(part, dict) else None
            if isinstance(found, dict):
                text, is_error = _response_text(found.get("response"))
                out.append(ToolResult(str(found.get("id", "")), text, str(found.get("name", "")), is_error))
    return tuple(out)


class GeminiAdapter:
    def parse(self, request: RecordedRequest) -> ModelRequest:
        body = request.json if isinstance(request.json, dict) else {}
        action = request.route.rsplit(":", 1)[-1] if ":" in request.route else "other"
        if action != "streamGenerateContent":
            return ModelRequest(request, declarations(body), tool_results(body), auxiliary=True, kind=action)
        return ModelRequest(request, declarations(body), tool_results(body))

    def unlock(self, tool: str, request: ModelRequest) -> CallReply | None:
        return None

    def respond(self, reply: Reply, request: ModelRequest) -> Response:
        if isinstance(reply, CallReply):
            part: dict[str, Any] = {"functionCall": {"id": reply.call_id, "name": reply.name,
                                                     "args": dict(reply.arguments)}}
        else:
            part = {"text": reply.text}
        return Response(chunks=sse([(None, _candidate([part]))]))

    def respond_auxiliary(self, request: ModelRequest) -> Response:
        if request.kind == "countTokens":
            return Response.json({"totalTokens": len(request.request.body) // 4})
        if request.kind == "generateContent":
            return Response.json(_candidate([{"text": json.dumps(SIDE_ANSWER)}]))
        if request.kind == "main":  # a main request the scenario is not ready for
            return self.respond(TextReply("waiting"), request)
        return Response.json({"error": {"code": 404, "message": f"no {request.request.route} here"}}, 404)


def _candidate(parts: list[dict[str, Any]]) -> dict[str, Any]:
    return {"candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}],
            "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 10, "totalTokenCount": 20},
            "modelVersion": "gemini-2.5-flash"}
