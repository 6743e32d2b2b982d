"""``image_response_mode: link`` for the screenshot tools.

The toolkit (ours and the reference's) knows only inline | disk | both. For ``link`` the bridge
asks it for the image inline (``both`` when the caller gave a ``save_path``, so the file is still
written where asked), keeps the bytes in the ``ImageStore`` and answers with a ``resource_link``
to ``godot://screenshots/<id>.png`` plus the metadata the screenshot result always carries.

``thumbnail: true`` (link only) adds a small preview image block: the toolkit returns one image
per capture, so the preview is a second capture at ``image_detail: low`` sent right after the
first (the capture itself is a copy of the current frame, so it costs no frame wait). A failed
preview does not fail the call; the metadata says why it is missing.

Which mode applies when the caller names none is a setting (``GODOT_MCP_IMAGE_MODE``, config.py):
MCP has no capability by which a client says it reads resource links, so the user who knows their
client says so; unset, screenshots stay inline as before.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from godot_bridge.editor.screenshot_store import ImageStore, ImageTooLarge
from godot_bridge.godot_files.png import PngError
from godot_bridge.errors import ToolError
from godot_bridge.tools import results
from godot_bridge.tools.results import ToolOutcome

LINK = "link"
INLINE = "inline"
MODE_PARAM = "image_response_mode"
SAVE_PARAM = "save_path"
THUMBNAIL_PARAM = "thumbnail"
THUMBNAIL_DETAIL = "low"
# What each channel captures, in the words the link's description uses.
SOURCES = {"editor": "editor viewport", "runtime": "game window"}


@dataclass(frozen=True)
class LinkPlan:
    """A call answered with a link; ``thumbnail`` holds the preview capture's params when asked for."""

    thumbnail: dict[str, Any] | None = None


def toolkit_params(args: Mapping[str, Any], default_mode: str) -> tuple[dict[str, Any], LinkPlan | None]:
    """(the params the toolkit gets, the link plan or None when the image is not kept).

    An explicit ``image_response_mode`` wins; without one, ``default_mode`` decides. Params of a
    call that is not a link go out untouched, so the inline default is what it always was.
    ``thumbnail`` is the bridge's own parameter and never reaches the toolkit.
    """
    params = dict(args)
    thumbnail = params.pop(THUMBNAIL_PARAM, False)
    if params.get(MODE_PARAM, default_mode) != LINK:
        if thumbnail:
            raise ToolError("INVALID_PARAMS", "thumbnail applies only to image_response_mode link "
                            f"(this call's mode is {params.get(MODE_PARAM, default_mode)})",
                            hint="Pass image_response_mode='link' with thumbnail=true, or drop thumbnail.")
        return params, None
    params[MODE_PARAM] = "both" if params.get(SAVE_PARAM) else INLINE
    preview = None
    if thumbnail:
        preview = {k: v for k, v in params.items() if k != SAVE_PARAM}
        preview.update({MODE_PARAM: INLINE, "image_detail": THUMBNAIL_DETAIL})
    return params, LinkPlan(preview)


def _refused(code: str, message: str, hint: str | None = None) -> ToolOutcome:
    return results.failure(ToolError(code, message, hint=hint))


def link_result(payload: Any, store: ImageStore, channel: str, thumbnail: Any = None) -> ToolOutcome:
    """Keep the reply's image and answer with its link (and the preview capture's image when
    ``thumbnail`` is its reply); a toolkit failure passes through as it came."""
    if not isinstance(payload, dict) or payload.get("success") is False:
        return results.from_toolkit(payload)
    raw = payload.get("image_base64")
    if not isinstance(raw, str) or not raw:
        return _refused("EMPTY_CONTENT", "the capture returned no image data to keep for the link")
    try:
        data = base64.b64decode(raw, validate=True)
        kept = store.keep(data, source=SOURCES.get(channel, channel))
    except (binascii.Error, PngError) as exc:
        return _refused("IMAGE_UNREADABLE", f"the capture's image_base64 is not a base64 PNG: {exc}")
    except ImageTooLarge as exc:
        return _refused("RESULT_TOO_LARGE", str(exc),
                        "Ask for a smaller image (image_detail mid or low) or save it (image_response_mode disk).")
    meta = {k: v for k, v in payload.items() if k != "image_base64"}
    meta["uri"] = kept.uri
    preview = None
    if thumbnail is not None:
        preview, meta["thumbnail"] = _preview(thumbnail)
    return results.screenshot_link(kept.link(), meta, preview)


def _preview(reply: Any) -> tuple[dict[str, Any] | None, str]:
    """(the preview's image block or None, what the metadata says about it)."""
    if isinstance(reply, dict) and reply.get("success") is not False:
        image = reply.get("image_base64")
        if isinstance(image, str) and image:
            mime = reply.get("mime_type") or "image/png"
            return {"type": "image", "data": image, "mimeType": mime}, str(reply.get("returned") or "sent")
    why = reply.get("error") if isinstance(reply, dict) else None
    return None, f"unavailable: {why or 'the preview capture returned no image'}"
