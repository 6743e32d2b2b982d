"""WsChannel against the simulator and against servers that misbehave on purpose."""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

import pytest
from websockets.asyncio.server import ServerConnection, serve

from godot_bridge import __version__
from godot_bridge.editor.channel import NotDelivered, WsChannel
from godot_bridge.errors import ToolError
from tests.sim.server import ToolkitSim


def _channel(port: int, **kw) -> WsChannel:
    return WsChannel(label="editor", port=port, default_timeout=2.0, **kw)


async def _open(ch: WsChannel, token: str) -> dict:
    return await ch.open(lambda: (token, "/tok (test)"), __version__, connect_timeout=1.0, auth_timeout=1.0)


@asynccontextmanager
async def _server(handler: Callable[[ServerConnection], Awaitable[None]]) -> AsyncIterator[int]:
    server = await serve(handler, "127.0.0.1", 0, compression=None, ping_interval=None)
    try:
        yield server.sockets[0].getsockname()[1]
    finally:
        server.close()
        await server.wait_closed()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def test_auth_frame_and_ack(sim: ToolkitSim):
    ch = _channel(sim.port)
    ack = await _open(ch, sim.token)
    try:
        assert ack == {"authed": True, "godot_version": "4.4.1", "version": "0.1.0", "headless": False}
        assert sim.auth_frames == [{"auth": sim.token, "version": __version__}]
        sim.script("node.get_property", {"echo": True})
        assert await ch.request("node.get_property", {"node_path": "/root", "property": "name"}) == {
            "success": True,
            "method": "node.get_property",
            "params": {"node_path": "/root", "property": "name"},
        }
        frame = sim.requests("node.get_property")[0].frame
        assert frame["jsonrpc"] == "2.0" and isinstance(frame["id"], int)
    finally:
        await ch.aclose()


async def test_runtime_mode_ack_has_no_version(sim: ToolkitSim):
    game = await sim.start_game()
    ch = WsChannel(label="game", port=game.port, default_timeout=2.0)
    assert await _open(ch, sim.token) == {"authed": True}
    await ch.aclose()


async def test_wrong_token_is_auth_failed_naming_the_source(sim: ToolkitSim):
    ch = _channel(sim.port)
    with pytest.raises(ToolError) as caught:
        await _open(ch, "0" * 64)
    assert caught.value.code == "AUTH_FAILED"
    assert "rejected the token from /tok (test)" in caught.value.message
    assert "1008 'invalid token'" in caught.value.message
    assert not ch.is_open


async def test_nothing_listening_is_connect_failed():
    ch = _channel(_free_port())
    with pytest.raises(ToolError) as caught:
        await _open(ch, "t")
    assert caught.value.code == "CONNECT_FAILED"
    assert "connection refused" in caught.value.message


async def test_token_problem_after_the_socket_opened_closes_it(sim: ToolkitSim):
    ch = _channel(sim.port)

    def bad_token() -> tuple[str, str]:
        raise ToolError("AUTH_FAILED", "the registry token_path 'x' is not an absolute path")

    with pytest.raises(ToolError, match="not an absolute path"):
        await ch.open(bad_token, __version__, connect_timeout=1.0, auth_timeout=1.0)
    assert sim.auth_frames == []


async def test_auth_timeout_close_is_reported_as_such():
    async def handler(ws: ServerConnection) -> None:
        await ws.recv()
        await ws.close(1008, "auth timeout")

    async with _server(handler) as port:
        with pytest.raises(ToolError) as caught:
            await _open(_channel(port), "t")
    assert caught.value.code == "AUTH_FAILED" and "'auth timeout'" in caught.value.message


async def test_a_silent_server_is_not_a_hang():
    async def handler(ws: ServerConnection) -> None:
        await ws.wait_closed()

    async with _server(handler) as port:
        ch = _channel(port)
        with pytest.raises(ToolError) as caught:
            await ch.open(lambda: ("t", "x"), __version__, connect_timeout=1.0, auth_timeout=0.1)
    assert caught.value.code == "CONNECT_FAILED" and "no auth ack within 0.1 s" in caught.value.message


