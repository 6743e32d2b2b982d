"""Shape what a tool produced into an MCP tool result (contract C3).

Pure functions over data: the toolkit's payload goes out verbatim with its keys
sorted recursively (so equal payloads are byte-identical), plus the catalogue's
success hint only where the toolkit gave none. Failures use the toolkit's own
``{success:false, error, code, hint?}`` envelope whichever side produced them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from godot_bridge.errors import ToolError


@dataclass
class ToolOutcome:
    """A transport-neutral tool result; the MCP layer turns it into ``CallToolResult``."""

    content: list[dict[str, Any]]
    structured: Any = None
    is_error: bool = False


def sort_keys(value: Any) -> Any:
    """Return ``value`` with every dict's keys sorted, recursively."""
    if isinstance(value, dict):
        return {k: sort_keys(value[k]) for k in sorted(value)}
    if isinstance(value, list):
        return [sort_keys(v) for v in value]
    return value


def _dumps(value: Any) -> str:
    # ensure_ascii=False keeps non-ASCII names readable and smaller for the model.
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def text_block(value: Any) -> dict[str, Any]:
    return {"type": "text", "text": value if isinstance(value, str) else _dumps(value)}


def success(payload: Any, success_hint: str | None = None) -> ToolOutcome:
    """A successful call: one text block with the sorted payload, same payload as structured content."""
    if isinstance(payload, dict) and success_hint and not payload.get("hint"):
        payload = {**payload, "hint": success_hint}
    payload = sort_keys(payload)
    return ToolOutcome(content=[text_block(payload)], structured=payload)


def failure(err: ToolError) -> ToolOutcome:
    payload = sort_keys(err.payload())
    return ToolOutcome(content=[text_block(payload)], structured=payload, is_error=True)


def from_toolkit(payload: Any, success_hint: str | None = None) -> ToolOutcome:
    """Shape a toolkit reply: ``{success:false}`` becomes an error, anything else a success."""
    if isinstance(payload, dict) and payload.get("success") is False:
        code = payload.get("code")
        hint = payload.get("hint")
        err = ToolError(
            code=code if isinstance(code, str) and code else "INTERNAL",
            message=str(payload.get("error") or "the editor reported a failure without a message"),
            # "" = the toolkit gave no hint; a bridge default would misdescribe a toolkit failure.
            hint=hint if isinstance(hint, str) else "",
            extra={k: v for k, v in payload.items() if k not in ("success", "error", "code", "hint")},
        )
        return failure(err)
    return success(payload, success_hint)


def screenshot(payload: dict[str, Any]) -> ToolOutcome:
    """Screenshots: the image block first, then the rest as metadata; a disk capture is text only."""
    if payload.get("success") is False:
        return from_toolkit(payload)
    image = payload.get("image_base64")
    meta = {k: v for k, v in payload.items() if k != "image_base64"}
    if isinstance(image, str) and image:
        mime = payload.get("mime_type") or "image/png"
        return ToolOutcome(
            content=[{"type": "image", "data": image, "mimeType": mime}, text_block(sort_keys(meta))],
            structured=sort_keys(meta),
        )
    if payload.get("path"):
        return success(meta)
    return failure(ToolError("EMPTY_CONTENT", "the capture returned neither image data nor a saved file path"))
