"""Every non-public piece of the ``mcp`` SDK the bridge leans on, in one place.

The SDK locks a connection to one protocol era; serving both eras per request
(``era_router.py``) needs parts the SDK does not export as API. Each use is wrapped
here in a small function with the reason it exists, and ``check()`` verifies
every assumption; ``tests/unit/test_sdk_private.py`` runs it, so an SDK upgrade
that moves one of them fails a test that names it, instead of a live session.
``mcp`` stays pinned exactly in pyproject.toml for the same reason.

Public runner pieces are used directly elsewhere (``ServerRunner``,
``classify_inbound_request``, ``Connection.from_envelope``/``for_loop``,
``aclose_shielded``); what is listed here is what has no public equivalent:

* ``_NoServerRequestsDispatchContext`` (mcp.server.runner): the modern era forbids
  server-to-client requests; the SDK's own modern entries wrap the dispatch context
  in it, and so must we when we run one request ourselves.
* ``NotifyOnlyOutbound`` (mcp.server.connection): the outbound of a modern
  per-request connection (notifications and progress only). Exported but undocumented.
* ``Connection.initialized`` forced set: ``initialize`` must not be an admission gate.
* ``AsyncExitStack._exit_callbacks``: whether a per-request connection registered
  anything to tear down; the shielded teardown is skipped when it did not (the
  teardown scope was a measurable share of a modern call in bench/).
* The claims inside a sealed ``requestState`` (``mcp.server.request_state``: ``m`` the
  method, ``aud`` the audience, ``exp`` the expiry): whether a state the boundary refused
  is one this process sealed for another call (``sealed_state.py``), so it asks again.
* ``ServerSession.send_notification`` takes only the SDK's notification models, and
  the tasks extension's ``notifications/tasks`` has none: ``raw_notification`` builds
  an object it sends all the same (it only calls ``model_dump`` on what it is given).
"""

from __future__ import annotations

import importlib
import inspect
import json
from contextlib import AsyncExitStack
from typing import Any

import anyio
from mcp.server.connection import Connection
from mcp.server.runner import aclose_shielded
from mcp.shared.dispatcher import DispatchContext, Outbound


class SdkDrift(RuntimeError):
    """A private SDK part the bridge relies on moved; the message names it."""


def _private(module: str, name: str) -> Any:
    try:
        return getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError) as exc:
        raise SdkDrift(f"{module}.{name} is gone from mcp {_sdk_version()}: update godot_bridge/mcp/sdk_private.py") from exc


def _sdk_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("mcp")
    except PackageNotFoundError:  # pragma: no cover - running from a source tree
        return "?"


_NoServerRequests = _private("mcp.server.runner", "_NoServerRequestsDispatchContext")
_NotifyOnlyOutbound = _private("mcp.server.connection", "NotifyOnlyOutbound")


def deny_server_requests(dctx: DispatchContext[Any]) -> DispatchContext[Any]:
    """The dispatch context of a modern request: notifications and progress only."""
    return _NoServerRequests(dctx)  # type: ignore[no-any-return]


def notify_only(outbound: Outbound) -> Outbound:
    """The outbound a modern per-request connection sends its notifications through."""
    return _NotifyOnlyOutbound(outbound)  # type: ignore[no-any-return]


def handshake_connection(outbound: Outbound, version: str) -> Connection:
    """The one long-lived handshake-era connection, admitted without ``initialize``."""
    connection = Connection.for_loop(outbound, protocol_version_hint=version)
    connection.initialized.set()
    return connection


def needs_teardown(connection: Connection) -> bool:
    """Whether anything was registered on the connection's exit stack.

    If the private list ever goes, every connection is torn down: slower, never wrong
    (and ``check()`` reports it).
    """
    callbacks = getattr(connection.exit_stack, "_exit_callbacks", None)
    return callbacks is None or bool(callbacks)


async def teardown(connection: Connection) -> None:
    """Unwind a per-request connection, shielded, only when it has something to unwind."""
    if needs_teardown(connection):
        await aclose_shielded(connection)


