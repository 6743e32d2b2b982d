"""FastMCP's client (PyPI ``fastmcp``), a client nobody here wrote, against the real bridge.

It speaks 2026-07-28 by default and pings: over stdio and over Streamable HTTP it must connect,
ping, list the always-on tools and call one; discover_tools leaves its list as it was (2026-07-28) and
answers the schemas call_tool needs.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import anyio
import pytest

from tests.support.bridge_process import ROOT, bridge_env
from tests.support.http_bridge import HttpBridgeProcess
from godot_bridge.tools.catalogue import load_catalogue

# fastmcp 4 needs mcp>=2.3: the run at the lowest mcp (scripts/test_mcp_lowest.sh) has none: skipped.
fastmcp = pytest.importorskip("fastmcp", reason="fastmcp is not installed (extra test-fastmcp; it needs mcp>=2.3)")
from fastmcp.client.transports import StdioTransport  # noqa: E402


async def _exercise(client: "fastmcp.Client") -> None:
    assert await client.ping() is True
    names = [tool.name for tool in await client.list_tools()]
    always_on = {tool.name for tool in load_catalogue().tools.values() if tool.always_on}
    assert set(names) == always_on and "discover_tools" in names
    result = await client.call_tool("discover_tools", {"request": "audio"})
    answer = json.loads(result.content[0].text)
    assert [g["name"] for g in answer["groups"]] == ["audio"] and "call_tool" in answer["how_to_call"]
    assert all("inputSchema" in tool for tool in answer["groups"][0]["tools"])
    assert [tool.name for tool in await client.list_tools()] == names


async def test_fastmcp_client_over_stdio(data_home: Path, project_dir: Path) -> None:
    transport = StdioTransport(command=sys.executable, args=["-m", "godot_bridge"],
                               env=bridge_env(data_home, project_dir), cwd=str(ROOT))
    with anyio.fail_after(60):
        async with fastmcp.Client(transport) as client:
            await _exercise(client)


async def test_fastmcp_client_over_http(data_home: Path, project_dir: Path) -> None:
    async with HttpBridgeProcess(bridge_env(data_home, project_dir)) as bridge:
        with anyio.fail_after(60):
            async with fastmcp.Client(bridge.url) as client:
                await _exercise(client)
