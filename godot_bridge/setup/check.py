"""What ``godot-bridge doctor``'s checks share: one line of the report (``Check``) and what the
checks learn, in order, about the set-up (``Context``)."""

from __future__ import annotations

import shlex
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from godot_bridge.config import Settings
from godot_bridge.editor.registry import RegistryEntry
from godot_bridge.setup import client_config, entry_probe

# "wait": not a failure, only not possible yet (init marks the checks that need an editor when none is open).
Status = Literal["ok", "warn", "fail", "skip", "wait"]
SYMBOLS: dict[str, str] = {"ok": "✓", "warn": "!", "fail": "✗", "skip": "-", "wait": "…"}


@dataclass(frozen=True)
class Check:
    id: str
    title: str
    status: Status
    detail: str
    fix: str | None = None


@dataclass
class Context:
    project: Path
    env: dict[str, str]
    mcp_env: dict[str, str]  # what our client entry adds (already part of env)
    mcp_source: str  # the client config file mcp_env came from, for messages
    settings: Settings
    bad_env: dict[str, str]  # variable -> problem, left out of settings
    registry_file: Path
    timeout: float
    configs: list[client_config.ClientConfig] = field(default_factory=list)
    entry: RegistryEntry | None = None
    token_ok: bool = False
    root: Path | None = None  # the folder the MCP clients open (where their files are)
    project_arg: str | None = None  # --project as given, for the commands we suggest
    start_timeout: float = entry_probe.START_TIMEOUT
    own_env: dict[str, str] = field(default_factory=dict)  # this environment without an entry's env: a client's


def home_folder(env: Mapping[str, str]) -> Path:
    return Path(env.get("HOME") or env.get("USERPROFILE") or Path.home())


def suggest(ctx: Context, command: str) -> str:
    """``godot-bridge <command>`` with the --project the user gave, so a suggestion runs as is."""
    project = f" --project {shlex.quote(ctx.project_arg)}" if ctx.project_arg else ""
    return f"godot-bridge {command}{project}"
