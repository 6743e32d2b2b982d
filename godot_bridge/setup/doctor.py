"""``godot-bridge doctor``: check the set-up step by step and say how to fix what is broken.

Each check is one small function returning ``Check`` lines; they run in a fixed order and
later checks read what earlier ones found (``Context``). Every rule comes from the module
that owns it — registry, token, channel, LSP endpoint, config — so the doctor can never
disagree with the bridge about what works. What the checks share is in check.py; the checks of
the MCP client files (each parses, its client hands the bridge what finds the editor, its entry
starts) in client_checks.py.

The settings are the ones the bridge would get when the MCP client starts it: the process
environment overlaid with the ``env`` block of our ``.mcp.json`` entry.

Exit status: 0 when no check failed. ``warn`` and ``skip`` never fail the run; they cover
what the user did not ask for: no game running, the language server (unless its port is
pinned), stale registry entries of other projects, no ``.mcp.json`` (the client may be
configured elsewhere), a plugin of another version.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from importlib import metadata
from pathlib import Path

from godot_bridge import __version__, usage
from godot_bridge.config import ALLOW_UNASKED_ENV, ENV_CHECKS, ConfigError, Settings, check_env_value
from godot_bridge.consent.policy import PRECEDENCE, resolve, unknown_names
from godot_bridge.editor import token as tokens
from godot_bridge.editor.launch import find_godot, probe_auth
from godot_bridge.editor.link import DEFAULT_EDITOR_PORT, pin_origin
from godot_bridge.editor.registry import (
    RegistryEntry,
    is_pid_alive,
    project_key,
    read_registry,
    registry_path,
    registry_problem,
    tcp_accepts,
)
from godot_bridge.errors import BRIDGE_HINTS, ToolError
from godot_bridge.lsp.endpoint import DEFAULT_HOST, resolve_endpoint
from godot_bridge.setup import client_config
from godot_bridge.setup.check import SYMBOLS, Check, Context, Status, home_folder, suggest
from godot_bridge.setup.client_checks import check_client_env, check_entry_start, check_mcp_json, check_tool_list
from godot_bridge.setup.locate import locate
from godot_bridge.tools.catalogue import load_catalogue

__all__ = ["SYMBOLS", "Check", "Context", "Status", "build_context", "home_folder", "main", "run", "suggest"]

PACKAGES = ("mcp", "websockets", "pydantic")
MIN_PYTHON = (3, 11)
DEFAULT_PROBE_TIMEOUT = 3.0

_START_EDITOR = (
    "Open the project in Godot 4.2+ with the Godot MCP Toolkit plugin enabled (or call the editor_launch tool "
    "with GODOT_BIN set)."
)


# -- settings as the bridge would see them ----------------------------------------------------------


def _configs(root: Path, project: Path, env: Mapping[str, str]) -> list[client_config.ClientConfig]:
    found = client_config.load_all(root, home_folder(env), env)
    if project != root:  # a client opened on the project folder itself reads its files there
        found += [c for c in client_config.load_all(project) if c.path not in {f.path for f in found}]
    return found


def build_context(project_arg: str | None, env: Mapping[str, str], timeout: float) -> Context:
    """Settings from the environment plus our client entry, leaving invalid values out (they are reported)."""
    base = dict(env)
    where = locate(project_arg, base)
    configs = _configs(where.root, where.project, base)
    used = next((c for c in configs if c.problem is None and c.key is not None), None)
    mcp_env = used.env if used is not None else {}
    mcp_source = used.label if used is not None else ".mcp.json"
    merged = {**base, **mcp_env}
    bad: dict[str, str] = {}
    for name in sorted(merged):
        if name in ENV_CHECKS:
            try:
                check_env_value(name, merged[name])
            except ConfigError as exc:
                bad[name] = str(exc)
    clean = {k: v for k, v in merged.items() if k not in bad}
    # The project: --project (searched like the bridge searches), else the entry's or this
    # environment's GODOT_MCP_PROJECT_PATH, else the working directory (both searched by Settings).
    settings = Settings.from_env(clean, project=str(where.project) if project_arg else None)
    return Context(
        project=settings.project_path,
        env=merged,
        mcp_env=mcp_env,
        mcp_source=mcp_source,
        settings=settings,
        bad_env=bad,
        registry_file=registry_path(merged),
        timeout=timeout,
        configs=configs,
        root=where.root,
        project_arg=project_arg,
        own_env=base,
    )


# -- checks ------------------------------------------------------------------------------------------


def check_python(ctx: Context) -> list[Check]:
    version = ".".join(map(str, sys.version_info[:3]))
    if sys.version_info[:2] < MIN_PYTHON:
        need = ".".join(map(str, MIN_PYTHON))
        return [Check("python", "Python", "fail", f"{version} at {sys.executable}", f"Use Python {need} or newer.")]
    return [Check("python", "Python", "ok", f"{version} at {sys.executable}")]


def _requirements() -> dict[str, str]:
    """Our declared requirement per package ('mcp>=2.0.0,<3'), from the installed godot-bridge metadata."""
    try:
        declared = metadata.requires("godot-bridge") or []
    except metadata.PackageNotFoundError:
        return {}
    out: dict[str, str] = {}
    for spec in declared:
        if ";" in spec:
            continue  # extras (test dependencies)
        name = spec.split("[")[0]
        for sep in "=<>!~ ":
            name = name.split(sep)[0]
        out[name.strip().lower()] = spec.strip()
    return out


def _satisfies(version: str, spec: str) -> bool | None:
    try:
        from packaging.requirements import Requirement
    except ImportError:  # pragma: no cover - packaging ships with pip almost everywhere
        return None
    return Requirement(spec).specifier.contains(version, prereleases=True)


def check_packages(ctx: Context) -> list[Check]:
    wanted = _requirements()
    found, problems = [], []
    for name in PACKAGES:
        try:
            version = metadata.version(name)
        except metadata.PackageNotFoundError:
            problems.append(f"{name} is not installed")
            continue
        spec = wanted.get(name)
        if spec is not None and _satisfies(version, spec) is False:
            problems.append(f"{name} {version} does not satisfy {spec}")
        else:
            found.append(f"{name} {version}")
    bridge = f"godot-bridge {__version__}"
    if problems:
        return [Check("packages", "Packages", "fail", "; ".join(problems),
                      "Reinstall the bridge so the versions it requires come with it: pip install --force-reinstall "
                      "godot-bridge (or uvx --refresh godot-bridge).")]
    note = "" if wanted else " (godot-bridge is not installed as a package, so its requirements were not compared)"
    return [Check("packages", "Packages", "ok", ", ".join([bridge, *found]) + note)]


def check_project(ctx: Context) -> list[Check]:
    if not ctx.project.is_dir():
        return [Check("project", "Project", "fail", f"{ctx.project} is not a directory",
                      "Pass --project DIR or set GODOT_MCP_PROJECT_PATH to the Godot project folder.")]
    if not (ctx.project / "project.godot").is_file():
        return [Check("project", "Project", "fail", ctx.settings.project_note(),
                      "Pass --project DIR or set GODOT_MCP_PROJECT_PATH to the folder holding project.godot.")]
    return [Check("project", "Project", "ok", str(ctx.project))]


async def _live(entry: RegistryEntry, timeout: float) -> str | None:
    """None when the entry's editor is alive and listening, else why it is stale."""
    if not is_pid_alive(entry.pid):
        return f"pid {entry.pid} is not running"
    if entry.port is None:
        return "no editor port"
    if not await tcp_accepts(DEFAULT_HOST, entry.port, timeout):
        return f"nothing listens on port {entry.port}"
    return None


