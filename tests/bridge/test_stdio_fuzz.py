"""Fuzz the stdio input of the real router and line code, in both eras.

Each example feeds a batch of generated lines (requests, notifications, garbage, deep
nesting, lone surrogates, and messages with any member of a JSON type it may not have, from
``tests/support/envelope_shapes.py``) through ``serve_stdio`` + ``EraRouter`` + the bridge's own
``Server``, over real pipes, until end of input. Properties: serving ends by itself
(no crash, no hang), stdout holds only JSON-RPC lines, every request with an id is
answered exactly once, a mistyped member gets the error code the table gives, and one whose
id was the problem gets an answer with id null. The example count is bounded so the whole
file stays well under 30 s.
"""

from __future__ import annotations

import contextlib
import json
import os
import threading
from dataclasses import dataclass, field
from collections.abc import Iterator
from typing import Any, BinaryIO

import anyio
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp.server.lowlevel import NotificationOptions
from mcp.server.subscriptions import InMemorySubscriptionBus

from godot_bridge.app import BridgeApp
from godot_bridge.config import Settings
from godot_bridge.mcp.core.era_router import EraRouter
from godot_bridge.mcp.core.peers import Peer
from godot_bridge.mcp.core.sdk_server import build_server
from tests.support.bridge_process import MODERN_META
from tests.support.envelope_shapes import mistyped

SURROGATES = st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF)
TEXT = st.text(st.one_of(st.characters(), SURROGATES), max_size=12)
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXT, inner, max_size=3),
    max_leaves=12,
)
METHODS = st.sampled_from([
    "ping", "tools/list", "tools/call", "initialize", "server/discover", "subscriptions/listen",
    "resources/list", "notifications/initialized", "\udc00", "",
])
TOOL_NAMES = st.sampled_from(["discover_tools", "no_such_tool", "\udc00", ""])


@st.composite
def request_line(draw: st.DrawFn, index: int, modern: bool) -> tuple[str, Any]:
    rid: Any = index if draw(st.booleans()) else f"r{index}{draw(TEXT)}"
    method = draw(METHODS)
    params: Any
    if method == "tools/call":
        params = {"name": draw(TOOL_NAMES), "arguments": draw(st.dictionaries(TEXT, JSON, max_size=3) | JSON)}
    elif method == "initialize":
        params = {"protocolVersion": draw(st.sampled_from(["2024-11-05", "2025-11-25", "2026-07-28", "x"])),
                  "capabilities": {}, "clientInfo": {"name": draw(TEXT), "version": "1"}}
    else:
        params = draw(st.none() | st.dictionaries(TEXT, JSON, max_size=2))
    if modern and method != "initialize":
        params = dict(params or {})
        params["_meta"] = draw(st.just(MODERN_META) | st.dictionaries(TEXT, JSON, max_size=2))
    message: dict[str, Any] = {"jsonrpc": "2.0", "id": rid, "method": method}
    if params is not None:
        message["params"] = params
    return json.dumps(message), rid


@st.composite
def other_line(draw: st.DrawFn) -> str:
    kind = draw(st.sampled_from(["garbage", "deep", "batch", "notification", "json", "number"]))
    if kind == "number":  # what Python's parser refuses although it looks like JSON
        value = draw(st.sampled_from(["1" * 5000, "NaN", "Infinity", "-Infinity", "1e999999"]))
        return '{"jsonrpc":"2.0","id":"n","method":"ping","params":{"x":%s}}' % value
    if kind == "garbage":
        return draw(st.binary(max_size=40)).replace(b"\n", b" ").decode("latin-1")
    if kind == "deep":
        depth = draw(st.sampled_from([99, 101, 150, 1200]))
        return "[" * depth + "]" * depth
    if kind == "batch":
        return json.dumps([{"jsonrpc": "2.0", "id": 1, "method": "ping"}])
    if kind == "notification":
        # Never notifications/cancelled: a cancelled request is unanswered by design.
        return json.dumps({"jsonrpc": "2.0", "method": draw(st.sampled_from(["notifications/initialized", "x/y"])),
                           "params": draw(st.dictionaries(TEXT, JSON, max_size=2))})
    return json.dumps(draw(JSON))


@dataclass
class Session:
    lines: list[str] = field(default_factory=list)
    ids: list[Any] = field(default_factory=list)  # requests that must be answered exactly once
    codes: dict[str, int] = field(default_factory=dict)  # the error code some of them must get (by JSON id)
    null_answers: int = 0  # at least this many answers with id null (mistyped ids)


@st.composite
def session(draw: st.DrawFn, modern: bool) -> Session:
    out = Session()
    for index in range(draw(st.integers(1, 8))):
        kind = draw(st.sampled_from(["request", "mistyped", "other"]))
        if kind == "request":
            line, rid = draw(request_line(index, modern))
            out.lines.append(line)
            out.ids.append(rid)
        elif kind == "mistyped":
            case = draw(mistyped(rid=f"m{index}", modern=modern))
            out.lines.append(json.dumps(case.message))
            if case.member.code is not None and case.member.echo_id:
                out.ids.append(case.expected_id())
                out.codes[json.dumps(case.expected_id())] = case.member.code
            elif case.member.code is not None:
                out.null_answers += 1
        else:
            out.lines.append(draw(other_line()))
    return out


