"""``godot-bridge init``: set a Godot project up for the bridge in one command.

1. copy the toolkit this bridge ships into ``<project>/addons/godot_mcp_toolkit/``
   (addon_install.py decides: copy, upgrade, leave alone, or refuse without ``--force``);
2. enable it in ``project.godot`` (project_godot.py: an insertion, no other byte changes);
3. merge our entry into each MCP client's file, where that client reads it (client_files.py:
   only our entry's text changes), running the bridge that runs ``init`` (bridge_command.py);
4. run ``doctor``, which starts the entry as the client will, and say what is left to do
   (an editor that is not open yet is waited for, not failed).

The project may be the folder given or its one subfolder holding a ``project.godot``; the client
files go where the clients open (locate.py), and the entry then names the project. Everything is
planned before anything is written; a problem found while planning changes nothing. The writes go
through file_batch.py: all of them or none. A second run finds nothing to change and says so;
``--dry-run`` prints the plan and writes nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shlex
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from godot_bridge import usage
from godot_bridge.config import ENV_CHECKS, TOOL_LIST_ENV, ConfigError, check_env_value
from godot_bridge.errors import SetupError
from godot_bridge.setup import (
    addon_install,
    client_entry,
    client_env,
    client_limits,
    client_tool_list,
    doctor,
    file_batch,
    project_godot,
)
from godot_bridge.setup.client_files import ClientFile, ClientFileError, clients, project_path, user_path
from godot_bridge.setup.bridge_command import Launch, choose
from godot_bridge.setup.locate import Location, locate
from godot_bridge.shipped import mcp_entry
from godot_bridge.shipped.mcp_entry import ClientSpec
from godot_bridge.shipped.toolkit_files import ADDON_REL, PLUGIN_RES_PATH, ToolkitMissing, read_version, toolkit_dir

DEFAULT_CLIENTS = ("claude",)
# doctor checks that cannot pass until an editor with the plugin runs: right after init, they wait.
WAITING = frozenset({"registry", "registry_entry", "registry_stale", "editor_port"})


class InitError(SetupError):
    """Planning found a problem; nothing was written. The message says what and how to fix it."""


class InitUsageError(InitError):
    """A bad command line (exit status 2)."""


@dataclass
class Plan:
    where: Location
    launch: Launch
    addon: addon_install.AddonPlan
    changes: list[file_batch.Change] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)  # what will change (or is already fine), for the user
    notes: list[str] = field(default_factory=list)  # what the user should know about a client
    client_changed: bool = False
    drafts: dict[Path, str] = field(default_factory=dict)  # client file -> its planned text
    readers: dict[Path, str] = field(default_factory=dict)  # client file -> the first client of this run reading it

    @property
    def project(self) -> Path:
        return self.where.project


# -- planning ------------------------------------------------------------------------------------


def _locate(arg: str | None, env: Mapping[str, str]) -> Location:
    where = locate(arg, env)
    folder = where.search.folder
    if not folder.is_dir():
        raise InitError(f"{folder} is not a folder; pass --project with the Godot project folder")
    if where.search.project is None:
        raise InitError(f"{where.search.note()} (create the project in Godot first)")
    return where


def _plan_addon(plan: Plan, force: bool) -> None:
    source = toolkit_dir()
    version = read_version(source)
    if version is None:
        raise InitError(f"the shipped toolkit at {source} has no version in plugin.cfg; reinstall godot-bridge")
    target = plan.project / ADDON_REL
    launch = {"command": plan.launch.command, "args": plan.launch.args, "how": plan.launch.how}
    addon = addon_install.plan(source, target, version, force=force, launch=launch, limits=client_limits.values())
    plan.addon = addon
    if addon.blocked is not None:
        advice = (f"; run again with --force to replace it with toolkit {version} (changes made to its files are "
                  "lost)") if addon.forceable else ""
        raise InitError(f"{ADDON_REL}: {addon.blocked}. Nothing was changed{advice}")
    # The install record goes last, after the files it lists.
    ordered = sorted(addon.writes.items(), key=lambda item: (item[0] == addon_install.RECORD, item[0]))
    plan.changes += [file_batch.Change(target / rel, data) for rel, data in ordered]
    plan.changes += [file_batch.Change(target / rel, None) for rel in addon.removes]
    shipped = len([rel for rel in addon.writes if rel != addon_install.RECORD])
    if addon.status == "missing":
        plan.lines.append(f"copy toolkit {version} into {ADDON_REL}/ ({shipped} files)")
    elif shipped or addon.removes:
        how = {"older": f"upgrade toolkit {addon.installed_version} to {version}"}.get(
            addon.status, f"replace toolkit {addon.installed_version or '?'} with {version} (--force)")
        removed = f", remove {len(addon.removes)} it no longer ships" if addon.removes else ""
        plan.lines.append(f"{how} in {ADDON_REL}/ ({shipped} files changed{removed})")
    elif addon.writes:
        plan.lines.append(f"record the installed toolkit's files and launch in {ADDON_REL}/{addon_install.RECORD}")
    if addon.foreign:
        plan.lines.append(f"keep {len(addon.foreign)} file(s) in {ADDON_REL}/ that the toolkit does not ship: "
                          + ", ".join(addon.foreign[:5]) + (" ..." if len(addon.foreign) > 5 else ""))


def read_project_godot(path: Path) -> str:
    """project.godot's text; InitError when it is not UTF-8."""
    try:
        return path.read_bytes().decode("utf-8")
    except UnicodeDecodeError:
        raise InitError(f"{path} is not UTF-8 text; Godot writes it as UTF-8") from None


