"""Our entry in an MCP client's configuration, and merging it into an existing file.

The entry (its key, how the client launches the bridge, the env it always sets, and which file
each MCP client reads) is data in the toolkit, ``addons/godot_mcp_toolkit/ui/mcp_entry.json``:
the plugin's dock (ui/mcp_json.gd) and ``godot-bridge init`` both read it (shipped/mcp_entry.py),
so both write the same entry. ``merge`` follows the dock's rules exactly (tests/fixtures/toolkit/mcp_json_merge.json
holds both to them): only our entry is added or updated, every other server and top-level key
is kept, and inside our entry keys the user added survive while ``command`` and ``args`` are ours
to set. ``{version}`` in the launch arguments is the plugin's version: the uvx form starts
exactly the bridge whose plugin the project holds, never whatever an index serves later.
"""

from __future__ import annotations

import copy
import sys
from typing import Any

from godot_bridge.shipped.mcp_entry import ClientSpec, definition

# sys.platform -> the OS.get_name() value the entry's "launch" table is keyed by.
_OS_NAMES = {"win32": "Windows", "darwin": "macOS"}


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
