"""What the lean path answers: which requests it serves, and their answer lines.

``initialize``, ``ping``, ``tools/list``, ``tools/call`` (a call the core routes ``AT_ONCE``:
``core/calls.py``) and ``server/discover``, laid out as the SDK lays them out (``sdk_layout.py``)
and encoded as its codec encodes them (``line_encoder.py``).
It also keeps the handshake this pipe's client made while the lean path owns that era.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import anyio

from godot_bridge.app import INSTRUCTIONS, BridgeApp
from godot_bridge.mcp.core.calls import CallPath, CallRefused, Route, progress_params
from godot_bridge.mcp.core.eras import LATEST_HANDSHAKE, needs_envelope
from godot_bridge.mcp.core.peers import Peer
from godot_bridge.mcp.core.protocol import (
    METHOD_NOT_FOUND,
    TOOLS_LIST_CACHE_SCOPE,
    TOOLS_LIST_TTL_MS,
    client_name,
    ping_result,
    stamped,
    tools_result,
)
from godot_bridge.mcp.stdio.lean_intake import Request
from godot_bridge.mcp.stdio import lean_intake, line_encoder, sdk_layout

if TYPE_CHECKING:
    from godot_bridge.mcp.stdio.sdk_loader import SdkLoader


@dataclass
class Handshake:
    """The handshake era on this pipe."""

    # The negotiated version while the lean path owns the era; None once the SDK path does (an
    # initialize it served).
    version: str | None = LATEST_HANDSHAKE
    params: dict[str, Any] | None = None  # the client's initialize params, as the lean path took them
    seen: bool = False  # an initialize came, on either path


class LeanAnswers:
    def __init__(self, app: BridgeApp, peer: Peer, handshake: Handshake,
                 write: Callable[[bytes | None], Awaitable[None]], tools_listed: anyio.Event) -> None:
        """``tools_listed``: set once a call needs the editor (``server.py`` dials it then)."""
        self.app, self.peer, self.handshake = app, peer, handshake
        self.calls = CallPath(app)
        self._write, self._tools_listed = write, tools_listed
        self._tools_wire: dict[bool, tuple[list[dict[str, Any]], list[dict[str, Any]] | None]] = {}

    def can_serve(self, request: Request, sdk: SdkLoader) -> bool:
        """Whether the lean path answers ``request`` (``lean_intake.take`` took it)."""
        if request.method == "initialize":
            # Once the SDK path exists, it negotiates: its handshake connection must know the version.
            return not sdk.active
        if request.method == "tools/list":
            return self._tools_wire_of(request.modern) is not None
        if request.method == "tools/call":
            call = request.call = self.calls.read(request.params, request.modern)
            # A task, or a call that may ask the person (its question travels as an elicitation
            # request, an input_required answer with a sealed state, or a preview): the SDK path's.
            return self.calls.route(call, self.peer.tools_for(request.modern)) is Route.AT_ONCE
        return True

    async def answer(self, request: Request) -> bytes | None:
        method, rid, modern = request.method, request.rid, request.modern
        if not modern and (refusal := needs_envelope(method)) is not None:
            return line_encoder.error(rid, METHOD_NOT_FOUND, refusal)
        if method == "tools/call":
            return await self._call(request)
        if method == "tools/list":
            return line_encoder.response(rid, self._tools_list(modern))
        if method == "initialize":
            version = lean_intake.negotiated(request.params)
            self.handshake.seen, self.handshake.version, self.handshake.params = True, version, request.params
            self.peer.tools.client = client_name(request.params)
            return line_encoder.response(rid, sdk_layout.initialize_result(version, INSTRUCTIONS))
        if method == "server/discover":
            return line_encoder.response(rid, sdk_layout.discover_result(INSTRUCTIONS))
        return line_encoder.response(rid, stamped(ping_result(modern), modern))  # ping, in either era

    def _tools_wire_of(self, modern: bool) -> list[dict[str, Any]] | None:
        """The tools array laid out for the wire, rebuilt when the app's list changes; None: not coverable."""
        tools = self.app.tools(self.peer.tools_for(modern))
        cached = self._tools_wire.get(modern)
        if cached is None or cached[0] is not tools:
            shaped = [sdk_layout.wire_tool(tool, modern) for tool in tools]
            cached = (tools, None if any(t is None for t in shaped) else shaped)  # type: ignore[misc]
            self._tools_wire[modern] = cached
        return cached[1]

    def _tools_list(self, modern: bool) -> dict[str, Any]:
        tools = self._tools_wire_of(modern)
        if tools is None:  # the list changed between routing and serving into a shape we do not cover
            raise RuntimeError("a tool has fields the lean layout does not cover; see sdk_layout.wire_tool")
        result = tools_result(tools, modern)
        if modern:
            result = {"cacheScope": TOOLS_LIST_CACHE_SCOPE, **result, "ttlMs": TOOLS_LIST_TTL_MS}
        return stamped(result, modern)

    async def _call(self, request: Request) -> bytes | None:
        self._tools_listed.set()  # a call needs the editor now
        call = request.call
        assert call is not None  # read when the lean path took it (can_serve)
        progress = None
        if call.progress_token is not None:
            token, write = call.progress_token, self._write

            async def progress(done: float, total: float | None, message: str | None) -> None:
                await write(line_encoder.notify("notifications/progress", progress_params(token, done, total, message)))
        try:
            result = await self.calls.run(call, self.peer, progress, splice=line_encoder.splice)
        except CallRefused as exc:
            return line_encoder.error(request.rid, exc.code, exc.message)
        result["content"] = [sdk_layout.wire_content(block) for block in result["content"]]
        return line_encoder.response(request.rid, stamped(result, request.modern))