async def check_registry(ctx: Context) -> list[Check]:
    path = ctx.registry_file
    problem = registry_problem(path)
    if problem is not None:
        return [Check("registry", "Registry file", "fail", f"{path}: {problem}", _START_EDITOR)]
    entries = read_registry(path)
    lines = [Check("registry", "Registry file", "ok", f"{path} ({len(entries)} entr{'y' if len(entries) == 1 else 'ies'})")]
    key = project_key(ctx.project)
    ctx.entry = entries.get(key)
    if ctx.entry is None:
        known = ", ".join(sorted(entries)) or "none"
        lines.append(Check("registry_entry", "Registry entry", "fail", f"no entry for {key} (entries: {known})",
                           _START_EDITOR + " If the editor is open, check that it opened this very folder."))
    else:
        e = ctx.entry
        lines.append(Check("registry_entry", "Registry entry", "ok",
                           f"port {e.port}, pid {e.pid}, Godot {e.godot_version or '?'}"
                           + (f", godot_path {e.godot_path}" if e.godot_path else "")))
    reasons = await asyncio.gather(*(_live(e, ctx.timeout) for e in entries.values()))
    stale = [(e, why) for e, why in zip(entries.values(), reasons) if why is not None]
    mine = [why for e, why in stale if e.key == (ctx.entry.key if ctx.entry else None)]
    others = [f"{e.key} ({why})" for e, why in stale if ctx.entry is None or e.key != ctx.entry.key]
    if mine:
        lines.append(Check("registry_stale", "Stale entries", "fail", f"this project's entry is stale: {mine[0]}",
                           "The editor that wrote it is gone. " + _START_EDITOR))
    elif others:
        lines.append(Check("registry_stale", "Stale entries", "warn", "; ".join(others),
                           "Harmless: entries of editors that exited without unregistering; "
                           "they are replaced when those projects are opened again."))
    else:
        lines.append(Check("registry_stale", "Stale entries", "ok", "none"))
    return lines


