"""Errors pushed by Godot reach an MCP client without polling.

The real bridge process, the SDK client (the installed mcp) in each era, the toolkit simulator
in-process pushing ``errors.reported`` (editor and game channels) and ``game_crashed``
as the toolkit does: each new error arrives as a log notification and as an update of
``godot://errors``; a repeat raises the count without another log notification; a
malformed push is ignored.
"""

from __future__ import annotations

import json
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.shared.exceptions import MCPDeprecationWarning, MCPError
from mcp.shared.subscriptions import ResourceUpdated

from tests.support.bridge_process import MODERN_META, ROOT, BridgeProcess, bridge_env
from tests.support.http_bridge import HttpBridgeProcess
from tests.sim.fixtures import until
from tests.sim.server import ToolkitSim
from tests.support.sdk_client import sdk_client

ERRORS = "godot://errors"
# resources/subscribe and logging/setLevel are what handshake-era clients use, deprecated or not.
pytestmark = pytest.mark.filterwarnings(f"ignore::{MCPDeprecationWarning.__module__}.MCPDeprecationWarning")


def entry(id: int, message: str, *, severity: str = "error", count: int = 1, file: str = "res://player.gd",
          line: int = 12) -> dict[str, Any]:
    return {"id": id, "severity": severity, "message": message, "file": file, "line": line,
            "function": "_process", "stack": [{"file": file, "line": line, "function": "_process"}],
            "count": count, "time_ms": 1000 + id}


def reported(source: str, *entries: dict[str, Any]) -> dict[str, Any]:
    return {"source": source, "entries": list(entries)}


@pytest.fixture
async def sim(data_home: Path, project: Path) -> AsyncIterator[ToolkitSim]:
    s = ToolkitSim(data_home, project, godot_version="4.5.1", lsp_port=None)
    await s.start()
    try:
        yield s
    finally:
        await s.stop()


def params(data_home: Path, project: Path) -> StdioServerParameters:
    return StdioServerParameters(command=sys.executable, args=["-m", "godot_bridge"],
                                 env=bridge_env(data_home, project), cwd=str(ROOT))


class Heard:
    """What the client was told: log messages and resource updates, each awaitable."""

    def __init__(self) -> None:
        self.logs: list[Any] = []
        self.updates = 0
        self._changed = anyio.Event()

    def _poke(self) -> None:
        self._changed.set()
        self._changed = anyio.Event()

    async def on_log(self, params: Any) -> None:
        self.logs.append(params)
        self._poke()

    async def on_message(self, message: Any) -> None:
        if getattr(getattr(message, "params", None), "uri", None) == ERRORS:
            self.updates += 1
            self._poke()

    async def until(self, predicate: Any, what: str) -> None:
        with anyio.fail_after(10):
            while not predicate():
                await self._changed.wait()


async def read(client: Client) -> dict[str, Any]:
    result = await client.read_resource(ERRORS)
    return json.loads(result.contents[0].text)


async def test_handshake_client_hears_errors_as_logs_and_resource_updates(sim: ToolkitSim, data_home: Path,
                                                                          project: Path):
    heard = Heard()
    with anyio.fail_after(60):
        async with sdk_client(params(data_home, project), mode="legacy", logging_callback=heard.on_log,
                          message_handler=heard.on_message, cache=None) as client:
            caps = client.server_capabilities
            assert caps.logging is not None and caps.resources is not None and caps.resources.subscribe
            assert ERRORS in [str(r.uri) for r in (await client.list_resources()).resources]
            await client.session.subscribe_resource(ERRORS)
            await until(lambda: sim.peer_count == 1, 10)

            # A new editor error: one log message, one resource update, readable.
            await sim.notify("errors.reported", reported("editor", entry(1, "Invalid call 'foo'")))
            await heard.until(lambda: heard.logs and heard.updates, "first error")
            first = heard.logs[0]
            assert (first.level, first.logger) == ("error", "godot.editor")
            assert first.data["message"] == "Invalid call 'foo'" and first.data["line"] == 12
            doc = await read(client)
            assert [(e["source"], e["id"], e["count"]) for e in doc["entries"]] == [("editor", 1, 1)]
            assert doc["entries"][0]["stack"] == [{"file": "res://player.gd", "line": 12, "function": "_process"}]

            # The same error again with a higher count: an update, no second log message.
            updates = heard.updates
            await sim.notify("errors.reported", reported("editor", entry(1, "Invalid call 'foo'", count=7)))
            await heard.until(lambda: heard.updates > updates, "count update")
            assert (await read(client))["entries"][0]["count"] == 7

            # Malformed pushes are ignored; the bridge keeps serving, and the next good one arrives.
            await sim.push({"notification": "errors.reported", "params": "not an object"})
            await sim.notify("errors.reported", {"source": "somewhere", "entries": [entry(5, "x")]})
            await sim.notify("errors.reported", reported("editor", {"id": "six", "severity": "error", "message": "x"},
                                                         entry(7, "bad severity", severity="fatal")))
            await sim.notify("errors.reported", reported("editor", entry(2, "Unused variable", severity="warning")))
            await heard.until(lambda: len(heard.logs) >= 2, "second log")
            assert [log.data["message"] for log in heard.logs] == ["Invalid call 'foo'", "Unused variable"]
            assert heard.logs[1].level == "warning"
            assert [e["id"] for e in (await read(client))["entries"]] == [1, 2]

            # logging/setLevel error: warnings are no longer sent as log messages (still stored).
            await client.set_logging_level("error")
            await sim.notify("errors.reported", reported("editor", entry(3, "Another warning", severity="warning"),
                                                         entry(4, "Another error")))
            await heard.until(lambda: len(heard.logs) >= 3, "third log")
            assert [log.data["message"] for log in heard.logs[2:]] == ["Another error"]
            assert [e["id"] for e in (await read(client))["entries"]] == [1, 2, 3, 4]


