"""The call list's HTTP share (tests/engine/e2e/calls.py HTTP_CALLS) through the real ``godot-bridge --http``
into the same engine host: the same answers, effects, undo and game as over stdio."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import httpx2
import pytest
import pytest_asyncio

from tests.engine.e2e.call_list import Outcome, run_calls
from tests.engine.e2e.calls import HTTP_CALLS
from tests.engine.e2e.engine_host import EngineHost
from tests.support.http_bridge import JSON_AND_SSE, HttpBridgeProcess, sse_messages

pytestmark = pytest.mark.asyncio(loop_scope="session")


class HttpCaller:
    """Handshake-era JSON-RPC over ``POST /mcp``: one request, its answer (JSON or an SSE stream)."""

    def __init__(self, url: str, client: httpx2.AsyncClient) -> None:
        self.url = url
        self.client = client
        self.next_id = 0

    async def request(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        self.next_id += 1
        body = {"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}
        resp = await self.client.post(self.url, json=body, headers={"Accept": JSON_AND_SSE})
        assert resp.status_code == 200, resp.text
        if resp.headers["content-type"].startswith("text/event-stream"):
            answer = [m for m in sse_messages(resp.text) if m.get("id") == self.next_id][-1]
        else:
            answer = json.loads(resp.text)
        assert answer["id"] == self.next_id
        return answer

    async def call_tool(self, name: str, arguments: dict[str, Any] | None = None, **_: Any) -> dict[str, Any]:
        answer = await self.request("tools/call", {"name": name, "arguments": arguments or {}})
        assert "result" in answer, answer
        return answer["result"]


@pytest_asyncio.fixture(scope="package", loop_scope="session")
async def http(engine_host: EngineHost) -> AsyncIterator[HttpCaller]:
    async with HttpBridgeProcess(engine_host.bridge_env()) as bridge, httpx2.AsyncClient(timeout=90) as client:
        caller = HttpCaller(bridge.url, client)
        await caller.request("initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                                            "clientInfo": {"name": "e2e-http", "version": "1"}})
        yield caller


@pytest_asyncio.fixture(scope="package", loop_scope="session")
async def http_outcomes(http: HttpCaller, engine_host: EngineHost) -> dict[str, Outcome]:
    return {outcome.call.name: outcome for outcome in await run_calls(http, engine_host, HTTP_CALLS)}


@pytest.mark.parametrize("name", [call.name for call in HTTP_CALLS])
async def test_http_call(http_outcomes: dict[str, Outcome], name: str) -> None:
    outcome = http_outcomes[name]
    assert not outcome.problems, f"{name}: " + "\n".join(outcome.problems)