def sealed_claims(security: Any, wire: str) -> dict[str, Any] | None:
    """The claims of a ``requestState`` ``security`` sealed (method ``m``, audience ``aud``, expiry
    ``exp``, ...); None for one it did not seal, or that was altered."""
    from mcp.server.request_state import InvalidRequestState

    try:
        claims = json.loads(security.codec.unseal(wire))
    except (InvalidRequestState, ValueError):
        return None
    return claims if isinstance(claims, dict) else None


class _RawNotification:
    def __init__(self, method: str, params: dict[str, Any]) -> None:
        self.method, self.params = method, params

    def model_dump(self, **_: Any) -> dict[str, Any]:
        return {"method": self.method, "params": self.params}


def raw_notification(method: str, params: dict[str, Any]) -> Any:
    """A notification the SDK's models do not know, in the shape ``ServerSession.send_notification`` sends."""
    return _RawNotification(method, params)


def check() -> list[str]:
    """Every assumption above, verified against the installed SDK; one line per one that broke."""
    problems: list[str] = []
    for module, name in (
        ("mcp.server.runner", "_NoServerRequestsDispatchContext"),
        ("mcp.server.connection", "NotifyOnlyOutbound"),
    ):
        try:
            _private(module, name)
        except SdkDrift as exc:
            problems.append(str(exc))
    params = list(inspect.signature(_NoServerRequests).parameters)
    if len(params) != 1:
        problems.append(f"_NoServerRequestsDispatchContext takes {params}, expected one wrapped context")
    for attr in ("request_id", "cancel_requested", "send_raw_request", "notify", "progress", "transport"):
        if not hasattr(_NoServerRequests, attr):
            problems.append(f"_NoServerRequestsDispatchContext lost '{attr}'")
    if len(inspect.signature(_NotifyOnlyOutbound).parameters) != 1:
        problems.append("NotifyOnlyOutbound no longer wraps one outbound")
    stack = AsyncExitStack()
    callbacks = getattr(stack, "_exit_callbacks", None)
    if callbacks is None or len(callbacks) != 0:
        problems.append("contextlib.AsyncExitStack has no empty _exit_callbacks")
    else:
        stack.push_async_callback(_noop)
        if len(stack._exit_callbacks) != 1:  # type: ignore[attr-defined]
            problems.append("AsyncExitStack._exit_callbacks does not record registered callbacks")
    if "protocol_version_hint" not in inspect.signature(Connection.for_loop).parameters:
        problems.append("Connection.for_loop lost its protocol_version_hint parameter")
    initialized = Connection.__annotations__.get("initialized")
    if initialized is None or "Event" not in str(initialized):
        problems.append("Connection.initialized is no longer an anyio.Event")
    if not isinstance(getattr(Connection, "initialize_accepted", None), property):
        problems.append("Connection.initialize_accepted is no longer the derived admission flag")
    problems += _check_sealed_claims()
    from mcp.server.session import ServerSession

    notify = getattr(ServerSession, "_notify", None)
    if notify is None or "model_dump(" not in inspect.getsource(notify):
        problems.append("ServerSession no longer sends a notification by dumping it (raw_notification)")
    return problems


def _check_sealed_claims() -> list[str]:
    """A state sealed by the boundary unseals to claims naming its method, audience and expiry."""
    from dataclasses import dataclass

    from mcp.server.request_state import RequestStateBoundary, RequestStateSecurity

    @dataclass(frozen=True)
    class _Ctx:  # the fields RequestStateBoundary._seal reads
        method: str = "tools/call"
        params: dict[str, Any] | None = None

    security = RequestStateSecurity.ephemeral(ttl=60)
    try:
        sealed = RequestStateBoundary(security, default_audience="check")._seal(  # type: ignore[arg-type]
            _Ctx(params={"name": "t", "arguments": {}}), "state", ("t", "a", None))
    except Exception as exc:  # noqa: BLE001 - any change of shape is what this reports
        return [f"RequestStateBoundary._seal moved or changed: {exc}"]
    claims = sealed_claims(security, sealed)
    if claims is None or claims.get("m") != "tools/call" or claims.get("aud") != "check" \
            or not isinstance(claims.get("exp"), int | float) or claims.get("s") != "state":
        return [f"a sealed requestState no longer holds the claims m, aud, exp, s: {claims}"]
    return []


async def _noop() -> None:
    await anyio.lowlevel.checkpoint()
