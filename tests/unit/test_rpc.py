"""JSON-RPC correlation without a socket: ids, replies, progress, timeouts, cancel frames."""

from __future__ import annotations

import asyncio

import pytest

from godot_bridge.editor.rpc import Kind, RpcCorrelator, normalize_id, rpc_error
from godot_bridge.errors import ToolError


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


async def test_ids_are_unique_and_frames_are_jsonrpc():
    rpc = RpcCorrelator()
    frames = [rpc.request("scene.create", {"a": 1})[1] for _ in range(50)]
    assert len({f["id"] for f in frames}) == 50
    assert frames[0] == {"jsonrpc": "2.0", "id": frames[0]["id"], "method": "scene.create", "params": {"a": 1}}
    assert rpc.request("x", None)[1]["params"] == {}


async def test_reply_resolves_its_own_call_only():
    rpc = RpcCorrelator()
    a, fa = rpc.request("a", {})
    b, fb = rpc.request("b", {})
    assert rpc.handle({"jsonrpc": "2.0", "id": fb["id"], "result": {"success": True, "who": "b"}}) is Kind.RESPONSE
    assert await rpc.wait(b) == {"success": True, "who": "b"}
    assert not a.future.done()
    # Whole-float and numeric-string ids still match (the toolkit parses numbers as floats).
    assert rpc.handle({"jsonrpc": "2.0", "id": float(fa["id"]), "result": 7}) is Kind.RESPONSE
    assert await rpc.wait(a) == 7
    assert len(rpc) == 0


@pytest.mark.parametrize(("value", "expected"), [(3, 3), (3.0, 3), ("3", 3), (3.5, None), (True, None), (None, None), ("x", None)])
def test_normalize_id(value, expected):
    assert normalize_id(value) == expected