def check_token_privacy(ctx: Context) -> list[Check]:
    """A too-open token file of the user's own (as a plugin writes it with the process umask) is made
    private here, as the bridge does on connect, and said: the plugin that wrote it needs upgrading.
    Nothing to say when it is private; what cannot be made private is check_token's failure."""
    try:
        source = tokens.locate(ctx.settings.token_path, ctx.entry, project=str(ctx.project),
                               registry_file=ctx.registry_file)
        was = tokens.make_private(source)
    except ToolError:
        return []
    if was is None:
        return []
    folder = ", its folder 0700" if source.origin == "registry" else ""
    return [Check("token_private", "Token file privacy", "warn",
                  f"{source.describe()} was {was}; made it private (0600{folder})",
                  "The plugin that wrote it does not keep it private: upgrade it with `godot-bridge init`, "
                  "then restart the editor.")]


def check_token(ctx: Context) -> list[Check]:
    if ctx.settings.token_path is None and ctx.entry is None:
        return [Check("token", "Token file", "skip", "no registry entry to read token_path from (see above)")]
    try:
        value, source = tokens.load(
            ctx.settings.token_path, ctx.entry, project=str(ctx.project), registry_file=ctx.registry_file
        )
    except ToolError as err:
        return [Check("token", "Token file", "fail", err.message, err.hint)]
    ctx.token_ok = True
    return [Check("token", "Token file", "ok", f"{source.describe()}, {len(value)} characters")]


def _editor_port(ctx: Context) -> tuple[int, str]:
    if ctx.settings.editor_port is not None:
        return ctx.settings.editor_port, f"pinned by {pin_origin(ctx.settings)}"
    if ctx.entry is not None and ctx.entry.port is not None:
        return ctx.entry.port, "from the registry"
    return DEFAULT_EDITOR_PORT, "the default"


def _auth_fix(err: ToolError) -> str:
    if "no auth ack" in err.message:
        return ("The editor accepts connections but does not answer: it is busy, hung or showing a modal dialog. "
                "Close the dialog, or restart it (the editor_restart tool, or by hand).")
    return err.hint or BRIDGE_HINTS.get(err.code, "")


async def check_editor(ctx: Context) -> list[Check]:
    port, origin = _editor_port(ctx)
    if not await tcp_accepts(DEFAULT_HOST, port, ctx.timeout):
        detail = f"nothing listens on {DEFAULT_HOST}:{port} ({origin})"
        if ctx.settings.editor_port is not None and ctx.entry and ctx.entry.port and ctx.entry.port != port:
            detail += f"; the registry says the editor listens on {ctx.entry.port}"
        return [Check("editor_port", "Editor port", "fail", detail, _START_EDITOR)]
    lines = [Check("editor_port", "Editor port", "ok", f"{DEFAULT_HOST}:{port} listening ({origin})")]
    if not ctx.token_ok:
        lines.append(Check("editor_auth", "Editor auth", "skip", "no usable token (see above)"))
        return lines
    try:
        ack = await probe_auth(port, ctx.entry, project=ctx.project, token_path=ctx.settings.token_path,
                               registry_file=ctx.registry_file, timeout=ctx.timeout)
    except ToolError as err:
        lines.append(Check("editor_auth", "Editor auth", "fail", err.message, _auth_fix(err)))
        return lines
    headless = ", headless" if ack.get("headless") else ""
    lines.append(Check("editor_auth", "Editor auth", "ok", f"authenticated (Godot {ack.get('godot_version', '?')}{headless})"))
    lines.append(_version_check(ack.get("version")))
    return lines


