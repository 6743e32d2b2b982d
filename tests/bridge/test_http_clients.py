"""Real clients against the real ``godot-bridge --http`` process.

The SDK's own HTTP client in each of its modes; several clients at once through one
bridge into the toolkit simulator; progress streamed over SSE in both eras.
"""

from __future__ import annotations

import json
import signal
import warnings
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from mcp import Client

from godot_bridge.tools.catalogue import load_catalogue
from godot_bridge.tools.counts import count
from tests.support.bridge_process import bridge_env
from tests.support.http_bridge import HttpBridgeProcess, modern_body, modern_headers, sse_messages
from tests.lsp.fake_server import FakeLspServer
from tests.sim.server import ToolkitSim

COUNTS = count(load_catalogue())  # what tools/list holds at start, from the one place that defines it


@pytest.fixture
async def http_bridge(data_home: Path, project_dir: Path) -> AsyncIterator[HttpBridgeProcess]:
    async with HttpBridgeProcess(bridge_env(data_home, project_dir)) as bridge:
        yield bridge


def payload(result: Any) -> dict[str, Any]:
    return json.loads(result.content[0].text)


@pytest.mark.parametrize("mode", ["legacy", "auto", "2026-07-28"])
async def test_sdk_client_over_http(mode: str, http_bridge: HttpBridgeProcess):
    with anyio.fail_after(60):
        async with Client(http_bridge.url, mode=mode, cache=None) as client:
            assert client.protocol_version == ("2025-11-25" if mode == "legacy" else "2026-07-28")
            assert len((await client.list_tools()).tools) == COUNTS.always_on
            result = await client.call_tool("discover_tools", {"request": "audio"})
            assert not result.is_error
            names = [t.name for t in (await client.list_tools()).tools]
            if mode == "legacy":
                assert any(g["status"] == "activated" for g in payload(result)["groups"])
                assert "audiobus_list" in names
            else:  # 2026-07-28: no call changes the list; the answer has what call_tool needs
                assert "call_tool" in payload(result)["how_to_call"] and "audiobus_list" not in names
            failed = await client.call_tool("scene_get_tree", {})
            assert failed.is_error and payload(failed)["code"] == "CONNECT_FAILED"
            with warnings.catch_warnings():  # deprecated by the SDK in 2026-07-28, still sent
                warnings.simplefilter("ignore")
                await client.send_ping()


async def test_legacy_client_hears_list_changed_it_caused(http_bridge: HttpBridgeProcess):
    seen = anyio.Event()

    async def on_message(message: Any) -> None:
        if getattr(message, "method", "") == "notifications/tools/list_changed" or \
                type(message).__name__ == "ToolListChangedNotification":
            seen.set()

    with anyio.fail_after(60):
        async with Client(http_bridge.url, mode="legacy", message_handler=on_message, cache=None) as client:
            await client.call_tool("discover_tools", {"request": "theme"})
            await seen.wait()


async def test_two_clients_share_one_editor_concurrently(sim: ToolkitSim, data_home: Path, project: Path):
    # Every editor reply is delayed, so the calls of both clients are in flight together.
    sim.script("scene.get_tree", {"sleep": 0.05}, {"echo": True}, times=None)
    async with HttpBridgeProcess(bridge_env(data_home, project)) as bridge:
        with anyio.fail_after(60):
            async with Client(bridge.url, mode="legacy", cache=None) as first, \
                    Client(bridge.url, mode="2026-07-28", cache=None) as second:
                answers: dict[tuple[str, int], Any] = {}

                async def call(name: str, client: Client, depth: int) -> None:
                    result = await client.call_tool("scene_get_tree", {"max_depth": depth})
                    assert not result.is_error, result
                    answers[(name, depth)] = payload(result)

                async with anyio.create_task_group() as tg:
                    for depth in range(2, 10):
                        tg.start_soon(call, "first", first, depth)
                        tg.start_soon(call, "second", second, depth + 100)
    # Each answer is the one for its own request (the simulator echoes the params it got).
    assert len(answers) == 16
    for (_, depth), answer in answers.items():
        assert answer["params"] == {"max_depth": depth}
    assert len(sim.requests("scene.get_tree")) == 16
    assert sim.connections == 1  # one editor connection, shared by both clients


@pytest.mark.parametrize("modern", [False, True], ids=["handshake", "2026-07-28"])
async def test_progress_streams_before_the_result(modern: bool, data_home: Path, project_dir: Path):
    for i in range(25):  # two chunks of 20 files: at least two progress steps
        (project_dir / f"s{i}.gd").write_text("extends Node\n", encoding="utf-8")
    lsp = FakeLspServer()
    await lsp.start()
    try:
        env = bridge_env(data_home, project_dir, {"GODOT_MCP_LSP_PORT": str(lsp.port)})
        async with HttpBridgeProcess(env) as bridge, httpx2.AsyncClient(timeout=60) as http:
            params: dict[str, Any] = {"name": "discover_tools", "arguments": {"request": "lsp_code_analysis"}}
            await http.post(bridge.url, json={"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params})
            call = {"name": "lsp_project_diagnostics", "arguments": {}, "_meta": {"progressToken": "scan-1"}}
            if modern:
                body = modern_body("tools/call", call, rid=2)
                headers = modern_headers("tools/call", "lsp_project_diagnostics")
            else:
                body = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": call}
                headers = {"Accept": "application/json, text/event-stream"}
            resp = await http.post(bridge.url, json=body, headers=headers)
    finally:
        await lsp.stop()
    assert resp.headers["content-type"] == "text/event-stream"
    messages = sse_messages(resp.text)
    progress = [m["params"] for m in messages if m.get("method") == "notifications/progress"]
    assert len(progress) >= 2 and all(p["progressToken"] == "scan-1" for p in progress)
    assert [p["progress"] for p in progress] == sorted(p["progress"] for p in progress)
    assert messages[-1]["id"] == 2 and json.loads(messages[-1]["result"]["content"][0]["text"])["scanned"] == 25


async def test_sigterm_stops_the_server_cleanly(data_home: Path, project_dir: Path):
    bridge = HttpBridgeProcess(bridge_env(data_home, project_dir))
    await bridge.start()
    # uvicorn shuts down gracefully, then re-raises the signal: the conventional exit of a SIGTERM'd process.
    assert await bridge.close() in (0, -signal.SIGTERM)
    log = bridge.stderr.decode(errors="replace")
    assert "Traceback" not in log and "Application shutdown complete" in log
