"""The SDK's private parts the bridge leans on are still where godot_bridge/mcp/sdk_private.py expects.

An SDK upgrade that moves one fails here, by name, rather than in a live session.
"""

from __future__ import annotations

from typing import Any

import anyio
import mcp.server.runner as runner_module
import pytest

from godot_bridge.mcp import sdk_private


def test_every_private_assumption_holds() -> None:
    problems = sdk_private.check()
    assert problems == [], "the mcp SDK moved parts the bridge relies on:\n" + "\n".join(problems)


def test_a_moved_name_is_reported_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delattr(runner_module, "_NoServerRequestsDispatchContext")
    problems = sdk_private.check()
    assert any("mcp.server.runner._NoServerRequestsDispatchContext is gone" in p for p in problems), problems
    with pytest.raises(sdk_private.SdkDrift, match="sdk_private.py"):
        sdk_private._private("mcp.server.runner", "_NoServerRequestsDispatchContext")


class _Outbound:
    def __init__(self) -> None:
        self.notes: list[tuple[str, Any]] = []

    async def send_raw_request(self, method: str, params: Any, opts: Any = None) -> dict[str, Any]:
        raise AssertionError("not expected")

    async def notify(self, method: str, params: Any, opts: Any = None) -> None:
        self.notes.append((method, params))


class _Dctx(_Outbound):
    request_id = 7
    message_metadata = None
    cancel_requested = anyio.Event()

    async def progress(self, progress: float, total: float | None = None, message: str | None = None) -> None:
        await self.notify("progress", (progress, total, message))


def test_handshake_connection_admits_without_initialize() -> None:
    connection = sdk_private.handshake_connection(_Outbound(), "2025-11-25")  # type: ignore[arg-type]
    assert connection.initialize_accepted and connection.protocol_version == "2025-11-25"


async def test_modern_context_refuses_server_requests_but_notifies() -> None:
    inner = _Dctx()
    dctx = sdk_private.deny_server_requests(inner)  # type: ignore[arg-type]
    assert dctx.request_id == 7 and dctx.can_send_request is False
    with pytest.raises(Exception, match="sampling/createMessage"):
        await dctx.send_raw_request("sampling/createMessage", {})
    await dctx.notify("notifications/message", {"x": 1})
    assert inner.notes == [("notifications/message", {"x": 1})]


async def test_teardown_runs_only_when_something_was_registered() -> None:
    connection = sdk_private.handshake_connection(_Outbound(), "2025-11-25")  # type: ignore[arg-type]
    assert not sdk_private.needs_teardown(connection)
    ran: list[str] = []

    async def cleanup() -> None:
        ran.append("closed")

    connection.exit_stack.push_async_callback(cleanup)
    assert sdk_private.needs_teardown(connection)
    await sdk_private.teardown(connection)
    assert ran == ["closed"]
