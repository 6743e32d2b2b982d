"""The language server's verdict as the editor's dock shows it (contract C15): kept, sent once per
change, and sent again to each new editor session."""

from __future__ import annotations

import logging
from typing import Any

from godot_bridge.editor.channel import WsChannel
from godot_bridge.errors import ToolError

# The editor side logs under one name, whichever of its modules speaks.
log = logging.getLogger("godot_bridge.editor.bridge")
SET_LSP_STATUS = "editor.set_lsp_status"


class LspStatus:
    def __init__(self) -> None:
        self.status: dict[str, Any] | None = None
        self._sent: tuple[Any, ...] | None = None

    def new_session(self) -> None:
        """A new editor session has not seen our verdict."""
        self._sent = None

    async def push(self, ch: WsChannel, timeout: float) -> None:
        """Send the verdict unless this session has it already; a failed send is tried again next time."""
        status = self.status or {}
        key = (status.get("state"), status.get("host"), status.get("port"))
        if key == self._sent:
            return
        self._sent = key
        try:
            await ch.request(SET_LSP_STATUS, status, timeout=timeout)
        except ToolError as err:
            self._sent = None
            log.debug("editor.set_lsp_status failed: %s", err.message)
