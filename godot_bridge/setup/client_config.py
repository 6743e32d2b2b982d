"""The MCP client's configuration file for this project (``.mcp.json``, ``.vscode/mcp.json``).

Read-only, for ``godot-bridge doctor``: where the file is, whether it parses, which server
entry is ours and what environment it gives the bridge. Our entry is
``mcpServers["godot-mcp-toolkit"]`` (the key the plugin's dock and ``godot-bridge init`` write);
failing that, the first key, in sorted order, that contains ``godot-mcp`` or ``godot-bridge`` (a
hand-written entry), the same fallback the dock uses for its read-only mirror. Key and hints
are the shared entry definition's (client_entry.py).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from godot_bridge.setup.client_entry import definition
# (file relative to the project, the object holding the servers): Claude Code / Cursor / Codex, VS Code.
LOCATIONS = ((".mcp.json", "mcpServers"), (".vscode/mcp.json", "servers"))


@dataclass(frozen=True)
class ClientConfig:
    path: Path
    servers_key: str
    problem: str | None = None  # why the file cannot be used at all
    key: str | None = None  # our entry's key, None when there is none
    entry: dict[str, Any] = field(default_factory=dict)
    env: dict[str, str] = field(default_factory=dict)
    env_problems: list[str] = field(default_factory=list)  # values that are not strings, etc.

    @property
    def label(self) -> str:
        """The file as the user knows it: '.mcp.json' or '.vscode/mcp.json'."""
        return next(rel for rel, servers in LOCATIONS if servers == self.servers_key)


def find(project: Path) -> list[tuple[Path, str]]:
    """The client config files present in ``project``, in LOCATIONS order."""
    return [(project / rel, servers) for rel, servers in LOCATIONS if (project / rel).is_file()]


def _env_text(name: str, value: Any, problems: list[str]) -> str | None:
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        problems.append(f"{name}: {json.dumps(value)} is not a string; write \"{str(value).lower()}\"")
        return str(value).lower()
    if isinstance(value, int | float):
        problems.append(f"{name}: {json.dumps(value)} is not a string; write \"{value}\"")
        return str(value)
    problems.append(f"{name}: {json.dumps(value)} is not a string")
    return None


def our_key(servers: dict[str, Any]) -> str | None:
    spec = definition()
    if spec.server_key in servers:
        return spec.server_key
    return next((k for k in sorted(servers) if any(h in k for h in spec.key_hints)), None)


def load(path: Path, servers_key: str) -> ClientConfig:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        return ClientConfig(path, servers_key, problem=f"cannot be read ({exc.strerror or exc})")
    except UnicodeDecodeError:
        return ClientConfig(path, servers_key, problem="is not UTF-8 text")
    except json.JSONDecodeError as exc:
        return ClientConfig(path, servers_key, problem=f"is not valid JSON ({exc.msg} at line {exc.lineno} column {exc.colno})")
    if not isinstance(data, dict):
        return ClientConfig(path, servers_key, problem="is not a JSON object")
    servers = data.get(servers_key)
    if servers is None:
        return ClientConfig(path, servers_key, problem=f'has no "{servers_key}" object')
    if not isinstance(servers, dict):
        return ClientConfig(path, servers_key, problem=f'"{servers_key}" is not an object')
    key = our_key(servers)
    if key is None:
        return ClientConfig(path, servers_key)
    entry = servers[key]
    if not isinstance(entry, dict):
        return ClientConfig(path, servers_key, problem=f'"{servers_key}.{key}" is not an object', key=key)
    raw_env = entry.get("env", {})
    if not isinstance(raw_env, dict):
        return ClientConfig(path, servers_key, problem=f'"{servers_key}.{key}.env" is not an object', key=key, entry=entry)
    problems: list[str] = []
    env = {str(k): text for k, v in raw_env.items() if (text := _env_text(str(k), v, problems)) is not None}
    return ClientConfig(path, servers_key, key=key, entry=entry, env=env, env_problems=problems)
