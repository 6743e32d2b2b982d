"""JSON-RPC 2.0 request/response correlation, without any socket (contract C1, C5).

The channel hands every frame it receives to ``RpcCorrelator.handle`` and awaits
``RpcCorrelator.wait`` for each call it sent. This class owns:

* unique integer ids (the toolkit coerces whole-float ids back to int, so an
  int survives the round trip; ids coming back as ``1.0`` or ``"1"`` still match);
* one pending future per call, with a deadline that ``_queued``/``_executing``
  progress notifications restart (a command parked behind the editor's mutation
  lock is alive, not hung), and ``_progress`` (a long command's counted progress:
  ``progress``, ``total``, ``message``) too;
* the mapping of JSON-RPC error replies to ``ToolError`` codes;
* the ``_cancel`` notification frame for a call being abandoned.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any

from godot_bridge.errors import ToolError

# Told each progress notification of a call: its method and params ({"request_id"}, and for
# _progress also "progress", "total", "message").
OnProgress = Callable[[str, dict[str, Any]], None]

log = logging.getLogger(__name__)

PROGRESS_METHODS = ("_queued", "_executing", "_progress")
COUNTED = "_progress"
WATCHDOG_CODE = -32000


class Kind(Enum):
    RESPONSE = "response"  # resolved (or failed) a pending call
    PROGRESS = "progress"  # _queued/_executing/_progress: a pending call's deadline restarted
    PUSH = "push"  # an unsolicited broadcast (extensions.changed, game_stopped, ...)
    STALE = "stale"  # a reply for a call nobody waits for any more (timed out, cancelled)
    INVALID = "invalid"  # not something this protocol understands


@dataclass
class PendingCall:
    id: int
    method: str
    timeout: float
    deadline: float
    future: asyncio.Future[Any]
    progress: str | None = None  # the last progress notification seen, for the timeout message
    on_progress: OnProgress | None = None  # told _queued / _executing / _progress as they arrive
    timer: asyncio.TimerHandle | None = None  # the deadline's timer while someone waits


def normalize_id(value: Any) -> int | None:
    """The request id as the int we sent, whatever JSON number/string form it came back in."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value.strip())
    return None


def rpc_error(method: str, error: Any) -> ToolError:
    """A JSON-RPC ``error`` member as a ToolError with a clear code."""
    code = error.get("code") if isinstance(error, dict) else None
    message = error.get("message") if isinstance(error, dict) else None
    detail = f"{message}" if message else "no message"
    if code == WATCHDOG_CODE:
        return ToolError(
            "TIMEOUT",
            f"the editor's mutation watchdog aborted '{method}' (JSON-RPC {code}: {detail})",
        )
    if code == -32601:
        return ToolError(
            "RPC_ERROR",
            f"the editor does not provide '{method}' (JSON-RPC -32601: {detail})",
        )
    return ToolError("RPC_ERROR", f"the editor rejected '{method}' (JSON-RPC {code}: {detail})")