def plugin_line_change(path: Path, enable: bool) -> file_batch.Change | None:
    """project.godot with our plugin enabled (or disabled); None when it already is. InitError when it cannot be."""
    edit = project_godot.enable_plugin if enable else project_godot.disable_plugin
    try:
        updated = edit(read_project_godot(path), PLUGIN_RES_PATH)
    except project_godot.ProjectFileError as exc:
        raise InitError(f"{path}: {exc}") from None
    return None if updated is None else file_batch.Change(path, updated.encode("utf-8"))


def _plan_project_godot(plan: Plan) -> None:
    change = plugin_line_change(plan.project / "project.godot", enable=True)
    if change is not None:
        plan.changes.append(change)
        plan.lines.append(f"enable the plugin in project.godot ([editor_plugins] enabled += {PLUGIN_RES_PATH})")


def client_path(client: ClientSpec, where: Location, user: bool, env: Mapping[str, str]) -> Path:
    if user:
        path = user_path(client, doctor.home_folder(env), env)
        if path is None:
            raise InitUsageError(f"--user: {client.label} has no per-user file we write; drop --user for its "
                                 f"project file {client.file}")
        return path
    return project_path(client, where.root)


def _shown(path: Path, where: Location, env: Mapping[str, str]) -> str:
    for base, prefix in ((where.root, ""), (doctor.home_folder(env), "~/")):
        if path.is_relative_to(base):
            return prefix + path.relative_to(base).as_posix()
    return str(path)


def _plan_client(plan: Plan, client: ClientSpec, path: Path, env_overrides: dict[str, str | None],
                 env: Mapping[str, str], readers: list[ClientSpec]) -> None:
    """Merge our entry for ``client`` into ``path``, which the run's ``readers`` read (``client`` among them)."""
    # A file another client of this run reads too (.mcp.json) is merged into what that one planned.
    file = ClientFile(client, path, plan.drafts[path]) if path in plan.drafts else ClientFile.read(client, path)
    existing = file.data()
    problem = client_entry.validate(existing, client.servers, client.env_key)
    if problem:
        raise InitError(f"{path}: {problem}; fix it by hand first")
    key = mcp_entry.definition().server_key
    before = client_entry.common((existing.get(client.servers) or {}).get(key) or {}, client).get("env") or {}
    # What the client would not pass on, unless the entry already names it (a value set by hand stays).
    carried = {k: v for k, v in client_env.carried(client, env).items() if k not in before}
    listing = _tool_list(plan, path, before, env_overrides, readers)
    merged = client_entry.merge(existing, client_entry.os_name(), {**carried, **listing, **env_overrides},
                                launch=plan.launch.as_entry(), client=client, floors=client_limits.floors(client))
    entry = merged[client.servers][key]
    shown = _shown(path, plan.where, env)
    first = plan.readers.setdefault(path, client.label)
    if entry == (existing.get(client.servers) or {}).get(key):
        if first != client.label:
            plan.lines.append(f"{shown}: {client.label} reads the same entry as {first}")
        else:
            plan.lines.append(f"{shown}: the {client.label} entry is already in place")
        if path in plan.drafts and client.note:
            plan.notes.append(client.note)
        return
    plan.drafts[path] = file.with_entry(entry)
    plan.client_changed = True
    others = len(merged[client.servers]) - 1
    kept = f", keeping {others} other server(s)" if others else ""
    verb = "update" if file.text is not None else "write"
    command = client_entry.common(entry, client)
    plan.lines.append(f"{verb} {shown} for {client.label}: {client.servers}.{key} runs "
                      f"{shlex.join([command['command'], *command['args']])}{kept}{_shared(client, path, plan)}")
    if listing and first == client.label:
        others = [c for c in clients().values() if c not in readers and project_path(c, plan.where.root) == path]
        plan.lines.append(f"{shown}: " + client_tool_list.why(listing[TOOL_LIST_ENV], readers, others))
    if client.note:
        plan.notes.append(client.note)


