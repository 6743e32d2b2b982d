"""The per-request channels the bridge builds on the SDK's public protocols, and its requestState codec."""

from __future__ import annotations

import os
import time
from typing import Any

import anyio
import pytest
from mcp.server.request_state import AESGCMRequestStateCodec, InvalidRequestState
from mcp.shared.exceptions import NoBackChannelError

from godot_bridge.mcp.core import era_channels
from godot_bridge.mcp.core.sealed_state import StampedCodec


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
    connection = era_channels.handshake_connection(_Outbound(), "2025-11-25")  # type: ignore[arg-type]
    assert connection.initialize_accepted and connection.protocol_version == "2025-11-25"


async def test_modern_context_refuses_server_requests_but_notifies() -> None:
    inner = _Dctx()
    dctx = era_channels.NoServerRequests(inner)  # type: ignore[arg-type]
    assert dctx.request_id == 7 and dctx.can_send_request is False
    with pytest.raises(NoBackChannelError, match="sampling/createMessage"):
        await dctx.send_raw_request("sampling/createMessage", {})
    await dctx.notify("notifications/message", {"x": 1})
    await dctx.progress(1, 2, "half")
    assert inner.notes == [("notifications/message", {"x": 1}), ("progress", (1, 2, "half"))]


async def test_modern_outbound_keeps_listen_stream_goods_off_the_shared_channel() -> None:
    inner = _Outbound()
    outbound = era_channels.NotifyOnlyOutbound(inner)  # type: ignore[arg-type]
    await outbound.notify("notifications/tools/list_changed", None)
    await outbound.notify("notifications/resources/updated", {"uri": "godot://errors"})
    await outbound.notify("notifications/message", {"level": "error"})
    assert inner.notes == [("notifications/message", {"level": "error"})]
    with pytest.raises(NoBackChannelError):
        await outbound.send_raw_request("roots/list", None)


async def test_teardown_runs_only_when_something_was_registered() -> None:
    connection = era_channels.per_request_connection(
        era_channels.handshake_connection(_Outbound(), "2025-11-25"))  # type: ignore[arg-type]
    stack = connection.exit_stack
    assert isinstance(stack, era_channels.TrackedExitStack) and not stack.registered
    ran: list[str] = []

    async def cleanup() -> None:
        ran.append("closed")

    connection.exit_stack.push_async_callback(cleanup)
    assert stack.registered
    await era_channels.teardown(connection)
    assert ran == ["closed"]


@pytest.mark.parametrize("register", ["callback", "push", "enter_context"])
def test_every_way_onto_the_stack_counts(register: str) -> None:
    from contextlib import nullcontext

    stack = era_channels.TrackedExitStack()
    {"callback": lambda: stack.callback(lambda: None),
     "push": lambda: stack.push(lambda *exc: None),
     "enter_context": lambda: stack.enter_context(nullcontext())}[register]()
    assert stack.registered


def test_a_notification_the_sdk_has_no_model_for_dumps_as_sent() -> None:
    note = era_channels.notification("notifications/tasks", {"taskId": "t1", "_meta": {"k": 1}})
    assert note.model_dump(by_alias=True, mode="json", exclude_none=True) == {
        "method": "notifications/tasks", "params": {"taskId": "t1", "_meta": {"k": 1}}}


def test_the_stamped_codec_knows_when_it_sealed_a_state() -> None:
    codec = StampedCodec(AESGCMRequestStateCodec([os.urandom(32)]))
    before = time.time()
    token = codec.seal(b'{"s": "state"}')
    assert codec.unseal(token) == b'{"s": "state"}'
    sealed_at = codec.sealed_at(token)
    assert sealed_at is not None and before <= sealed_at <= time.time()
    assert codec.sealed_at(token[:-4] + ("AAAA" if not token.endswith("AAAA") else "BBBB")) is None
    other = StampedCodec(AESGCMRequestStateCodec([os.urandom(32)]))
    assert other.sealed_at(token) is None, "a state another process sealed is not ours"
    with pytest.raises(InvalidRequestState):
        other.unseal(token)
