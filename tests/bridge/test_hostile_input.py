"""Hostile input and odd stdio set-ups against the real bridge process.

Nothing a client sends may end the process: each case is followed by a ping that must
still be answered, and every stdout line must be JSON (BridgeProcess fails on one that is not).
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import pytest

from godot_bridge.mcp.stdio.sdk_lines import MAX_DEPTH
from tests.support.bridge_process import MODERN_META, ROOT, BridgeProcess, bridge_env
from tests.support.envelope_shapes import cases
from tests.sim.fixtures import process_sim as sim  # noqa: F401 - the editor this module's bridges talk to
from tests.sim.server import ToolkitSim


async def still_serving(bridge: BridgeProcess) -> None:
    resp = await bridge.request("ping")
    assert resp["result"] == {}
    assert bridge.proc is not None and bridge.proc.returncode is None


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


async def test_deep_nesting_is_answered_and_the_server_keeps_serving(bridge: BridgeProcess):
    # A bare deep array: a batch (-32600) while the parser copes, a parse error (-32700) beyond.
    for depth in (MAX_DEPTH + 1, 900, 5000):
        fut = bridge.expect(None)
        await bridge.send_raw(nested(depth))
        assert (await asyncio.wait_for(fut, 10))["error"]["code"] in (-32700, -32600)
        await still_serving(bridge)
    # Deep arguments of a request: invalid params, answered with the request's id.
    line = '{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"discover_tools","arguments":{"topic":%s}}}'
    for rid, depth in ((7, MAX_DEPTH + 1), (8, 900)):
        fut = bridge.expect(rid)
        await bridge.send_raw(line % (rid, nested(depth)))
        resp = await asyncio.wait_for(fut, 10)
        assert resp["error"]["code"] == -32602 and str(MAX_DEPTH) in resp["error"]["message"]
        await still_serving(bridge)


@pytest.mark.parametrize("lean", [True, False], ids=["lean-path", "sdk-path"])
async def test_a_request_deeper_than_the_parser_goes_is_answered_with_its_id(spawn_bridge, lean: bool):
    """Python's parser gives up near 1000 levels: the request is still answered, with its own id."""
    bridge = await spawn_bridge({} if lean else {"GODOT_BRIDGE_LEAN": "0"})
    line = '{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":{"name":"discover_tools","arguments":{"t":%s}}}'
    for rid, depth in ((9, 990), ("deep-10", 3000)):
        fut = bridge.expect(rid)
        await bridge.send_raw(line % (json.dumps(rid), nested(depth)))
        resp = await asyncio.wait_for(fut, 10)
        assert resp["error"]["code"] == -32602 and str(MAX_DEPTH) in resp["error"]["message"], resp
        await still_serving(bridge)
    fut = bridge.expect(None)
    await bridge.send_raw((line % (11, nested(3000)))[:-1])  # not JSON at all: nobody can say whose it was
    assert (await asyncio.wait_for(fut, 10))["error"]["code"] == -32700
    await still_serving(bridge)


@pytest.mark.parametrize("lean", [True, False], ids=["lean-path", "sdk-path"])
async def test_every_member_of_every_wrong_type_is_answered(spawn_bridge, lean: bool):
    """Every member a message carries, with every JSON type it may not have, in both eras: the
    process answers each (-32600, or -32602 for ``_meta``; id null when the id was the problem;
    nothing for a notification) and keeps serving."""
    bridge = await spawn_bridge({} if lean else {"GODOT_BRIDGE_LEAN": "0"})
    for case in cases():
        answer = None if case.member.code is None else bridge.expect(case.expected_id())
        await bridge.send(case.message)
        if answer is not None:
            resp = await asyncio.wait_for(answer, 10)
            assert resp["error"]["code"] == case.member.code, (case.name, resp)
        await still_serving(bridge)  # and, for a notification, nothing was answered before the ping
        assert not [n for n in bridge.notifications if "unmatched_response" in n], (case.name, bridge.notifications)
    assert bridge.proc is not None and bridge.proc.returncode is None


