"""Every Streamable HTTP rule, one raw request at a time (seeds 000/001).

The server runs in-process on 127.0.0.1 and a free port, with no editor behind it:
these tests are about the transport, so they use protocol methods and the bridge's
own tools (discover_tools), which need no editor.
"""

from __future__ import annotations

import base64
import json
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Any

import httpx2
import pytest

from godot_bridge.app import BridgeApp
from godot_bridge.config import Settings
from godot_bridge.mcp.http.config import HttpOptions
from tests.support.client_file import mcp_json, write_until
from tests.support.http_bridge import JSON_AND_SSE, free_port, modern_body, modern_headers, serve_in_process, sse_messages

Serve = Callable[..., AbstractAsyncContextManager[str]]


@pytest.fixture
def serve(data_home: Path, project_dir: Path) -> Serve:
    """``async with serve(HttpOptions(...)) as url`` — a bridge with no editor, served over HTTP."""
    def factory(options: HttpOptions | None = None) -> AbstractAsyncContextManager[str]:
        settings = Settings(project_path=project_dir, editor_port=free_port(),
                            env={"XDG_DATA_HOME": str(data_home)})
        return serve_in_process(BridgeApp(settings), options)
    return factory


@pytest.fixture
async def url(serve: Serve) -> AsyncIterator[str]:
    async with serve() as served:
        yield served


@pytest.fixture
async def client() -> AsyncIterator[httpx2.AsyncClient]:
    async with httpx2.AsyncClient(timeout=20) as http:
        yield http


def legacy(method: str, params: dict[str, Any] | None = None, rid: Any = 1) -> dict[str, Any]:
    body: dict[str, Any] = {"jsonrpc": "2.0", "id": rid, "method": method}
    if params is not None:
        body["params"] = params
    return body


ACCEPT = {"Accept": JSON_AND_SSE}


async def post(client: httpx2.AsyncClient, url: str, body: Any, headers: dict[str, str] | None = None,
               content: bytes | None = None) -> httpx2.Response:
    data = content if content is not None else json.dumps(body).encode()
    return await client.post(url, content=data, headers={"Content-Type": "application/json", **ACCEPT,
                                                         **(headers or {})})


def error_of(resp: httpx2.Response) -> dict[str, Any]:
    return resp.json()["error"]


# -- methods, eras, sessions ---------------------------------------------------------------------


@pytest.mark.parametrize("method", ["GET", "HEAD", "DELETE", "PUT"])
async def test_only_post_is_allowed(method: str, url: str, client: httpx2.AsyncClient):
    resp = await client.request(method, url, headers={"MCP-Protocol-Version": "2026-07-28"})
    assert resp.status_code == 405 and resp.headers["allow"] == "POST"


async def test_no_version_header_is_a_handshake_request_with_no_admission_gate(url: str, client: httpx2.AsyncClient):
    resp = await post(client, url, legacy("tools/list"))
    assert resp.status_code == 200 and resp.headers["content-type"] == "application/json"
    result = resp.json()["result"]
    assert "resultType" not in result and any(t["name"] == "discover_tools" for t in result["tools"])
    init = await post(client, url, legacy("initialize", {"protocolVersion": "2099-01-01", "capabilities": {},
                                                          "clientInfo": {"name": "t", "version": "1"}}))
    assert init.json()["result"]["protocolVersion"] == "2025-11-25"
    assert len(init.headers["mcp-session-id"]) >= 32  # a session is offered; using it is up to the client


async def test_an_unknown_session_id_is_404(url: str, client: httpx2.AsyncClient):
    resp = await post(client, url, legacy("tools/list"), {"Mcp-Session-Id": "stale-session"})
    assert resp.status_code == 404 and error_of(resp)["code"] == -32001
    note = {"jsonrpc": "2.0", "method": "notifications/initialized"}
    assert (await post(client, url, note, {"Mcp-Session-Id": "stale-session"})).status_code == 404
    for method in ("GET", "DELETE"):
        resp = await client.request(method, url, headers={"Mcp-Session-Id": "stale-session", **ACCEPT})
        assert resp.status_code == 404
    # 2026-07-28 has no sessions: the header means nothing there.
    modern = await post(client, url, modern_body("tools/list"), modern_headers("tools/list", **{"Mcp-Session-Id": "x"}))
    assert modern.status_code == 200 and "result" in modern.json()


