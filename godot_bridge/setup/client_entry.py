"""Our entry in an MCP client's configuration, and merging it into an existing file.

The entry (its key, how the client launches the bridge, the env it always sets, and which file
each MCP client reads) is data in the toolkit, ``addons/godot_mcp_toolkit/ui/mcp_entry.json``:
the plugin's dock (ui/mcp_json.gd) and ``godot-bridge init`` both read it, so both write the
same entry. ``merge`` follows the dock's rules exactly (tests/fixtures/toolkit/mcp_json_merge.json
holds both to them): only our entry is added or updated, every other server and top-level key
is kept, and inside our entry keys the user added survive while ``command`` and ``args`` are ours
to set. ``{version}`` in the launch arguments is the plugin's version: the uvx form starts
exactly the bridge whose plugin the project holds, never whatever an index serves later.
"""

from __future__ import annotations

import copy
import functools
import json
import sys
from dataclasses import dataclass, field
from typing import Any

from godot_bridge import __version__
from godot_bridge.setup.toolkit_files import CLIENT_ENTRY, toolkit_dir

# sys.platform -> the OS.get_name() value the entry's "launch" table is keyed by.
_OS_NAMES = {"win32": "Windows", "darwin": "macOS"}


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


class EntryError(ValueError):
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


def os_name(platform: str | None = None) -> str:
    """This machine as Godot's OS.get_name() says it ("Windows", "macOS", "Linux")."""
    platform = sys.platform if platform is None else platform
    return _OS_NAMES.get(platform, "Linux")


def env_string(value: Any) -> str:
    """Env values are strings on the wire: a whole float loses its ".0", booleans are true/false."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return str(value)


def validate(existing: dict[str, Any], servers_key: str = "mcpServers", env_key: str = "env") -> str:
    """"" when ``existing`` can be merged, else why not (the file is then left as it is)."""
    if servers_key not in existing:
        return ""
    servers = existing[servers_key]
    if not isinstance(servers, dict):
        return f'"{servers_key}" is not an object'
    key = definition().server_key
    if key not in servers:
        return ""
    entry = servers[key]
    if not isinstance(entry, dict):
        return f'"{servers_key}.{key}" is not an object'
    if env_key in entry and not isinstance(entry[env_key], dict):
        return f'"{servers_key}.{key}.{env_key}" is not an object'
    return ""


def common(entry: dict[str, Any], client: ClientSpec | None) -> dict[str, Any]:
    """``client``'s spelling of an entry in the common shape (command, args, env), keys in their order."""
    if client is None:
        return dict(entry)
    out: dict[str, Any] = {}
    for key, value in entry.items():
        if key == "command" and client.argv and isinstance(value, list):
            out["command"] = str(value[0]) if value else ""
            out["args"] = [str(a) for a in value[1:]]
        elif key == client.env_key:
            out["env"] = value
        else:
            out[key] = value
    return out


def spelled(entry: dict[str, Any], client: ClientSpec | None) -> dict[str, Any]:
    """The common shape as ``client`` spells it (opencode: one command array, "environment")."""
    if client is None:
        return dict(entry)
    out: dict[str, Any] = {}
    for key, value in entry.items():
        if key == "args" and client.argv:
            continue
        if key == "command" and client.argv:
            out["command"] = [value, *entry.get("args", [])]
        elif key == "env":
            out[client.env_key] = value
        else:
            out[key] = value
    return out


def _number(value: float) -> int | float:
    return int(value) if float(value).is_integer() else value


def merge(existing: dict[str, Any], os_name: str, env_overrides: dict[str, Any] | None = None,
          servers_key: str = "mcpServers", *, launch: dict[str, Any] | None = None,
          extra: dict[str, Any] | None = None, client: ClientSpec | None = None,
          floors: dict[str, float] | None = None) -> dict[str, Any]:
    """The document with our entry merged in; ``existing`` itself is never changed.

    ``env_overrides`` sets env vars (None removes one). ``launch`` ({"command", "args"}) replaces
    the uvx form of ``os_name`` (``init`` passes the command of the bridge that runs it); ``extra``
    sets keys a client needs (VS Code's ``"type": "stdio"``); ``client`` gives its servers key,
    those keys and its spelling of the entry. ``floors`` are time limits: a key missing or below
    its floor gets the floor, a larger one the user chose stays. Precondition: ``validate``
    passed; otherwise ``existing`` comes back unchanged, so a careless caller still cannot
    destroy a file."""
    if client is not None:
        servers_key, extra = client.servers, {**client.entry, **(extra or {})}
    config = copy.deepcopy(existing)
    if validate(existing, servers_key, client.env_key if client else "env"):
        return config
    spec = definition()
    servers = config.setdefault(servers_key, {})
    entry = common(servers.get(spec.server_key, {}), client)
    env = {str(k): env_string(v) for k, v in entry.get("env", {}).items()}
    for name, value in (env_overrides or {}).items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = env_string(value)
    env.update(spec.env)
    chosen = launch or spec.launch_for(os_name)
    for key, value in (extra or {}).items():
        entry.setdefault(key, copy.deepcopy(value))
    entry["command"], entry["args"], entry["env"] = chosen["command"], list(chosen["args"]), env
    for key, floor in (floors or {}).items():
        current = entry.get(key)
        if isinstance(current, bool) or not isinstance(current, int | float) or current < floor:
            entry[key] = _number(floor)
    servers[spec.server_key] = spelled(entry, client)
    return config
