"""When the stdio front lets the editor dial start.

The dial imports websockets and watchfiles on the event loop (~20 ms). Started after the
initialize answer, it held up the tools/list a handshake client sends right after; it now
waits for the first tools list (or a call, or anything the SDK path takes).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio

from godot_bridge.app import BridgeApp
from godot_bridge.config import Settings
from godot_bridge.mcp.stdio.server import StdioServer

INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}


class Lines:
    """Feeds the given lines one at a time, each after the previous answer was written."""

    def __init__(self, lines: list[dict[str, Any]]) -> None:
        self._lines = list(lines)
        self._turn = anyio.Event()
        self._turn.set()

    async def readline(self) -> bytes:
        await self._turn.wait()
        if not self._lines:
            return b""
        line = self._lines.pop(0)
        if "id" in line:  # a request: the next line waits for its answer
            self._turn = anyio.Event()
        return json.dumps(line).encode() + b"\n"

    def answered(self) -> None:
        self._turn.set()

    def close(self) -> None:
        pass


class Recorder:
    """Records, for each answer written, whether the dial was allowed at that moment."""

    def __init__(self, reader: Lines) -> None:
        self.reader = reader
        self.front: StdioServer | None = None
        self.seen: list[tuple[Any, bool]] = []

    async def write(self, data: bytes) -> None:
        assert self.front is not None
        self.seen.append((json.loads(data).get("id"), self.front.tools_listed.is_set()))
        self.reader.answered()

    async def flush(self) -> None:
        pass

    def close(self) -> None:
        pass


def run_front(tmp_path: Path, lines: list[dict[str, Any]]) -> tuple[list[tuple[Any, bool]], bool]:
    (tmp_path / "project").mkdir()
    app = BridgeApp(Settings(project_path=tmp_path / "project", env={"XDG_DATA_HOME": str(tmp_path / "data")}))
    reader = Lines(lines)
    writer = Recorder(reader)
    front = StdioServer(app, reader, writer)
    writer.front = front

    async def main() -> None:
        with anyio.fail_after(10):
            await front.serve()

    anyio.run(main)
    return writer.seen, front.tools_listed.is_set()


def test_the_dial_waits_for_the_first_tools_list_not_the_initialize_answer(tmp_path: Path) -> None:
    seen, after = run_front(tmp_path, [INIT, {"jsonrpc": "2.0", "method": "notifications/initialized"},
                                       {"jsonrpc": "2.0", "id": 2, "method": "ping"},
                                       {"jsonrpc": "2.0", "id": 3, "method": "tools/list"}])
    assert seen == [(1, False), (2, False), (3, False)]  # each answer was written before the dial may start
    assert after  # ... and once the tools list is out, it may


def test_a_call_lets_the_dial_start_without_a_tools_list(tmp_path: Path) -> None:
    call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "no_such_tool", "arguments": {}}}
    seen, after = run_front(tmp_path, [INIT, call])
    assert seen[0] == (1, False)
    assert seen[1] == (2, True) and after