async def test_both_eras_on_one_server_request_by_request(url: str, client: httpx2.AsyncClient):
    modern = await post(client, url, modern_body("tools/list"), modern_headers("tools/list"))
    handshake = await post(client, url, legacy("tools/list"))
    again = await post(client, url, modern_body("server/discover"), modern_headers("server/discover"))
    assert modern.json()["result"]["resultType"] == "complete"
    assert modern.json()["result"]["ttlMs"] == 300_000 and modern.json()["result"]["cacheScope"] == "private"
    assert "resultType" not in handshake.json()["result"]
    assert again.json()["result"]["supportedVersions"] == ["2026-07-28"]


# -- the header mirror ---------------------------------------------------------------------------


CALL = modern_body("tools/call", {"name": "discover_tools", "arguments": {}})


async def test_a_mirrored_tools_call_is_served(url: str, client: httpx2.AsyncClient):
    resp = await post(client, url, CALL, modern_headers("tools/call", "discover_tools"))
    assert resp.status_code == 200 and resp.json()["result"]["isError"] is False


async def test_base64_mcp_name_is_decoded_before_comparing(url: str, client: httpx2.AsyncClient):
    wrapped = "=?base64?" + base64.b64encode(b"discover_tools").decode() + "?="
    resp = await post(client, url, CALL, modern_headers("tools/call", wrapped))
    assert resp.status_code == 200 and "result" in resp.json()


@pytest.mark.parametrize("headers", [
    pytest.param({"Mcp-Method": None}, id="method-missing"),
    pytest.param({"Mcp-Method": "tools/list"}, id="method-contradicts"),
    pytest.param({"Mcp-Method": "TOOLS/CALL"}, id="method-case"),
    pytest.param({"Mcp-Name": None}, id="name-missing"),
    pytest.param({"Mcp-Name": "scene_get_tree"}, id="name-contradicts"),
    pytest.param({"Mcp-Name": "=?base64?ZGlzY292ZXJfdG9vbHM?="}, id="base64-bad-padding"),
    pytest.param({"Mcp-Name": "=?base64?" + "QUFB" * 2049 + "?="}, id="base64-payload-over-8192"),
    pytest.param({"MCP-Protocol-Version": None}, id="version-missing"),
    pytest.param({"MCP-Protocol-Version": "2025-11-25"}, id="version-contradicts"),
])
async def test_headers_that_do_not_mirror_the_body_are_32020(headers: dict[str, str | None], url: str,
                                                            client: httpx2.AsyncClient):
    sent = modern_headers("tools/call", "discover_tools")
    for name, value in headers.items():
        sent.pop(name, None)
        if value is not None:
            sent[name] = value
    resp = await post(client, url, CALL, sent)
    assert resp.status_code == 400 and error_of(resp)["code"] == -32020 and resp.json()["id"] == 1


async def test_a_duplicated_routing_header_is_32020(url: str, client: httpx2.AsyncClient):
    headers = [("Content-Type", "application/json"), ("Accept", JSON_AND_SSE), ("MCP-Protocol-Version", "2026-07-28"),
               ("Mcp-Method", "tools/call"), ("Mcp-Name", "discover_tools"), ("Mcp-Name", "discover_tools")]
    resp = await client.post(url, content=json.dumps(CALL).encode(), headers=headers)
    assert resp.status_code == 400 and error_of(resp)["code"] == -32020


async def test_mcp_name_on_a_method_without_a_subject_is_32020(url: str, client: httpx2.AsyncClient):
    resp = await post(client, url, modern_body("tools/list"), modern_headers("tools/list", "discover_tools"))
    assert resp.status_code == 400 and error_of(resp)["code"] == -32020


async def test_body_is_checked_before_headers(url: str, client: httpx2.AsyncClient):
    # A modern version header over a body with no _meta: the body's verdict (-32602), not the mirror's.
    resp = await post(client, url, legacy("tools/list", {}), modern_headers("tools/list"))
    assert resp.status_code == 400 and error_of(resp)["code"] == -32602
    # A mistyped _meta field and contradicting headers: still the body's -32602.
    bad = modern_body("tools/list", {"_meta": {"io.modelcontextprotocol/clientCapabilities": "none"}})
    resp = await post(client, url, bad, modern_headers("server/discover"))
    assert resp.status_code == 400 and error_of(resp)["code"] == -32602