def _version_check(plugin: object) -> Check:
    if not isinstance(plugin, str) or not plugin:
        return Check("toolkit_version", "Toolkit version", "warn", "the plugin did not say its version",
                     "Update addons/godot_mcp_toolkit/ in the project to the version that ships with this bridge.")
    if plugin != __version__:
        return Check("toolkit_version", "Toolkit version", "warn", f"plugin {plugin}, bridge {__version__}",
                     "Use the addon and the bridge from the same release: copy addons/godot_mcp_toolkit/ "
                     "from this bridge's release into the project.")
    return Check("toolkit_version", "Toolkit version", "ok", f"plugin {plugin} = bridge {__version__}")


async def check_game(ctx: Context) -> list[Check]:
    pinned = ctx.settings.runtime_port
    port = pinned if pinned is not None else (ctx.entry.runtime_port if ctx.entry else None)
    if port is None:
        return [Check("game_port", "Game port", "skip", "no game running (optional: start one with game_start)")]
    origin = "pinned" if pinned is not None else "from the registry"
    if not await tcp_accepts(DEFAULT_HOST, port, ctx.timeout):
        status: Status = "fail" if ctx.entry and ctx.entry.runtime_port == port else "warn"
        return [Check("game_port", "Game port", status, f"nothing listens on {DEFAULT_HOST}:{port} ({origin})",
                      "Restart the game from the editor (game_start); the game needs the toolkit's runtime autoload.")]
    if not ctx.token_ok:
        return [Check("game_port", "Game port", "skip", f"{port} listening ({origin}); no usable token to authenticate")]
    try:
        await probe_auth(port, ctx.entry, project=ctx.project, token_path=ctx.settings.token_path,
                         registry_file=ctx.registry_file, timeout=ctx.timeout, label="game")
    except ToolError as err:
        return [Check("game_port", "Game port", "fail", err.message, _auth_fix(err))]
    return [Check("game_port", "Game port", "ok", f"{DEFAULT_HOST}:{port} authenticated ({origin})")]


async def check_lsp(ctx: Context) -> list[Check]:
    res = await resolve_endpoint(ctx.settings, registry_file=ctx.registry_file, probe_timeout=ctx.timeout)
    where = f"{res.host}:{res.port} ({res.source})"
    if res.refusal == "conflict":
        return [Check("lsp", "Language server", "warn", f"{where}: {res.detail}", BRIDGE_HINTS["LSP_PORT_CONFLICT"])]
    if res.refusal is not None:
        return [Check("lsp", "Language server", "warn", f"{where}: {res.detail}", BRIDGE_HINTS["LSP_UNAVAILABLE"])]
    if not await tcp_accepts(res.host, res.port, ctx.timeout):
        # Pinned = asked for: then an unreachable server is a failure, otherwise only the lsp_* tools suffer.
        status: Status = "fail" if res.source == "pinned" else "warn"
        return [Check("lsp", "Language server", status, f"nothing listens on {where}", BRIDGE_HINTS["LSP_UNAVAILABLE"])]
    return [Check("lsp", "Language server", "ok", f"reachable at {where}")]


def _origin(ctx: Context, name: str) -> str:
    if name in ctx.mcp_env:
        return ctx.mcp_source
    return "environment" if name in ctx.env else "default"


def check_limits(ctx: Context) -> list[Check]:
    s = ctx.settings
    bad = {k: v for k, v in ctx.bad_env.items() if k not in ctx.mcp_env}  # .mcp.json ones are reported above
    read_only = "on" if s.read_only else "off"
    parts = [
        f"read-only {read_only} ({_origin(ctx, 'GODOT_MCP_READ_ONLY')})",
        f"rate limit {f'{s.rate_limit} calls per 60 s' if s.rate_limit else 'none'} ({_origin(ctx, 'GODOT_MCP_RATE_LIMIT')})",
    ]
    if s.script_read_limit_kb:
        parts.append(f"script read limit {s.script_read_limit_kb} KiB")
    if s.ws_buffer_limit_kb:
        parts.append(f"WebSocket buffer {s.ws_buffer_limit_kb} KiB")
    if bad:
        return [Check("limits", "Limits", "fail", "; ".join(bad.values()) + " — " + ", ".join(parts),
                      "Fix or unset the named environment variables (see README, Environment).")]
    return [Check("limits", "Limits", "ok", ", ".join(parts))]


