"""``godot-bridge doctor``'s checks of the MCP client files: each one parses and names the bridge
(``check_mcp_json``), the bridge its client starts reaches the editor's registry though the
client filters the environment (``check_client_env``), which tool list each entry gives its
clients (``check_tool_list``), and its entry starts, as that client starts it, a bridge of the
plugin's version (``check_entry_start``)."""

from __future__ import annotations

import asyncio
import json
import shlex
from collections.abc import Mapping

from godot_bridge import __version__
from godot_bridge.config import EDITOR_ONLY_ENV, ENV_CHECKS, TOOL_LIST_ENV, TOOL_LISTS, ConfigError, check_env_value
from godot_bridge.editor.registry import registry_path
from godot_bridge.setup import client_config, client_entry, client_env, client_tool_list, entry_probe
from godot_bridge.setup.client_files import project_path
from godot_bridge.setup.check import Check, Context, suggest
from godot_bridge.shipped import mcp_entry
from godot_bridge.shipped.toolkit_files import ADDON_REL, read_version


def _other_clients() -> str:
    """The clients besides the default one, for "add --client NAME for ..."."""
    labels = [c.label for c in mcp_entry.definition().clients.values() if c.name != "claude"]
    return ", ".join(labels[:-1]) + " or " + labels[-1]


def _mcp_snippet() -> str:
    """Our .mcp.json entry as the dock and init write it for this OS (the shared entry definition)."""
    spec = mcp_entry.definition()
    launch = spec.launch_for(client_entry.os_name())
    return '"mcpServers": ' + json.dumps({spec.server_key: launch})


def _env_key_problems(env: Mapping[str, str]) -> tuple[list[str], list[str]]:
    errors, warnings = [], []
    for name, value in sorted(env.items()):
        if name in EDITOR_ONLY_ENV:
            warnings.append(f"{name} is read by the editor plugin, not by the bridge; set it where Godot starts")
        elif name in ENV_CHECKS:
            try:
                check_env_value(name, value)
            except ConfigError as exc:
                errors.append(str(exc))
        elif name.startswith("GODOT_MCP_"):
            errors.append(f"{name}: not a variable the bridge reads (a typo? known: {', '.join(sorted(ENV_CHECKS))})")
    return errors, warnings


def check_mcp_json(ctx: Context) -> list[Check]:
    if not ctx.configs:
        where = ctx.root or ctx.project
        return [Check("mcp_json", "Client config", "warn",
                      f"no MCP client file names the bridge in {where} (fine if your client is configured elsewhere)",
                      f"Run {suggest(ctx, 'init')} (add --client NAME for {_other_clients()}), or "
                      f"use the plugin dock's write button, or create .mcp.json with {{{_mcp_snippet()}}}.")]
    lines: list[Check] = []
    for cfg in ctx.configs:
        name = cfg.label
        if cfg.problem is not None:
            lines.append(Check("mcp_json", name, "fail", f"{cfg.path} {cfg.problem}", f"Fix the file; it must hold {{{_mcp_snippet()}}}."))
            continue
        if cfg.key is None:
            lines.append(Check("mcp_json", name, "fail", f'no godot-mcp-toolkit entry under "{cfg.servers_key}"',
                               f"Run {suggest(ctx, 'init')} --client {cfg.client.name if cfg.client else 'claude'}"
                               f" (or add {{{_mcp_snippet()}}} by hand)."))
            continue
        errors, warnings = _env_key_problems(cfg.env)
        errors = cfg.env_problems + errors
        command = cfg.entry.get("command")
        if not isinstance(command, str) or not command:
            errors.append('the entry has no "command"')
        if errors:
            lines.append(Check("mcp_json", name, "fail", f'entry "{cfg.key}": ' + "; ".join(errors),
                               "Fix the named env values (see README, Environment)."))
        elif warnings:
            lines.append(Check("mcp_json", name, "warn", f'entry "{cfg.key}": ' + "; ".join(warnings)))
        else:
            keys = ", ".join(sorted(cfg.env)) or "no env"
            lines.append(Check("mcp_json", name, "ok", f'entry "{cfg.key}" runs {shlex.join([command, *cfg.args])} ({keys})'))
    return lines


def check_client_env(ctx: Context) -> list[Check]:
    """A client that passes on only some variables (Codex) must still give the bridge what finds the editor."""
    lines: list[Check] = []
    for cfg in ctx.configs:
        client = cfg.client
        if cfg.problem is not None or cfg.key is None or client is None or client.passes_env is None:
            continue
        title = f"{cfg.label} environment"
        missing = [name for name in client_env.carried(client, ctx.own_env) if name not in cfg.env]
        registry = registry_path(client_env.environment(client, ctx.own_env, cfg.env))
        if not missing:
            lines.append(Check("client_env", title, "ok", f"{client.label} passes on only some variables; the "
                               f"bridge it starts has what finds the editor (registry {registry})"))
            continue
        detail = (f"{client.label} passes on only some variables, and the entry's env does not carry "
                  f"{', '.join(missing)}")
        if registry != ctx.registry_file:
            detail += f": the bridge it starts reads the registry {registry}, not {ctx.registry_file}"
        user = " --user" if cfg.root is None else ""
        lines.append(Check("client_env", title, "fail", detail,
                           f"Write them into the entry: {suggest(ctx, 'init')} --client {client.name}{user}"))
    return lines