async def test_unsupported_version_is_32022_listing_modern_versions(url: str, client: httpx2.AsyncClient):
    body = modern_body("tools/list", {"_meta": {"io.modelcontextprotocol/protocolVersion": "2030-01-01"}})
    resp = await post(client, url, body, modern_headers("tools/list", **{"MCP-Protocol-Version": "2030-01-01"}))
    assert resp.status_code == 400
    error = error_of(resp)
    assert error["code"] == -32022 and error["data"]["supported"] == ["2026-07-28"]
    assert error["data"]["requested"] == "2030-01-01"
    # Seed 001's order (the issue's choice): a header contradicting the body wins over the version rung.
    resp = await post(client, url, body, modern_headers("tools/list"))
    assert resp.status_code == 400 and error_of(resp)["code"] == -32020


async def test_handshake_request_with_an_unknown_version_header_is_refused(url: str, client: httpx2.AsyncClient):
    resp = await post(client, url, legacy("tools/list"), {"MCP-Protocol-Version": "1999-01-01"})
    assert resp.status_code == 400
    error = error_of(resp)
    assert error["code"] == -32600 and error["data"]["supported"] == ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]
    ok = await post(client, url, legacy("tools/list"), {"MCP-Protocol-Version": "2025-06-18"})
    assert ok.status_code == 200 and "result" in ok.json()


async def test_ping_is_served_in_2026_07_28(url: str, client: httpx2.AsyncClient):
    resp = await post(client, url, modern_body("ping"), modern_headers("ping"))
    assert resp.status_code == 200, resp.text
    assert resp.json()["result"]["resultType"] == "complete"
    served = await post(client, url, legacy("ping"))
    assert served.status_code == 200 and served.json()["result"] == {}


