"""The 2026-07-28 ``requestState`` sealed by the SDK's boundary, with clearer answers to its refusals.

``RequestStateBoundary`` (appended to the low-level server's middleware) encrypts every
``requestState`` an ``input_required`` result carries and checks every echo: not altered, not
expired, minted by this process for this audience, and bound to the same method, tool and
arguments. What it refuses never reaches the tools (-32602, "Invalid or expired requestState").

Two things on top: a state that is good but was minted for *other arguments* (a retry that changed
them) is not a refusal but a new call, which asks again (the consent gate never runs a call on an
answer to another one); and every other refusal says what to do next. Single use is the consent
gate's (consent/tickets.py): the boundary alone would accept the same state until it expires.

Telling "minted here for another call" from "altered or expired" needs to know, of a state the
boundary refused, whether this process sealed it and when. The boundary's claims are its own
business, so the codec is ours (the public ``RequestStateCodec`` protocol around the SDK's
AES-GCM codec): it stamps each payload with the time it sealed it.
"""

from __future__ import annotations

import os
import struct
import time
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS

from godot_bridge.consent.tickets import TTL_S
from godot_bridge.mcp.core.protocol import SERVER_NAME

if TYPE_CHECKING:
    from mcp.server.request_state import RequestStateBoundary, RequestStateCodec, RequestStateSecurity

_REFUSED = {"reason": "invalid_request_state"}
RETRY_FIELDS = ("requestState", "inputResponses")
_STAMP = struct.Struct(">d")  # when this process sealed the payload, seconds since the epoch


class StampedCodec:
    """A ``RequestStateCodec``: the wrapped one, each payload stamped with when it was sealed here."""

    def __init__(self, inner: RequestStateCodec) -> None:
        self.inner = inner

    def seal(self, payload: bytes) -> str:
        return self.inner.seal(_STAMP.pack(time.time()) + payload)

    def unseal(self, token: str) -> bytes:
        from mcp.server.request_state import InvalidRequestState

        stamped = self.inner.unseal(token)
        if len(stamped) < _STAMP.size:
            raise InvalidRequestState("malformed")
        return stamped[_STAMP.size:]

    def sealed_at(self, token: str) -> float | None:
        """When this process sealed ``token``; None for one it did not seal, or that was altered."""
        from mcp.server.request_state import InvalidRequestState

        try:
            stamped = self.inner.unseal(token)
        except (InvalidRequestState, ValueError):
            return None
        return _STAMP.unpack_from(stamped)[0] if len(stamped) >= _STAMP.size else None


class SealedState:
    """Server middleware: the SDK's boundary, a key held only by this process, states valid for TTL_S.

    Built on the first ``tools/call``: its crypto (the ``cryptography`` package) is not imported at
    start-up, and on stdio only a call that may ask reaches this path at all."""

    def __init__(self) -> None:
        self._sealing: tuple[RequestStateSecurity, RequestStateBoundary, StampedCodec] | None = None

    def _parts(self) -> tuple[RequestStateSecurity, RequestStateBoundary, StampedCodec]:
        if self._sealing is None:
            from mcp.server.request_state import AESGCMRequestStateCodec, RequestStateBoundary, RequestStateSecurity

            # A key generated now and held only by this process, as RequestStateSecurity.ephemeral makes it.
            codec = StampedCodec(AESGCMRequestStateCodec([os.urandom(32)]))
            security = RequestStateSecurity(codec=codec, ttl=TTL_S)
            self._sealing = security, RequestStateBoundary(security, default_audience=SERVER_NAME), codec
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
        """The state is ours, intact and unexpired, so what the boundary refused is its binding.

        Method and audience need no check: only ``tools/call`` results carry a state here, and the
        key never leaves this process, whose audience is always ``SERVER_NAME``."""
        wire = (ctx.params or {}).get("requestState")
        sealed_at = self._parts()[2].sealed_at(wire) if isinstance(wire, str) else None
        return sealed_at is not None and time.time() < sealed_at + TTL_S