async def test_game_errors_and_a_crash_arrive_from_the_game_and_the_editor(sim: ToolkitSim, data_home: Path,
                                                                           project: Path):
    heard = Heard()
    with anyio.fail_after(60):
        async with sdk_client(params(data_home, project), mode="legacy", logging_callback=heard.on_log,
                          message_handler=heard.on_message, cache=None) as client:
            await until(lambda: sim.peer_count == 1, 10)
            game = await sim.start_game()
            # No runtime tool is called: the bridge opens the game's channel when the registry names its port.
            await until(lambda: game.peer_count == 1, 10)
            await game.notify("errors.reported", reported("game", entry(1, "Node not found: Enemy")))
            await heard.until(lambda: heard.logs, "game error")
            assert (heard.logs[0].logger, heard.logs[0].data["source"]) == ("godot.game", "game")

            # The game's own channel cannot speak for the editor.
            await game.notify("errors.reported", reported("editor", entry(9, "forged")))
            await sim.crash_game(exit_code=11, last_lines=["ERROR: boom", "   at: _ready (res://main.gd:3)", ""],
                                 log_path="/tmp/godot.log")
            await heard.until(lambda: len(heard.logs) >= 2, "crash")
            crash = heard.logs[1]
            assert (crash.level, crash.logger) == ("error", "godot.game")
            assert crash.data["message"] == "game crashed (exit code 11): ERROR: boom"
            assert crash.data["last_lines"][0] == "ERROR: boom" and crash.data["log_path"] == "/tmp/godot.log"
            doc = await read(client)
            assert [(e["source"], e["id"]) for e in doc["entries"]] == [("game", 1), ("game", "crash-1")]

            # A new game is a new session: the previous game's entries are cleared, and the document says so.
            game = await sim.start_game()
            await until(lambda: game.peer_count == 1, 10)
            await game.notify("errors.reported", reported("game", entry(1, "A different first error")))
            await heard.until(lambda: len(heard.logs) >= 3, "new session error")
            doc = await read(client)
            assert [e["message"] for e in doc["entries"]] == ["A different first error"]
            assert doc["game_session"]["number"] == 2 and doc["game_session"]["cleared_from_previous"] == 2


async def test_modern_client_hears_errors_on_a_listen_stream(sim: ToolkitSim, data_home: Path, project: Path):
    heard = Heard()
    with anyio.fail_after(60):
        async with sdk_client(params(data_home, project), mode="2026-07-28", log_level="warning",
                          logging_callback=heard.on_log, cache=None) as client:
            await until(lambda: sim.peer_count == 1, 10)
            async with client.listen(resource_subscriptions=[ERRORS]) as sub:
                await sim.notify("errors.reported", reported("editor", entry(1, "Parse error", file="res://a.gd")))
                event = await anext(sub)
                assert event == ResourceUpdated(uri=ERRORS)
                await heard.until(lambda: heard.logs, "log on the listen stream")
                assert (heard.logs[0].level, heard.logs[0].data["file"]) == ("error", "res://a.gd")

                await sim.notify("errors.reported", reported("editor", entry(1, "Parse error", file="res://a.gd",
                                                                             count=3)))
                assert await anext(sub) == ResourceUpdated(uri=ERRORS)
                assert (await read(client))["entries"][0]["count"] == 3
            assert len(heard.logs) == 1