def _tool_list(plan: Plan, path: Path, before: Mapping[str, object], env_overrides: Mapping[str, str | None],
               readers: list[ClientSpec]) -> dict[str, str]:
    """GODOT_MCP_TOOL_LIST for the entry ``readers`` read: the value their clients call for, unless
    ``--env`` names one or the entry holds one already (the person's choice, which stays)."""
    if TOOL_LIST_ENV in env_overrides:
        return {}
    wanted = client_tool_list.for_entry(readers)
    if TOOL_LIST_ENV not in before:
        return {TOOL_LIST_ENV: wanted}
    held = str(before[TOOL_LIST_ENV])
    if held.strip().lower() != wanted and path not in plan.readers:
        plan.lines.append(f"keep {TOOL_LIST_ENV}={held} already in the entry ({wanted} is what "
                          f"{' and '.join(c.label for c in readers)} would get: --env {TOOL_LIST_ENV}={wanted} sets it)")
    return {}


def _shared(client: ClientSpec, path: Path, plan: Plan) -> str:
    """Who else reads this very entry: .mcp.json serves Claude Code, Copilot CLI and Qwen Code."""
    others = [c.label for c in clients().values() if c is not client and project_path(c, plan.where.root) == path]
    if not others:
        return ""
    if len(others) == 1:
        return f" ({others[0]} reads it too)"
    return f" ({', '.join(others[:-1])} and {others[-1]} read it too)"


def build_plan(where: Location, names: Sequence[str], env_overrides: dict[str, str | None], force: bool, *,
               launch: Launch, user: bool = False, env: Mapping[str, str] | None = None) -> Plan:
    env = dict(os.environ if env is None else env)
    plan = Plan(where, launch, addon_install.AddonPlan("missing", "", None))
    _plan_addon(plan, force)
    overrides = dict(env_overrides)
    if where.below_root and not user and "GODOT_MCP_PROJECT_PATH" not in overrides:
        # The client starts the bridge in the repository root: the entry names the project below it.
        overrides["GODOT_MCP_PROJECT_PATH"] = str(where.project)
    paths = {name: client_path(clients()[name], where, user, env) for name in dict.fromkeys(names)}
    for name, path in paths.items():
        readers = [clients()[other] for other, shared in paths.items() if shared == path]
        try:
            _plan_client(plan, clients()[name], path, overrides, env, readers)
        except ClientFileError as exc:
            raise InitError(str(exc)) from None
    plan.changes += [file_batch.Change(path, text.encode("utf-8")) for path, text in plan.drafts.items()]
    # project.godot last: the plugin is enabled only once its files are in place.
    _plan_project_godot(plan)
    for change in plan.changes:
        problem = file_batch.refusal(change)
        if problem is not None:
            raise InitError(f"{problem}. Nothing was changed")
    return plan


# -- what is left ----------------------------------------------------------------------------------


def _again(plan: Plan, project_arg: str | None, extra: str = "") -> str:
    project = f" --project {shlex.quote(project_arg)}" if project_arg else ""
    return f"godot-bridge init{project}{extra}"


def next_steps(plan: Plan, checks: Sequence[doctor.Check], project_arg: str | None = None) -> list[str]:
    steps: list[str] = []
    if any(c.status == "wait" for c in checks):
        steps.append(f"Open the project in Godot 4.2+ (the plugin is enabled), or without a display: "
                     f"godot --headless --editor --path {shlex.quote(str(plan.project))}")
        steps.append("Or let the bridge start the editor when a tool needs it: " + _again(
            plan, project_arg, " --env GODOT_MCP_AUTOLAUNCH=headless --env GODOT_BIN=/path/to/godot"))
    other = [c for c in checks if c.status == "fail"]
    if other:
        steps.append("Fix what doctor marks ✗ above: " + ", ".join(c.title for c in other))
    if plan.client_changed:
        steps.append("Restart your MCP client (or reload its MCP servers) so it reads the new configuration; its "
                     "MCP list (/mcp in most of them) then shows godot-mcp-toolkit")
    steps += plan.notes
    return steps or ["Nothing: the set-up is complete"]


