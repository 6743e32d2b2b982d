"""The MCP client configurations that name this bridge, read for ``godot-bridge doctor``.

Read-only: for each client of client_files.py, its file in the folder the client opens and,
where the client has one, in the home folder; whether it parses, which server entry is ours and
what command and environment it gives the bridge (in the common shape, client_entry.common:
opencode's command array and "environment" read as command, args and env). A file several
clients read (``.mcp.json``: Claude Code, Copilot CLI, Qwen Code) is one configuration, under
the first of them. Our entry is the shared entry definition's key (``godot-mcp-toolkit``, the key the dock
and ``godot-bridge init`` write); failing that, the first key, in sorted order, that contains
``godot-mcp`` or ``godot-bridge`` (a hand-written entry), the same fallback the dock uses.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from godot_bridge.setup.client_entry import common
from godot_bridge.setup.client_files import ClientFile, ClientFileError, clients, project_path, user_path
from godot_bridge.shipped.mcp_entry import ClientSpec, our_key


@dataclass(frozen=True)
class ClientConfig:
    path: Path
    servers_key: str
    client: ClientSpec | None = None
    root: Path | None = None  # the folder the client starts the bridge in (None: a per-user file)
    problem: str | None = None  # why the file cannot be used at all
    key: str | None = None  # our entry's key, None when there is none
    entry: dict[str, Any] = field(default_factory=dict)
    env: dict[str, str] = field(default_factory=dict)
    env_problems: list[str] = field(default_factory=list)  # values that are not strings, etc.

    @property
    def label(self) -> str:
        """The file as the user knows it: '.mcp.json', '.codex/config.toml', '~/.codex/config.toml'."""
        if self.client is None:
            return self.path.name
        if self.root is None:
            return Path(self.client.user_file).with_name(self.path.name).as_posix()
        return self.path.relative_to(self.root).as_posix()

    @property
    def args(self) -> list[str]:
        raw = self.entry.get("args", [])
        return [str(a) for a in raw] if isinstance(raw, list) else []


def find(root: Path, home: Path | None = None,
         env: Mapping[str, str] | None = None) -> list[tuple[ClientSpec, Path, Path | None]]:
    """(client, file, root) for each client file present, once per file: the project-level ones
    under ``root``, then the per-user ones under ``home`` (root None) that hold an entry of ours."""
    found: dict[Path, tuple[ClientSpec, Path, Path | None]] = {}
    for spec in clients().values():
        path = project_path(spec, root)
        if path.is_file():
            found.setdefault(path, (spec, path, root))
    if home is not None:
        for spec in clients().values():
            path = user_path(spec, home, env)
            if path is not None and path.is_file() and _names_us(spec, path):
                found.setdefault(path, (spec, path, None))
    return list(found.values())


def _names_us(spec: ClientSpec, path: Path) -> bool:
    try:
        return ClientFile.read(spec, path).entry() is not None
    except ClientFileError:
        return False


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


def load(spec: ClientSpec, path: Path, root: Path | None) -> ClientConfig:
    base = {"client": spec, "root": root}
    try:
        file = ClientFile.read(spec, path)
        if file.blank:
            return ClientConfig(path, spec.servers, problem="is empty", **base)
        servers = file.servers()
    except ClientFileError as exc:
        why = str(exc).removeprefix(f"{path}").removeprefix(":").strip()
        return ClientConfig(path, spec.servers, problem=why, **base)
    if servers is None:
        return ClientConfig(path, spec.servers, problem=f'has no "{spec.servers}" object', **base)
    key = our_key(servers)
    if key is None:
        return ClientConfig(path, spec.servers, **base)
    entry = servers[key]
    if not isinstance(entry, dict):
        return ClientConfig(path, spec.servers, problem=f'"{spec.servers}.{key}" is not an object', key=key, **base)
    entry = common(entry, spec)
    raw_env = entry.get("env", {})
    if not isinstance(raw_env, dict):
        return ClientConfig(path, spec.servers, problem=f'"{spec.servers}.{key}.{spec.env_key}" is not an object',
                            key=key, entry=entry, **base)
    problems: list[str] = []
    env = {str(k): text for k, v in raw_env.items() if (text := _env_text(str(k), v, problems)) is not None}
    return ClientConfig(path, spec.servers, key=key, entry=entry, env=env, env_problems=problems, **base)


def load_all(root: Path, home: Path | None = None, env: Mapping[str, str] | None = None) -> list[ClientConfig]:
    return [load(spec, path, where) for spec, path, where in find(root, home, env)]
