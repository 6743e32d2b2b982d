"""``resources/*``, ``prompts/*`` and ``completion/complete`` handlers for the SDK's low-level
``Server``, both eras.

Thin like the tool handlers: the app's ``ResourceService``, ``PromptService`` and
``CompletionService`` decide; this module shapes results and maps their errors to JSON-RPC ones. A missing resource is ``-32002``
in the handshake era (its spec's "resource not found") and ``-32602`` in 2026-07-28, where
``-32002`` is retired; a bad or escaping path is ``-32602`` in both.
"""

from __future__ import annotations

from typing import Any

from mcp.server.caching import CacheHint
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS

from godot_bridge.content.completions import CompletionService
from godot_bridge.content.prompts import PromptError, PromptService
from godot_bridge.content.resources import ResourceError, ResourceService
from godot_bridge.mcp.core.eras import is_modern_version

HANDSHAKE_RESOURCE_NOT_FOUND = -32002
# 2026-07-28 results of these methods must say how long they stay fresh: never (project info and
# files change under us, and the editor's connection state with them).
CONTENT_CACHE_HINTS: dict[str, CacheHint] = {
    method: CacheHint(0, "private")
    for method in ("resources/list", "resources/templates/list", "resources/read", "prompts/list")
}


def _complete(ctx: Any, result: dict[str, Any]) -> dict[str, Any]:
    if is_modern_version(ctx.protocol_version):
        result["resultType"] = "complete"
    return result


def content_handlers(resources: ResourceService, prompts: PromptService,
                     completions: CompletionService) -> dict[str, Any]:
    """Keyword arguments for ``Server(...)``: the resource, prompt and completion handlers."""

    async def list_resources(ctx: Any, params: Any) -> dict[str, Any]:
        return _complete(ctx, {"resources": resources.list()})

    async def list_templates(ctx: Any, params: Any) -> dict[str, Any]:
        return _complete(ctx, {"resourceTemplates": resources.templates()})

    async def read_resource(ctx: Any, params: Any) -> dict[str, Any]:
        uri = str(params.uri)
        try:
            contents = await resources.read(uri, ctx.lifespan_context.tools.owner)
        except ResourceError as exc:
            modern = is_modern_version(ctx.protocol_version)
            code = HANDSHAKE_RESOURCE_NOT_FOUND if exc.not_found and not modern else INVALID_PARAMS
            raise MCPError(code, f"{uri}: {exc}", data={"uri": uri}) from None
        return _complete(ctx, {"contents": contents})

    async def list_prompts(ctx: Any, params: Any) -> dict[str, Any]:
        return _complete(ctx, {"prompts": prompts.list()})

    async def get_prompt(ctx: Any, params: Any) -> dict[str, Any]:
        try:
            result = prompts.get(params.name, params.arguments)
        except PromptError as exc:
            raise MCPError(INVALID_PARAMS, str(exc)) from None
        return _complete(ctx, result)

    async def complete(ctx: Any, params: Any) -> dict[str, Any]:
        ref = params.ref.model_dump(mode="json", by_alias=True)
        done = await completions.complete(ref, params.argument.name, params.argument.value)
        return _complete(ctx, done.result())

    return {
        "on_completion": complete,
        "on_list_resources": list_resources,
        "on_list_resource_templates": list_templates,
        "on_read_resource": read_resource,
        "on_list_prompts": list_prompts,
        "on_get_prompt": get_prompt,
    }
