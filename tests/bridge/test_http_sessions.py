"""Handshake-era sessions over HTTP, and clients of both eras sharing one editor.

Raw requests against the server in-process (no editor) check the session rules: the id
``initialize`` issues, the standing ``GET`` stream, ``DELETE``, 404 for an ended or unknown id,
idle expiry and the session cap. Then the SDK's clients, two in sessions and one 2026-07-28,
against the real ``godot-bridge --http`` and the toolkit simulator: each keeps its own tool
list, a reset by one never breaks another's calls, and a change every list sees reaches all
three on their own streams.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from mcp import Client

from godot_bridge.app import BridgeApp
from godot_bridge.config import Settings
from godot_bridge.mcp.http.config import HttpOptions
from tests.support.bridge_process import bridge_env
from tests.support.http_bridge import JSON_AND_SSE, HttpBridgeProcess, free_port, serve_in_process
from tests.sim.fixtures import until
from tests.sim.server import ToolkitSim

Serve = Callable[..., AbstractAsyncContextManager[str]]
INIT = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}


@pytest.fixture
def serve(data_home: Path, project_dir: Path) -> Serve:
    def factory(options: HttpOptions | None = None) -> AbstractAsyncContextManager[str]:
        settings = Settings(project_path=project_dir, editor_port=free_port(), env={"XDG_DATA_HOME": str(data_home)})
        return serve_in_process(BridgeApp(settings), options or HttpOptions(keepalive_s=0.05))
    return factory


@pytest.fixture
async def http() -> AsyncIterator[httpx2.AsyncClient]:
    async with httpx2.AsyncClient(timeout=20) as client:
        yield client


class Raw:
    """One handshake client speaking raw HTTP: ``initialize`` for a session, then calls inside it."""

    def __init__(self, http: httpx2.AsyncClient, url: str) -> None:
        self.http, self.url = http, url
        self.session: str | None = None
        self._next = 0

    async def initialize(self) -> httpx2.Response:
        resp = await self.post("initialize", INIT)
        self.session = resp.headers.get("mcp-session-id")
        return resp

    async def post(self, method: str, params: dict[str, Any] | None = None, accept: str = JSON_AND_SSE) -> httpx2.Response:
        self._next += 1
        body: dict[str, Any] = {"jsonrpc": "2.0", "id": self._next, "method": method, "params": params or {}}
        headers = {"Content-Type": "application/json", "Accept": accept}
        if self.session is not None:
            headers["Mcp-Session-Id"] = self.session
        return await self.http.post(self.url, content=json.dumps(body).encode(), headers=headers)

    async def notify(self, method: str) -> httpx2.Response:
        headers = {"Content-Type": "application/json", "Accept": JSON_AND_SSE, **self.headers()}
        body = {"jsonrpc": "2.0", "method": method}
        return await self.http.post(self.url, content=json.dumps(body).encode(), headers=headers)

    async def call(self, name: str, arguments: dict[str, Any] | None = None) -> dict[str, Any]:
        resp = await self.post("tools/call", {"name": name, "arguments": arguments or {}}, accept="application/json")
        assert resp.status_code == 200, resp.text
        return resp.json()

    async def names(self) -> list[str]:
        resp = await self.post("tools/list", accept="application/json")
        return [t["name"] for t in resp.json()["result"]["tools"]]

    def headers(self) -> dict[str, str]:
        assert self.session is not None
        return {"Mcp-Session-Id": self.session, "Accept": "text/event-stream"}


async def read_events(lines: AsyncIterator[str], until_method: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    async for line in lines:
        if line.startswith("data:"):
            found.append(json.loads(line[5:]))
            if found[-1].get("method") == until_method:
                return found
    raise AssertionError(f"the stream ended before {until_method}")


# -- the session rules, raw ----------------------------------------------------------------------


async def test_initialize_opens_a_session_with_its_own_tool_list(serve: Serve, http: httpx2.AsyncClient):
    async with serve() as url:
        first, second = Raw(http, url), Raw(http, url)
        init = await first.initialize()
        await second.initialize()
        assert init.status_code == 200 and init.json()["result"]["protocolVersion"] == "2025-06-18"
        assert first.session and second.session and first.session != second.session
        caps = init.json()["result"]["capabilities"]
        assert caps["logging"] == {} and caps["resources"]["subscribe"] is True
        assert (await first.notify("notifications/initialized")).status_code == 202

        loaded = await first.call("discover_tools", {"request": "audio"})
        assert loaded["result"]["isError"] is False
        assert "audiobus_list" in await first.names()
        assert "audiobus_list" not in await second.names()
        # Outside any session, requests share one list of their own.
        assert "audiobus_list" not in await Raw(http, url).names()
        # Each session is served in the version it negotiated: 2025-06-18 results carry no 2025-11-25 fields.
        assert (await first.post("ping", accept="application/json")).json()["result"] == {}


async def test_the_standing_stream_carries_what_the_session_is_told(serve: Serve, http: httpx2.AsyncClient):
    async with serve() as url:
        client = Raw(http, url)
        await client.initialize()
        async with http.stream("GET", url, headers=client.headers()) as stream:
            assert stream.status_code == 200 and stream.headers["content-type"] == "text/event-stream"
            second = await http.get(url, headers=client.headers())
            assert second.status_code == 409  # one standing stream per session
            # A change this session's JSON-only request caused has no response stream to ride: it comes here.
            await client.call("discover_tools", {"request": "tilemap"})
            with anyio.fail_after(10):
                events = await read_events(stream.aiter_lines(), "notifications/tools/list_changed")
            assert events[-1] == {"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}
        # A request that reads SSE hears a change it causes on its own response instead.
        resp = await client.post("tools/call", {"name": "discover_tools", "arguments": {"request": "theme"}})
        assert resp.headers["content-type"] == "text/event-stream"
        assert '"notifications/tools/list_changed"' in resp.text


async def test_delete_ends_a_session_and_an_ended_id_is_404(serve: Serve, http: httpx2.AsyncClient):
    async with serve() as url:
        client = Raw(http, url)
        await client.initialize()
        async with http.stream("GET", url, headers=client.headers()) as stream:
            ended = await http.delete(url, headers={"Mcp-Session-Id": client.session or ""})
            assert ended.status_code == 200
            with anyio.fail_after(10):
                async for _ in stream.aiter_lines():  # the standing stream closes with the session
                    pass
        gone = await client.post("tools/list")
        assert gone.status_code == 404 and gone.json()["error"]["code"] == -32001
        assert (await http.delete(url, headers={"Mcp-Session-Id": client.session or ""})).status_code == 404
        assert (await http.get(url, headers=client.headers())).status_code == 404
        # The client starts over with initialize, and gets a new session.
        client.session = None
        assert (await client.initialize()).status_code == 200 and client.session


async def test_idle_sessions_expire_unless_their_stream_is_open(serve: Serve, http: httpx2.AsyncClient):
    async with serve(HttpOptions(keepalive_s=0.05, session_idle_s=0.3)) as url:
        idle, streaming = Raw(http, url), Raw(http, url)
        await idle.initialize()
        await streaming.initialize()
        async with http.stream("GET", url, headers=streaming.headers()) as stream:
            assert stream.status_code == 200
            await anyio.sleep(0.6)
            assert (await idle.post("tools/list")).status_code == 404
            assert (await streaming.post("tools/list")).status_code == 200  # an open stream is not idle
        await anyio.sleep(0.6)
        assert (await streaming.post("tools/list")).status_code == 404


async def test_the_session_cap_drops_the_one_idle_longest(serve: Serve, http: httpx2.AsyncClient):
    async with serve(HttpOptions(keepalive_s=0.05, max_sessions=2)) as url:
        oldest, middle, newest = Raw(http, url), Raw(http, url), Raw(http, url)
        await oldest.initialize()
        await middle.initialize()
        assert (await oldest.post("tools/list")).status_code == 200  # used: now middle is idle longest
        await newest.initialize()
        assert (await middle.post("tools/list")).status_code == 404
        assert (await oldest.post("tools/list")).status_code == 200
        assert (await newest.post("tools/list")).status_code == 200


async def test_requests_outside_a_session_keep_working(serve: Serve, http: httpx2.AsyncClient):
    async with serve() as url:
        sessionless = Raw(http, url)
        assert (await sessionless.call("discover_tools", {"request": "audio"}))["result"]["isError"] is False
        refused = await sessionless.post("resources/subscribe", {"uri": "godot://errors"}, accept="application/json")
        assert "Mcp-Session-Id" in refused.json()["error"]["message"]
        for method in ("GET", "DELETE"):  # without a session there is nothing to GET or end
            resp = await http.request(method, url, headers={"Accept": "text/event-stream"})
            assert resp.status_code == 405 and resp.headers["allow"] == "POST"


# -- three clients of both eras, one editor --------------------------------------------------------


class Told:
    """The tool-list changes one SDK client heard on its streams."""

    def __init__(self) -> None:
        self.changes = 0

    async def on_message(self, message: Any) -> None:
        if type(message).__name__ == "ToolListChangedNotification":
            self.changes += 1


def names(result: Any) -> list[str]:
    return [t.name for t in result.tools]


async def test_three_clients_keep_their_own_lists_and_hear_every_change(sim: ToolkitSim, data_home: Path,
                                                                       project: Path):
    first, second = Told(), Told()
    async with HttpBridgeProcess(bridge_env(data_home, project)) as bridge:
        with anyio.fail_after(90):
            async with Client(bridge.url, mode="legacy", message_handler=first.on_message, cache=None) as a, \
                    Client(bridge.url, mode="legacy", message_handler=second.on_message, cache=None) as b, \
                    Client(bridge.url, mode="2026-07-28", cache=None) as c:
                assert not (await a.call_tool("discover_tools", {"request": "audio"})).is_error
                assert not (await b.call_tool("discover_tools", {"request": "tilemap"})).is_error
                assert not (await c.call_tool("discover_tools", {"request": "theme"})).is_error
                lists = [names(await client.list_tools()) for client in (a, b, c)]
                assert "audiobus_list" in lists[0] and "audiobus_list" not in lists[1] + lists[2]
                assert "tilemap_read_cells" in lists[1] and "tilemap_read_cells" not in lists[0] + lists[2]
                # 2026-07-28: what a client calls never changes its list.
                assert "theme_edit" not in lists[0] + lists[1] + lists[2]

                # A reset by one client never breaks the others' calls.
                assert not (await a.call_tool("discover_tools", {"reset": True})).is_error
                assert "audiobus_list" not in names(await a.list_tools())
                assert not (await b.call_tool("tilemap_read_cells", {"node_path": "Map"})).is_error
                # A tool of a group not in a client's list is served: loaded for a handshake client, while
                # the 2026-07-28 client's list stays as it is.
                assert not (await c.call_tool("audiobus_list", {})).is_error
                assert names(await c.list_tools()) == lists[2]

                # One client changes what every list shows (the editor's extensions): all three hear it.
                heard_a, heard_b = first.changes, second.changes
                sim.extensions.append({"method": "wordtools.count", "description": "Count words.",
                                       "annotations": {"readOnlyHint": True},
                                       "input_schema": {"type": "object", "properties": {"text": {"type": "string"}}}})
                async with c.listen(tools_list_changed=True) as events:
                    assert not (await b.call_tool("extensions_refresh", {})).is_error
                    async for event in events:
                        assert type(event).__name__ == "ToolsListChanged"
                        break
                await until(lambda: first.changes > heard_a and second.changes > heard_b, 10)
                for client in (a, b, c):
                    assert "wordtools_count" in names(await client.list_tools())