@pytest.mark.parametrize("modern", [False, True], ids=["handshake", "2026-07-28"])
async def test_params_of_the_wrong_type_name_the_field(bridge: BridgeProcess, modern: bool):
    """Method params the SDK validates (not the envelope's): -32602 naming the field, not a bare
    "Invalid request parameters"."""
    resp = await bridge.request("tools/call", {"name": {"a": 1}, "arguments": []}, modern=modern)
    message = resp["error"]["message"]
    assert resp["error"]["code"] == -32602 and "params.name" in message and "params.arguments" in message, message
    await still_serving(bridge)


async def test_lone_surrogates_in_id_method_and_tool_name(bridge: BridgeProcess):
    fut = bridge.expect("\ud800")
    await bridge.send_raw('{"jsonrpc":"2.0","id":"\\ud800","method":"ping"}')
    assert (await asyncio.wait_for(fut, 10))["result"] == {}
    assert b'"\\ud800"' in bridge.raw_lines[-1]  # escaped on the wire, exactly as sent
    fut = bridge.expect(9)
    await bridge.send_raw('{"jsonrpc":"2.0","id":9,"method":"\\udc00"}')
    assert (await asyncio.wait_for(fut, 10))["error"]["code"] == -32601
    resp = await bridge.request("tools/call", {"name": "\udc00", "arguments": {}})
    assert resp["error"]["code"] == -32602 and "\udc00" in resp["error"]["message"]
    await still_serving(bridge)


async def test_lone_surrogate_argument_is_refused_and_the_connection_survives(sim: ToolkitSim, bridge: BridgeProcess):
    sim.script("scene.get_tree", {"sleep": 0.5}, {"result": {"success": True, "slow": True}})
    slow = asyncio.create_task(bridge.call_tool("scene_get_tree", {"max_depth": 2}))
    await sim.wait_for("scene.get_tree")
    result = await bridge.call_tool("script_read", {"file_path": "res://a\ud800.gd"})
    assert result["isError"] is True
    body = json.loads(result["content"][0]["text"])
    assert body["code"] == "INVALID_PARAMS" and body["param"] == "file_path"
    assert (await slow)["structuredContent"] == {"slow": True, "success": True}  # the call in flight survived
    assert not sim.requests("script.read")
    assert (await bridge.call_tool("scene_get_tree", {}))["isError"] is False
    assert sim.peer_count == 1  # never reconnected


def _spawn_sync(env: dict[str, str], stdin, stdout) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "godot_bridge"], stdin=stdin, stdout=stdout, stderr=subprocess.DEVNULL,
        env=env, cwd=str(ROOT),
    )