class RpcCorrelator:
    def __init__(self, *, default_timeout: float = 30.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.default_timeout = default_timeout
        self._clock = clock
        self._next_id = 0
        self._pending: dict[int, PendingCall] = {}

    def __len__(self) -> int:
        return len(self._pending)

    def request(
        self,
        method: str,
        params: dict[str, Any] | None,
        timeout: float | None = None,
        on_progress: OnProgress | None = None,
    ) -> tuple[PendingCall, dict[str, Any]]:
        """Register a new call; returns it and the frame to send."""
        self._next_id += 1
        limit = self.default_timeout if timeout is None else timeout
        call = PendingCall(
            id=self._next_id,
            method=method,
            timeout=limit,
            deadline=self._clock() + limit,
            future=asyncio.get_running_loop().create_future(),
            on_progress=on_progress,
        )
        self._pending[call.id] = call
        frame = {"jsonrpc": "2.0", "id": call.id, "method": method, "params": params if params is not None else {}}
        return call, frame

    def discard(self, call: PendingCall) -> None:
        self._pending.pop(call.id, None)
        if not call.future.done():
            call.future.cancel()

    def handle(self, message: Any) -> Kind:
        """Route one decoded frame from the peer."""
        if not isinstance(message, dict):
            return Kind.INVALID
        if "notification" in message and message.get("id") is None:
            return Kind.PUSH
        method = message.get("method")
        if method in PROGRESS_METHODS and message.get("id") is None:
            params = message.get("params")
            rid = normalize_id(params.get("request_id")) if isinstance(params, dict) else None
            call = self._pending.get(rid) if rid is not None else None
            if call is None:
                return Kind.STALE
            call.deadline = self._clock() + call.timeout
            call.progress = method
            if call.on_progress is not None:
                try:
                    call.on_progress(method, params)
                except Exception:  # reporting must never break correlation
                    log.exception("progress callback for '%s' failed", call.method)
            return Kind.PROGRESS
        if isinstance(method, str) and "id" not in message:
            return Kind.PUSH  # a JSON-RPC-style notification we have no special handling for
        if "result" not in message and "error" not in message:
            return Kind.INVALID
        rid = normalize_id(message.get("id"))
        if rid is None:
            # e.g. a -32700 parse error: the toolkit could not even read our id.
            log.warning("editor sent an uncorrelated JSON-RPC reply: %s", message.get("error") or message)
            return Kind.INVALID
        call = self._pending.pop(rid, None)
        if call is None or call.future.done():
            return Kind.STALE
        if "error" in message and message["error"] is not None:
            call.future.set_exception(rpc_error(call.method, message["error"]))
        else:
            call.future.set_result(message.get("result"))
        return Kind.RESPONSE

    async def wait(self, call: PendingCall) -> Any:
        """The call's result; TIMEOUT once its (restartable) deadline passes. Cancellation propagates."""
        # One timer per call that re-arms itself when progress moved the deadline: cheaper on
        # the hot path than asyncio.wait/wait_for, which build a waiter and a timer per await.
        loop = asyncio.get_running_loop()
        self._arm(loop, call, max(call.deadline - self._clock(), 0.0))
        try:
            return await call.future
        finally:
            # call -> timer -> call is a reference cycle: break it, or the result (a whole scene
            # tree) waits for the cyclic garbage collector instead of being freed on return.
            if call.timer is not None:
                call.timer.cancel()
                call.timer = None
            self._pending.pop(call.id, None)

    def _arm(self, loop: asyncio.AbstractEventLoop, call: PendingCall, delay: float) -> None:
        call.timer = loop.call_later(delay, self._expire, loop, call)

    def _expire(self, loop: asyncio.AbstractEventLoop, call: PendingCall) -> None:
        if call.future.done():
            return
        remaining = call.deadline - self._clock()
        if remaining > 0:
            self._arm(loop, call, remaining)
        else:
            call.future.set_exception(self._timeout_error(call))

    def _timeout_error(self, call: PendingCall) -> ToolError:
        if call.progress:
            state = "making progress" if call.progress == COUNTED else call.progress.lstrip("_")
            message = f"'{call.method}' got no reply within {call.timeout:g} s after the editor reported it {state}"
        else:
            message = f"'{call.method}' got no reply within {call.timeout:g} s"
        return ToolError("TIMEOUT", message)

    @staticmethod
    def cancel_frame(call: PendingCall) -> dict[str, Any]:
        # The id as text, as contract C5 writes it: the toolkit parses JSON numbers as floats and
        # matches a cancel by the id's text form, where 1.0 would not equal the request's 1.
        return {"jsonrpc": "2.0", "method": "_cancel", "params": {"request_id": str(call.id)}}

    def fail_all(self, make_error: Callable[[PendingCall], ToolError]) -> None:
        """The connection is gone: every pending call fails with the error ``make_error`` builds."""
        pending, self._pending = self._pending, {}
        for call in pending.values():
            if not call.future.done():
                call.future.set_exception(make_error(call))
