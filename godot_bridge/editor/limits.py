"""The limits the bridge asks of the editor (``meta.set_limits``): set on every fresh connection
and again when a configuration reload changes them."""

from __future__ import annotations

import logging
from typing import Any

from godot_bridge.config import Settings
from godot_bridge.editor.channel import WsChannel
from godot_bridge.errors import ToolError

# The editor side logs under one name, whichever of its modules speaks.
log = logging.getLogger("godot_bridge.editor.bridge")
SET_LIMITS = "meta.set_limits"


def limits(settings: Settings) -> dict[str, int]:
    """What the settings ask of the editor; empty when they leave every limit to the toolkit."""
    return {
        key: value
        for key, value in (
            ("script_read_cap_kb", settings.script_read_limit_kb),
            ("ws_buffer_kb", settings.ws_buffer_limit_kb),
        )
        if value is not None
    }


async def send_limits(ch: WsChannel, asked: dict[str, int], timeout: float) -> bool:
    """Send the limits; True when the reply says a new buffer size applies only after a reconnect."""
    try:
        reply = await ch.request(SET_LIMITS, asked, timeout=timeout)
    except ToolError as err:
        log.warning("could not apply limits %s: %s", asked, err.message)
        return False
    return learn_buffer(ch, reply)


def learn_buffer(ch: WsChannel, reply: Any) -> bool:
    """This connection's inbound buffer from a meta.set_limits reply; True when a new size awaits a reconnect.

    The editor sizes a peer's buffer when it accepts it, so ``previous`` is this connection's
    and ``applied`` is the next one's.
    """
    def kb(key: str) -> int | None:
        part = reply.get(key) if isinstance(reply, dict) else None
        value = part.get("ws_buffer_kb") if isinstance(part, dict) else None
        return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None

    previous, applied = kb("previous"), kb("applied")
    if previous is not None:
        ch.inbound_limit = previous * 1024
    elif applied is not None:
        return False  # an editor that does not say what it had: keep the default
    return previous is not None and applied is not None and applied != previous
