"""Serve both MCP protocol eras on one connection, decided per request.

The SDK locks a connection to the era of its first request. We do not: a
request whose ``params._meta`` carries ``io.modelcontextprotocol/protocolVersion``
is a 2026-07-28 request and is served statelessly on its own (``initialize``, which that
era removed, is -32601 there; ``ping``, removed too, is kept); everything else is a
handshake-era request served by one long-lived legacy runner whose ``initialize``
is not an admission gate.

What the SDK's dual-era loop builds per connection is built here per request, from the SDK's
public protocols (``era_channels.py``).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from mcp.server.connection import Connection
from mcp.server.lowlevel import Server
from mcp.server.models import InitializationOptions
from mcp.server.runner import ServerRunner
from mcp.shared.dispatcher import DispatchContext, Outbound
from mcp.shared.exceptions import MCPError
from mcp.shared.inbound import InboundLadderRejection, classify_inbound_request
from mcp_types import (
    INTERNAL_ERROR,
    INVALID_PARAMS,
    METHOD_NOT_FOUND,
    InitializeRequestParams,
)
from mcp_types.version import LATEST_MODERN_VERSION
from pydantic import ValidationError

from godot_bridge.mcp.core import era_channels
from godot_bridge.mcp.core.peers import Peer
from godot_bridge.mcp.core.eras import (
    HANDSHAKE_VERSIONS,
    LATEST_HANDSHAKE,
    is_modern,
    needs_envelope,
    sends_server_requests,
)
from godot_bridge.mcp.core.protocol import ping_result, stamped

log = logging.getLogger(__name__)

def _invalid_params(exc: ValidationError) -> MCPError:
    """Name what was wrong (the SDK answers every one of these "Invalid request parameters")."""
    # The SDK validates the whole request, so a location starts with "params" already.
    problems = [f"params.{'.'.join(str(part) for part in _in_params(err['loc']))}: {err['msg']}"
                for err in exc.errors()[:3]]
    more = f" (and {exc.error_count() - 3} more)" if exc.error_count() > 3 else ""
    return MCPError(INVALID_PARAMS, "Invalid params: " + "; ".join(problems) + more)


def _in_params(loc: tuple[int | str, ...]) -> tuple[int | str, ...]:
    return loc[1:] if loc[:1] == ("params",) else loc


def _internal(exc: Exception) -> MCPError:
    # Full detail stays in our stderr log; the wire gets no internals.
    log.error("request handler failed", exc_info=exc)
    return MCPError(INTERNAL_ERROR, "Internal error")


def _in_era(dctx: DispatchContext[Any], *, modern: bool) -> DispatchContext[Any]:
    """The dispatch context a request of this era is served with: without server requests where the
    era sends none (``eras.sends_server_requests``)."""
    return dctx if sends_server_requests(modern) else era_channels.NoServerRequests(dctx)  # type: ignore[return-value]


class EraRouter:
    """The dispatcher's ``on_request``/``on_notify`` pair, routing each message to its era."""

    def __init__(
        self,
        server: Server[Any],
        outbound: Outbound,
        init_options: InitializationOptions,
        peer: Peer,
        *,
        handshake_version: str = LATEST_HANDSHAKE,
        client_params: Mapping[str, Any] | None = None,
    ) -> None:
        self.server = server
        # The client every request here comes from: the handlers' lifespan state (sdk_server.py).
        self.peer = peer
        self._modern_outbound = era_channels.NotifyOnlyOutbound(outbound)
        # No admission gate: a handshake-era request is served with or without `initialize`.
        # A router built after the lean path served `initialize` starts from what that negotiated.
        self._legacy = era_channels.handshake_connection(outbound, handshake_version)
        if client_params is not None:
            self._legacy.client_params = InitializeRequestParams.model_validate(client_params, by_name=False)
        self._legacy_runner = ServerRunner(server, self._legacy, peer, init_options=init_options)
        self.handshake_seen = False

    async def on_request(
        self, dctx: DispatchContext[Any], method: str, params: Mapping[str, Any] | None
    ) -> dict[str, Any]:
        try:
            if is_modern(method, params):
                return await self._modern(dctx, method, params)
            return await self._handshake(dctx, method, params)
        except MCPError:
            raise
        except ValidationError as exc:
            raise _invalid_params(exc) from None
        except Exception as exc:
            raise _internal(exc) from None

    async def _modern(self, dctx: DispatchContext[Any], method: str, params: Mapping[str, Any] | None) -> dict[str, Any]:
        assert params is not None
        route = classify_inbound_request({"method": method, "params": params})
        if isinstance(route, InboundLadderRejection):
            raise MCPError(code=route.code, message=route.message, data=route.data)
        if method == "ping":
            # Kept though 2026-07-28 removed it (eras.REMOVED_IN_MODERN); the SDK has no handler
            # for it in that era. initialize stays the SDK's -32601, like any unknown method.
            return stamped(ping_result(True), True)
        connection = era_channels.per_request_connection(Connection.from_envelope(
            route.protocol_version, route.client_info, route.client_capabilities, outbound=self._modern_outbound
        ))
        # serve_one() without its per-request shielded teardown scope when nothing was
        # registered for teardown: that scope was a measurable share of a modern call.
        runner = ServerRunner(self.server, connection, self.peer)
        try:
            return await runner.on_request(_in_era(dctx, modern=True), method, params)
        finally:
            await era_channels.teardown(connection)

    async def _handshake(
        self, dctx: DispatchContext[Any], method: str, params: Mapping[str, Any] | None
    ) -> dict[str, Any]:
        refusal = needs_envelope(method)
        if refusal is not None:
            raise MCPError(METHOD_NOT_FOUND, refusal)
        if method == "initialize":
            self.handshake_seen = True
            params = dict(params or {})
            if params.get("protocolVersion") not in HANDSHAKE_VERSIONS:
                params["protocolVersion"] = LATEST_HANDSHAKE
        return await self._legacy_runner.on_request(dctx, method, params)

    @property
    def handshake(self) -> tuple[str, dict[str, Any] | None]:
        """The handshake era's negotiated version and the client's initialize params, as they stand."""
        params = self._legacy.client_params
        dumped = params.model_dump(mode="json", by_alias=True, exclude_none=True) if params is not None else None
        return self._legacy.protocol_version, dumped

    async def on_notify(self, dctx: DispatchContext[Any], method: str, params: Mapping[str, Any] | None) -> None:
        if is_modern(method, params):
            connection = Connection.from_envelope(LATEST_MODERN_VERSION, None, None, outbound=self._modern_outbound)
            runner = ServerRunner(self.server, connection, self.peer)
            await runner.on_notify(_in_era(dctx, modern=True), method, params)
            return
        await self._legacy_runner.on_notify(dctx, method, params)

