"""The MCP Inspector's CLI (npm ``@modelcontextprotocol/inspector``, pinned: scripts/inspector.sh) against
the real bridge and the simulated editor, over stdio and Streamable HTTP, in both protocol eras.

What a person debugging a server with the Inspector sees: our start-up list passes its tool-schema
portability check (``--strict``), a tool call reaches the editor and comes back, a group tool runs
through ``call_tool``, and ``godot://errors`` reads. Without npm or a network the test skips and
says why.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import sys
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from godot_bridge.tools.catalogue import load_catalogue
from tests.sim.server import ToolkitSim
from tests.support.bridge_process import ROOT, bridge_env
from tests.support.external import finish, install_or_skip
from tests.support.http_bridge import HttpBridgeProcess

ERAS = ("legacy", "modern")  # the Inspector's names: the initialize handshake, 2026-07-28
CELLS = {"node_path": "/root/Main/Map", "cells": [{"x": 1, "y": 2}]}


@pytest.fixture(scope="module")
def inspector() -> Path:
    folder = install_or_skip("the MCP Inspector", ROOT / "scripts" / "inspector.sh", needs="npm", timeout=300)
    return Path(folder) / "node_modules" / ".bin" / "mcp-inspector"


@pytest.fixture(params=["stdio", "http"])
async def target(request: pytest.FixtureRequest, data_home: Path, project_dir: Path) -> AsyncIterator[list[str]]:
    """The Inspector's arguments naming the bridge (a command for stdio, a URL over HTTP), in front
    of a simulated editor that echoes what each call sent it."""
    sim = ToolkitSim(data_home, project_dir.resolve(), godot_version="4.5.1", lsp_port=None)
    await sim.start()
    sim.script("scene.get_tree", {"echo": True}, times=None)
    sim.script("tilemap.set_cells", {"echo": True}, times=None)
    env = bridge_env(data_home, project_dir)
    try:
        if request.param == "http":
            async with HttpBridgeProcess(env) as bridge:
                yield ["--transport", "http", bridge.url]
        else:
            pairs = [arg for key in sorted(env) for arg in ("-e", f"{key}={env[key]}")]
            yield [*pairs, "--cwd", str(ROOT), sys.executable, "-m", "godot_bridge"]
    finally:
        await sim.stop()


async def inspect(inspector: Path, era: str, target: list[str], *method: str) -> tuple[int, dict[str, Any], str]:
    """One Inspector CLI run: its exit status, its JSON answer and what it said on stderr. Its home is
    a folder of the test's (it keeps a catalog and storage under ``~/.mcp-inspector``)."""
    argv = [str(inspector), "--cli", "--protocol-era", era, "--format", "json", *method, *target]
    home = Path(tempfile.mkdtemp(prefix="inspector-home-"))
    try:
        proc = await asyncio.create_subprocess_exec(*argv, stdin=asyncio.subprocess.DEVNULL,
                                                    env={**os.environ, "HOME": str(home)},
                                                    stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        out, err = await finish(proc, 60)
    finally:
        shutil.rmtree(home, ignore_errors=True)
    said = err.decode(errors="replace")
    assert out.strip(), f"the Inspector answered nothing (exit {proc.returncode}): {said[-2000:]}"
    return proc.returncode or 0, json.loads(out), said


def payload(result: dict[str, Any]) -> Any:
    return json.loads(result["content"][0]["text"])


def schema_at(schema: dict[str, Any], path: str) -> Any:
    node: Any = schema
    for part in path.split("."):
        node = node[part]
    return node


@pytest.mark.parametrize("era", ERAS)
async def test_the_inspector_lists_and_calls_through_the_bridge(inspector: Path, target: list[str], era: str) -> None:
    # The start-up list, with the Inspector's schema portability check.
    status, listed, said = await inspect(inspector, era, target, "--method", "tools/list", "--strict")
    assert status == 0, said[-2000:]
    names = [tool["name"] for tool in listed["result"]["tools"]]
    assert {"discover_tools", "call_tool", "scene_get_tree"} <= set(names) and len(names) == len(set(names))
    assert "tilemap_set_cells" not in names, "a group's tools wait behind discover_tools"
    # Its only findings are warnings about the parameters that take any value on purpose (the reference's
    # schemas, which ours match): a schema there with no keyword at all.
    catalogue = load_catalogue().tools
    for found in listed.get("schemaFindings", []):
        for finding in found["findings"]:
            assert finding["severity"] == "warning" and finding["rule"] == "untyped-schema", finding
            untyped = schema_at(catalogue[found["toolName"]].input_schema, finding["path"])
            assert set(untyped) <= {"description"}, (found["toolName"], finding["path"], untyped)

    # A call reaches the editor with its arguments and comes back.
    status, called, said = await inspect(inspector, era, target, "--method", "tools/call", "--tool-name",
                                         "scene_get_tree", "--tool-args-json", '{"max_depth": 3}')
    assert status == 0, said[-2000:]
    assert payload(called["result"])["params"] == {"max_depth": 3}
    assert ("_meta" in called["result"]) == (era == "modern"), "2026-07-28 results carry the server's identity"

    # A tool of a group not loaded runs by name through call_tool.
    status, by_name, said = await inspect(inspector, era, target, "--method", "tools/call", "--tool-name",
                                          "call_tool", "--tool-args-json",
                                          json.dumps({"name": "tilemap_set_cells", "arguments": CELLS}))
    assert status == 0, said[-2000:]
    assert payload(by_name["result"])["params"] == CELLS


async def test_the_inspector_reads_the_pushed_errors(inspector: Path, target: list[str]) -> None:
    status, read, said = await inspect(inspector, "legacy", target, "--method", "resources/read",
                                       "--uri", "godot://errors")
    assert status == 0, said[-2000:]
    contents = read["result"]["contents"]
    assert [c["uri"] for c in contents] == ["godot://errors"]
    errors = json.loads(contents[0]["text"])
    assert errors["entries"] == [] and errors["counts"] == {"error": 0, "warning": 0}
