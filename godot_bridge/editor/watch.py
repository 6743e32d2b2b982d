"""Notice registry changes as they happen (contract C16, C20).

The toolkit rewrites ``projects.json`` when an editor starts or moves port and when
a game binds or releases its runtime port. Watching the file (not polling it on
every call) lets the bridge re-target the runtime channel and reconnect to a
moved editor promptly. Only the registry's own directory is watched, not
recursively: the per-instance ``entries/`` directory is toolkit-internal.

The callback gets no details; the owner re-reads the registry and diffs it. The same
watcher follows ``<project>/.mcp.json`` for the live configuration (``live_config``):
it watches one file's directory, whatever the file is.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from pathlib import Path


log = logging.getLogger(__name__)


class RegistryWatcher:
    def __init__(
        self,
        registry_file: Path,
        on_change: Callable[[], None],
        *,
        debounce_ms: int = 300,
        poll_interval: float = 1.0,
        force_polling: bool = False,
        label: str = "registry",
    ) -> None:
        self.registry_file = registry_file
        self.label = label  # what the watched file is, for logs (the registry, .mcp.json)
        self._on_change = on_change
        self._debounce_ms = debounce_ms
        self._poll_interval = poll_interval
        self._force_polling = force_polling
        self._stop = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.watching = asyncio.Event()  # set while a watch is active (tests wait on it)

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name=f"godot-bridge {self.label} watcher")

    async def aclose(self) -> None:
        self._stop.set()
        if self._task is not None:
            try:
                await asyncio.wait_for(self._task, 2.0)
            except (TimeoutError, asyncio.CancelledError):
                self._task.cancel()
            self._task = None

    def _notify(self) -> None:
        try:
            self._on_change()
        except Exception:  # the owner's bug must not end the watch
            log.exception("%s change handler failed", self.label)

    async def _run(self) -> None:
        directory = self.registry_file.parent
        name = self.registry_file.name
        while not self._stop.is_set():
            if not directory.is_dir():
                # No editor has ever run on this machine/user yet: wait for the directory to appear.
                try:
                    await asyncio.wait_for(self._stop.wait(), self._poll_interval)
                except TimeoutError:
                    pass
                continue
            # Anything may have changed while we were not watching.
            self._notify()
            try:
                from watchfiles import awatch  # imported when watching starts, not at start-up

                watcher = awatch(
                    directory,
                    stop_event=self._stop,
                    debounce=self._debounce_ms,
                    step=min(50, self._debounce_ms),
                    recursive=False,
                    force_polling=self._force_polling,
                    poll_delay_ms=max(50, self._debounce_ms),
                    yield_on_timeout=False,
                )
                self.watching.set()
                async for changes in watcher:
                    # The toolkit writes projects.json.tmp, then renames it over projects.json; either means "re-read".
                    if any(Path(path).name.startswith(name) for _, path in changes):
                        self._notify()
            except (OSError, RuntimeError) as exc:
                log.debug("%s watch on %s ended (%s); restarting", self.label, directory, exc)
            finally:
                self.watching.clear()
            if not self._stop.is_set():
                try:
                    await asyncio.wait_for(self._stop.wait(), self._poll_interval)
                except TimeoutError:
                    pass
