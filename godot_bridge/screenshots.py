"""``image_response_mode: link`` for the screenshot tools (issue 16, part 4).

The toolkit (ours and the reference's) knows only inline | disk | both. For ``link`` the bridge
asks it for the image inline (``both`` when the caller gave a ``save_path``, so the file is still
written where asked), keeps the bytes in the ``ImageStore`` and answers with a ``resource_link``
to ``godot://screenshots/<id>.png`` plus the metadata the screenshot result always carries.

Which mode applies when the caller names none is a setting (``GODOT_MCP_IMAGE_MODE``, config.py):
MCP has no capability by which a client says it reads resource links, so the user who knows their
client says so; unset, screenshots stay inline as before.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Mapping
from typing import Any

from godot_bridge import results
from godot_bridge.errors import ToolError
from godot_bridge.images import ImageStore, ImageTooLarge
from godot_bridge.png import PngError
from godot_bridge.results import ToolOutcome

LINK = "link"
INLINE = "inline"
MODE_PARAM = "image_response_mode"
SAVE_PARAM = "save_path"
# What each channel captures, in the words the link's description uses.
SOURCES = {"editor": "editor viewport", "runtime": "game window"}


def toolkit_params(args: Mapping[str, Any], default_mode: str) -> tuple[dict[str, Any], bool]:
    """(the params the toolkit gets, whether the bridge keeps the image and links it).

    An explicit ``image_response_mode`` wins; without one, ``default_mode`` decides. Params of a
    call that is not a link go out untouched, so the inline default is what it always was.
    """
    params = dict(args)
    if params.get(MODE_PARAM, default_mode) != LINK:
        return params, False
    params[MODE_PARAM] = "both" if params.get(SAVE_PARAM) else INLINE
    return params, True


def _refused(code: str, message: str, hint: str | None = None) -> ToolOutcome:
    return results.failure(ToolError(code, message, hint=hint))


def link_result(payload: Any, store: ImageStore, channel: str) -> ToolOutcome:
    """Keep the reply's image and answer with its link; a toolkit failure passes through as it came."""
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
    return results.screenshot_link(kept.link(), meta)
