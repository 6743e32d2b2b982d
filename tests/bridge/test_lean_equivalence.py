"""The lean path answers byte for byte as the SDK path does.

Two real bridge processes against one simulated editor: one as shipped (lean path in front),
one with ``GODOT_BRIDGE_LEAN=0`` (every line through the SDK). Every step of the corpus is
sent to both, and the stdout lines each writes in answer must be identical bytes: both eras,
successes, tool errors, protocol errors, malformed params, era errors, cancellation.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import pytest

from tests.support.bridge_process import MODERN, MODERN_META, BridgeProcess
from tests.sim.fixtures import process_sim as sim  # noqa: F401 - the editor this module's bridges talk to
from tests.sim.server import ToolkitSim

SDK_LOADED = b"loading the MCP SDK path"


class Pair:
    """The lean bridge and the SDK-only bridge, fed the same lines."""

    def __init__(self, lean: BridgeProcess, sdk: BridgeProcess) -> None:
        self.lean, self.sdk = lean, sdk

    async def exchange(self, message: Any, answers: int = 1) -> list[bytes]:
        """Send one line to both; the ``answers`` lines each writes back must be the same bytes."""
        line = message if isinstance(message, bytes) else json.dumps(message, ensure_ascii=False).encode()
        starts = (len(self.lean.raw_lines), len(self.sdk.raw_lines))
        for bridge in (self.lean, self.sdk):
            await bridge.send_raw(line)
        async with asyncio.timeout(30):
            while len(self.lean.raw_lines) < starts[0] + answers or len(self.sdk.raw_lines) < starts[1] + answers:
                await asyncio.sleep(0.005)
        got_lean = self.lean.raw_lines[starts[0]:]
        got_sdk = self.sdk.raw_lines[starts[1]:]
        assert got_lean == got_sdk, f"for {line[:200]!r}"
        assert len(got_lean) == answers, got_lean
        return got_lean

    async def silent(self, message: dict[str, Any], barrier_id: str) -> None:
        """A line that gets no answer: the next answer either writes is the barrier ping's."""
        await self.exchange(message, answers=0)
        (answer,) = await self.exchange({"jsonrpc": "2.0", "id": barrier_id, "method": "ping"})
        assert json.loads(answer)["id"] == barrier_id


def req(rid: Any, method: str, params: Any = None, *, modern: bool = False) -> dict[str, Any]:
    message: dict[str, Any] = {"jsonrpc": "2.0", "id": rid, "method": method}
    if modern:
        params = dict(params or {})
        params["_meta"] = {**MODERN_META, **params.get("_meta", {})}
    if params is not None:
        message["params"] = params
    return message


def call(rid: Any, name: Any, arguments: Any = None, *, modern: bool = False, **extra: Any) -> dict[str, Any]:
    params: dict[str, Any] = {"name": name, **extra}
    if arguments is not None:
        params["arguments"] = arguments
    return req(rid, "tools/call", params, modern=modern)


@pytest.fixture
async def pair(sim: ToolkitSim, spawn_bridge: Callable[..., Any]) -> Pair:
    lean = await spawn_bridge()
    sdk = await spawn_bridge({"GODOT_BRIDGE_LEAN": "0"})
    for bridge in (lean, sdk):  # both linked to the editor before anything is compared
        await bridge.call_tool("project_get_settings", {})
    return Pair(lean, sdk)


INIT = {"protocolVersion": "2025-11-25", "capabilities": {"roots": {"listChanged": True}},
        "clientInfo": {"name": "equivalence", "version": "1.0"}}

TREE = {
    "success": True, "zeta": [3, 2.5, -0.0, 1.5e-7, 1e21, 12345678901234567], "alpha": {"b": None, "a": "ünï 😀 \u0001\u007f"},
    "nodes": [{"name": f"n{i}", "children": [{"k": i, "v": [True, False, None]}]} for i in range(40)],
}


