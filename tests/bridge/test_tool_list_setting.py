"""The tool list is configuration, never a side effect (GODOT_MCP_TOOL_LIST), in both eras, over
stdio and Streamable HTTP.

A client of each era lists its tools before and after every meta call (discover_tools, call_tool,
extensions_refresh) and after a call by name of a group tool it never loaded. In 2026-07-28 the
list is the same each time (names, order, schemas) in both settings, as the revision requires; in
the handshake era it grows and shrinks as it always has under ``groups`` (each change announced with
notifications/tools/list_changed) and never changes under ``all``. Then the editor's extensions
change: every list changes, and each era hears it on its own channel (2026-07-28: subscriptions/listen).
The real bridge process and the toolkit simulator (Godot 4.5.1: every tool is allowed).
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from godot_bridge.mcp.core.protocol import TOOLS_LIST_CACHE_SCOPE, TOOLS_LIST_TTL_MS
from godot_bridge.tools.catalogue import load_catalogue
from godot_bridge.tools.counts import count
from tests.support.bridge_process import ROOT, bridge_env
from tests.support.http_bridge import HttpBridgeProcess
from tests.sim.fixtures import process_sim as sim  # noqa: F401 - the editor this module's bridges talk to
from tests.sim.fixtures import until
from tests.sim.server import ToolkitSim
from tests.support.sdk_client import sdk_client

CATALOGUE = load_catalogue()
COUNTS = count(CATALOGUE)
MODERN = "2026-07-28"

# Each step: the call, and the groups a handshake-era list holds after it under ``groups``.
STEPS: list[tuple[str, dict[str, Any], list[str]]] = [
    ("discover_tools", {}, []),
    ("discover_tools", {"request": "tilemap"}, ["tilemap"]),
    ("discover_tools", {"request": ["audio", "theme"], "include_schemas": True}, ["tilemap", "audio", "theme"]),
    ("call_tool", {"name": "tilemap_read_cells", "arguments": {"node_path": "Map"}}, ["tilemap", "audio", "theme"]),
    ("extensions_refresh", {}, ["tilemap", "audio", "theme"]),
    ("discover_tools", {"reset": True}, []),
    ("classdb_search", {"pattern": "Sprite"}, ["classdb"]),  # by name: a group no list loaded
]


def extension(name: str) -> dict[str, Any]:
    return {"method": f"{name}.count", "description": "Count words.", "annotations": {"readOnlyHint": True},
            "input_schema": {"type": "object", "properties": {"text": {"type": "string"}}}}


class Heard:
    """The tool-list changes one client heard: handshake notifications, or events of its listen stream."""

    def __init__(self) -> None:
        self.changes = 0

    async def on_message(self, message: Any) -> None:
        if type(message).__name__ == "ToolListChangedNotification":
            self.changes += 1


@contextlib.asynccontextmanager
async def bridge(transport: str, setting: str, data_home: Path, project: Path) -> AsyncIterator[Any]:
    """What a Client connects to: the stdio command (a bridge per client), or one ``--http`` bridge's URL."""
    env = bridge_env(data_home, project, {"GODOT_MCP_TOOL_LIST": setting})
    if transport == "stdio":
        yield StdioServerParameters(command=sys.executable, args=["-m", "godot_bridge"], env=env, cwd=str(ROOT))
        return
    async with HttpBridgeProcess(env) as http:
        yield http.url


def wire(result: Any) -> list[dict[str, Any]]:
    return [t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in result.tools]


def names(tools: list[dict[str, Any]]) -> list[str]:
    return [t["name"] for t in tools]


def group_tools(groups: list[str]) -> set[str]:
    return {name for group in groups for name in CATALOGUE.groups[group].tools}


async def walk(client: Client, mode: str, setting: str, heard: Heard) -> None:
    """Every step, the list after each, checked against what the era and the setting allow."""
    assert not (await client.call_tool("scene_get_tree", {})).is_error  # the editor is connected
    first = await client.list_tools()
    start = wire(first)
    if mode == MODERN:
        assert (first.ttl_ms, first.cache_scope) == (TOOLS_LIST_TTL_MS, TOOLS_LIST_CACHE_SCOPE)
    if setting == "all":
        assert len(start) == COUNTS.tools and group_tools(["tilemap", "audio", "theme", "classdb"]) <= set(names(start))
    else:
        assert len(start) == COUNTS.always_on
    for name, arguments, loaded in STEPS:
        result = await client.call_tool(name, arguments)
        assert not result.is_error, (name, arguments, result)
        after = wire(await client.list_tools())
        if mode == MODERN or setting == "all":
            assert after == start, f"{mode}, {setting}: tools/list changed after {name} {arguments}"
            continue
        assert set(names(after)) == set(names(start)) | group_tools(loaded), (name, arguments)
    if mode != MODERN and setting == "groups":
        await until(lambda: heard.changes == 4, 10)  # tilemap, audio and theme, the reset, classdb
    else:
        assert heard.changes == 0, f"{mode}, {setting}: a call announced a list change"


@pytest.mark.parametrize("setting", ["groups", "all"])
@pytest.mark.parametrize("transport", ["stdio", "http"])
async def test_the_list_is_the_configuration_in_both_eras(transport: str, setting: str, sim: ToolkitSim,
                                                          data_home: Path, project_dir: Path) -> None:
    old, new = Heard(), Heard()
    with anyio.fail_after(120):
        async with bridge(transport, setting, data_home, project_dir) as target, \
                sdk_client(target, mode="legacy", message_handler=old.on_message, cache=None) as legacy, \
                sdk_client(target, mode=MODERN, cache=None) as modern, \
                modern.listen(tools_list_changed=True) as events, anyio.create_task_group() as tg:
            async def listen() -> None:
                async for event in events:
                    new.changes += type(event).__name__ == "ToolsListChanged"

            tg.start_soon(listen)
            await walk(legacy, "legacy", setting, old)
            await walk(modern, MODERN, setting, new)

            # The editor's extensions change (its own push, to every bridge): every list does, and each
            # era hears it.
            heard_old, heard_new = old.changes, new.changes
            command = extension("wordtools")
            sim.extensions.append(command)
            await sim.push({"notification": "extensions.changed", "params": {"commands": [command], "removed": []}})
            await until(lambda: old.changes > heard_old and new.changes > heard_new, 10)
            for client in (legacy, modern):
                assert "wordtools_count" in names(wire(await client.list_tools()))
            tg.cancel_scope.cancel()
