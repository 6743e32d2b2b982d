"""The channels of a request served in its own era, built on the SDK's public protocols only.

The SDK locks a connection to the era of its first request; ``era_router.py`` decides per
request instead, so it builds per request what the SDK's own dual-era loop builds per
connection. Those pieces are ours, written against the public ``Outbound`` /
``DispatchContext`` protocols and the public ``Connection``, so an SDK release inside the
``mcp`` range in pyproject.toml cannot move them:

* ``NotifyOnlyOutbound``: the outbound of a 2026-07-28 per-request connection. That era
  forbids server-to-client requests, and its change notifications travel only on
  ``subscriptions/listen`` streams, so a bare copy on the shared channel is dropped.
* ``NoServerRequests``: the dispatch context of a 2026-07-28 request: notifications and
  progress pass, a server request is refused and the transport says it cannot carry one.
* ``TrackedExitStack``: whether a per-request connection registered anything to tear down;
  the shielded teardown is skipped when it did not (that scope was a measurable share of a
  2026-07-28 call in bench/).
* ``handshake_connection``: the one long-lived handshake-era connection, admitted without
  ``initialize`` (the bridge does not make ``initialize`` an admission gate).
* ``notification``: a notification the SDK's models do not name (the tasks extension's
  ``notifications/tasks``), as the public generic ``Notification`` model.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from contextlib import AsyncExitStack
from dataclasses import replace
from typing import Any

import anyio
from mcp.server.connection import Connection
from mcp.server.runner import aclose_shielded
from mcp.shared.dispatcher import CallOptions, DispatchContext, Outbound
from mcp.shared.exceptions import NoBackChannelError
from mcp.shared.subscriptions import LISTEN_STREAM_METHODS
from mcp_types import Notification

log = logging.getLogger(__name__)


class NotifyOnlyOutbound:
    """``Outbound`` that forwards notifications, refuses requests and keeps listen-stream goods off it."""

    def __init__(self, outbound: Outbound) -> None:
        self.outbound = outbound

    async def send_raw_request(
        self, method: str, params: Mapping[str, Any] | None, opts: CallOptions | None = None
    ) -> dict[str, Any]:
        raise NoBackChannelError(method)

    async def notify(self, method: str, params: Mapping[str, Any] | None, opts: CallOptions | None = None) -> None:
        if method in LISTEN_STREAM_METHODS:
            log.debug("dropped %s: 2026-07-28 delivers it on subscriptions/listen streams", method)
            return
        await self.outbound.notify(method, params, opts)


class NoServerRequests:
    """``DispatchContext`` of a 2026-07-28 request: the wrapped one, minus server requests."""

    def __init__(self, inner: DispatchContext[Any]) -> None:
        self.inner = inner

    @property
    def transport(self) -> Any:
        # The transport metadata must agree with the refusal below.
        transport = self.inner.transport
        return replace(transport, can_send_request=False) if getattr(transport, "can_send_request", False) else transport

    @property
    def can_send_request(self) -> bool:
        return False

    @property
    def request_id(self) -> Any:
        return self.inner.request_id

    @property
    def message_metadata(self) -> Any:
        return self.inner.message_metadata

    @property
    def cancel_requested(self) -> anyio.Event:
        return self.inner.cancel_requested

    async def send_raw_request(
        self, method: str, params: Mapping[str, Any] | None, opts: CallOptions | None = None
    ) -> dict[str, Any]:
        raise NoBackChannelError(method)

    async def notify(self, method: str, params: Mapping[str, Any] | None, opts: CallOptions | None = None) -> None:
        await self.inner.notify(method, params, opts)

    async def progress(self, progress: float, total: float | None = None, message: str | None = None) -> None:
        await self.inner.progress(progress, total, message)


class TrackedExitStack(AsyncExitStack):
    """An ``AsyncExitStack`` that knows whether anything was pushed on it (every public way in)."""

    def __init__(self) -> None:
        super().__init__()
        self.registered = False

    def push(self, exit: Any) -> Any:  # noqa: A002 - the stdlib's parameter name
        self.registered = True
        return super().push(exit)

    def enter_context(self, cm: Any) -> Any:
        self.registered = True
        return super().enter_context(cm)

    def callback(self, callback: Any, /, *args: Any, **kwds: Any) -> Any:
        self.registered = True
        return super().callback(callback, *args, **kwds)

    async def enter_async_context(self, cm: Any) -> Any:
        self.registered = True
        return await super().enter_async_context(cm)

    def push_async_exit(self, exit: Any) -> Any:  # noqa: A002
        self.registered = True
        return super().push_async_exit(exit)

    def push_async_callback(self, callback: Any, /, *args: Any, **kwds: Any) -> Any:
        self.registered = True
        return super().push_async_callback(callback, *args, **kwds)


def per_request_connection(connection: Connection) -> Connection:
    """The connection, its teardown tracked (done before anything can register on it)."""
    connection.exit_stack = TrackedExitStack()
    return connection


async def teardown(connection: Connection) -> None:
    """Unwind a per-request connection, shielded, only when it has something to unwind."""
    stack = connection.exit_stack
    if not isinstance(stack, TrackedExitStack) or stack.registered:
        await aclose_shielded(connection)


def handshake_connection(outbound: Outbound, version: str) -> Connection:
    """The one long-lived handshake-era connection, admitted without ``initialize``."""
    connection = Connection.for_loop(outbound, protocol_version_hint=version)
    connection.initialized.set()
    return connection


def notification(method: str, params: dict[str, Any]) -> Any:
    """A notification ``ServerSession.send_notification`` sends, for a method the SDK has no model of."""
    return Notification[dict[str, Any], str](method=method, params=params)