def check_autolaunch(ctx: Context) -> list[Check]:
    """GODOT_MCP_AUTOLAUNCH as it will apply, and whether the Godot binary it (and editor_launch) needs resolves."""
    mode = ctx.settings.autolaunch
    origin = _origin(ctx, "GODOT_MCP_AUTOLAUNCH")
    try:
        binary = find_godot(ctx.env, ctx.entry)
    except ToolError as err:
        if mode == "off":
            return [Check("autolaunch", "Editor launch", "ok",
                          f"GODOT_MCP_AUTOLAUNCH off ({origin}); editor_launch has no Godot binary: {err.message}")]
        return [Check("autolaunch", "Editor launch", "fail", f"GODOT_MCP_AUTOLAUNCH={mode} ({origin}), but {err.message}",
                      err.hint)]
    where = f"{binary.path} (from {binary.origin})"
    if mode == "off":
        return [Check("autolaunch", "Editor launch", "ok", f"GODOT_MCP_AUTOLAUNCH off ({origin}); editor_launch starts {where}")]
    how = "--headless --editor" if mode == "headless" else "--editor"
    return [Check("autolaunch", "Editor launch", "ok",
                  f"GODOT_MCP_AUTOLAUNCH={mode} ({origin}): a tool that needs the editor starts {where} {how} once")]


def check_confirm(ctx: Context) -> list[Check]:
    """GODOT_MCP_CONFIRM and GODOT_MCP_CONFIRM_IN_EDITOR as they will apply: which calls ask the person, and how."""
    bad = [ctx.bad_env[name] for name in ("GODOT_MCP_CONFIRM", "GODOT_MCP_CONFIRM_IN_EDITOR") if name in ctx.bad_env]
    if bad:
        return [Check("confirm", "Asking before", "fail", "; ".join(bad), "Set GODOT_MCP_CONFIRM to irreversible, "
                      "always or never, and GODOT_MCP_CONFIRM_IN_EDITOR to 1 or 0.")]
    policy, overridden = resolve(ctx.settings)
    origin = _origin(ctx, "GODOT_MCP_CONFIRM")
    order = "when settings disagree the stricter wins: " + "; then ".join(PRECEDENCE)
    if policy.mode == "never":
        return [Check("confirm", "Asking before", "warn",
                      f"GODOT_MCP_CONFIRM=never ({origin}): no tool call asks the person first, not even what "
                      "cannot be undone", "Meant for CI and scripts; unset it (irreversible) wherever a person "
                      "uses the assistant.")]
    asking = sorted(tool.name for tool in load_catalogue().tools.values() if policy.may_ask(tool))
    which = (f"every call that changes something ({len(asking)} tools)" if policy.mode == "always"
             else f"{len(asking)} tools ask when undo cannot take the call back ({', '.join(asking)})")
    how = ("in a dialog of the Godot editor (GODOT_MCP_CONFIRM_IN_EDITOR; an editor without a window refuses them)"
           if policy.in_editor else "through the MCP client (elicitation), else with a preview and a single-use token")
    detail = f"GODOT_MCP_CONFIRM={policy.mode} ({origin}): {which}; asked {how}; {order}"
    if overridden:
        return [Check("confirm", "Asking before", "warn", f"{detail}. Overridden: {'; '.join(overridden)}",
                      "Remove the setting that does not apply (or the stricter one, if the looser is what you meant).")]
    return [Check("confirm", "Asking before", "ok", detail)]


def check_unasked(ctx: Context) -> list[Check]:
    """GODOT_MCP_ALLOW_UNASKED: the tools a run with nobody to ask may use, and what the others do there."""
    label = "Runs with nobody to ask"
    if ALLOW_UNASKED_ENV in ctx.bad_env:
        return [Check("unasked", label, "fail", ctx.bad_env[ALLOW_UNASKED_ENV],
                      f"Set {ALLOW_UNASKED_ENV} to tool names separated by commas, e.g. execute_code,save_write.")]
    policy, overridden = resolve(ctx.settings)
    tools = load_catalogue().tools
    named = sorted(ctx.settings.allow_unasked)
    if not named:
        return [Check("unasked", label, "ok",
                      "every asking tool asks: a run where nobody can answer (claude -p, codex exec, CI) cannot use "
                      f"them; {ALLOW_UNASKED_ENV}=<tool>,<tool> in that run's entry lets the named ones run unasked")]
    origin = _origin(ctx, ALLOW_UNASKED_ENV)
    if not policy.unasked:
        return [Check("unasked", label, "warn", f"{ALLOW_UNASKED_ENV} ({origin}): {'; '.join(overridden)}",
                      "Remove it from this entry, or the stricter setting if these tools should run unasked.")]
    unknown = unknown_names(named, tools)
    never_ask = [name for name in named if name in tools and not policy.may_ask(tools[name])]
    detail = f"{ALLOW_UNASKED_ENV} ({origin}): {', '.join(named)} run without asking anyone"
    if unknown or never_ask:
        notes = ([f"not tools of the catalogue: {', '.join(unknown)}"] if unknown else []) + \
                ([f"never ask anyway: {', '.join(never_ask)}"] if never_ask else [])
        return [Check("unasked", label, "warn", f"{detail}; {'; '.join(notes)}",
                      "Check the spelling against docs/tools.md: names are case-sensitive, commas between them (an "
                      "extension's tool is named as its command).")]
    return [Check("unasked", label, "ok", f"{detail}; keep it in the entry of the runs with nobody to ask")]