async def test_lean_answers_equal_the_sdk_path(pair: Pair, sim: ToolkitSim):
    sim.script("scene.get_tree", {"result": TREE}, times=None)
    ex = pair.exchange
    # -- handshake era ------------------------------------------------------------------
    await ex(req(1, "initialize", INIT))
    await pair.silent({"jsonrpc": "2.0", "method": "notifications/initialized"}, "b1")
    await ex(req(2, "ping"))
    await ex(req("two", "ping", {}))
    await ex(req(3, "ping", {"_meta": {"progressToken": "p"}}))
    await ex(req(4, "tools/list"))
    await ex(req(5, "tools/list", {}))
    await ex(call(6, "scene_get_tree", {}))
    await ex(call("ü-7", "scene_get_tree"))
    await ex(call(8, "scene_get_tree", {}, _meta={"progressToken": 8}))
    await ex(call(9, "no_such_tool", {}))
    await ex(call(10, "scene_get_tree", {"x": 1}))  # a bad argument is a tool error
    await ex(call(11, "scene_get_tree", {"max_depth": "deep"}))
    await ex(call(12, 5))  # malformed params: -32602 from the SDK
    await ex(call(13, "scene_get_tree", []))
    await ex(req(14, "tools/call", {}))
    await ex(req(15, "server/discover"))  # a 2026-07-28 method without the envelope
    await ex(req(16, "subscriptions/listen", {}))
    await ex(req(17, "tools/list", {"cursor": "x"}))
    (bad_id,) = await ex(req(True, "ping"))  # an id of true is no id: -32600 with id null
    assert json.loads(bad_id)["id"] is None and json.loads(bad_id)["error"]["code"] == -32600
    await pair.silent({"jsonrpc": "2.0", "method": "notifications/initialized", "params": 5}, "b-note")  # nothing
    await ex(req(18, "ping", {"_meta": {"progressToken": 1.5}}))
    # -- 2026-07-28 -----------------------------------------------------------------------
    await ex(req(20, "server/discover", modern=True))
    await ex(req(21, "ping", modern=True))
    await ex(req(22, "tools/list", modern=True))
    await ex(call(23, "scene_get_tree", {}, modern=True))
    await ex(call(24, "no_such_tool", {}, modern=True))
    await ex(call(25, "scene_get_tree", {"x": 1}, modern=True))
    await ex(call(26, 5, modern=True))
    envelope_errors = [
        {"io.modelcontextprotocol/protocolVersion": "2099-01-01", "io.modelcontextprotocol/clientCapabilities": {}},
        {"io.modelcontextprotocol/protocolVersion": MODERN},
        {"io.modelcontextprotocol/protocolVersion": 7, "io.modelcontextprotocol/clientCapabilities": {}},
        {**MODERN_META, "io.modelcontextprotocol/clientCapabilities": {"roots": 5}},
        {**MODERN_META, "io.modelcontextprotocol/clientInfo": {"name": 5}},
        {**MODERN_META, "io.modelcontextprotocol/clientInfo": "me"},
        {**MODERN_META, "io.modelcontextprotocol/clientInfo": {"name": "c", "version": "1", "title": "C"}},
        {**MODERN_META, "io.modelcontextprotocol/logLevel": "zz"},
    ]
    for i, meta in enumerate(envelope_errors):
        await ex(req(30 + i, "tools/list", {"_meta": meta}))
        await ex(req(40 + i, "ping", {"_meta": meta}))
    await ex(req(50, "initialize", {**INIT, "_meta": MODERN_META}))  # 2026-07-28 removed initialize: -32601
    # -- lines that never become requests ---------------------------------------------------
    for bad in (b"{not json", b"[1, 2]", b'{"jsonrpc": "2.0", "id": 60}', b'{"jsonrpc": "1.0", "id": 61, "method": "ping"}',
                json.dumps(req(62, "tools/call", {"name": "scene_get_tree", "arguments": {"a": [[[[[[[[[]]]]]]]]]}})).encode(),
                b"[" * 150 + b"]" * 150, json.dumps(req(63, "ping", {"a": [[[]]] * 1})).encode()):
        await ex(bad)
    deep: Any = 0
    for _ in range(120):
        deep = [deep]
    await ex(call(64, "scene_get_tree", {"a": deep}))
    await ex(json.dumps(call(65, "\ud800", {})).encode())  # a lone surrogate echoed in the error
    # -- cancellation: neither answers the cancelled request ------------------------------------
    sim.script("project.get_settings", {"silence": True}, times=2)
    seen = len(sim.received)
    await ex(call("slow", "project_get_settings", {}), answers=0)
    first = await sim.wait_for("project.get_settings", after=seen, timeout=10)
    await sim.wait_for("project.get_settings", after=sim.received.index(first) + 1, timeout=10)  # both forwarded it
    seen = len(sim.received)
    await pair.silent({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "slow"}}, "b2")
    cancel = await sim.wait_for("_cancel", after=seen, timeout=10)  # each bridge stopped the editor's call
    await sim.wait_for("_cancel", after=sim.received.index(cancel) + 1, timeout=10)
    # -- something only the SDK serves, then the handshake again ---------------------------------
    await ex(req(70, "resources/list"))
    await ex(req(71, "prompts/list", modern=True))
    await ex(call(72, "scene_get_tree", {}))
    await ex(req(73, "initialize", {**INIT, "protocolVersion": "2024-11-05"}))
    await ex(req(74, "tools/list"))
    await ex(call(75, "scene_get_tree", {}))
    assert SDK_LOADED in bytes(pair.lean.stderr)


