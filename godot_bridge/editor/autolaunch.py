"""``GODOT_MCP_AUTOLAUNCH``: the bridge starts the editor itself, once, when a tool needs one.

Off by default. Set to ``headless`` (no window: containers, CI) or ``window``, a tool call that
finds no editor to connect to (``CONNECT_FAILED`` before any connection) starts one the way
``editor_launch`` does (the same binary rules: ``GODOT_BIN``, else the path the plugin last
published), waits until its plugin accepts the bridge, and then runs. Calls that arrive while
it starts wait for the same launch; there is never a second one. If the launch fails, the call
fails with the launch's error (what to fix), and so do later calls, without launching again.
If the editor it started goes away later, calls report that instead of starting another one:
``editor_launch`` starts it again on purpose.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from godot_bridge.errors import ToolError

log = logging.getLogger(__name__)

ENV = "GODOT_MCP_AUTOLAUNCH"
# How long a tool call waits for the editor it caused to start (first imports can be slow).
DEFAULT_TIMEOUT_S = 120.0
# Only "no editor to talk to at all", and the call never left: an auth or token problem is not
# solved by starting another, and a call cut off by a drop (DISCONNECTED) may have been applied,
# so it is never sent again. A drop after our launch is still worth a word (below).
_NO_EDITOR = frozenset({"CONNECT_FAILED"})
_GONE = _NO_EDITOR | {"DISCONNECTED"}

Progress = Callable[[float, float | None, str | None], Awaitable[None]]
Launch = Callable[..., Awaitable[dict[str, Any]]]


class Waits(Protocol):
    def waiting(self, message: str) -> None: ...


class AutoLaunch:
    def __init__(self, mode: Callable[[], str], launch: Launch, *, timeout: float = DEFAULT_TIMEOUT_S) -> None:
        self._mode = mode  # read on each use: .mcp.json may change while the bridge runs
        self._launch = launch  # EditorLifecycle.launch(timeout, progress, headless=...)
        self.timeout = timeout
        self._task: asyncio.Task[dict[str, Any]] | None = None
        self._listeners: set[Waits] = set()

    @property
    def mode(self) -> str:
        return self._mode()

    def would_launch(self, err: ToolError) -> bool:
        """Whether a call failing with ``err`` would start an editor and run after all."""
        return err.code in _NO_EDITOR and self.mode in ("headless", "window") and self._task is None

    async def recover(self, err: ToolError, waits: Waits) -> ToolError | None:
        """None when an editor now answers (the caller retries); otherwise the error to report."""
        mode = self.mode
        if err.code not in _GONE or mode not in ("headless", "window"):
            return err
        if self._task is not None and self._task.done():
            return self._after(err, mode)
        if err.code not in _NO_EDITOR:
            return err
        if self._task is None:
            log.info("%s=%s: no editor answers, starting one", ENV, mode)
            self._task = asyncio.ensure_future(self._launch(self.timeout, self._progress, headless=mode == "headless"))
        self._listeners.add(waits)
        waits.waiting(f"starting the Godot editor ({ENV}={mode})")
        try:
            await asyncio.shield(self._task)
        except ToolError:
            pass
        finally:
            self._listeners.discard(waits)
        if self._task.cancelled() or self._task.exception() is not None:
            return self._after(err, mode)
        return None

    def _after(self, err: ToolError, mode: str) -> ToolError:
        """The call's error once the one launch has happened (or failed)."""
        assert self._task is not None and self._task.done()
        failure = None if self._task.cancelled() else self._task.exception()
        if isinstance(failure, ToolError):
            return ToolError(failure.code, f"no editor answered and {ENV}={mode} could not start one: "
                                           f"{failure.message}", hint=failure.hint)
        if failure is not None or self._task.cancelled():
            return ToolError("LAUNCH_FAILED", f"no editor answered and {ENV}={mode} could not start one: {failure}")
        started = self._task.result()
        return ToolError(err.code, f"{err.message}. {ENV} already started an editor in this session "
                                   f"(pid {started.get('pid')}) and does not start another",
                         hint="Call editor_launch to start the editor again.")

    async def _progress(self, _done: float, _total: float | None, message: str | None) -> None:
        for waits in list(self._listeners):
            waits.waiting(f"starting the Godot editor: {message}")
