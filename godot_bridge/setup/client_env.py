"""What the bridge needs from the environment to find the editor, for clients that filter it.

Most MCP clients start the bridge with their own environment plus the entry's ``env``. Codex
passes on only a short list (HOME, PATH, LANG, ...: mcp_entry.json ``passes_env``) plus the
entry's ``env``. A variable outside that list that decides where the editor is then never
reaches the bridge: ``XDG_DATA_HOME`` (Linux) moves the registry the editor publishes its port
and token in, so the bridge looks in the default folder and finds no editor (CONNECT_FAILED);
``GODOT_MCP_EDITOR_PORT``, ``GODOT_MCP_TOKEN_PATH`` and ``GODOT_BIN`` likewise.

``carried`` gives the ones set in ``init``'s environment (the person's shell, the one the editor
is started from) that such a client would drop: ``init`` writes them into that client's entry.
A registry variable whose value changes nothing (the default folder) is left out, and so is
every variable of a client that passes its whole environment on: a project file such as
``.mcp.json`` is often shared, and a path from one person's machine does not belong there.
``environment`` gives what the bridge sees when ``client`` starts it (doctor starts it so).
"""

from __future__ import annotations

import sys
from collections.abc import Mapping

from godot_bridge.editor.launch import GODOT_BIN
from godot_bridge.editor.registry import data_dir
from godot_bridge.setup.client_entry import os_name
from godot_bridge.shipped.mcp_entry import ClientSpec

# Where the registry is (registry.data_dir reads them), then how the bridge reaches the editor.
REGISTRY_VARS = ("XDG_DATA_HOME", "APPDATA")
FIND_EDITOR_VARS = ("GODOT_MCP_EDITOR_PORT", "GODOT_MCP_TOKEN_PATH", GODOT_BIN)


def moves_registry(name: str, env: Mapping[str, str], platform: str = sys.platform) -> bool:
    """Whether ``name``'s value in ``env`` puts the registry anywhere but where it is without it."""
    without = {k: v for k, v in env.items() if k != name}
    return data_dir(dict(env), platform) != data_dir(without, platform)


def carried(client: ClientSpec, env: Mapping[str, str], platform: str = sys.platform) -> dict[str, str]:
    """The variables ``client`` would not pass on that the bridge needs to find the editor."""
    passed = client.passed(os_name(platform))
    if passed is None:
        return {}
    out: dict[str, str] = {}
    for name in REGISTRY_VARS:
        if env.get(name) and name not in passed and moves_registry(name, env, platform):
            out[name] = env[name]
    for name in FIND_EDITOR_VARS:
        if env.get(name) and name not in passed:
            out[name] = env[name]
    return out


def environment(client: ClientSpec | None, env: Mapping[str, str], entry_env: Mapping[str, str],
                platform: str = sys.platform) -> dict[str, str]:
    """What ``client`` starts the bridge with: its own environment (``env``) filtered as it filters, plus the entry's."""
    passed = client.passed(os_name(platform)) if client is not None else None
    base = dict(env) if passed is None else {k: v for k, v in env.items() if k in passed}
    return {**base, **entry_env}
