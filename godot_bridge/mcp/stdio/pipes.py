"""Line I/O on stdin and the real stdout: on the event loop where it can be, in threads where not.

Reader and writer are chosen independently. The loop can watch pipes, sockets and
most character devices, but not a regular file (``godot-bridge <in.jsonl >out.jsonl``)
nor ``/dev/null``: epoll refuses those, and for the read side asyncio only finds out
inside a loop callback, after ``connect_read_pipe`` has returned, so nothing would
ever fall back. We therefore ask a selector first (``_pollable``) and never attach a
loop transport that might fail later. Choosing per side also means a reader already
attached to the loop is never left behind to steal input when the writer needs threads.
"""

from __future__ import annotations

import asyncio
import logging
import os
import selectors
import sys
from typing import BinaryIO, Protocol

import anyio

log = logging.getLogger(__name__)

# A tools/call line can carry a whole script or image; allow big lines.
MAX_LINE = 128 * 1024 * 1024
# What an oversized line is replaced with: not JSON, so it is answered with -32700.
OVERSIZED = b"\x00oversized\n"


class LineReader(Protocol):
    async def readline(self) -> bytes: ...

    def close(self) -> None: ...


class LineWriter(Protocol):
    async def write(self, data: bytes) -> None: ...

    async def flush(self) -> None: ...

    def close(self) -> None: ...


def claim_stdout() -> BinaryIO:
    """A private handle on the real stdout; fd 1 itself now writes to stderr (no stray print reaches the wire)."""
    sys.stdout.flush()
    wire = os.dup(1)
    os.dup2(2, 1)
    return os.fdopen(wire, "wb", buffering=0)


def _pollable(stream: BinaryIO) -> bool:
    """Whether the event loop's selector can watch this file (epoll refuses regular files and /dev/null)."""
    if sys.platform == "win32":
        return False  # the proactor loop has no pipe support for the console handles
    try:
        fd = stream.fileno()
    except (OSError, ValueError):
        return False
    selector = selectors.DefaultSelector()
    try:
        selector.register(fd, selectors.EVENT_READ)
        return True
    except (OSError, ValueError):
        return False
    finally:
        selector.close()


class ThreadReader:
    """Blocking reads in a worker thread (regular files, /dev/null, Windows consoles)."""

    def __init__(self, stdin: BinaryIO) -> None:
        self._stdin = stdin

    async def readline(self) -> bytes:
        return await anyio.to_thread.run_sync(self._stdin.readline)

    def close(self) -> None:
        return None  # the caller owns the file


class ThreadWriter:
    """Blocking writes in a worker thread, one at a time."""

    def __init__(self, wire: BinaryIO) -> None:
        self._wire = wire
        self._lock = anyio.Lock()

    async def write(self, data: bytes) -> None:
        # One writer at a time: a raw write may be partial, and lines must not interleave.
        async with self._lock:
            await anyio.to_thread.run_sync(self._write_all, data)

    async def flush(self) -> None:
        async with self._lock:  # the last write has returned once the lock is free
            return

    def close(self) -> None:
        return None  # the caller owns the file

    def _write_all(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            written = self._wire.write(view)
            view = view[written or 0:]


class PipeReader:
    """Non-blocking reads on the event loop.

    Measured (bench/): a thread hop per line cost ~0.15 ms per call and most of the
    loop's time under 16 concurrent callers; pipes keep everything on the loop.
    """

    def __init__(self, reader: asyncio.StreamReader, transport: asyncio.BaseTransport) -> None:
        self._reader, self._transport = reader, transport

    @classmethod
    async def open(cls, stdin: BinaryIO) -> PipeReader:
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader(limit=MAX_LINE)
        transport, _ = await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), stdin)
        return cls(reader, transport)

    def close(self) -> None:
        self._transport.close()  # detaches from the loop (and closes stdin, which we are done with)

    async def readline(self) -> bytes:
        try:
            return await self._reader.readuntil(b"\n")
        except asyncio.IncompleteReadError as exc:
            return exc.partial  # last line without a newline, or b"" at EOF
        except asyncio.LimitOverrunError as exc:
            # Skip the oversized line (answered as unparsable) and keep serving.
            await self._reader.readexactly(exc.consumed)
            while True:
                try:
                    await self._reader.readuntil(b"\n")
                    return OVERSIZED
                except asyncio.LimitOverrunError as more:
                    await self._reader.readexactly(more.consumed)


class PipeWriter:
    """Non-blocking writes on the event loop, with backpressure.

    Lines written in one pass of the loop go out in one ``write`` (the flush is scheduled with
    ``call_soon``): under 16 concurrent callers several answers are ready per pass, and a
    system call per answer was a visible share of the bridge's CPU. A line is
    still on the pipe before the loop next waits for input; a large backlog is written at once.
    """

    BATCH_LIMIT = 64 * 1024  # bytes held for the end of the pass at most

    def __init__(self, writer: asyncio.StreamWriter) -> None:
        self._writer = writer
        self._pending: list[bytes] = []
        self._held = 0

    @classmethod
    async def open(cls, wire: BinaryIO) -> PipeWriter:
        loop = asyncio.get_running_loop()
        transport, protocol = await loop.connect_write_pipe(asyncio.streams.FlowControlMixin, wire)
        return cls(asyncio.StreamWriter(transport, protocol, None, loop))

    async def write(self, data: bytes) -> None:
        if not self._pending:
            asyncio.get_running_loop().call_soon(self._flush_pending)
        self._pending.append(data)
        self._held += len(data)
        if self._held >= self.BATCH_LIMIT:
            self._flush_pending()
        await self._writer.drain()  # backpressure from a slow client without blocking the loop

    def _flush_pending(self) -> None:
        if not self._pending:
            return
        data = self._pending[0] if len(self._pending) == 1 else b"".join(self._pending)
        self._pending.clear()
        self._held = 0
        if not self._writer.transport.is_closing():
            self._writer.write(data)

    async def flush(self) -> None:
        """Wait until the transport has handed every buffered byte to the pipe."""
        self._flush_pending()
        transport = self._writer.transport
        while transport.get_write_buffer_size() and not transport.is_closing():
            await asyncio.sleep(0.01)

    def close(self) -> None:
        self._flush_pending()
        self._writer.close()  # after flush(): nothing is left to write


async def open_writer(wire: BinaryIO) -> LineWriter:
    if _pollable(wire):
        try:
            return await PipeWriter.open(wire)
        except (ValueError, OSError) as exc:  # not a pipe, socket or character device
            log.debug("stdout: writing through a thread (%s)", exc)
    return ThreadWriter(wire)


async def open_reader(stdin: BinaryIO) -> LineReader:
    if _pollable(stdin):
        try:
            return await PipeReader.open(stdin)
        except (ValueError, OSError) as exc:
            log.debug("stdin: reading through a thread (%s)", exc)
    return ThreadReader(stdin)