async def test_a_non_toolkit_reply_is_rejected():
    async def handler(ws: ServerConnection) -> None:
        await ws.recv()
        await ws.send(json.dumps({"hello": "world"}))
        await ws.wait_closed()

    async with _server(handler) as port:
        with pytest.raises(ToolError, match="instead of an ack"):
            await _open(_channel(port), "t")


async def test_a_push_before_the_ack_is_skipped():
    async def handler(ws: ServerConnection) -> None:
        await ws.recv()
        await ws.send(json.dumps({"notification": "extensions.changed", "params": {}}))
        await ws.send(json.dumps({"authed": True}))
        await ws.wait_closed()

    async with _server(handler) as port:
        ch = _channel(port)
        assert await _open(ch, "t") == {"authed": True}
        await ch.aclose()


async def test_pushes_reach_the_handler(sim: ToolkitSim):
    got: asyncio.Queue[dict] = asyncio.Queue()
    ch = _channel(sim.port, on_push=got.put_nowait)
    await _open(ch, sim.token)
    await sim.push({"notification": "game_stopped"})
    assert await asyncio.wait_for(got.get(), 2) == {"notification": "game_stopped"}
    await ch.aclose()


async def test_drop_mid_call_fails_the_call_with_the_drop_error(sim: ToolkitSim):
    ch = _channel(sim.port)
    await _open(ch, sim.token)
    sim.script("scene.save", {"abort": True})
    with pytest.raises(ToolError) as caught:
        await ch.request("scene.save", {})
    assert caught.value.code == "DISCONNECTED"
    assert "'scene.save' was in flight" in caught.value.message
    assert ch.closed.is_set()
    with pytest.raises(NotDelivered):
        await ch.request("scene.save", {})


async def test_cancelling_the_caller_sends_cancel(sim: ToolkitSim):
    ch = _channel(sim.port)
    await _open(ch, sim.token)
    sim.script("scene.save", {"wait_cancel": 5})
    task = asyncio.create_task(ch.request("scene.save", {}))
    sent = await sim.wait_for("scene.save")
    task.cancel()
    cancel = await sim.wait_for("_cancel")
    assert cancel.frame == {"jsonrpc": "2.0", "method": "_cancel", "params": {"request_id": str(sent.frame["id"])}}
    with pytest.raises(asyncio.CancelledError):
        await task
    await ch.aclose()


async def test_round_trip_callback(sim: ToolkitSim):
    trips: list[int] = []
    ch = _channel(sim.port, on_round_trip=lambda: trips.append(1))
    await _open(ch, sim.token)
    await ch.request("echo", {"x": 1})
    sim.script("scene.save", {"rpc_error": {"code": -32601, "message": "nope"}})
    with pytest.raises(ToolError):
        await ch.request("scene.save", {})
    assert trips == [1]
    await ch.aclose()


async def test_unserialisable_params_are_invalid_params(sim: ToolkitSim):
    ch = _channel(sim.port)
    await _open(ch, sim.token)
    with pytest.raises(ToolError) as caught:
        await ch.request("x", {"v": float("nan")})
    assert caught.value.code == "INVALID_PARAMS"
    await ch.aclose()


async def test_a_reply_with_raw_control_characters_still_answers():
    """An older toolkit's JSON.stringify leaves U+0001-U+001F raw inside strings (a Godot 3 key
    code's name on 3d/platformer reads "Ctrl+\\x05"); such a reply answers, it is not dropped."""
    async def handler(ws: ServerConnection) -> None:
        await ws.recv()
        await ws.send(json.dumps({"authed": True}))
        request = json.loads(await ws.recv())
        await ws.send('{"jsonrpc":"2.0","id":%d,"result":{"success":true,"text":"Ctrl+\x05"}}' % request["id"])
        await ws.wait_closed()

    async with _server(handler) as port:
        ch = _channel(port)
        await _open(ch, "t")
        assert (await ch.request("project.get_settings", {}))["text"] == "Ctrl+\x05"
        await ch.aclose()
