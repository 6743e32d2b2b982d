"""The 2026-07-28 ``requestState`` sealed by the SDK's boundary, with clearer answers to its refusals.

``RequestStateBoundary`` (appended to the low-level server's middleware) encrypts every
``requestState`` an ``input_required`` result carries and checks every echo: not altered, not
expired, minted by this process for this audience, and bound to the same method, tool and
arguments. What it refuses never reaches the tools (-32602, "Invalid or expired requestState").

Two things on top: a state that is good but was minted for *other arguments* (a retry that changed
them) is not a refusal but a new call, which asks again (the consent gate never runs a call on an
answer to another one); and every other refusal says what to do next. Single use is the consent
gate's (consent/tickets.py): the boundary alone would accept the same state until it expires.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS

from godot_bridge.consent.tickets import TTL_S
from godot_bridge.mcp import sdk_private
from godot_bridge.mcp.protocol import SERVER_NAME

if TYPE_CHECKING:
    from mcp.server.request_state import RequestStateBoundary, RequestStateSecurity

_REFUSED = {"reason": "invalid_request_state"}
RETRY_FIELDS = ("requestState", "inputResponses")


class SealedState:
    """Server middleware: the SDK's boundary, a key held only by this process, states valid for TTL_S.

    Built on the first ``tools/call``: its crypto (the ``cryptography`` package) is not imported at
    start-up, and on stdio only a call that may ask reaches this path at all."""

    def __init__(self) -> None:
        self._sealing: tuple[RequestStateSecurity, RequestStateBoundary] | None = None

    def _parts(self) -> tuple[RequestStateSecurity, RequestStateBoundary]:
        if self._sealing is None:
            from mcp.server.request_state import RequestStateBoundary, RequestStateSecurity

            security = RequestStateSecurity.ephemeral(ttl=TTL_S)
            self._sealing = security, RequestStateBoundary(security, default_audience=SERVER_NAME)
        return self._sealing

    @property
    def security(self) -> RequestStateSecurity:
        return self._parts()[0]

    @property
    def boundary(self) -> RequestStateBoundary:
        return self._parts()[1]

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        if ctx.method != "tools/call":  # the only input_required carrier the bridge uses
            return await call_next(ctx)
        try:
            return await self.boundary(ctx, call_next)
        except MCPError as err:
            if err.error.data != _REFUSED:
                raise
            if self._minted_here_for_another_call(ctx):
                fresh = {k: v for k, v in (ctx.params or {}).items() if k not in RETRY_FIELDS}
                return await self.boundary(replace(ctx, params=fresh), call_next)
            raise MCPError(INVALID_PARAMS, "Invalid or expired requestState: it was altered, is older than "
                           f"{TTL_S:g} s, or was not issued by this bridge; nothing was done. Call the tool again "
                           "without requestState and inputResponses to be asked again.", data=_REFUSED) from None

    def _minted_here_for_another_call(self, ctx: ServerRequestContext[Any, Any]) -> bool:
        """The state is ours, intact and unexpired, so what the boundary refused is its binding."""
        wire = (ctx.params or {}).get("requestState")
        claims = sdk_private.sealed_claims(self.security, wire) if isinstance(wire, str) else None
        if claims is None:
            return False
        expires = claims.get("exp")
        return claims.get("m") == ctx.method and claims.get("aud") == SERVER_NAME \
            and isinstance(expires, int | float) and time.time() < expires
