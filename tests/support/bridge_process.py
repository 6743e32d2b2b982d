"""Drive the real ``godot-bridge`` process over stdio with raw JSON lines.

Used by integration tests and the benchmark. Every process started here is
stopped by ``close()`` (the async context manager does it for you).
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

MODERN = "2026-07-28"
MODERN_META = {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientCapabilities": {},
}
ROOT = Path(__file__).resolve().parents[2]


def bridge_env(data_home: Path, project: Path, extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """An environment isolated from the developer's machine: own registry dir, no inherited pins."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GODOT_MCP_")}
    env.update({
        "XDG_DATA_HOME": str(data_home),
        "XDG_STATE_HOME": str(data_home / "state"),  # logs (a launched editor's): the test's, not the machine's
        "GODOT_MCP_PROJECT_PATH": str(project),
        "PYTHONPATH": str(ROOT) + os.pathsep + env.get("PYTHONPATH", ""),
        "PYTHONUNBUFFERED": "1",
    })
    env.update(extra or {})
    return env


def body(result: Mapping[str, Any]) -> Any:
    """A tools/call result's JSON body: a success's structuredContent, an error's text block (an
    error carries its JSON once, as text: godot_bridge/mcp/core/protocol.py call_result)."""
    if result.get("isError"):
        assert "structuredContent" not in result, "an error reaches the model once"
        return json.loads(result["content"][-1]["text"])
    return result.get("structuredContent")


async def call_confirmed(client: Any, name: str, arguments: dict[str, Any] | None = None, **kw: Any) -> dict[str, Any]:
    """A call as a client that cannot ask the person makes it once the person agreed: a preview with a
    confirmation token (godot_bridge/consent/gate.py) is followed by the same call with that token.
    ``client`` has ``call_tool(name, arguments, **kw)`` answering the tools/call result."""
    result: dict[str, Any] = await client.call_tool(name, arguments, **kw)
    token = (result.get("structuredContent") or {}).get("confirmation_token")
    if not isinstance(token, str):
        return result
    confirmed: dict[str, Any] = await client.call_tool(name, {**(arguments or {}), "confirmation_token": token}, **kw)
    return confirmed


class BridgeProcess:
    def __init__(self, env: Mapping[str, str], args: list[str] | None = None) -> None:
        self.env = dict(env)
        self.args = args or []
        self.proc: asyncio.subprocess.Process | None = None
        self.notifications: list[dict[str, Any]] = []
        self.raw_lines: list[bytes] = []
        self._waiters: dict[Any, asyncio.Future[dict[str, Any]]] = {}
        self._note_event = asyncio.Event()
        self._next_id = 1000
        self._reader: asyncio.Task[None] | None = None
        self.stderr = bytearray()
        self._stderr_task: asyncio.Task[None] | None = None

    async def start(self) -> BridgeProcess:
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "godot_bridge", *self.args,
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
            env=self.env, cwd=str(ROOT), limit=64 * 1024 * 1024,
        )
        self._reader = asyncio.create_task(self._read())
        self._stderr_task = asyncio.create_task(self._read_stderr())
        return self

    async def __aenter__(self) -> BridgeProcess:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def _read(self) -> None:
        assert self.proc and self.proc.stdout
        while line := await self.proc.stdout.readline():
            self.raw_lines.append(line)
            msg = json.loads(line)  # a non-JSON stdout line fails the test loudly
            if "id" in msg and ("result" in msg or "error" in msg):
                fut = self._waiters.pop(msg["id"], None)
                if fut is not None and not fut.done():
                    fut.set_result(msg)
                else:
                    self.notifications.append({"unmatched_response": msg})
            else:
                self.notifications.append(msg)
                self._note_event.set()

    async def _read_stderr(self) -> None:
        assert self.proc and self.proc.stderr
        while chunk := await self.proc.stderr.read(65536):
            self.stderr.extend(chunk)

    async def send_raw(self, line: str | bytes) -> None:
        assert self.proc and self.proc.stdin
        data = line.encode() if isinstance(line, str) else line
        self.proc.stdin.write(data if data.endswith(b"\n") else data + b"\n")
        await self.proc.stdin.drain()

    async def send(self, message: dict[str, Any]) -> None:
        await self.send_raw(json.dumps(message))

    def expect(self, rid: Any) -> asyncio.Future[dict[str, Any]]:
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiters[rid] = fut
        return fut

    async def request(self, method: str, params: dict[str, Any] | None = None, *, rid: Any = None,
                      timeout: float = 20.0, modern: bool = False) -> dict[str, Any]:
        """Send a request and wait for its answer (the whole JSON-RPC response)."""
        if rid is None:
            self._next_id += 1
            rid = self._next_id
        if modern:
            params = dict(params or {})
            params["_meta"] = {**MODERN_META, **params.get("_meta", {})}
        msg: dict[str, Any] = {"jsonrpc": "2.0", "id": rid, "method": method}
        if params is not None:
            msg["params"] = params
        fut = self.expect(rid)
        await self.send(msg)
        return await asyncio.wait_for(fut, timeout)

    async def call_tool(self, name: str, arguments: dict[str, Any] | None = None, **kw: Any) -> dict[str, Any]:
        resp = await self.request("tools/call", {"name": name, "arguments": arguments or {}}, **kw)
        assert "result" in resp, resp
        return resp["result"]

    async def call_tool_confirmed(self, name: str, arguments: dict[str, Any] | None = None, **kw: Any) -> dict[str, Any]:
        return await call_confirmed(self, name, arguments, **kw)

    async def tool_names(self, **kw: Any) -> list[str]:
        resp = await self.request("tools/list", **kw)
        return [t["name"] for t in resp["result"]["tools"]]

    async def wait_notification(self, method: str, timeout: float = 10.0, start: int = 0) -> dict[str, Any]:
        """The first notification named ``method`` at or after index ``start``."""
        async def scan() -> dict[str, Any]:
            while True:
                for note in self.notifications[start:]:
                    if note.get("method") == method:
                        return note
                self._note_event.clear()
                await self._note_event.wait()
        return await asyncio.wait_for(scan(), timeout)

    async def close(self) -> int | None:
        if self.proc is None:
            return None
        if self.proc.stdin and not self.proc.stdin.is_closing():
            self.proc.stdin.close()
        try:
            await asyncio.wait_for(self.proc.wait(), 10)
        except asyncio.TimeoutError:
            self.proc.kill()
            await self.proc.wait()
        for task in (self._reader, self._stderr_task):
            if task:
                try:
                    await asyncio.wait_for(task, 5)
                except (asyncio.TimeoutError, Exception):
                    task.cancel()
        return self.proc.returncode
