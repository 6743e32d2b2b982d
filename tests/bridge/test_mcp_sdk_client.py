"""The official SDK client, in each of its modes, against the real bridge process."""

from __future__ import annotations

import json
import sys
import warnings
from pathlib import Path

import anyio
import pytest
from mcp.client.stdio import StdioServerParameters

from godot_bridge.tools.catalogue import load_catalogue
from godot_bridge.tools.counts import count
from tests.support.bridge_process import ROOT, bridge_env
from tests.support.client_file import mcp_json, write_until
from tests.support.sdk_client import sdk_client

COUNTS = count(load_catalogue())  # what tools/list holds at start, from the one place that defines it


def params(data_home: Path, project: Path, extra: dict[str, str] | None = None) -> StdioServerParameters:
    return StdioServerParameters(command=sys.executable, args=["-m", "godot_bridge"],
                                 env=bridge_env(data_home, project, extra), cwd=str(ROOT))


@pytest.mark.parametrize("mode", ["legacy", "auto", "2026-07-28"])
async def test_client_lists_and_calls(mode: str, data_home: Path, project_dir: Path):
    with anyio.fail_after(30):
        async with sdk_client(params(data_home, project_dir), mode=mode, cache=None) as client:
            expected = "2025-11-25" if mode == "legacy" else "2026-07-28"
            assert client.protocol_version == expected
            tools = (await client.list_tools()).tools
            assert len(tools) == COUNTS.always_on
            if mode != "2026-07-28":  # a pinned client synthesizes its discover result instead of asking
                assert client.server_capabilities.tools and client.server_capabilities.tools.list_changed
            result = await client.call_tool("discover_tools", {"request": "audio"})
            assert not result.is_error
            answer = json.loads(result.content[0].text)
            names = [t.name for t in (await client.list_tools()).tools]
            if mode == "legacy":
                assert any(g["status"] == "activated" for g in answer["groups"]) and "audiobus_list" in names
            else:  # 2026-07-28: no call changes the list; the answer has what call_tool needs
                assert "call_tool" in answer["how_to_call"] and len(names) == COUNTS.always_on
                reached = await client.call_tool("call_tool", {"name": "audiobus_list", "arguments": {}})
                assert json.loads(reached.content[0].text)["code"] == "CONNECT_FAILED"  # past every check
            failed = await client.call_tool("scene_get_tree", {})
            assert failed.is_error and json.loads(failed.content[0].text)["code"] == "CONNECT_FAILED"
            with warnings.catch_warnings():  # the SDK marks ping deprecated in 2026-07-28; clients still send it
                warnings.simplefilter("ignore")
                await client.send_ping()


async def test_modern_client_listen_receives_tools_list_changed(data_home: Path, project_dir: Path):
    """The list a 2026-07-28 client sees changes with the configuration (here GODOT_MCP_TOOL_LIST in
    .mcp.json), and the listen stream says so."""
    with anyio.fail_after(30):
        async with sdk_client(params(data_home, project_dir), mode="2026-07-28", cache=None) as client:
            assert len((await client.list_tools()).tools) == COUNTS.always_on
            async with client.listen(tools_list_changed=True) as sub:
                events: list[str] = []

                async def first_event() -> None:
                    async for event in sub:
                        events.append(type(event).__name__)
                        return

                await write_until(project_dir / ".mcp.json", mcp_json({"GODOT_MCP_TOOL_LIST": "all"}), first_event)
                assert events == ["ToolsListChanged"]
            names = [t.name for t in (await client.list_tools()).tools]
            assert "tilemap_set_cells" in names  # every tool but the version-bound ones: no editor here


async def test_legacy_client_sees_list_changed_notification(data_home: Path, project_dir: Path):
    seen = anyio.Event()

    async def on_message(message):
        if type(message).__name__ == "ToolListChangedNotification" or getattr(message, "method", "") == \
                "notifications/tools/list_changed":
            seen.set()

    with anyio.fail_after(30):
        async with sdk_client(params(data_home, project_dir), mode="legacy", message_handler=on_message,
                          cache=None) as client:
            await client.call_tool("discover_tools", {"request": "theme"})
            await seen.wait()


async def test_read_only_mode(data_home: Path, project_dir: Path):
    with anyio.fail_after(30):
        async with sdk_client(params(data_home, project_dir, {"GODOT_MCP_READ_ONLY": "1"}), mode="legacy",
                          cache=None) as client:
            tools = (await client.list_tools()).tools
            assert len(tools) == COUNTS.read_only_at_start
            assert all(t.annotations.read_only_hint and not t.annotations.destructive_hint for t in tools)
            answer = json.loads((await client.call_tool("discover_tools", {})).content[0].text)
            await client.call_tool("discover_tools", {"request": [g["name"] for g in answer["groups"]]})
            assert len((await client.list_tools()).tools) == COUNTS.read_only_in_all
