"""The stdio transport's SDK path, loaded the first time something needs it.

A line the lean path does not serve, or the first pushed Godot error (the SDK path's error feed,
``core/error_feed.py``, delivers them), loads it: its module (``sdk_path.py``, and the SDK with it)
is imported in a worker thread, so lean calls keep being answered meanwhile (importing it on the
event loop stalled every call ~0.8 s). Lines and errors that arrive while it loads wait here, in
order, and are handed over once it exists. No SDK import in this module.
"""

from __future__ import annotations

import importlib
import logging
from typing import TYPE_CHECKING, Any, Protocol

import anyio
import anyio.abc

if TYPE_CHECKING:
    from godot_bridge.mcp.stdio.server import StdioServer

log = logging.getLogger(__name__)

# The longest a tool-list change waits for the SDK path that is loading to be there to carry it.
BACKEND_LOAD_WAIT_S = 30.0
# At end of input, the longest the import may still take before the SDK path is let go.
END_LOAD_WAIT_S = 30.0


class Backend(Protocol):
    """What the transport needs from the SDK path (``sdk_path.SdkBackend``)."""

    @property
    def handshake_seen(self) -> bool: ...

    def feed(self, line: bytes) -> None: ...

    def end(self) -> None: ...

    async def run(self) -> None: ...

    async def publish_list_changed(self) -> None: ...

    @property
    def errors(self) -> Any: ...  # its ErrorFeed


class SdkLoader:
    def __init__(self, front: StdioServer) -> None:
        self._front = front
        self.backend: Backend | None = None
        self._ready = anyio.Event()
        self._done = anyio.Event()
        self._pending: list[bytes] = []  # lines for the SDK path while it loads
        self._loading = False
        self._early_errors: list[Any] = []  # pushed Godot errors that arrived before its feed
        self._tg: anyio.abc.TaskGroup | None = None
        front.app.errors.on_change(self._on_errors)

    @property
    def active(self) -> bool:
        """The SDK path exists or is loading."""
        return self.backend is not None or self._loading

    @property
    def handshake_seen(self) -> bool:
        return self.backend is not None and self.backend.handshake_seen

    def bind(self, tg: anyio.abc.TaskGroup) -> None:
        """The task group the SDK path runs in (the transport's, while it serves)."""
        self._tg = tg

    def feed(self, line: bytes) -> None:
        """A line for the SDK path, loading it first if it is not there."""
        if self.backend is not None:
            self.backend.feed(line)
            return
        if not self._loading:
            log.info("loading the MCP SDK path for a message the lean path does not serve")
            self._start_loading()
        self._pending.append(line)

    async def publish_list_changed(self) -> None:
        """A change of the 2026-07-28 list, for its subscriptions/listen streams (all on the SDK path)."""
        if self.backend is None and self._loading:
            # The SDK path is loading for an earlier line, maybe the 2026-07-28 client's
            # subscriptions/listen: the change must reach the stream that request opens.
            with anyio.move_on_after(BACKEND_LOAD_WAIT_S):
                await self._ready.wait()
        if self.backend is not None:
            await self.backend.publish_list_changed()

    async def end(self) -> None:
        """End of input: the SDK path answers what it still owes and stops."""
        if not self.active:
            return
        with anyio.move_on_after(END_LOAD_WAIT_S):  # the import may still be running
            await self._ready.wait()
        if self.backend is not None:
            self.backend.end()
            await self._done.wait()

    def _on_errors(self, new: list[Any]) -> None:
        if self.backend is not None:
            return  # its feed listens to the store itself
        if not new:
            # A new game session with nothing reported yet: only a resource subscriber would hear of
            # it, and subscribing already loaded the SDK path. No reason to load it for this.
            return
        self._early_errors.extend(new)
        if not self._loading and self._tg is not None:
            log.info("loading the MCP SDK path to deliver pushed Godot errors")
            self._start_loading()

    def _start_loading(self) -> None:
        self._loading = True
        assert self._tg is not None
        self._tg.start_soon(self._load)

    async def _load(self) -> None:
        # Imported in a worker thread: the event loop keeps serving lean calls meanwhile.
        module = await anyio.to_thread.run_sync(importlib.import_module, "godot_bridge.mcp.stdio.sdk_path")
        backend: Backend = module.SdkBackend(self._front)
        backend.errors.backlog(self._early_errors)
        self._early_errors = []
        for line in self._pending:
            backend.feed(line)
        self._pending.clear()
        self.backend = backend
        self._ready.set()
        try:
            await backend.run()
        finally:
            self._done.set()
