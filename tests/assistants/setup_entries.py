"""The entry ``godot-bridge init --client <name>`` writes, for the clients of B2's tests.

``init`` learns Copilot, Qwen Code and opencode on the set-up branch (i39setup). Where the bridge under
test already knows a client (its ``mcp_entry.json`` lists it), ``init`` writes the file; before that,
the same entry is written from what ``init --client claude`` wrote (``.mcp.json``: the file Copilot and
Qwen Code read; opencode's ``opencode.json`` ``mcp`` object holds the same command and environment in
its own shape). Nothing is added that a user's ``init`` would not write.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.assistants.sandbox import ROOT, SERVER_KEY, Sandbox

ENTRY_DEFINITION = ROOT / "addons/godot_mcp_toolkit/ui/mcp_entry.json"


def _clients() -> dict[str, Any]:
    return dict(json.loads(ENTRY_DEFINITION.read_text(encoding="utf-8")).get("clients", {}))


def init_knows(client: str) -> bool:
    return client in _clients()


def entry_path(sandbox: Sandbox, client: str, fallback: str) -> Path:
    """The project file holding our entry for ``client``: where init writes it, else ``fallback``."""
    return sandbox.project / str(_clients().get(client, {}).get("file", fallback))


def configure_mcp_json(sandbox: Sandbox, client: str, *args: str) -> None:
    """Copilot / Qwen Code: ``init --client <client>``, or the ``.mcp.json`` init writes for Claude Code."""
    sandbox.init(client if init_knows(client) else "claude", *args)


def mcp_json_entry(sandbox: Sandbox) -> dict[str, Any]:
    return dict(json.loads((sandbox.project / ".mcp.json").read_text(encoding="utf-8"))["mcpServers"][SERVER_KEY])


def configure_opencode(sandbox: Sandbox, *args: str) -> None:
    """opencode: ``init --client opencode``, or that entry in opencode's shape in ``opencode.json``."""
    if init_knows("opencode"):
        sandbox.init("opencode", *args)
        return
    sandbox.init("claude", *args)
    entry = mcp_json_entry(sandbox)
    ours = {"type": "local", "command": [entry["command"], *entry.get("args", [])],
            "environment": dict(entry.get("env", {}))}
    path = sandbox.project / "opencode.json"
    config = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    config.setdefault("mcp", {})[SERVER_KEY] = ours
    path.write_text(json.dumps(config, indent=2) + "\n", encoding="utf-8")