# -- command line ----------------------------------------------------------------------------------


def _parser() -> argparse.ArgumentParser:
    parser = usage.argparser(usage.INIT)
    parser.add_argument("--project", metavar="DIR")
    parser.add_argument("--client", metavar="NAME", action="extend", nargs="+",
                        choices=[*sorted(clients()), "all"])
    parser.add_argument("--user", action="store_true")
    parser.add_argument("--launch", metavar="HOW")
    parser.add_argument("--env", metavar="NAME=VALUE", action="append", default=[])
    parser.add_argument("--dry-run", action="store_true")
    parser.add_argument("--force", action="store_true")
    return parser


def client_names(given: Sequence[str] | None, user: bool) -> list[str]:
    if not given:
        return list(DEFAULT_CLIENTS)
    if "all" in given:
        return [name for name, c in clients().items() if c.user_file or not user]
    return list(dict.fromkeys(given))


def _env_overrides(pairs: Sequence[str]) -> dict[str, str | None]:
    out: dict[str, str | None] = {}
    for pair in pairs:
        name, eq, value = pair.partition("=")
        name = name.strip()
        if not eq or not name:
            raise InitUsageError(f"--env {pair!r}: expected NAME=VALUE")
        if name in ENV_CHECKS and value:
            try:
                check_env_value(name, value)
            except ConfigError as exc:
                raise InitUsageError(f"--env: {exc}") from None
        elif name.startswith("GODOT_MCP_") and name not in ENV_CHECKS:
            raise InitUsageError(f"--env: {name} is not a variable the bridge reads (known: "
                                 f"{', '.join(sorted(ENV_CHECKS))})")
        out[name] = value or None
    return out


def _print_plan(plan: Plan, dry_run: bool) -> None:
    if plan.where.below_root:
        print(f"Project {plan.project}, below {plan.where.root}: the client files go in {plan.where.root}, "
              "and their entry names the project.")
    print(f"The entry runs {plan.launch.text()}: {plan.launch.why}.")
    if not plan.changes:
        print(f"Nothing to change in {plan.project}: toolkit {plan.addon.shipped_version} is in place, the plugin is "
              "enabled and the MCP configuration has the entry.")
        for line in plan.lines:
            print(f"  {line}")
        return
    print(("Would change" if dry_run else "Setting up") + f" {plan.project}:")
    for line in plan.lines:
        print(f"  - {line}")


def _doctor(plan: Plan, project_arg: str | None, env: Mapping[str, str]) -> list[doctor.Check]:
    arg = project_arg if project_arg is not None else str(plan.where.search.folder)
    ctx = doctor.build_context(arg, dict(env), doctor.DEFAULT_PROBE_TIMEOUT)
    ctx.project_arg = project_arg
    checks = doctor.waiting_for_editor(asyncio.run(doctor.run(ctx)), WAITING)
    print()
    sys.stdout.write(doctor.render_text(ctx, checks))
    return checks


def main(argv: Sequence[str], env: Mapping[str, str] | None = None) -> int:
    args = _parser().parse_args(list(argv))  # a bad argument: one line, exit 2
    env = dict(os.environ if env is None else env)
    try:
        where = _locate(args.project, env)
        launch = choose(args.launch, client_entry.os_name(), env)
        plan = build_plan(where, client_names(args.client, args.user), _env_overrides(args.env), args.force,
                          launch=launch, user=args.user, env=env)
    except InitUsageError as exc:
        return usage.usage_error(usage.INIT, str(exc))
    except (InitError, ToolkitMissing, mcp_entry.EntryError) as exc:
        return usage.failure(usage.INIT, str(exc))
    except OSError as exc:
        return usage.read_failure(usage.INIT, exc)
    _print_plan(plan, args.dry_run)
    if args.dry_run:
        print("Dry run: nothing was written.")
        return 0
    try:
        file_batch.apply(plan.changes)
    except file_batch.BatchError as exc:
        return usage.failure(usage.INIT, str(exc))
    if plan.changes:
        print(f"Done: {len(plan.changes)} file(s) written.")
    checks = _doctor(plan, args.project, env)
    print("\nLeft to do:")
    for step in next_steps(plan, checks, args.project):
        print(f"  - {step}")
    return 1 if any(c.status == "fail" for c in checks) else 0
