"""Our entry in an MCP client's configuration as the toolkit defines it, and finding it among a file's servers.

The entry (its key, how the client launches the bridge, the env it always sets, and which file
each MCP client reads) is data in the toolkit, ``addons/godot_mcp_toolkit/ui/mcp_entry.json``:
the plugin's dock (ui/mcp_json.gd) and the bridge both read it. The running bridge finds its own
entry with it (live_config.py follows ``.mcp.json``); ``godot-bridge init`` and ``doctor`` write and
check entries with it (setup/client_entry.py merges one into a file).
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field
from typing import Any

from godot_bridge import __version__
from godot_bridge.errors import DefinitionError
from godot_bridge.shipped.toolkit_files import CLIENT_ENTRY, toolkit_dir

VERSION_SLOT = "{version}"
# What a client's time-limit key holds (mcp_entry.json "timeouts"; client_limits.py gives the values).
TIMEOUT_KINDS = ("call_ms", "call_s", "start_s")


@dataclass(frozen=True)
class ClientSpec:
    """Where one MCP client reads its servers, and how its entry is spelled (mcp_entry.json ``clients``)."""

    name: str
    label: str
    file: str  # relative to the folder the client opens
    user_file: str  # "~/..." or "" when we do not write a per-user file for it
    format: str  # "json", "jsonc" (comments and trailing commas allowed) or "toml"
    servers: str  # the object (JSON) or table (TOML) holding the servers
    entry: dict[str, Any]  # keys this client needs besides command, args and env
    note: str  # the step the person takes in that client (trust, approval), "" for none
    also: tuple[str, ...] = ()  # other names of the file in the same folder; the one present is used
    argv: bool = False  # command and args as one array under "command" (opencode)
    env_key: str = "env"  # the name of the env object ("environment" for opencode)
    timeouts: dict[str, str] = field(default_factory=dict)  # key -> "call_ms", "call_s" or "start_s"
    passes_env: dict[str, tuple[str, ...]] | None = None  # OS name -> the only variables it passes on

    def passed(self, os_name: str) -> tuple[str, ...] | None:
        """The variables this client passes on to the bridge on ``os_name``; None: all of its own."""
        if self.passes_env is None:
            return None
        return self.passes_env.get(os_name, self.passes_env.get("default", ()))


@dataclass(frozen=True)
class EntryDefinition:
    server_key: str
    key_hints: tuple[str, ...]
    package: str
    launch: dict[str, dict[str, Any]]
    env: dict[str, str]
    clients: dict[str, ClientSpec]

    def launch_for(self, os_name: str, version: str = __version__) -> dict[str, Any]:
        """The uvx form for this OS, pinned to ``version`` (the plugin's, which is this bridge's)."""
        chosen = self.launch.get(os_name, self.launch["default"])
        return {"command": chosen["command"], "args": [a.replace(VERSION_SLOT, version) for a in chosen["args"]]}


def _client(name: str, c: dict[str, Any]) -> ClientSpec:
    passes = c.get("passes_env")
    return ClientSpec(
        name, str(c["label"]), str(c["file"]), str(c["user_file"]), str(c["format"]), str(c["servers"]),
        dict(c["entry"]), str(c["note"]), also=tuple(str(f) for f in c.get("also", ())),
        argv=bool(c.get("argv", False)), env_key=str(c.get("env_key", "env")),
        timeouts={str(k): str(v) for k, v in c.get("timeouts", {}).items()},
        passes_env=None if passes is None else {str(k): tuple(str(n) for n in v) for k, v in passes.items()})


class EntryError(DefinitionError, ValueError):
    """The toolkit's entry definition is missing or malformed (a broken install)."""


@functools.lru_cache(maxsize=1)
def definition() -> EntryDefinition:
    path = toolkit_dir() / CLIENT_ENTRY
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        launch = {str(k): {"command": str(v["command"]), "args": [str(a) for a in v["args"]]}
                  for k, v in data["launch"].items()}
        if "default" not in launch:
            raise KeyError("launch.default")
        clients = {str(name): _client(str(name), c) for name, c in data["clients"].items()}
        if any(c.format not in ("json", "jsonc", "toml") for c in clients.values()):
            raise ValueError("a client's format is not json, jsonc or toml")
        if any(v not in TIMEOUT_KINDS for c in clients.values() for v in c.timeouts.values()):
            raise ValueError(f"a client's timeouts hold something other than {', '.join(TIMEOUT_KINDS)}")
        return EntryDefinition(
            server_key=str(data["server_key"]),
            key_hints=tuple(str(h) for h in data["server_key_hints"]),
            package=str(data["package"]),
            launch=launch,
            env={str(k): str(v) for k, v in data["env"].items()},
            clients=clients,
        )
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise EntryError(f"{path} cannot be used ({exc}); reinstall godot-bridge") from None


def our_key(servers: dict[str, Any]) -> str | None:
    """Our entry's key, else the first key (sorted) naming one of the hints: a hand-written entry."""
    spec = definition()
    if spec.server_key in servers:
        return spec.server_key
    return next((k for k in sorted(servers) if any(h in k for h in spec.key_hints)), None)