@pytest.mark.parametrize("method", ["initialize"])
async def test_methods_2026_07_28_removed_are_404(method: str, url: str, client: httpx2.AsyncClient):
    params = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}
    resp = await post(client, url, modern_body(method, params), modern_headers(method))
    assert resp.status_code == 404 and error_of(resp)["code"] == -32601
    # Named by the header alone, with the envelope in order: the same.
    body = legacy(method, {**params, "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                                               "io.modelcontextprotocol/clientCapabilities": {}}})
    resp = await post(client, url, body, {"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": method})
    assert resp.status_code == 404 and error_of(resp)["code"] == -32601
    # The handshake's own initialize and ping (no 2026-07-28 marker) are served as always.
    served = await post(client, url, legacy(method, params if method == "initialize" else None))
    assert served.status_code == 200 and "result" in served.json()


# -- error <-> status ------------------------------------------------------------------------------


async def test_modern_errors_carry_seed_000_statuses(url: str, client: httpx2.AsyncClient):
    unknown = await post(client, url, modern_body("nope/nothing"), modern_headers("nope/nothing"))
    assert unknown.status_code == 404 and error_of(unknown)["code"] == -32601
    body = modern_body("tools/call", {"name": "no_such_tool", "arguments": {}})
    bad_tool = await post(client, url, body, modern_headers("tools/call", "no_such_tool"))
    assert bad_tool.status_code == 400 and error_of(bad_tool)["code"] == -32602


async def test_handshake_errors_are_200(url: str, client: httpx2.AsyncClient):
    unknown = await post(client, url, legacy("nope/nothing"))
    assert unknown.status_code == 200 and error_of(unknown)["code"] == -32601
    discover = await post(client, url, legacy("server/discover"))
    assert discover.status_code == 200 and error_of(discover)["code"] == -32601
    bad_tool = await post(client, url, legacy("tools/call", {"name": "no_such_tool", "arguments": {}}))
    assert bad_tool.status_code == 200 and error_of(bad_tool)["code"] == -32602


async def test_transport_refusals(serve: Serve, client: httpx2.AsyncClient):
    async with serve(HttpOptions(max_body=1024)) as url:
        parse = await post(client, url, None, content=b"{not json")
        assert parse.status_code == 400 and error_of(parse)["code"] == -32700 and parse.json()["id"] is None
        batch = await post(client, url, [legacy("tools/list")])
        assert batch.status_code == 400 and error_of(batch)["code"] == -32600
        envelope = await post(client, url, {"jsonrpc": "1.0", "id": 9, "method": "tools/list"})
        assert envelope.status_code == 200 and error_of(envelope)["code"] == -32600 and envelope.json()["id"] == 9
        text = await client.post(url, content=b"{}", headers={"Content-Type": "text/plain", **ACCEPT})
        assert text.status_code == 415
        big = await post(client, url, legacy("tools/list", {"pad": "x" * 2000}))
        assert big.status_code == 413

        async def chunks() -> AsyncIterator[bytes]:
            yield json.dumps(legacy("tools/list")).encode()

        chunked = await client.post(url, content=chunks(), headers={"Content-Type": "application/json", **ACCEPT})
        assert chunked.status_code == 411


@pytest.mark.parametrize("depth", [150, 990, 3000])
async def test_a_request_nested_too_deep_is_answered_with_its_id(depth: int, url: str, client: httpx2.AsyncClient):
    """As on stdio: deeper than the bridge accepts (or than Python's parser goes), the request still gets
    its answer, with its id: -32602, 200 in the handshake era and 400 in 2026-07-28."""
    deep = "[" * depth + "]" * depth
    handshake = json.dumps(legacy("tools/call", {"name": "discover_tools", "arguments": {"t": 1}}, rid="deep-1"))
    resp = await post(client, url, None, content=handshake.replace('"t": 1', '"t": ' + deep).encode())
    assert resp.status_code == 200 and resp.json()["id"] == "deep-1" and error_of(resp)["code"] == -32602
    body = json.dumps(modern_body("tools/call", {"name": "discover_tools", "arguments": {"t": 1}}, rid=7))
    resp = await post(client, url, None, modern_headers("tools/call", "discover_tools"),
                      content=body.replace('"t": 1', '"t": ' + deep).encode())
    assert resp.status_code == 400 and resp.json()["id"] == 7 and error_of(resp)["code"] == -32602
    note = json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized", "params": {"a": 1}})
    silent = await post(client, url, None, content=note.replace('"a": 1', '"a": ' + deep).encode())
    assert silent.status_code == 202 and not silent.content


# -- Origin and authentication -----------------------------------------------------------------------


@pytest.mark.parametrize("origin", ["http://localhost:3000", "http://127.0.0.1", "http://[::1]:8080",
                                    "https://app.example.com"])
async def test_allowed_origins(origin: str, serve: Serve, client: httpx2.AsyncClient):
    async with serve(HttpOptions(allowed_origins=frozenset({"https://app.example.com"}))) as url:
        resp = await post(client, url, legacy("tools/list"), {"Origin": origin})
        assert resp.status_code == 200


async def test_foreign_origin_is_refused_before_anything_else(url: str, client: httpx2.AsyncClient):
    evil = {"Origin": "http://evil.example.com"}
    refused = await post(client, url, legacy("tools/list"), evil)
    assert refused.status_code == 403 and error_of(refused)["code"] == 1001
    # Before the method check (405) and the content-type check (415).
    assert (await client.get(url, headers=evil)).status_code == 403
    wrong_type = await client.post(url, content=b"x", headers={"Content-Type": "text/plain", **evil})
    assert wrong_type.status_code == 403


async def test_bearer_token(serve: Serve, client: httpx2.AsyncClient):
    async with serve(HttpOptions(token="s3cret")) as url:
        missing = await post(client, url, legacy("tools/list"))
        assert missing.status_code == 401 and missing.headers["www-authenticate"].startswith("Bearer")
        wrong = await post(client, url, legacy("tools/list"), {"Authorization": "Bearer nope"})
        assert wrong.status_code == 401
        right = await post(client, url, legacy("tools/list"), {"Authorization": "Bearer s3cret"})
        assert right.status_code == 200 and "result" in right.json()


# -- notifications, SSE, the server card ----------------------------------------------------------------


async def test_notifications_get_202_with_an_empty_body(url: str, client: httpx2.AsyncClient):
    for body, headers in [
        ({"jsonrpc": "2.0", "method": "notifications/initialized"}, {}),
        ({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 5}}, {}),
        ({"jsonrpc": "2.0", "method": "notifications/cancelled",
          "params": {"requestId": 5, "_meta": modern_body("x")["params"]["_meta"]}},
         modern_headers("notifications/cancelled")),
        ({"jsonrpc": "2.0", "id": 4, "result": {}}, {}),  # a response to a request we never sent
    ]:
        resp = await post(client, url, body, headers)
        assert resp.status_code == 202 and resp.content == b"", body


async def test_a_notification_that_does_not_mirror_its_headers_is_refused(url: str, client: httpx2.AsyncClient):
    body = {"jsonrpc": "2.0", "method": "notifications/cancelled",
            "params": {"requestId": 5, "_meta": modern_body("x")["params"]["_meta"]}}
    resp = await post(client, url, body, modern_headers("notifications/initialized"))
    assert resp.status_code == 400 and error_of(resp)["code"] == -32020


async def test_handshake_list_changed_rides_the_calls_own_sse_stream(url: str, client: httpx2.AsyncClient):
    call = legacy("tools/call", {"name": "discover_tools", "arguments": {"request": "audio"}})
    resp = await post(client, url, call)
    assert resp.headers["content-type"] == "text/event-stream"
    messages = sse_messages(resp.text)
    assert messages[0]["method"] == "notifications/tools/list_changed"
    assert messages[-1]["id"] == 1 and messages[-1]["result"]["isError"] is False
    # A JSON-only client gets the answer alone.
    again = legacy("tools/call", {"name": "discover_tools", "arguments": {"request": "tilemap"}})
    plain = await post(client, url, again, {"Accept": "application/json"})
    assert plain.headers["content-type"] == "application/json" and plain.json()["result"]["isError"] is False


async def test_modern_list_changed_reaches_a_listen_stream(serve: Serve, project_dir: Path):
    import anyio

    async with serve(HttpOptions(keepalive_s=0.05)) as url, httpx2.AsyncClient(timeout=20) as client:
        body = modern_body("subscriptions/listen", {"notifications": {"toolsListChanged": True}})
        seen: list[str] = []
        async with client.stream("POST", url, content=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json",
                                          **modern_headers("subscriptions/listen")}) as stream:
            assert stream.headers["content-type"] == "text/event-stream"
            lines = stream.aiter_lines()
            with anyio.fail_after(10):
                async for line in lines:
                    seen.append(line)
                    if line.startswith(": keepalive"):  # acknowledged, then idle: kept alive
                        break
                # A call changes no 2026-07-28 list; the configuration does.
                call = modern_body("tools/call", {"name": "discover_tools", "arguments": {"request": "theme"}})
                resp = await post(client, url, call, modern_headers("tools/call", "discover_tools"))
                assert resp.status_code == 200

            async def heard() -> None:
                async for line in lines:
                    seen.append(line)
                    if "tools/list_changed" in line:
                        return

            await write_until(project_dir / ".mcp.json", mcp_json({"GODOT_MCP_TOOL_LIST": "all"}), heard)
        assert "subscriptions/acknowledged" in next(line for line in seen if line.startswith("data:"))
        changed = [json.loads(line[5:]) for line in seen if "tools/list_changed" in line]
        assert len(changed) == 1 and changed[0]["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"]


async def test_listen_needs_an_sse_accept(url: str, client: httpx2.AsyncClient):
    body = modern_body("subscriptions/listen", {"notifications": {"toolsListChanged": True}})
    resp = await post(client, url, body, modern_headers("subscriptions/listen", Accept="application/json"))
    assert resp.status_code == 406


@pytest.mark.parametrize("path", ["/.well-known/mcp.json", "/.well-known/mcp/server-card.json"])
async def test_server_card(path: str, url: str, client: httpx2.AsyncClient):
    card = (await client.get(url.removesuffix("/mcp") + path)).json()
    assert card["supportedProtocolVersions"] == ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]
    assert card["name"] == "godot-bridge" and card["transport"]["endpoint"] == "/mcp"
    assert card["capabilities"]["tools"] == {"listChanged": True}
