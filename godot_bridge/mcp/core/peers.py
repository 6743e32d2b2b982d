"""One MCP client as the bridge serves it: its own tool list, its log level, its subscriptions.

A stdio connection is one peer, in both eras. Over HTTP each handshake-era session is one,
and every request outside a session (each 2026-07-28 request, a handshake request without
``Mcp-Session-Id``) is served as the one shared *stateless* peer: such requests cannot be told
apart, so they share a list, and nothing outlives them to carry a log message or an update.

The SDK handlers find the peer of the request they serve in ``ctx.lifespan_context`` (the
runner's per-connection state, set by ``era_router.EraRouter``). No SDK import here: the lean stdio
path creates its peer before the SDK is loaded.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from godot_bridge.tools.surface import ToolList

Notify = Callable[[str, Mapping[str, Any] | None], Awaitable[None]]


def _always() -> bool:
    return True


@dataclass(eq=False)
class Peer:
    tools: ToolList  # its handshake-era list (discover_tools may load groups into it)
    # Whether it has a channel that outlives a request (stdio, an HTTP session's GET stream):
    # without one, logging/setLevel and resources/subscribe would promise what cannot be kept.
    standing: bool
    # Its 2026-07-28 list: the same whatever it called (same owner: one client's jobs); None for a
    # handshake-era HTTP session, which 2026-07-28 requests never reach.
    fixed: ToolList | None = None
    notify: Notify | None = None  # that channel, once it exists
    ready: Callable[[], bool] = _always  # stdio: not before the client's initialize
    min_level: str = "debug"  # until logging/setLevel: every level (we only ever send warning and error)
    subscribed: set[str] = field(default_factory=set)

    def tools_for(self, modern: bool) -> ToolList:
        """The list a request of this era sees and calls through."""
        return self.fixed if modern and self.fixed is not None else self.tools

    def channel(self) -> Notify | None:
        """Where handshake-era notifications for this client go now; None: nowhere."""
        return self.notify if self.notify is not None and self.ready() else None