async def test_lean_only_session_never_loads_the_sdk(pair: Pair, sim: ToolkitSim):
    await pair.exchange(req(1, "initialize", INIT))
    await pair.exchange(req(2, "tools/list"))
    await pair.exchange(req(3, "tools/list", modern=True))
    await pair.exchange(req(4, "server/discover", modern=True))
    await pair.exchange(call(5, "scene_get_tree", {}))
    await pair.exchange(call(6, "scene_get_tree", {}, modern=True))
    # A game that starts and reports nothing gives the lean path nothing to deliver either.
    started = await pair.lean.call_tool("game_start", {})
    assert started["isError"] is False and sim.runtime is not None, started
    async with asyncio.timeout(5):
        while b"tool=game_start" not in pair.lean.stderr:  # logged after the session began
            await asyncio.sleep(0.02)
    assert SDK_LOADED not in bytes(pair.lean.stderr)
    assert SDK_LOADED in bytes(pair.sdk.stderr)


async def test_older_handshake_versions_are_left_to_the_sdk(pair: Pair, sim: ToolkitSim):
    for rid, version in ((1, "2025-03-26"), (2, "2024-11-05"), (3, "1999-01-01")):
        await pair.exchange(req(rid, "initialize", {**INIT, "protocolVersion": version}))
        await pair.exchange(req(10 + rid, "tools/list"))
        await pair.exchange(call(20 + rid, "scene_get_tree", {}))
    assert SDK_LOADED in bytes(pair.lean.stderr)


async def test_tool_list_change_and_group_loading_are_equal(pair: Pair, sim: ToolkitSim):
    await pair.exchange(req(1, "initialize", INIT))
    # discover_tools loads a group: its answer and the list_changed notification, in both
    await pair.exchange(call(2, "discover_tools", {"request": "animation"}), answers=2)
    await pair.exchange(req(3, "tools/list"))
    await pair.exchange(req(4, "tools/list", modern=True))


async def test_progress_notifications_are_equal(pair: Pair, sim: ToolkitSim):
    # The editor parks the call behind another (_queued): a client that asked hears why it waits.
    steps = ({"queued": True}, {"sleep": 0.3}, {"result": {"success": True, "name": "demo"}})
    sim.script("project.get_settings", *steps, times=4)
    for rid, modern in ((1, False), (2, True)):
        lines = await pair.exchange(call(rid, "project_get_settings", {}, modern=modern,
                                         _meta={"progressToken": f"tok{rid}"}), answers=2)
        assert b"notifications/progress" in lines[0] and f'"id":{rid}'.encode() in lines[1]
