"""Run-time settings from CLI flags and the environment (contract C10).

Precedence for every endpoint: CLI flag > environment variable > registry > default.
The registry part is resolved later (editor/registry.py, lsp/endpoint.py); this
module only records what the user pinned.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from godot_bridge.errors import SettingsError


# GODOT_MCP_RESULT_LIMIT's default: the largest single tool result, in KiB (see tools/ceiling.py).
DEFAULT_RESULT_LIMIT_KB = 16 * 1024


class ConfigError(SettingsError, ValueError):
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
    """An on/off setting (any case). Every flag the bridge reads guards something (read-only mode, the
    editor's dialog), so a value outside both sets is an error: read as "off" it would turn the
    protection off without a word."""
    raw = env.get(name, "")
    value = raw.strip().lower()
    if value not in FLAG_TRUE | FLAG_FALSE:
        raise ConfigError(f"{name}: {raw!r} is neither on ({', '.join(sorted(FLAG_TRUE))}) nor off "
                          "(0, false, no, off, or unset)")
    return value in FLAG_TRUE


def _env_positive_int(env: Mapping[str, str], name: str) -> int | None:
    raw = env.get(name, "").strip()
    if not raw:
        return None
    if not raw.isdigit() or int(raw) == 0:
        raise ConfigError(f"{name}: expected a positive whole number, got {raw!r}")
    return int(raw)


# GODOT_MCP_IMAGE_MODE's values: how a screenshot comes back when the call names no
# image_response_mode (editor/screenshots.py). Kept here, not imported, so config imports nothing but errors.py.
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


# -- which folder is the project ----------------------------------------------------------------
# MCP clients start the bridge in the folder they opened, often a repository whose Godot project is
# one level down (repo/game/project.godot). The folder the bridge is given (--project, else
# GODOT_MCP_PROJECT_PATH, else the working directory) is used when it holds project.godot; else
# its subfolders are searched, one level deep: exactly one project is it, several are an error
# naming them, none is an error saying so (both reach the model in every "cannot reach the
# editor" answer, with how to point the bridge at the project).

PROJECT_FILE = "project.godot"


def _project_subfolders(folder: Path) -> tuple[Path, ...]:
    try:
        children = sorted(p for p in folder.iterdir() if not p.name.startswith(".") and p.is_dir())
    except OSError:
        return ()
    return tuple(p for p in children if (p / PROJECT_FILE).is_file())


@dataclass(frozen=True)
class ProjectSearch:
    folder: Path  # the folder the bridge was given
    origin: str  # where that came from: "--project", "GODOT_MCP_PROJECT_PATH", "the working directory"
    project: Path | None  # the project found: the folder itself or its one subfolder with a project.godot
    candidates: tuple[Path, ...] = ()  # the subfolders holding one, when there are several

    @classmethod
    def run(cls, folder: Path, origin: str) -> ProjectSearch:
        if (folder / PROJECT_FILE).is_file():
            return cls(folder, origin, folder)
        found = _project_subfolders(folder)
        return cls(folder, origin, found[0] if len(found) == 1 else None, found if len(found) > 1 else ())

    def note(self) -> str:
        """Where the project came from, for messages: what the bridge looked at and found."""
        if self.project == self.folder:
            return f"{self.folder} (from {self.origin}) holds {PROJECT_FILE}"
        if self.project is not None:
            return f"the project {self.project} is the one subfolder of {self.folder} (from {self.origin}) with a {PROJECT_FILE}"
        if self.candidates:
            names = ", ".join(str(c) for c in self.candidates)
            return (f"{self.folder} (from {self.origin}) has no {PROJECT_FILE}, and several of its subfolders have one: "
                    f"{names}; set GODOT_MCP_PROJECT_PATH in the MCP entry's env (or pass --project) to the one to use")
        return (f"{self.folder} (from {self.origin}) has no {PROJECT_FILE}, nor does any folder directly below it; set "
                "GODOT_MCP_PROJECT_PATH in the MCP entry's env (or pass --project) to the folder holding project.godot")


# GODOT_MCP_CONFIRM's values: which tool calls ask the person first (godot_bridge/consent/policy.py).
CONFIRM_POLICIES = ("irreversible", "always", "never")
# The tools that run without asking anyone: for runs where nobody can answer (consent/policy.py).
ALLOW_UNASKED_ENV = "GODOT_MCP_ALLOW_UNASKED"


def _env_confirm(env: Mapping[str, str], name: str) -> str:
    return _env_choice(env, name, CONFIRM_POLICIES)


# GODOT_MCP_TOOL_LIST's values: what tools/list holds (tools/surface.py). "groups" (the default): the
# start-up tools, the rest in groups behind discover_tools; "all": every tool, for clients whose model
# searches the list instead of reading every schema on each request.
TOOL_LIST_ENV = "GODOT_MCP_TOOL_LIST"
TOOL_LISTS = ("groups", "all")


def _env_tool_list(env: Mapping[str, str], name: str) -> str:
    return _env_choice(env, name, TOOL_LISTS)


# What a tool name is made of (MCP's rule, which extension tools follow too; the catalogue checks its
# names with it); names are case-sensitive.
TOOL_NAME_CHARS = re.compile(r"^[A-Za-z0-9_.-]{1,128}$")


def _env_tool_names(env: Mapping[str, str], name: str) -> frozenset[str]:
    """A list of tool names with commas between them (spaces around a comma are ignored). Only the
    comma separates: a name holding a space, a semicolon or any other character is refused, so a
    list written another way is an error instead of one long name that matches nothing."""
    raw = env.get(name, "")
    names = frozenset(n.strip() for n in raw.split(",") if n.strip())
    bad = sorted(n for n in names if not TOOL_NAME_CHARS.match(n))
    if bad:
        raise ConfigError(f"{name}: {', '.join(repr(b) for b in bad)} is not a tool name (tool names such as "
                          "execute_code, separated by commas)")
    return names


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
    # Tools run without asking, for runs with nobody to ask (CI, claude -p, codex exec): the person's own list.
    allow_unasked: frozenset[str] = frozenset()
    tool_list: str = TOOL_LISTS[0]  # "groups" | "all": what tools/list holds
    env: Mapping[str, str] = field(default_factory=dict, repr=False)
    # What the command line pinned, so a configuration reload (live_config) keeps flag > env.
    cli: Mapping[str, Any] = field(default_factory=dict, repr=False)
    # How project_path was found (None: given as it is, as tests do).
    project_search: ProjectSearch | None = field(default=None, repr=False, compare=False)

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
        if project:
            project_dir, origin = project, "--project"
        elif env.get("GODOT_MCP_PROJECT_PATH"):
            project_dir, origin = env["GODOT_MCP_PROJECT_PATH"], "GODOT_MCP_PROJECT_PATH"
        else:
            project_dir, origin = os.getcwd(), "the working directory"
        search = ProjectSearch.run(Path(project_dir).expanduser().resolve(), origin)
        token = env.get("GODOT_MCP_TOKEN_PATH", "").strip()
        return cls(
            project_path=search.project or search.folder,
            project_search=search,
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
            allow_unasked=_env_tool_names(env, ALLOW_UNASKED_ENV),
            tool_list=_env_tool_list(env, TOOL_LIST_ENV),
            env=env,
            cli=cli,
        )

    def with_env(self, env: Mapping[str, str]) -> Settings:
        """The same command line over another environment (the project folder never moves)."""
        moved = Settings.from_env(env, **{**self.cli, "project": str(self.project_path)})
        return replace(moved, project_search=self.project_search)

    def project_note(self) -> str:
        """Which folder the bridge uses as the project and why, for "cannot reach the editor" errors."""
        if self.project_search is None:
            held = "holds" if (self.project_path / PROJECT_FILE).is_file() else "has no"
            return f"{self.project_path} {held} {PROJECT_FILE}"
        return self.project_search.note()


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
    _env_flag({name: raw}, name)


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


def _check_tool_list(name: str, raw: str) -> None:
    _env_tool_list({name: raw}, name)


def _check_tool_names(name: str, raw: str) -> None:
    _env_tool_names({name: raw}, name)


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
    ALLOW_UNASKED_ENV: _check_tool_names,
    TOOL_LIST_ENV: _check_tool_list,
    "GODOT_BRIDGE_HTTP_TOKEN": _check_any,  # --http only: the bearer token every request must send
    "GODOT_BRIDGE_UVLOOP": _check_any,  # read by mcp/core/event_loop.py: "0" keeps asyncio's own loop
    "GODOT_BRIDGE_LEAN": _check_any,  # read by mcp/stdio/server.py: "0" sends every stdio line through the SDK
    "GODOT_BIN": _check_any,  # a path or a name on PATH; editor/launch.py resolves and checks it
}
# What each variable does, for `godot-bridge --help` and the README's Environment table (both
# rendered from this, with the catalogue's counts in place of "{name}": usage.py env_docs;
# tests/docs/test_cli_docs.py holds them together). MCP_ALLOWED_ORIGINS is read by
# mcp/http/config.py and needs no value check.
ENV_DOCS: dict[str, str] = {
    "GODOT_MCP_PROJECT_PATH": "the Godot project folder (as --project); a folder whose one subfolder holds "
    "project.godot works too",
    "GODOT_MCP_EDITOR_PORT": "dial the editor plugin on this port instead of the registry's (1-65535)",
    "GODOT_MCP_RUNTIME_PORT": "dial the running game on this port instead of the registry's",
    "GODOT_MCP_LSP_PORT": "the GDScript language server's port (default: the registry's, else 6005)",
    "GODOT_MCP_LSP_HOST": "the GDScript language server's host (default 127.0.0.1)",
    "GODOT_MCP_READ_ONLY": "1 (true, yes, on): expose only tools that are read-only and not destructive "
    "({read_only_at_start} at start-up, {read_only_in_all} in all), and write no file; 0 (false, no, off) or unset: "
    "off; any other value refuses to start",
    "GODOT_MCP_TOKEN_PATH": "absolute path of the token file, instead of the registry's",
    "GODOT_MCP_RATE_LIMIT": "at most N tool calls per 60 s (RATE_LIMITED beyond)",
    "GODOT_MCP_SCRIPT_READ_LIMIT": "KiB: the most one script_read page holds (never more than one answer)",
    "GODOT_MCP_WS_BUFFER_LIMIT": "KiB: the editor's WebSocket buffer, the largest request it accepts (default 1024)",
    "GODOT_MCP_RESULT_LIMIT": "KiB: the largest single tool result (default 16384); a larger one is RESULT_TOO_LARGE",
    "GODOT_MCP_IMAGE_MODE": "link or inline (default): how screenshots come back when a call names no "
    "image_response_mode",
    "GODOT_MCP_AUTOLAUNCH": "headless or window: start the editor when a tool needs one and none runs; off (default): never",
    "GODOT_BIN": "the Godot executable editor_launch, editor_restart and autolaunch start (a path, or a name on PATH)",
    "GODOT_MCP_CONFIRM": "irreversible (default), always or never: which tool calls ask the person first "
    "(README: Asking before)",
    "GODOT_MCP_CONFIRM_IN_EDITOR": "1: ask in a dialog of the Godot editor itself, whatever the client can do "
    "(GODOT_MCP_CONFIRM=never and GODOT_MCP_ALLOW_UNASKED then do not apply); 0 or unset: off",
    ALLOW_UNASKED_ENV: "tool names (case-sensitive, commas between): these run without asking anyone, for runs where "
    "nobody can answer (CI, claude -p, codex exec), unless GODOT_MCP_CONFIRM=always or GODOT_MCP_CONFIRM_IN_EDITOR=1; "
    "put it only in the entry those runs use",
    TOOL_LIST_ENV: "groups (default): tools/list holds the {always_on} start-up tools, the rest in groups behind "
    "discover_tools; all: every tool ({tools}), for clients whose model searches its tools. init writes each "
    "client's; use groups where the model has no tool search (Codex with a local model) (README: The tool list)",
    "GODOT_MCP_CONFIG_VERSION": "written by init and the dock into the client entry; a migration marker",
    "GODOT_MCP_LOG_LEVEL": "stderr log level: DEBUG, INFO (default: one line per tool call), WARNING, ERROR",
    "GODOT_BRIDGE_HTTP_TOKEN": "--http: every request must send Authorization: Bearer <token> (required for a "
    "non-loopback --host)",
    "MCP_ALLOWED_ORIGINS": "--http: comma-separated browser origins allowed besides localhost",
    "GODOT_BRIDGE_LEAN": "0: every stdio message goes through the MCP SDK instead of the lean path (same answers, slower)",
    "GODOT_BRIDGE_UVLOOP": "0: serve on asyncio's own loop even where uvloop is installed",
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
