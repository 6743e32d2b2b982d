"""Shape what a tool produced into an MCP tool result (contract C3).

Pure functions over data: the toolkit's payload goes out verbatim with its keys
sorted recursively (so equal payloads are byte-identical), plus the catalogue's
success hint only where the toolkit gave none. Failures use the toolkit's own
``{success:false, error, code, hint?}`` envelope whichever side produced them.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

from godot_bridge.errors import ToolError

try:  # optional speed-up (the `fast` extra): one C pass sorts and encodes
    import orjson
except ImportError:  # pragma: no cover - exercised by the tests that hide orjson
    orjson = None  # type: ignore[assignment]


@dataclass
class ToolOutcome:
    """A transport-neutral tool result; the MCP layer turns it into ``CallToolResult``."""

    content: list[dict[str, Any]]
    structured: Any = None
    is_error: bool = False


def sort_keys(value: Any) -> Any:
    """Return ``value`` with every dict's keys sorted, recursively; NaN and Infinity become None.

    JSON has no NaN: the structured content always went out as null (pydantic), and now the
    text says null too, as orjson writes it.
    """
    if isinstance(value, dict):
        return {k: sort_keys(value[k]) for k in sorted(value)}
    if isinstance(value, list):
        return [sort_keys(v) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def _dumps(value: Any) -> str:
    # ensure_ascii=False keeps non-ASCII names readable and smaller for the model.
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def text_block(value: Any) -> dict[str, Any]:
    return {"type": "text", "text": value if isinstance(value, str) else _dumps(value)}


def _sorted_and_text_py(value: Any) -> tuple[Any, str]:
    if isinstance(value, str):
        return value, value
    value = sort_keys(value)
    return value, _dumps(value)


def sorted_and_text(value: Any) -> tuple[Any, str]:
    """``value`` with every dict's keys sorted, and its compact JSON text.

    With orjson this is one sorted encode plus one parse (both in C) instead of a recursive
    Python sort and a second sorting encode: a large scene tree was ~4x the reference's
    time in bench/ (issue 18). The parse of the sorted text *is* the sorted copy, so text
    and structured content cannot disagree. What orjson will not take (a lone surrogate,
    an integer beyond 64 bits, a non-string key) goes the json way, whose output it always was.
    A string payload is its own text (the structured content keeps the string).
    """
    if isinstance(value, str):
        return value, value
    if orjson is not None:
        try:
            data = orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
        except (TypeError, orjson.JSONEncodeError):
            return _sorted_and_text_py(value)
        return orjson.loads(data), data.decode("utf-8")
    return _sorted_and_text_py(value)


def _outcome(payload: Any, *, is_error: bool = False) -> ToolOutcome:
    structured, text = sorted_and_text(payload)
    return ToolOutcome(content=[{"type": "text", "text": text}], structured=structured, is_error=is_error)


def success(payload: Any, success_hint: str | None = None) -> ToolOutcome:
    """A successful call: one text block with the sorted payload, same payload as structured content."""
    if isinstance(payload, dict) and success_hint and not payload.get("hint"):
        payload = {**payload, "hint": success_hint}
    return _outcome(payload)


def failure(err: ToolError) -> ToolOutcome:
    return _outcome(err.payload(), is_error=True)


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
        structured, text = sorted_and_text(meta)
        mime = payload.get("mime_type") or "image/png"
        return ToolOutcome(
            content=[{"type": "image", "data": image, "mimeType": mime}, {"type": "text", "text": text}],
            structured=structured,
        )
    if payload.get("path"):
        return success(meta)
    return failure(ToolError("EMPTY_CONTENT", "the capture returned neither image data nor a saved file path"))


def screenshot_link(link: dict[str, Any], meta: dict[str, Any], preview: dict[str, Any] | None = None) -> ToolOutcome:
    """A kept screenshot: its ``resource_link`` block first, the small preview image if any, then
    the metadata (which names the uri too)."""
    structured, text = sorted_and_text(meta)
    blocks = [link] if preview is None else [link, preview]
    return ToolOutcome(content=[*blocks, {"type": "text", "text": text}], structured=structured)
