"""Start the bridge's Streamable HTTP server for a test, on 127.0.0.1 and a free port.

``serve_in_process`` runs the ASGI app (uvicorn) inside the test's event loop around a
``BridgeApp`` the test built; ``HttpBridgeProcess`` runs the real ``godot-bridge --http``.
Both are async context managers: whatever they start is stopped when the block ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import sys
import time
from collections.abc import AsyncIterator, Mapping
from typing import Any

import httpx2

from godot_bridge.app import BridgeApp
from godot_bridge.mcp.http.config import HttpOptions
from godot_bridge.mcp.http.server import build_http_app
from tests.support.bridge_process import MODERN, ROOT

MODERN_META = {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientCapabilities": {},
}
JSON_AND_SSE = "application/json, text/event-stream"


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.asynccontextmanager
async def serve_in_process(app: BridgeApp, options: HttpOptions | None = None) -> AsyncIterator[str]:
    """Yield the ``/mcp`` URL of ``app`` served over HTTP; the server is stopped on exit."""
    import uvicorn

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    opts = options or HttpOptions()
    config = uvicorn.Config(build_http_app(app, opts), log_config=None, access_log=False, lifespan="on",
                            timeout_graceful_shutdown=1)
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve(sockets=[sock]))
    try:
        async with asyncio.timeout(10):
            while not server.started:
                if task.done():
                    task.result()
                await asyncio.sleep(0.01)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        server.should_exit = True
        try:
            await asyncio.wait_for(task, 10)
        finally:
            sock.close()


def modern_headers(method: str, name: str | None = None, **extra: str) -> dict[str, str]:
    headers = {"Accept": JSON_AND_SSE, "MCP-Protocol-Version": MODERN, "Mcp-Method": method}
    if name is not None:
        headers["Mcp-Name"] = name
    headers.update(extra)
    return headers


def modern_body(method: str, params: Mapping[str, Any] | None = None, rid: Any = 1) -> dict[str, Any]:
    full = dict(params or {})
    full["_meta"] = {**MODERN_META, **full.get("_meta", {})}
    return {"jsonrpc": "2.0", "id": rid, "method": method, "params": full}


def sse_messages(text: str) -> list[dict[str, Any]]:
    """The JSON-RPC messages of an SSE body, in order (comments and blank lines skipped)."""
    import json

    out = []
    for line in text.splitlines():
        if line.startswith("data:"):
            out.append(json.loads(line[5:].strip()))
    return out


class HttpBridgeProcess:
    """``python -m godot_bridge --http --port N``; ``close()`` stops it (SIGTERM, then kill)."""

    def __init__(self, env: Mapping[str, str], args: list[str] | None = None) -> None:
        self.env = dict(env)
        self.port = free_port()
        self.args = ["--http", "--port", str(self.port), *(args or [])]
        self.proc: asyncio.subprocess.Process | None = None
        self.stderr = bytearray()
        self._stderr_task: asyncio.Task[None] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/mcp"

    async def start(self, timeout: float = 20.0) -> HttpBridgeProcess:
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "godot_bridge", *self.args,
            stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE,
            env=self.env, cwd=str(ROOT),
        )
        self._stderr_task = asyncio.create_task(self._read_stderr())
        deadline = time.monotonic() + timeout
        async with httpx2.AsyncClient() as client:
            while True:
                if self.proc.returncode is not None:
                    raise RuntimeError(f"godot-bridge --http exited: {self.stderr.decode(errors='replace')}")
                try:
                    card = await client.get(f"http://127.0.0.1:{self.port}/.well-known/mcp.json", timeout=1)
                    if card.status_code == 200:
                        return self
                except httpx2.TransportError:
                    pass
                if time.monotonic() > deadline:
                    await self.close()
                    raise TimeoutError(f"godot-bridge --http did not listen: {self.stderr.decode(errors='replace')}")
                await asyncio.sleep(0.05)

    async def _read_stderr(self) -> None:
        assert self.proc and self.proc.stderr
        while chunk := await self.proc.stderr.read(65536):
            self.stderr.extend(chunk)

    async def __aenter__(self) -> HttpBridgeProcess:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> int | None:
        if self.proc is None:
            return None
        if self.proc.returncode is None:
            self.proc.terminate()
            try:
                await asyncio.wait_for(self.proc.wait(), 10)
            except asyncio.TimeoutError:
                self.proc.kill()
                await self.proc.wait()
        if self._stderr_task is not None:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._stderr_task, 5)
        return self.proc.returncode
