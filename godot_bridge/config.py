"""Run-time settings from CLI flags and the environment (contract C10).

Precedence for every endpoint: CLI flag > environment variable > registry > default.
The registry part is resolved later (editor/registry.py, lsp/endpoint.py); this
module only records what the user pinned.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


# GODOT_MCP_RESULT_LIMIT's default: the largest single tool result, in KiB (see tools/ceiling.py).
DEFAULT_RESULT_LIMIT_KB = 16 * 1024


class ConfigError(ValueError):
    """A malformed flag or environment value; the message names it."""


def parse_port(value: str, where: str) -> int:
    """A TCP port: digits only, 1-65535. ``where`` names the flag or variable for the error."""
    if not value.isdigit() or not 1 <= int(value) <= 65535:
        raise ConfigError(f"{where}: invalid port {value!r} (expected digits only, 1-65535)")
    return int(value)


def _env_port(env: Mapping[str, str], name: str) -> int | None:
    raw = env.get(name, "").strip()
    return parse_port(raw, name) if raw else None


FLAG_TRUE = frozenset({"1", "true", "yes", "on"})
FLAG_FALSE = frozenset({"", "0", "false", "no", "off"})


def _env_flag(env: Mapping[str, str], name: str) -> bool:
    return env.get(name, "").strip().lower() in FLAG_TRUE


def _env_positive_int(env: Mapping[str, str], name: str) -> int | None:
    raw = env.get(name, "").strip()
    if not raw:
        return None
    if not raw.isdigit() or int(raw) == 0:
        raise ConfigError(f"{name}: expected a positive whole number, got {raw!r}")
    return int(raw)


# GODOT_MCP_IMAGE_MODE's values: how a screenshot comes back when the call names no
# image_response_mode (content/screenshots.py). Kept here, not imported, so config stays a leaf module.
IMAGE_MODES = ("inline", "link")


def _env_choice(env: Mapping[str, str], name: str, choices: tuple[str, ...]) -> str:
    """One of ``choices`` (any case); unset or empty: the first, the default."""
    raw = env.get(name, "").strip().lower()
    if not raw:
        return choices[0]
    if raw not in choices:
        raise ConfigError(f"{name}: {raw!r} is not one of {', '.join(choices)}")
    return raw


def _env_image_mode(env: Mapping[str, str], name: str) -> str:
    return _env_choice(env, name, IMAGE_MODES)


# GODOT_MCP_AUTOLAUNCH's values: whether the bridge starts the editor itself when a tool needs one
# and none runs (editor/autolaunch.py), and how. Unset, "0", "false", "no" mean off.
AUTOLAUNCH_MODES = ("off", "headless", "window")


def _env_autolaunch(env: Mapping[str, str], name: str) -> str:
    raw = env.get(name, "").strip().lower()
    if raw in FLAG_FALSE:
        return AUTOLAUNCH_MODES[0]
    if raw not in AUTOLAUNCH_MODES:
        raise ConfigError(f"{name}: {raw!r} is not one of {', '.join(AUTOLAUNCH_MODES)}")
    return raw


# GODOT_MCP_CONFIRM's values: which tool calls ask the person first (godot_bridge/consent/policy.py).
CONFIRM_POLICIES = ("irreversible", "always", "never")


def _env_confirm(env: Mapping[str, str], name: str) -> str:
    return _env_choice(env, name, CONFIRM_POLICIES)


@dataclass(frozen=True)
class Settings:
    project_path: Path
    editor_port: int | None = None  # pinned (CLI or env); None = registry, then 6550
    runtime_port: int | None = None
    lsp_port: int | None = None
    lsp_host: str | None = None
    read_only: bool = False
    token_path: Path | None = None  # GODOT_MCP_TOKEN_PATH override
    rate_limit: int | None = None  # calls per 60 s
    script_read_limit_kb: int | None = None
    ws_buffer_limit_kb: int | None = None
    result_limit_kb: int = DEFAULT_RESULT_LIMIT_KB
    image_mode: str = IMAGE_MODES[0]  # "inline" | "link": the screenshots' default image_response_mode
    autolaunch: str = AUTOLAUNCH_MODES[0]  # "off" | "headless" | "window"
    confirm: str = CONFIRM_POLICIES[0]  # "irreversible" | "always" | "never": which calls ask the person
    confirm_in_editor: bool = False  # ask in the Godot editor's own dialog, whatever the client can do
    env: Mapping[str, str] = field(default_factory=dict, repr=False)
    # What the command line pinned, so a configuration reload (live_config) keeps flag > env.
    cli: Mapping[str, Any] = field(default_factory=dict, repr=False)

    @classmethod
    def from_env(
        cls,
        env: Mapping[str, str] | None = None,
        *,
        project: str | None = None,
        editor_port: int | None = None,
        runtime_port: int | None = None,
        lsp_port: int | None = None,
        lsp_host: str | None = None,
    ) -> Settings:
        """Combine CLI values (already parsed, may be None) with the environment."""
        env = dict(os.environ if env is None else env)
        cli = {k: v for k, v in (("project", project), ("editor_port", editor_port), ("runtime_port", runtime_port),
                                 ("lsp_port", lsp_port), ("lsp_host", lsp_host)) if v is not None}
        project_dir = project or env.get("GODOT_MCP_PROJECT_PATH") or os.getcwd()
        token = env.get("GODOT_MCP_TOKEN_PATH", "").strip()
        return cls(
            project_path=Path(project_dir).expanduser().resolve(),
            editor_port=editor_port if editor_port is not None else _env_port(env, "GODOT_MCP_EDITOR_PORT"),
            runtime_port=runtime_port if runtime_port is not None else _env_port(env, "GODOT_MCP_RUNTIME_PORT"),
            lsp_port=lsp_port if lsp_port is not None else _env_port(env, "GODOT_MCP_LSP_PORT"),
            lsp_host=lsp_host or env.get("GODOT_MCP_LSP_HOST", "").strip() or None,
            read_only=_env_flag(env, "GODOT_MCP_READ_ONLY"),
            token_path=Path(token) if token else None,
            rate_limit=_env_positive_int(env, "GODOT_MCP_RATE_LIMIT"),
            script_read_limit_kb=_env_positive_int(env, "GODOT_MCP_SCRIPT_READ_LIMIT"),
            ws_buffer_limit_kb=_env_positive_int(env, "GODOT_MCP_WS_BUFFER_LIMIT"),
            result_limit_kb=_env_positive_int(env, "GODOT_MCP_RESULT_LIMIT") or DEFAULT_RESULT_LIMIT_KB,
            image_mode=_env_image_mode(env, "GODOT_MCP_IMAGE_MODE"),
            autolaunch=_env_autolaunch(env, "GODOT_MCP_AUTOLAUNCH"),
            confirm=_env_confirm(env, "GODOT_MCP_CONFIRM"),
            confirm_in_editor=_env_flag(env, "GODOT_MCP_CONFIRM_IN_EDITOR"),
            env=env,
            cli=cli,
        )

    def with_env(self, env: Mapping[str, str]) -> Settings:
        """The same command line over another environment (the project folder never moves)."""
        return Settings.from_env(env, **{**self.cli, "project": str(self.project_path)})


# -- the environment variables, as data -------------------------------------------------------
# Every variable the bridge reads and the rule its value must follow. ``godot-bridge doctor``
# checks a .mcp.json env block against this table, so a variable the bridge starts reading must
# be added here (an unlisted GODOT_MCP_* name is reported as unknown: most likely a typo).

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


def _check_any(name: str, raw: str) -> None:
    return None


def _check_port(name: str, raw: str) -> None:
    if raw.strip():
        parse_port(raw.strip(), name)


def _check_flag(name: str, raw: str) -> None:
    # The bridge reads anything outside FLAG_TRUE as "off"; a value outside both sets is a typo
    # that silently turns the setting off, so it is worth an error here.
    if raw.strip().lower() not in FLAG_TRUE | FLAG_FALSE:
        raise ConfigError(f"{name}: {raw!r} is neither on ({', '.join(sorted(FLAG_TRUE))}) nor off (0, false, no, off)")


def _check_positive(name: str, raw: str) -> None:
    _env_positive_int({name: raw}, name)


def _check_log_level(name: str, raw: str) -> None:
    if raw.strip() and raw.strip().upper() not in LOG_LEVELS:
        raise ConfigError(f"{name}: {raw!r} is not one of {', '.join(LOG_LEVELS)}")


def _check_image_mode(name: str, raw: str) -> None:
    _env_image_mode({name: raw}, name)


def _check_autolaunch(name: str, raw: str) -> None:
    _env_autolaunch({name: raw}, name)


def _check_confirm(name: str, raw: str) -> None:
    _env_confirm({name: raw}, name)


def _check_absolute(name: str, raw: str) -> None:
    if raw.strip() and not Path(raw.strip()).expanduser().is_absolute():
        raise ConfigError(f"{name}: {raw!r} is not an absolute path")


ENV_CHECKS: dict[str, Callable[[str, str], None]] = {
    "GODOT_MCP_PROJECT_PATH": _check_any,
    "GODOT_MCP_EDITOR_PORT": _check_port,
    "GODOT_MCP_RUNTIME_PORT": _check_port,
    "GODOT_MCP_LSP_PORT": _check_port,
    "GODOT_MCP_LSP_HOST": _check_any,
    "GODOT_MCP_READ_ONLY": _check_flag,
    "GODOT_MCP_TOKEN_PATH": _check_absolute,
    "GODOT_MCP_RATE_LIMIT": _check_positive,
    "GODOT_MCP_SCRIPT_READ_LIMIT": _check_positive,
    "GODOT_MCP_WS_BUFFER_LIMIT": _check_positive,
    "GODOT_MCP_CONFIG_VERSION": _check_any,
    "GODOT_MCP_LOG_LEVEL": _check_log_level,
    "GODOT_MCP_RESULT_LIMIT": _check_positive,
    "GODOT_MCP_IMAGE_MODE": _check_image_mode,
    "GODOT_MCP_AUTOLAUNCH": _check_autolaunch,
    "GODOT_MCP_CONFIRM": _check_confirm,
    "GODOT_MCP_CONFIRM_IN_EDITOR": _check_flag,
    "GODOT_BRIDGE_HTTP_TOKEN": _check_any,  # --http only: the bearer token every request must send
    "GODOT_BRIDGE_UVLOOP": _check_any,  # read by mcp/loop.py: "0" keeps asyncio's own loop
    "GODOT_BRIDGE_LEAN": _check_any,  # read by mcp/front.py: "0" sends every stdio line through the SDK
    "GODOT_BIN": _check_any,  # a path or a name on PATH; editor/launch.py resolves and checks it
}
# Read by the editor plugin, not by the bridge: in the bridge's environment they do nothing.
EDITOR_ONLY_ENV = frozenset(
    f"GODOT_MCP_{mode}_PORT_{end}" for mode in ("EDITOR", "RUNTIME") for end in ("MIN", "MAX")
)


def check_env_value(name: str, raw: str) -> None:
    """Raise ConfigError when ``raw`` is not a valid value of the bridge variable ``name``."""
    check = ENV_CHECKS.get(name)
    if check is None:
        raise ConfigError(f"{name}: not a variable the bridge reads")
    check(name, raw)
