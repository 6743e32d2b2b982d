"""Shape what a tool produced into an MCP tool result (contract C3).

Pure functions over data: the toolkit's payload goes out verbatim with its keys
sorted recursively (so equal payloads are byte-identical), plus the catalogue's
success hint only where the toolkit gave none. Failures use the toolkit's own
``{success:false, error, code, hint?}`` envelope whichever side produced them; the
wire carries it once, as the text (``protocol.call_result`` sends no structuredContent
for an error), while ``ToolOutcome.structured`` keeps it for the bridge's own readers (jobs).
"""

from __future__ import annotations

import json
import math
from typing import Any

from godot_bridge.errors import ToolError

try:  # optional speed-up (the `fast` extra): one C pass sorts and encodes
    import orjson
except ImportError:  # pragma: no cover - exercised by the tests that hide orjson
    orjson = None  # type: ignore[assignment]


_UNPARSED = object()


class ToolOutcome:
    """A transport-neutral tool result; the MCP layer turns it into ``CallToolResult``.

    ``structured_json``, when set, is the exact (key-sorted) JSON of ``structured``, as orjson
    wrote it for the text block. ``structured`` is then parsed from it only when someone reads
    it: the lean path splices the bytes into its answer instead (parsing and
    re-encoding a 1 MiB tree was a quarter of that call's CPU).
    """

    __slots__ = ("content", "is_error", "structured_json", "_structured")

    def __init__(self, content: list[dict[str, Any]], structured: Any = None, is_error: bool = False, *,
                 structured_json: bytes | None = None) -> None:
        self.content = content
        self.is_error = is_error
        self.structured_json = structured_json
        self._structured = _UNPARSED if structured_json is not None else structured

    @property
    def structured(self) -> Any:
        if self._structured is _UNPARSED:
            assert orjson is not None and self.structured_json is not None
            self._structured = orjson.loads(self.structured_json)
        return self._structured

    @property
    def has_structured(self) -> bool:
        return self.structured_json is not None or self._structured is not None

    @property
    def structured_is_object(self) -> bool:
        if self.structured_json is not None:
            return self.structured_json[:1] == b"{"
        return isinstance(self._structured, dict)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ToolOutcome):
            return NotImplemented
        return (self.content, self.structured, self.is_error) == (other.content, other.structured, other.is_error)

    def __repr__(self) -> str:
        return f"ToolOutcome(content={self.content!r}, structured={self.structured!r}, is_error={self.is_error!r})"


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
    time in bench/. The parse of the sorted text *is* the sorted copy, so text
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


def _sorted_json(value: Any) -> bytes | None:
    """orjson's key-sorted encoding of a non-string payload, or None when orjson cannot (or is absent)."""
    if orjson is None or isinstance(value, str):
        return None
    try:
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)  # type: ignore[no-any-return]
    except (TypeError, orjson.JSONEncodeError):
        return None


def _outcome(payload: Any, *, is_error: bool = False) -> ToolOutcome:
    data = _sorted_json(payload)
    if data is not None:
        # The text block and structuredContent are the same bytes; the structure is parsed on demand.
        return ToolOutcome(content=[{"type": "text", "text": data.decode("utf-8")}], is_error=is_error,
                           structured_json=data)
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
        mime = payload.get("mime_type") or "image/png"
        with_image = _outcome(meta)
        with_image.content.insert(0, {"type": "image", "data": image, "mimeType": mime})
        return with_image
    if payload.get("path"):
        return success(meta)
    return failure(ToolError("EMPTY_CONTENT", "the capture returned neither image data nor a saved file path"))


def screenshot_link(link: dict[str, Any], meta: dict[str, Any], preview: dict[str, Any] | None = None) -> ToolOutcome:
    """A kept screenshot: its ``resource_link`` block first, the small preview image if any, then
    the metadata (which names the uri too)."""
    structured, text = sorted_and_text(meta)
    blocks = [link] if preview is None else [link, preview]
    return ToolOutcome(content=[*blocks, {"type": "text", "text": text}], structured=structured)
