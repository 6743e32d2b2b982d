"""Every tool reachable over the real stdio bridge, whether or not the client re-lists.

A client that fetches tools/list when told its list changed has its new list before the
discover_tools answer arrives (the answer then names the tools); one that does not is told to use
call_tool, which reaches the loaded tools. No editor runs: the calls reached stop at "no editor",
which is past every check a call passes in the bridge.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from tests.support.bridge_process import BridgeProcess, body, bridge_env
from tests.support.client_file import mcp_json, write_until

LIST_CHANGED = "notifications/tools/list_changed"


def handshake(name: str) -> dict[str, object]:
    return {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": name, "version": "1"}}


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    project = tmp_path / "project"
    project.mkdir()
    (project / "project.godot").write_text("config_version=5\n")
    return bridge_env(tmp_path / "data", project)


@asynccontextmanager
async def started(env: dict[str, str], client: str) -> AsyncIterator[BridgeProcess]:
    async with BridgeProcess(env) as bridge:
        await bridge.request("initialize", handshake(client), timeout=30)
        await bridge.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        await bridge.request("tools/list")
        yield bridge


def answer_of(response: dict[str, object]) -> dict[str, object]:
    result = response["result"]
    assert isinstance(result, dict)
    return json.loads(result["content"][0]["text"])


async def test_a_client_that_relists_has_its_list_before_the_answer(env: dict[str, str]) -> None:
    async with started(env, "relisting-client") as bridge:
        rid = "discover-1"
        answered = bridge.expect(rid)
        await bridge.send({"jsonrpc": "2.0", "id": rid, "method": "tools/call",
                           "params": {"name": "discover_tools", "arguments": {"request": "editor_lifecycle"}}})
        await bridge.wait_notification(LIST_CHANGED)
        assert not answered.done(), "the answer waits for the client's new list"
        listed = await bridge.request("tools/list")
        assert "editor_launch" in [t["name"] for t in listed["result"]["tools"]]
        answer = answer_of(await answered)
        lines = [json.loads(line) for line in bridge.raw_lines]
        ids = [m.get("id") for m in lines if "result" in m]
        assert ids.index(listed["id"]) < ids.index(rid), "the new list went out before the answer"
        assert "prefix" in answer["how_to_call"] and all("inputSchema" not in t for t in answer["activated_tools"])


async def test_a_client_that_never_relists_reaches_loaded_tools_through_call_tool(env: dict[str, str]) -> None:
    env = {**env, "GODOT_BIN": str(Path(env["GODOT_MCP_PROJECT_PATH"]) / "no-such-godot")}
    async with started(env, "codex-mcp-client") as bridge:
        assert "call_tool" in await bridge.tool_names()
        answer = answer_of(await bridge.request("tools/call", {"name": "discover_tools",
                                                               "arguments": {"request": "editor_lifecycle"}}))
        assert "call_tool" in answer["how_to_call"]
        schemas = {t["name"]: t["inputSchema"] for t in answer["activated_tools"]}
        assert "editor_launch" in schemas
        # Reached: the bridge ran it and says why it could not start Godot (not "unknown tool").
        result = await bridge.call_tool("call_tool", {"name": "editor_launch", "arguments": {"timeout_s": 5}})
        assert result["isError"] and body(result)["code"] == "GODOT_NOT_FOUND"
        # The same with Gemini's injected argument, at both levels.
        result = await bridge.call_tool("call_tool", {"name": "editor_launch", "arguments": {"wait_for_previous": True},
                                                      "wait_for_previous": True})
        assert body(result)["code"] == "GODOT_NOT_FOUND"


async def test_a_modern_client_reaches_group_tools_through_call_tool_and_hears_a_real_change(
        env: dict[str, str]) -> None:
    """2026-07-28 over stdio (as Copilot CLI speaks it): discover_tools changes nothing in the list and
    answers at once with the schemas, to call through call_tool, which reaches them; a change of the
    configuration reaches the listen stream (which loaded the SDK path)."""
    meta = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": {"name": "modern-client", "version": "1"},
            "io.modelcontextprotocol/clientCapabilities": {}}
    async with BridgeProcess(env) as bridge:
        await bridge.request("server/discover", {"_meta": meta}, timeout=30)
        await bridge.send({"jsonrpc": "2.0", "id": "listen", "method": "subscriptions/listen",
                           "params": {"_meta": meta, "notifications": {"toolsListChanged": True}}})
        before = (await bridge.request("tools/list", {"_meta": meta}))["result"]["tools"]
        answer = answer_of(await bridge.request("tools/call", {
            "_meta": meta, "name": "discover_tools", "arguments": {"request": "classdb"}}, timeout=10))
        assert "call_tool" in answer["how_to_call"], answer
        found = {t["name"]: t for group in answer["groups"] for t in group["tools"]}
        assert "inputSchema" in found["classdb_search"]
        assert (await bridge.request("tools/list", {"_meta": meta}))["result"]["tools"] == before
        reached = await bridge.request("tools/call", {"_meta": meta, "name": "call_tool", "arguments": {
            "name": "classdb_search", "arguments": {"pattern": "Sprite"}}})
        assert body(reached["result"])["code"] == "CONNECT_FAILED"  # past every check: no editor runs here
        assert not [n for n in bridge.notifications if n.get("method") == LIST_CHANGED]

        async def heard() -> None:
            await bridge.wait_notification(LIST_CHANGED, timeout=30)

        project = Path(env["GODOT_MCP_PROJECT_PATH"])
        await write_until(project / ".mcp.json", mcp_json({"GODOT_MCP_TOOL_LIST": "all"}), heard)
        listed = await bridge.request("tools/list", {"_meta": meta})
        assert "classdb_search" in [t["name"] for t in listed["result"]["tools"]]