def _finish(proc: subprocess.Popen[bytes], timeout: float = 20) -> int:
    try:
        return proc.wait(timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        raise


PINGS = b"".join(b'{"jsonrpc":"2.0","id":%d,"method":"ping"}\n' % i for i in range(1, 4))


def _answer_ids(data: bytes) -> list[int]:
    return [json.loads(line)["id"] for line in data.splitlines() if line.strip()]


async def test_stdout_to_a_regular_file(tmp_path: Path, data_home: Path, project_dir: Path):
    out = tmp_path / "out.jsonl"
    with out.open("wb") as sink:
        proc = _spawn_sync(bridge_env(data_home, project_dir), subprocess.PIPE, sink)
        assert proc.stdin is not None
        proc.stdin.write(PINGS)
        proc.stdin.close()
        assert await asyncio.to_thread(_finish, proc) == 0
    assert sorted(_answer_ids(out.read_bytes())) == [1, 2, 3]


async def test_stdin_and_stdout_regular_files(tmp_path: Path, data_home: Path, project_dir: Path):
    src, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    src.write_bytes(PINGS)
    with src.open("rb") as feed, out.open("wb") as sink:
        proc = _spawn_sync(bridge_env(data_home, project_dir), feed, sink)
        assert await asyncio.to_thread(_finish, proc) == 0
    assert sorted(_answer_ids(out.read_bytes())) == [1, 2, 3]


@pytest.mark.skipif(sys.platform == "win32", reason="/dev/null is a POSIX device")
async def test_stdin_dev_null_exits(tmp_path: Path, data_home: Path, project_dir: Path):
    """/dev/null cannot be registered with epoll; the bridge must read it in a thread and end."""
    with open("/dev/null", "rb") as null:
        proc = _spawn_sync(bridge_env(data_home, project_dir), null, subprocess.PIPE)
        assert await asyncio.to_thread(_finish, proc) == 0
        assert proc.stdout is not None and proc.stdout.read() == b""


async def _close_and_wait(bridge: BridgeProcess, timeout: float) -> None:
    assert bridge.proc and bridge.proc.stdin
    bridge.proc.stdin.close()
    await asyncio.wait_for(bridge.proc.wait(), timeout)
    assert bridge._reader is not None
    await asyncio.wait_for(bridge._reader, 5)


async def test_open_listen_stream_does_not_hold_exit(spawn_bridge):
    bridge = await spawn_bridge({"GODOT_MCP_LOG_LEVEL": "DEBUG"})
    listen = bridge.expect(50)
    await bridge.send({"jsonrpc": "2.0", "id": 50, "method": "subscriptions/listen",
                       "params": {"_meta": MODERN_META, "notifications": {"toolsListChanged": True}}})
    await bridge.wait_notification("notifications/subscriptions/acknowledged")
    await still_serving(bridge)
    # An open stream must not hold exit for the 10 s end-of-input grace; the bound below
    # sits under it with room for a loaded machine, since only "not held" is asserted.
    await _close_and_wait(bridge, 8)
    assert bridge.proc is not None and bridge.proc.returncode == 0
    # Nothing was waited for: the listen stream is not an unanswered request ...
    assert b"unanswered" not in bytes(bridge.stderr)
    # ... and it still gets its one closing answer.
    assert "error" in (await asyncio.wait_for(listen, 5))


async def test_call_the_editor_never_answers_holds_exit_only_for_the_grace(sim: ToolkitSim, spawn_bridge):
    bridge = await spawn_bridge({"GODOT_MCP_LOG_LEVEL": "DEBUG"})
    sim.script("scene.get_tree", {"silence": True})
    answer = bridge.expect(60)
    await bridge.send({"jsonrpc": "2.0", "id": 60, "method": "tools/call",
                       "params": {"name": "scene_get_tree", "arguments": {}}})
    await sim.wait_for("scene.get_tree", timeout=10)
    # The editor call timeout is 30 s; the process must be gone long before it.
    await _close_and_wait(bridge, 15)
    assert b"1 request(s) unanswered" in bytes(bridge.stderr)
    resp = await asyncio.wait_for(answer, 5)
    assert "error" in resp  # answered once, as abandoned, rather than lost
    assert [line for line in bridge.raw_lines if b'"id":60' in line] == [bridge.raw_lines[-1]]


async def test_cancelled_call_does_not_hold_exit(sim: ToolkitSim, spawn_bridge):
    bridge = await spawn_bridge({"GODOT_MCP_LOG_LEVEL": "DEBUG"})
    sim.script("scene.get_tree", {"silence": True})
    await bridge.send({"jsonrpc": "2.0", "id": 70, "method": "tools/call",
                       "params": {"name": "scene_get_tree", "arguments": {}}})
    await sim.wait_for("scene.get_tree", timeout=10)
    await bridge.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 70}})
    await sim.wait_for("_cancel", timeout=10)
    await still_serving(bridge)
    await _close_and_wait(bridge, 15)
    assert b"unanswered" not in bytes(bridge.stderr)  # the cancelled call is owed no answer
    assert not [line for line in bridge.raw_lines if b'"id":70' in line]
