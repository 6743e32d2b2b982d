"""The stdout pipe writer batches the lines of one loop pass into one write."""

from __future__ import annotations

import asyncio
import os

from godot_bridge.mcp.stdio.pipes import PipeWriter, open_writer


async def _writer_on_a_pipe() -> tuple[PipeWriter, int, list[bytes]]:
    read_fd, write_fd = os.pipe()
    writer = await open_writer(os.fdopen(write_fd, "wb", buffering=0))
    assert isinstance(writer, PipeWriter)
    handed: list[bytes] = []
    real_write = writer._writer.write

    def record(data: bytes) -> None:
        handed.append(data)
        real_write(data)

    writer._writer.write = record  # type: ignore[method-assign]
    return writer, read_fd, handed


def _read_all(fd: int, size: int) -> bytes:
    out = b""
    while len(out) < size:
        out += os.read(fd, size - len(out))
    return out


async def test_lines_of_one_pass_go_out_in_order_in_one_write() -> None:
    writer, read_fd, handed = await _writer_on_a_pipe()
    try:
        await writer.write(b'{"id":1}\n')
        await writer.write(b'{"id":2}\n')
        assert handed == []  # held until the end of this pass of the loop
        await asyncio.sleep(0)
        assert handed == [b'{"id":1}\n{"id":2}\n']
        assert _read_all(read_fd, 18) == b'{"id":1}\n{"id":2}\n'
    finally:
        writer.close()
        os.close(read_fd)


async def test_a_large_backlog_is_written_at_once_and_flush_empties_the_batch() -> None:
    writer, read_fd, handed = await _writer_on_a_pipe()
    try:
        big = b"x" * PipeWriter.BATCH_LIMIT + b"\n"
        await writer.write(b"a\n")
        drained = asyncio.get_running_loop().run_in_executor(None, _read_all, read_fd, len(big) + 4)
        await writer.write(big)
        assert handed == [b"a\n" + big]  # not held for the end of the pass
        await writer.write(b"b\n")
        await writer.flush()
        assert handed[-1] == b"b\n"
        assert await drained == b"a\n" + big + b"b\n"
    finally:
        writer.close()
        os.close(read_fd)