ORDER: tuple[Callable[[Context], object], ...] = (
    check_python, check_packages, check_project, check_registry, check_token_privacy, check_token,
    check_editor, check_game, check_lsp, check_mcp_json, check_client_env, check_tool_list, check_entry_start,
    check_limits,
    check_autolaunch, check_confirm, check_unasked,
)


async def run(ctx: Context) -> list[Check]:
    out: list[Check] = []
    for check in ORDER:
        result = check(ctx)
        if asyncio.iscoroutine(result):
            result = await result
        out.extend(result)  # type: ignore[arg-type]
    return out


def passed(checks: Sequence[Check]) -> bool:
    return not any(c.status == "fail" for c in checks)


# -- output ------------------------------------------------------------------------------------------


def render_text(ctx: Context, checks: Sequence[Check]) -> str:
    width = max(len(c.title) for c in checks)
    lines = [f"godot-bridge doctor {__version__} — project {ctx.project}"]
    if ctx.mcp_env:
        lines.append(f"settings: this environment plus the env of the {ctx.mcp_source} entry")
    for c in checks:
        lines.append(f"{SYMBOLS[c.status]} {c.title.ljust(width)}  {c.detail}")
        if c.fix and c.status in ("fail", "warn"):
            lines.append(f"  {' ' * width}  fix: {c.fix}")
    failed = sum(c.status == "fail" for c in checks)
    waiting = [c.title for c in checks if c.status == "wait"]
    if failed:
        lines.append(f"{failed} check(s) failed")
    elif waiting:
        lines.append("set-up done; waiting for the editor (not failures): " + ", ".join(waiting))
    else:
        lines.append("all checks passed")
    return "\n".join(lines) + "\n"


def waiting_for_editor(checks: Sequence[Check], ids: frozenset[str]) -> list[Check]:
    """``checks`` with the failures among ``ids`` marked "wait": right after a set-up, no editor is open yet."""
    return [replace(c, status="wait") if c.status == "fail" and c.id in ids else c for c in checks]


def render_json(ctx: Context, checks: Sequence[Check]) -> str:
    data = {
        "ok": passed(checks),
        "version": __version__,
        "project": str(ctx.project),
        "registry": str(ctx.registry_file),
        "checks": [asdict(c) for c in checks],
    }
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


# -- command line ----------------------------------------------------------------------------------

@dataclass
class DoctorArgs:
    json: bool = False
    project: str | None = None
    timeout: float = DEFAULT_PROBE_TIMEOUT


def parse_args(argv: Sequence[str]) -> DoctorArgs:
    """Raises ValueError naming the problem."""
    args = DoctorArgs()
    items = list(argv)
    while items:
        item = items.pop(0)
        name, eq, inline = item.partition("=")
        if name == "--json" and not eq:
            args.json = True
            continue
        if name not in ("--project", "--timeout"):
            raise ValueError(f"unknown argument: {item}")
        value = inline if eq else (items.pop(0) if items else "")
        if not value:
            raise ValueError(f"{name} needs a value")
        if name == "--project":
            args.project = value
        else:
            try:
                args.timeout = float(value)
            except ValueError:
                raise ValueError(f"--timeout: {value!r} is not a number of seconds") from None
            if not 0 < args.timeout <= 60:
                raise ValueError("--timeout must be between 0 and 60 seconds")
    return args


def main(argv: Sequence[str], env: Mapping[str, str] | None = None) -> int:
    if any(a in ("-h", "--help") for a in argv):
        sys.stdout.write(usage.help_text(usage.DOCTOR))
        return 0
    try:
        args = parse_args(argv)
    except ValueError as exc:
        return usage.usage_error(usage.DOCTOR, str(exc))
    ctx = build_context(args.project, dict(os.environ if env is None else env), args.timeout)
    checks = asyncio.run(run(ctx))
    sys.stdout.write(render_json(ctx, checks) if args.json else render_text(ctx, checks))
    return 0 if passed(checks) else 1
