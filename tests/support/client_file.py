"""A project's ``.mcp.json`` as a test writes it while the bridge runs (godot_bridge/live_config.py)."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from typing import Any

import anyio


def mcp_json(env: Mapping[str, str]) -> str:
    """A ``.mcp.json`` whose bridge entry has ``env`` (beside another server's entry)."""
    return json.dumps({"mcpServers": {"someone-else": {"command": "x"},
                                      "godot-mcp-toolkit": {"command": "uvx", "args": ["godot-bridge"],
                                                            "env": {"GODOT_MCP_CONFIG_VERSION": "1", **env}}}})


async def write_until(config: Path, text: str, arrived: Callable[[], Awaitable[Any]]) -> None:
    """Write the file until ``arrived()`` returns: a write that lands before the bridge's watch is
    up is only seen on the next one (rewriting identical content announces nothing new)."""
    for _ in range(20):
        config.write_text(text, encoding="utf-8")
        with anyio.move_on_after(1.0):
            await arrived()
            return
    raise AssertionError(f"no tool-list change after writing {config}")