def _readers(cfg: client_config.ClientConfig) -> list[mcp_entry.ClientSpec]:
    """The clients that read ``cfg``'s entry: every one whose project file it is (.mcp.json: three)."""
    if cfg.root is None:
        return [cfg.client] if cfg.client is not None else []
    return [c for c in mcp_entry.definition().clients.values() if project_path(c, cfg.root) == cfg.path]


def check_tool_list(ctx: Context) -> list[Check]:
    """What tools/list holds for each entry's clients (GODOT_MCP_TOOL_LIST): every tool, or the start-up set
    with groups; a warning where a client that sends every listed tool in each request gets every tool."""
    lines: list[Check] = []
    for cfg in ctx.configs:
        if cfg.problem is not None or cfg.key is None:
            continue
        readers = _readers(cfg)
        raw = cfg.env.get(TOOL_LIST_ENV, "").strip().lower()
        value = raw or TOOL_LISTS[0]
        shown = f"{value}{'' if raw else ' (default)'}"
        detail = (f"{TOOL_LIST_ENV}={shown}: " + ("every tool in tools/list" if value == "all" else
                  "the start-up tools, the rest behind discover_tools")) if value in TOOL_LISTS else ""
        title = f"{cfg.label} tool list"
        if not detail:
            lines.append(Check("tool_list", title, "fail", f"{TOOL_LIST_ENV}={raw!r} is not one of "
                               f"{', '.join(TOOL_LISTS)}: the bridge refuses to start", "Set groups or all."))
            continue
        heavy = [c.label for c in readers if client_tool_list.of(c) == "groups"]
        if value == "all" and heavy:
            # Its only readers put every listed tool in each request: warn. Shared with clients that search
            # (.mcp.json), the person chose for those: say what the others pay.
            status = "warn" if len(heavy) == len(readers) else "ok"
            lines.append(Check("tool_list", title, status, f"{detail}; {' and '.join(heavy)} would "
                               "carry every tool in each request", f"Set {TOOL_LIST_ENV}=groups in this entry if "
                               "you use that client here (README: The tool list)."))
            continue
        lines.append(Check("tool_list", title, "ok", detail))
    return lines


def _expected_version(ctx: Context) -> str:
    """The version the entry's bridge must have: the project's plugin's, else this bridge's."""
    return read_version(ctx.project / ADDON_REL) or __version__


def _start_fix(ctx: Context, command: str, result: entry_probe.ProbeResult) -> str:
    if result.missing and command in ("uvx", "cmd"):
        return ("Install uv (it provides uvx: https://docs.astral.sh/uv/getting-started/installation/), or point the "
                f"entry at the bridge installed here: {suggest(ctx, 'init')} --launch installed")
    if result.missing:
        return f"The entry's command does not exist here; write the current one: {suggest(ctx, 'init')}"
    if command in ("uvx", "cmd"):
        return ("uvx could not start godot-bridge from its package index (see its message). Point the entry at the "
                f"bridge installed here instead: {suggest(ctx, 'init')} --launch installed")
    return f"Run the command by hand to see why it fails, or write the current one: {suggest(ctx, 'init')}"


async def check_entry_start(ctx: Context) -> list[Check]:
    """Start each entry's exact command, args and env, as its client would, and require an answer."""
    lines: list[Check] = []
    want = _expected_version(ctx)
    runs: list[tuple[client_config.ClientConfig, str, tuple[object, ...]]] = []
    for cfg in ctx.configs:
        command = cfg.entry.get("command")
        if cfg.problem is not None or cfg.key is None or not isinstance(command, str) or not command:
            continue
        cwd = cfg.root or ctx.project
        passed = cfg.client.passes_env if cfg.client is not None else None
        runs.append((cfg, command, (command, tuple(cfg.args), tuple(sorted(cfg.env.items())), str(cwd), repr(passed))))
    unique = {key: (cfg, command) for cfg, command, key in reversed(runs)}
    started = await asyncio.gather(*(
        entry_probe.probe(command, cfg.args, client_env.environment(cfg.client, ctx.own_env, cfg.env),
                          cfg.root or ctx.project, ctx.start_timeout)
        for cfg, command in unique.values()))
    tried = dict(zip(unique, started))  # the same command, args, env and folder start once
    for cfg, command, key in runs:
        result = tried[key]
        title = f"{cfg.label} starts"
        shown = shlex.join([command, *cfg.args])
        if not result.ok:
            lines.append(Check("entry_start", title, "fail", f"{shown}: {result.detail}", _start_fix(ctx, command, result)))
        elif result.server != "godot-bridge":
            lines.append(Check("entry_start", title, "fail", f"{shown}: {result.server} answered, not godot-bridge",
                               f"Point the entry at godot-bridge: {suggest(ctx, 'init')}"))
        elif result.version != want:
            lines.append(Check("entry_start", title, "fail",
                               f"{shown} starts godot-bridge {result.version}, but the project's plugin is {want}",
                               f"Use one release for both: {suggest(ctx, 'init')} with the bridge of the version you "
                               "want (it updates the plugin and the entry together)."))
        else:
            lines.append(Check("entry_start", title, "ok", f"{shown}: godot-bridge {result.version} answered initialize"))
    return lines