def _pump_in(fd: int, data: bytes) -> None:
    with os.fdopen(fd, "wb") as w:
        w.write(data)


def _pump_out(fd: int, sink: list[bytes]) -> None:
    with os.fdopen(fd, "rb") as r:
        sink.append(r.read())


@contextlib.contextmanager
def piped(lines: list[str]) -> Iterator[tuple[BinaryIO, BinaryIO, list[bytes]]]:
    """Real pipes for a server: its stdin fed ``lines``, its stdout read into the list (once the block ends)."""
    in_r, in_w = os.pipe()
    out_r, out_w = os.pipe()
    sink: list[bytes] = []
    data = "".join(line + "\n" for line in lines).encode("utf-8", "surrogatepass")
    threads = [threading.Thread(target=_pump_in, args=(in_w, data)), threading.Thread(target=_pump_out, args=(out_r, sink))]
    for thread in threads:
        thread.start()
    stdin, stdout = os.fdopen(in_r, "rb"), os.fdopen(out_w, "wb", buffering=0)
    try:
        yield stdin, stdout, sink
    finally:
        stdout.close()
        stdin.close()
        for thread in threads:
            thread.join(5)


async def serve(app: BridgeApp, lines: list[str]) -> list[bytes]:
    from godot_bridge.mcp.stdio.sdk_dispatch import serve_stdio

    server = build_server(app, InMemorySubscriptionBus())
    init = server.create_initialization_options(NotificationOptions(tools_changed=True))

    def handlers(dispatcher: Any) -> tuple[Any, Any]:
        router = EraRouter(server, dispatcher, init, Peer(app.tool_list(), standing=True))
        return router.on_request, router.on_notify

    with piped(lines) as (stdin, stdout, sink):
        with anyio.fail_after(20):
            await serve_stdio(handlers, stdin=stdin, stdout=stdout)
    return sink[0].splitlines() if sink else []


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> BridgeApp:
    home = tmp_path_factory.mktemp("fuzz")
    (home / "project").mkdir()
    # Never started: no editor or language server is dialled; only bridge tools are called.
    return BridgeApp(Settings(project_path=home / "project", env={"XDG_DATA_HOME": str(home / "data")}))


@pytest.mark.parametrize("modern", [False, True], ids=["handshake", "2026-07-28"])
def test_stdio_fuzz(app: BridgeApp, modern: bool) -> None:
    @settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(session(modern))
    def run(case: Session) -> None:
        out = anyio.run(serve, app, case.lines)
        answered: dict[str, int] = {}
        for raw in out:
            message = json.loads(raw)  # stdout carries only JSON lines ...
            assert isinstance(message, dict) and message.get("jsonrpc") == "2.0", raw
            if "result" in message or "error" in message:
                key = json.dumps(message["id"])
                answered[key] = answered.get(key, 0) + 1
                if key in case.codes:  # ... a mistyped member gets its error code ...
                    assert message["error"]["code"] == case.codes[key], (message, case.lines)
        for rid in case.ids:  # ... and every request with an id is answered exactly once
            assert answered.get(json.dumps(rid)) == 1, (rid, case.lines, out)
        assert answered.get("null", 0) >= case.null_answers, (case.lines, out)

    run()


async def serve_front(app: BridgeApp, lines: list[str], lean_path: bool) -> list[bytes]:
    """The shipped stdio front (lean path on or off) over real pipes, without dialling the editor."""
    from godot_bridge.mcp.stdio.server import StdioServer
    from godot_bridge.mcp.stdio.pipes import open_reader, open_writer

    with piped(lines) as (stdin, stdout, sink):
        with anyio.fail_after(20):
            writer = await open_writer(stdout)
            reader = await open_reader(stdin)
            await StdioServer(app, reader, writer, lean_path=lean_path).serve()
            reader.close()
            writer.close()
    return sink[0].splitlines() if sink else []


@pytest.mark.parametrize("modern", [False, True], ids=["handshake", "2026-07-28"])
def test_lean_front_answers_fuzz_as_the_sdk_path(tmp_path_factory: pytest.TempPathFactory, modern: bool) -> None:
    """The same generated session through the lean front and through the SDK path: the same lines.

    Answers to different requests may come in a different order (each path runs requests
    concurrently), so the lines are compared as a sorted list. A fresh app per run: a call may
    change what the app lists.
    """
    home = tmp_path_factory.mktemp("fuzz-lean")
    (home / "project").mkdir()

    def fresh() -> BridgeApp:
        return BridgeApp(Settings(project_path=home / "project", env={"XDG_DATA_HOME": str(home / "data")}))

    @settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(session(modern))
    def run(case: Session) -> None:
        lean_out = anyio.run(serve_front, fresh(), case.lines, True)
        sdk_out = anyio.run(serve_front, fresh(), case.lines, False)
        assert sorted(lean_out) == sorted(sdk_out), case.lines

    run()
