"""Hostile input over HTTP never crashes the server or leaves a request unanswered.

The HTTP twin of the stdio robustness tests: malformed bodies, random and contradicting
headers, hostile JSON (deep nesting, huge numbers, lone surrogates, odd ids). Every
request gets a well-formed answer of a known status, and the server still serves a
good request afterwards. Hypothesis drives a synchronous client from a worker thread
while the in-process server runs on the test's event loop; examples are bounded.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import anyio
import httpx2
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from godot_bridge.app import BridgeApp
from godot_bridge.config import Settings
from godot_bridge.mcp.http.config import HttpOptions
from tests.support.bridge_process import bridge_env
from tests.support.envelope_shapes import Case, cases, mistyped
from tests.support.http_bridge import (
    JSON_AND_SSE,
    MODERN_META,
    HttpBridgeProcess,
    free_port,
    modern_headers,
    serve_in_process,
    sse_messages,
)

KNOWN_STATUSES = {200, 202, 400, 403, 404, 405, 406, 411, 413, 415}
METHODS = ["tools/list", "tools/call", "server/discover", "initialize", "ping", "subscriptions/listen",
           "resources/read", "prompts/get", "notifications/cancelled", "nope/x", ""]
# h11 (the client) refuses edge whitespace in a header value, so strip it here.
HEADER_TEXT = st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=40).map(str.strip)

json_leaf = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False, allow_infinity=False),
                      st.text(max_size=20))
json_value = st.recursive(json_leaf, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=10), inner, max_size=4)), max_leaves=20)
metas = st.one_of(
    st.just(MODERN_META),
    st.fixed_dictionaries({"io.modelcontextprotocol/protocolVersion": st.one_of(st.sampled_from(
        ["2026-07-28", "2025-11-25", "2099-01-01"]), json_leaf),
        "io.modelcontextprotocol/clientCapabilities": json_value}),
    st.dictionaries(st.text(max_size=10), json_value, max_size=3),
    json_leaf,
)
params = st.one_of(st.none(), json_value, st.fixed_dictionaries({}, optional={
    "name": st.one_of(st.sampled_from(["discover_tools", "nope", "scene_get_tree"]), json_leaf),
    "uri": st.one_of(st.text(max_size=20), json_leaf),
    "arguments": json_value,
    "_meta": metas,
    "notifications": json_value,
}))
envelopes = st.fixed_dictionaries({}, optional={
    "jsonrpc": st.sampled_from(["2.0", "1.0", 2]),
    "id": st.one_of(st.integers(), st.text(max_size=8), st.none(), st.booleans(), st.floats(allow_nan=False)),
    "method": st.one_of(st.sampled_from(METHODS), json_leaf),
    "params": params,
    "result": json_value,
})
bodies = st.one_of(
    envelopes.map(lambda e: json.dumps(e).encode()),
    st.lists(envelopes, max_size=3).map(lambda e: json.dumps(e).encode()),
    json_value.map(lambda v: json.dumps(v).encode()),
    st.binary(max_size=64),
)
headers = st.fixed_dictionaries({}, optional={
    "Content-Type": st.sampled_from(["application/json", "application/json; charset=utf-8", "text/plain", ""]),
    "Accept": st.sampled_from(["application/json, text/event-stream", "application/json", "text/event-stream", "*/*"]),
    "MCP-Protocol-Version": st.one_of(st.sampled_from(["2026-07-28", "2025-11-25", "2025-06-18"]), HEADER_TEXT),
    "Mcp-Method": st.one_of(st.sampled_from(METHODS), HEADER_TEXT),
    "Mcp-Name": st.one_of(st.just("discover_tools"), HEADER_TEXT,
                          HEADER_TEXT.map(lambda t: "=?base64?" + base64.b64encode(t.encode()).decode() + "?=")),
    "Origin": st.sampled_from(["http://localhost", "http://evil.example.com", "null"]),
    "Mcp-Session-Id": HEADER_TEXT,
})

HOSTILE = [
    b"[" * 100_000,
    b'{"jsonrpc":"2.0","id":1,"method":"tools/list","params":' + b'{"a":' * 5000 + b"1" + b"}" * 5001,
    b'{"jsonrpc":"2.0","id":' + b"9" * 5000 + b',"method":"tools/list"}',
    b'{"jsonrpc":"2.0","id":1,"method":"\\ud800","params":{}}',
    b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"discover_tools","arguments":{"request":'
    + b"[" * 900 + b"]" * 900 + b"}}}",
    b'\xff\xfe{"jsonrpc":"2.0"}',
    b'{"jsonrpc":"2.0","id":1e400,"method":"tools/list"}',
    b"",
]


def check_answer(resp: httpx2.Response) -> None:
    assert resp.status_code in KNOWN_STATUSES, (resp.status_code, resp.text[:300])
    kind = resp.headers.get("content-type", "")
    if resp.status_code == 202:
        assert resp.content == b""
    elif kind == "application/json":
        message = resp.json()
        assert message["jsonrpc"] == "2.0" and ("result" in message) != ("error" in message)
    elif kind == "text/event-stream":
        messages = sse_messages(resp.text)
        assert messages and "id" in messages[-1] and ("result" in messages[-1] or "error" in messages[-1])


def post_mistyped(client: httpx2.Client, url: str, case: Case) -> None:
    """POST one message with a member of the wrong JSON type; the answer is the one its case expects.

    A 2026-07-28 case carries the era's mirror headers (naming what the body would, were it well
    typed); its -32602 travels as 400, every -32600 as 200 (seed 000's table), a notification as 202.
    """
    method = case.member.shape == "notification" and "notifications/initialized" or "ping"
    headers = modern_headers(method) if case.modern else {"Accept": JSON_AND_SSE}
    resp = client.post(url, json=case.message, headers=headers)
    if case.member.code is None:
        # Answered with nothing, unless the broken body no longer matches its mirror headers.
        assert resp.status_code == 202 or ((case.modern or case.modern_body) and resp.status_code == 400
                                           and resp.json()["error"]["code"] == -32020), (case.name, resp.text)
        return
    status = 400 if (case.modern or case.modern_body) and case.member.code == -32602 else 200
    assert resp.status_code == status, (case.name, resp.status_code, resp.text)
    answer = resp.json()
    assert answer["error"]["code"] == case.member.code and answer["id"] == case.expected_id(), (case.name, answer)


def good_request(client: httpx2.Client, url: str) -> None:
    resp = client.post(url, json={"jsonrpc": "2.0", "id": "ok", "method": "tools/list"})
    assert resp.status_code == 200 and resp.json()["result"]["tools"]


async def test_hostile_http_input_is_always_answered(data_home: Path, project_dir: Path):
    settings_ = Settings(project_path=project_dir, editor_port=free_port(), env={"XDG_DATA_HOME": str(data_home)})
    # keepalive_s small: a listen stream that fuzzing opens ends with the client's read timeout, not later.
    async with serve_in_process(BridgeApp(settings_), HttpOptions(max_body=1_000_000)) as url:

        statuses: set[int] = set()

        def fuzz() -> None:
            with httpx2.Client(timeout=httpx2.Timeout(15, read=3)) as client:
                for raw in HOSTILE:
                    check_answer(client.post(url, content=raw, headers={"Content-Type": "application/json"}))

                @settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
                @given(body=bodies, sent=headers)
                def one(body: bytes, sent: dict[str, Any]) -> None:
                    try:
                        resp = client.post(url, content=body, headers=sent)
                    except httpx2.ReadTimeout:
                        # Only a subscriptions/listen stream is open-ended by design.
                        assert b"subscriptions/listen" in body, body[:200]
                        return
                    check_answer(resp)
                    statuses.add(resp.status_code)

                one()
                good_request(client, url)

                @settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
                @given(case=mistyped())
                def typed(case: Case) -> None:
                    post_mistyped(client, url, case)

                typed()
                good_request(client, url)

        with anyio.fail_after(240):
            await anyio.to_thread.run_sync(fuzz)
        # The examples reached every layer: refusals, dispatched answers and their errors.
        assert {200, 400, 415} <= statuses, statuses


async def test_every_member_of_every_wrong_type_over_http(data_home: Path, project_dir: Path):
    """The real ``--http`` process, every member x every wrong JSON type x both eras: each answered
    as its case expects, and a good request is still served afterwards."""
    env = bridge_env(data_home, project_dir, {"GODOT_MCP_EDITOR_PORT": str(free_port())})
    async with HttpBridgeProcess(env) as bridge:

        def walk() -> None:
            with httpx2.Client(timeout=10) as client:
                for case in cases():
                    post_mistyped(client, bridge.url, case)
                good_request(client, bridge.url)

        await anyio.to_thread.run_sync(walk)
        assert bridge.proc is not None and bridge.proc.returncode is None