async def test_late_and_unknown_replies_are_stale():
    rpc = RpcCorrelator()
    assert rpc.handle({"jsonrpc": "2.0", "id": 99, "result": 1}) is Kind.STALE
    assert rpc.handle({"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}}) is Kind.INVALID
    assert rpc.handle("not an object") is Kind.INVALID
    assert rpc.handle({"jsonrpc": "2.0", "id": 1}) is Kind.INVALID


def test_pushes_are_recognised():
    rpc = RpcCorrelator()
    assert rpc.handle({"notification": "extensions.changed", "params": {}}) is Kind.PUSH
    assert rpc.handle({"notification": "game_stopped"}) is Kind.PUSH
    assert rpc.handle({"jsonrpc": "2.0", "method": "echo", "params": {}}) is Kind.PUSH


@pytest.mark.parametrize(
    ("error", "code", "needle"),
    [
        ({"code": -32601, "message": "Method not found"}, "RPC_ERROR", "does not provide 'm.x'"),
        ({"code": -32000, "message": "watchdog"}, "TIMEOUT", "watchdog aborted 'm.x'"),
        ({"code": -32600, "message": "Invalid Request"}, "RPC_ERROR", "JSON-RPC -32600: Invalid Request"),
        ("garbage", "RPC_ERROR", "JSON-RPC None: no message"),
    ],
)
async def test_jsonrpc_errors_become_tool_errors(error, code, needle):
    rpc = RpcCorrelator()
    call, frame = rpc.request("m.x", {})
    rpc.handle({"jsonrpc": "2.0", "id": frame["id"], "error": error})
    with pytest.raises(ToolError) as caught:
        await rpc.wait(call)
    assert caught.value.code == code
    assert needle in caught.value.message
    assert rpc_error("m.x", error).code == code


async def test_timeout_without_progress():
    rpc = RpcCorrelator(default_timeout=0.05)
    call, _ = rpc.request("scene.save", {})
    with pytest.raises(ToolError) as caught:
        await rpc.wait(call)
    assert caught.value.code == "TIMEOUT"
    assert caught.value.message == "'scene.save' got no reply within 0.05 s"
    assert len(rpc) == 0


async def test_progress_restarts_the_deadline():
    clock = Clock()
    rpc = RpcCorrelator(default_timeout=10, clock=clock)
    call, frame = rpc.request("scene.save", {})
    assert call.deadline == 110
    clock.now = 108
    assert rpc.handle({"jsonrpc": "2.0", "method": "_queued", "params": {"request_id": frame["id"]}}) is Kind.PROGRESS
    assert call.deadline == 118 and call.progress == "_queued"
    clock.now = 117
    assert rpc.handle({"jsonrpc": "2.0", "method": "_executing", "params": {"request_id": str(frame["id"])}}) is Kind.PROGRESS
    assert call.deadline == 127 and call.progress == "_executing"
    assert rpc.handle({"jsonrpc": "2.0", "method": "_queued", "params": {"request_id": 12345}}) is Kind.STALE


async def test_counted_progress_restarts_the_deadline_and_carries_its_counts():
    clock = Clock()
    heard: list[tuple[str, dict[str, object]]] = []
    rpc = RpcCorrelator(default_timeout=10, clock=clock)
    call, frame = rpc.request("test.run", {}, on_progress=lambda method, note: heard.append((method, note)))
    clock.now = 109
    note = {"request_id": frame["id"], "progress": 1, "total": 3, "message": "res://test/test_a.gd: finished"}
    assert rpc.handle({"jsonrpc": "2.0", "method": "_progress", "params": note}) is Kind.PROGRESS
    assert call.deadline == 119 and call.progress == "_progress"
    assert heard == [("_progress", note)]
    assert rpc.handle({"jsonrpc": "2.0", "method": "_progress", "params": {"request_id": 999, "progress": 1}}) is Kind.STALE


async def test_timeout_after_counted_progress_says_so():
    rpc = RpcCorrelator()
    call, frame = rpc.request("test.run", {}, timeout=0.05)
    rpc.handle({"jsonrpc": "2.0", "method": "_progress", "params": {"request_id": frame["id"], "progress": 1, "total": 2}})
    with pytest.raises(ToolError, match="after the editor reported it making progress"):
        await rpc.wait(call)


async def test_timeout_after_progress_says_so():
    rpc = RpcCorrelator(default_timeout=0.2)
    call, frame = rpc.request("scene.save", {}, timeout=0.05)
    rpc.handle({"jsonrpc": "2.0", "method": "_queued", "params": {"request_id": frame["id"]}})
    with pytest.raises(ToolError, match="after the editor reported it queued"):
        await rpc.wait(call)


async def test_progress_keeps_a_slow_call_alive_in_real_time():
    rpc = RpcCorrelator()
    call, frame = rpc.request("scene.save", {}, timeout=0.15)

    async def editor() -> None:
        for _ in range(3):  # 3 x 0.1 s = longer than the 0.15 s timeout, but never silent for 0.15 s
            await asyncio.sleep(0.1)
            rpc.handle({"jsonrpc": "2.0", "method": "_executing", "params": {"request_id": frame["id"]}})
        rpc.handle({"jsonrpc": "2.0", "id": frame["id"], "result": "done"})

    task = asyncio.create_task(editor())
    assert await rpc.wait(call) == "done"
    await task


async def test_cancelling_the_waiter_leaves_the_future_alone_and_builds_a_cancel_frame():
    rpc = RpcCorrelator()
    call, frame = rpc.request("scene.save", {})
    waiter = asyncio.create_task(rpc.wait(call))
    await asyncio.sleep(0)
    waiter.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiter
    assert RpcCorrelator.cancel_frame(call) == {"jsonrpc": "2.0", "method": "_cancel", "params": {"request_id": str(frame["id"])}}
    # The call is forgotten: a late reply is stale.
    assert rpc.handle({"jsonrpc": "2.0", "id": frame["id"], "result": 1}) is Kind.STALE


async def test_fail_all_fails_every_pending_call():
    rpc = RpcCorrelator()
    calls = [rpc.request(f"m{i}", {})[0] for i in range(3)]
    rpc.fail_all(lambda call: ToolError("DISCONNECTED", f"lost {call.method}"))
    for call in calls:
        with pytest.raises(ToolError, match=f"lost {call.method}"):
            await rpc.wait(call)
    assert len(rpc) == 0


async def test_discard_forgets_a_call_that_was_never_sent():
    rpc = RpcCorrelator()
    call, frame = rpc.request("m", {})
    rpc.discard(call)
    assert call.future.cancelled()
    assert rpc.handle({"jsonrpc": "2.0", "id": frame["id"], "result": 1}) is Kind.STALE


async def test_a_result_is_freed_on_return_without_the_cycle_collector():
    """A 1 MiB scene tree must not wait for a full GC (it cost 7 ms per call on average)."""
    import gc
    import weakref

    class Result:  # stands in for a large decoded tree; a plain dict cannot be weakly referenced
        pass

    rpc = RpcCorrelator()
    call, frame = rpc.request("scene.get_tree", {})
    result = Result()
    gone = weakref.ref(result)
    gc.disable()
    try:
        rpc.handle({"jsonrpc": "2.0", "id": frame["id"], "result": result})
        del result
        assert isinstance(await rpc.wait(call), Result)  # the awaited value is dropped at once
        del call
        await asyncio.sleep(0)
        assert gone() is None, "the result is held by a reference cycle"
    finally:
        gc.enable()


async def test_the_deadline_timer_is_dropped_when_the_wait_ends():
    rpc = RpcCorrelator()
    call, frame = rpc.request("scene.save", {}, timeout=0.05)
    rpc.handle({"jsonrpc": "2.0", "method": "_executing", "params": {"request_id": frame["id"]}})
    with pytest.raises(ToolError, match="TIMEOUT|got no reply"):
        await rpc.wait(call)
    assert call.timer is None and len(rpc) == 0
    answered, frame = rpc.request("scene.save", {})
    rpc.handle({"jsonrpc": "2.0", "id": frame["id"], "result": 1})
    assert await rpc.wait(answered) == 1 and answered.timer is None