async def test_over_http_a_session_stream_and_a_listen_stream_carry_them(
        sim: ToolkitSim, data_home: Path, project: Path):
    legacy_heard, heard = Heard(), Heard()
    with anyio.fail_after(60):
        async with HttpBridgeProcess(bridge_env(data_home, project)) as bridge, \
                sdk_client(bridge.url, mode="legacy", logging_callback=legacy_heard.on_log,
                       message_handler=legacy_heard.on_message, cache=None) as legacy:
            # A handshake client has a session, so its GET stream carries logs and updates.
            caps = legacy.server_capabilities
            assert caps.logging is not None and caps.resources is not None and caps.resources.subscribe
            await legacy.session.subscribe_resource(ERRORS)
            await legacy.set_logging_level("warning")
            async with sdk_client(bridge.url, mode="2026-07-28", log_level="error", logging_callback=heard.on_log,
                              cache=None) as client:
                await until(lambda: sim.peer_count == 1, 10)
                async with client.listen(resource_subscriptions=[ERRORS]) as sub:
                    await sim.notify("errors.reported", reported("editor", entry(1, "only a warning",
                                                                                 severity="warning")))
                    assert await anext(sub) == ResourceUpdated(uri=ERRORS)
                    await sim.notify("errors.reported", reported("editor", entry(2, "an error")))
                    assert await anext(sub) == ResourceUpdated(uri=ERRORS)
                    await heard.until(lambda: heard.logs, "log over SSE")
                    assert [log.data["message"] for log in heard.logs] == ["an error"]  # log_level error
                assert [e["id"] for e in (await read(client))["entries"]] == [1, 2]
            await legacy_heard.until(lambda: len(legacy_heard.logs) >= 2 and legacy_heard.updates, "session stream")
            assert [log.data["message"] for log in legacy_heard.logs] == ["only a warning", "an error"]


async def test_capabilities_and_opt_ins_on_the_raw_wire(sim: ToolkitSim, data_home: Path, project: Path):
    async with BridgeProcess(bridge_env(data_home, project)) as bridge:
        listen = await bridge.request("server/discover", {}, modern=True)
        caps = listen["result"]["capabilities"]
        assert "logging" in caps and caps["resources"]["subscribe"] is True

        # 2026-07-28, no logLevel in _meta: the listen stream gets the resource update, never a log message.
        await until(lambda: sim.peer_count == 1, 10)
        await bridge.send({"jsonrpc": "2.0", "id": "L1", "method": "subscriptions/listen", "params": {
            "notifications": {"resourceSubscriptions": [ERRORS]}, "_meta": MODERN_META}})
        await bridge.wait_notification("notifications/subscriptions/acknowledged")
        await sim.notify("errors.reported", reported("game", entry(1, "quiet")))
        updated = await bridge.wait_notification("notifications/resources/updated")
        assert updated["params"]["uri"] == ERRORS
        assert updated["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"] == "L1"
        assert not [n for n in bridge.notifications if n.get("method") == "notifications/message"]

        init = await bridge.request("initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                                                   "clientInfo": {"name": "t", "version": "1"}})
        assert init["result"]["capabilities"]["logging"] == {}
        assert init["result"]["capabilities"]["resources"]["subscribe"] is True
        # Any URI may be watched; only godot://errors ever changes.
        assert (await bridge.request("resources/subscribe", {"uri": "godot://roots"}))["result"] == {}
        bad_level = await bridge.request("logging/setLevel", {"level": "loud"})
        assert bad_level["error"]["code"] == -32602
        assert await bridge.close() == 0  # ends cleanly with the listen stream still open


async def test_a_lean_only_session_still_hears_a_pushed_error(sim: ToolkitSim, data_home: Path, project: Path):
    """The hot methods never load the SDK path on stdio; the first pushed error must."""
    async with BridgeProcess(bridge_env(data_home, project)) as bridge:
        init = await bridge.request("initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                                                   "clientInfo": {"name": "t", "version": "1"}})
        assert init["result"]["capabilities"]["logging"] == {}
        await bridge.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        assert "tools" in (await bridge.request("tools/list", {}))["result"]
        await until(lambda: sim.peer_count == 1, 10)
        await sim.notify("errors.reported", reported("editor", entry(1, "first, before any SDK request")))
        message = await bridge.wait_notification("notifications/message")
        assert message["params"]["level"] == "error"
        assert message["params"]["data"]["message"] == "first, before any SDK request"
        # And the SDK path, now loaded, keeps the session's era: a resources read answers.
        read = await bridge.request("resources/read", {"uri": ERRORS})
        doc = json.loads(read["result"]["contents"][0]["text"])
        assert [e["message"] for e in doc["entries"]] == ["first, before any SDK request"]
        assert await bridge.close() == 0
