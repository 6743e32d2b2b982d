"""The wire between the real bridge and the real toolkit in the engine: auth refused by the toolkit
(1008, carried through the relay unchanged), unknown methods, a command queued behind a slow one
reported as progress, a cancelled call that leaves the next one working, a burst of 50 concurrent
calls each answered under its own id, an oversize request refused."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from tests.support.bridge_process import BridgeProcess
from tests.engine.e2e.call_list import body
from tests.engine.e2e.conftest import open_bridge
from tests.engine.e2e.engine_host import EngineHost

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_first_call_reaches_the_toolkit(stdio: BridgeProcess) -> None:
    result = await stdio.call_tool("scene_get_tree", {})
    assert result["isError"] is False, result
    tree = body(result)
    assert tree["scene_path"] == "res://scenes/main.tscn"
    assert tree["tree"]["name"] == "Main"


# --- auth and raw JSON-RPC, straight to the toolkit's port (the relay only carries frames) -------

async def raw_session(host: EngineHost, token: str) -> Any:
    ws = await connect(f"ws://127.0.0.1:{host.editor_port}", max_size=None, compression=None, ping_interval=None)
    await ws.send(json.dumps({"auth": token}))
    return ws


async def test_a_wrong_token_is_closed_1008_by_the_toolkit(engine_host: EngineHost) -> None:
    ws = await raw_session(engine_host, "0" * 64)
    with pytest.raises(ConnectionClosed):
        await asyncio.wait_for(ws.recv(), 10)
    assert ws.close_code == 1008
    assert ws.close_reason == "invalid token"


async def answer(ws: Any) -> dict[str, Any]:
    """The next answer on a raw toolkit socket; the toolkit's own notifications (a pushed error, an
    extensions change) may come first on the same socket, and are not what a request is answered by."""
    while True:
        message: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 10))
        if "id" in message:
            return message


async def test_the_right_token_is_acked_with_the_engine_version(engine_host: EngineHost) -> None:
    ws = await raw_session(engine_host, engine_host.published.token)
    try:
        ack = json.loads(await asyncio.wait_for(ws.recv(), 10))
        assert ack["authed"] is True and ack["godot_version"].startswith("4.6")
        await ws.send(json.dumps({"jsonrpc": "2.0", "id": 7, "method": "no.such.method", "params": {}}))
        reply = await answer(ws)
        assert reply["id"] == 7 and reply["error"]["code"] == -32601
        await ws.send("{not json")
        assert (await answer(ws))["error"]["code"] == -32700
    finally:
        await ws.close()


async def test_a_bridge_with_a_wrong_token_is_refused(engine_host: EngineHost, tmp_path: Path) -> None:
    wrong = tmp_path / "mcp_token"
    wrong.write_text("f" * 64, encoding="utf-8")
    wrong.chmod(0o600)  # private, as the plugin writes it: the bridge refuses a readable one first
    refusals = len([c for c in engine_host.relay.close_codes if c[1] == 1008])
    bridge = await open_bridge(engine_host, {"GODOT_MCP_TOKEN_PATH": str(wrong)})
    try:
        result = await bridge.call_tool("scene_get_tree", {}, timeout=60)
        assert result["isError"] is True
        assert body(result)["code"] == "AUTH_FAILED", body(result)
        assert "close 1008 'invalid token'" in body(result)["error"]
    finally:
        await bridge.close()
    # The close came from the engine's side of the relay: the toolkit refused the token.
    assert len([c for c in engine_host.relay.close_codes if c[1] == 1008]) > refusals


# --- queueing, cancel, concurrency, size (the game's lane: a step waits for real frames) ---------

def progress_for(bridge: BridgeProcess, token: str) -> list[dict[str, Any]]:
    return [n["params"] for n in bridge.notifications
            if n.get("method") == "notifications/progress" and n["params"].get("progressToken") == token]


async def test_a_call_queued_behind_a_slow_one_reports_progress(stdio: BridgeProcess, playing: None) -> None:
    slow = asyncio.create_task(stdio.call_tool("game_step", {"frames": 120}, timeout=60))
    await asyncio.sleep(0.5)  # the slow step is running in the game by then (it takes 2 s of frames)
    queued = await stdio.request("tools/call", {"name": "game_step", "arguments": {"frames": 1},
                                                "_meta": {"progressToken": "queued-step"}}, timeout=60)
    first = await slow
    assert body(first)["process_frames"] == 120
    assert body(queued["result"])["process_frames"] == 1
    notes = progress_for(stdio, "queued-step")
    assert notes, "the queued call sent no progress"
    assert any("queued" in str(note.get("message", "")) for note in notes), notes


async def test_a_cancelled_call_leaves_the_next_one_working(stdio: BridgeProcess, playing: None) -> None:
    rid = "cancel-me"
    waiting = stdio.expect(rid)
    await stdio.send({"jsonrpc": "2.0", "id": rid, "method": "tools/call",
                      "params": {"name": "game_step", "arguments": {"frames": 1200}}})
    await asyncio.sleep(0.5)
    await stdio.send({"jsonrpc": "2.0", "method": "notifications/cancelled",
                      "params": {"requestId": rid, "reason": "changed my mind"}})
    started = time.monotonic()
    after = await stdio.call_tool("game_step", {"frames": 2}, timeout=15)
    assert body(after)["process_frames"] == 2, after
    # 1200 frames are 20 s: had the toolkit not stopped the cancelled step, this one would wait for it.
    assert time.monotonic() - started < 10
    if waiting.done():  # an answer to a cancelled request is allowed, but never a success for it
        assert waiting.result().get("result", {}).get("isError", True) is not False
    else:
        waiting.cancel()


async def _burst(stdio: BridgeProcess, name: str, calls: list[dict]) -> list[dict]:
    """``calls`` (arguments of execute_code) sent at once; their answers, in order."""
    ids = [f"{name}-{i}" for i in range(len(calls))]
    futures = {rid: stdio.expect(rid) for rid in ids}
    for rid, arguments in zip(ids, calls, strict=True):
        await stdio.send({"jsonrpc": "2.0", "id": rid, "method": "tools/call",
                          "params": {"name": "execute_code", "arguments": arguments}})
    answers = await asyncio.wait_for(asyncio.gather(*futures.values()), 60)
    assert [answer["id"] for answer in answers] == ids
    return answers


async def test_fifty_concurrent_calls_each_get_their_own_answer(stdio: BridgeProcess) -> None:
    calls = [{"code": f"{i} * 7 + 1", "channel": "editor"} for i in range(50)]
    # execute_code asks the person first: each call's preview carries its own token...
    previews = await _burst(stdio, "preview", calls)
    tokens = [body(answer["result"])["confirmation_token"] for answer in previews]
    assert len(set(tokens)) == 50
    # ...and fifty confirmed calls at once each get their own answer from the editor.
    answers = await _burst(stdio, "burst", [{**c, "confirmation_token": t} for c, t in zip(calls, tokens, strict=True)])
    for i, answer in enumerate(answers):
        assert body(answer["result"])["value"] == i * 7 + 1, answer


async def test_an_oversize_request_is_refused_and_the_wire_stays_up(stdio: BridgeProcess) -> None:
    huge = "# " + "x" * (2 * 1024 * 1024) + "\n"
    result = await stdio.call_tool("script_write", {"file_path": "res://e2e/huge.gd", "content": huge}, timeout=60)
    assert result["isError"] is True and body(result)["code"] == "REQUEST_TOO_LARGE", body(result)
    after = await stdio.call_tool("scene_get_tree", {"max_depth": 1})
    assert after["isError"] is False
