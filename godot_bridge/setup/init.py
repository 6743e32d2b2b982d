"""``godot-bridge init``: set a Godot project up for the bridge in one command.

1. copy the toolkit this bridge ships into ``<project>/addons/godot_mcp_toolkit/``
   (addon_install.py decides: copy, upgrade, leave alone, or refuse without ``--force``);
2. enable it in ``project.godot`` (project_godot.py: an insertion, no other byte changes);
3. merge our entry into the MCP client's configuration (client_entry.py: the dock's entry);
4. run ``doctor`` and say what is left to do.

Everything is planned before anything is written; a problem found while planning changes
nothing. The writes go through file_batch.py: all of them or none. A second run finds nothing
to change and says so; ``--dry-run`` prints the plan and writes nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from godot_bridge.config import ENV_CHECKS, ConfigError, check_env_value
from godot_bridge.setup import addon_install, client_config, client_entry, doctor, file_batch, project_godot
from godot_bridge.setup.toolkit_files import ADDON_REL, PLUGIN_RES_PATH, ToolkitMissing, read_version, toolkit_dir

# Which file each client reads; the servers object inside it comes from client_config.LOCATIONS.
CLIENT_FILES = {"claude": ".mcp.json", "cursor": ".mcp.json", "codex": ".mcp.json", "vscode": ".vscode/mcp.json"}
DEFAULT_CLIENTS = ("claude",)
# doctor checks that only pass once an editor runs with the plugin: failing is expected right after init.
NEEDS_EDITOR = frozenset({"registry", "registry_entry", "registry_stale", "token", "editor_port", "editor_auth",
                          "toolkit_version", "game_port", "lsp"})


class InitError(Exception):
    """Planning found a problem; nothing was written. The message says what and how to fix it."""


@dataclass
class Plan:
    project: Path
    addon: addon_install.AddonPlan
    changes: list[file_batch.Change] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)  # what will change (or is already fine), for the user
    entry_command: str = ""
    client_changed: bool = False


# -- planning ------------------------------------------------------------------------------------


def _project(arg: str | None, env: Mapping[str, str]) -> Path:
    folder = Path(arg or env.get("GODOT_MCP_PROJECT_PATH") or os.getcwd()).expanduser().resolve()
    if not folder.is_dir():
        raise InitError(f"{folder} is not a folder; pass --project with the Godot project folder")
    if not (folder / "project.godot").is_file():
        raise InitError(f"{folder} has no project.godot, so it is not a Godot project folder; pass --project with "
                        "the folder that holds project.godot (create the project in Godot first)")
    return folder


def _plan_addon(plan: Plan, force: bool) -> None:
    source = toolkit_dir()
    version = read_version(source)
    if version is None:
        raise InitError(f"the shipped toolkit at {source} has no version in plugin.cfg; reinstall godot-bridge")
    target = plan.project / ADDON_REL
    addon = addon_install.plan(source, target, version, force=force)
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
        plan.lines.append(f"record the installed toolkit's files in {ADDON_REL}/{addon_install.RECORD}")
    if addon.foreign:
        plan.lines.append(f"keep {len(addon.foreign)} file(s) in {ADDON_REL}/ that the toolkit does not ship: "
                          + ", ".join(addon.foreign[:5]) + (" ..." if len(addon.foreign) > 5 else ""))


def _plan_project_godot(plan: Plan) -> None:
    path = plan.project / "project.godot"
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise InitError(f"{path} is not UTF-8 text; Godot writes it as UTF-8") from None
    try:
        updated = project_godot.enable_plugin(text, PLUGIN_RES_PATH)
    except project_godot.ProjectFileError as exc:
        raise InitError(f"{path}: {exc}") from None
    if updated is not None:
        plan.changes.append(file_batch.Change(path, updated.encode("utf-8")))
        plan.lines.append(f"enable the plugin in project.godot ([editor_plugins] enabled += {PLUGIN_RES_PATH})")


def _read_json(path: Path) -> dict[str, object]:
    """The client config file's document; {} when absent or blank. InitError when it cannot be merged."""
    if not path.is_file():
        return {}
    try:
        text = path.read_text(encoding="utf-8")
        data = json.loads(text) if text.strip() else {}
    except UnicodeDecodeError:
        raise InitError(f"{path} is not UTF-8 text; fix or remove it") from None
    except json.JSONDecodeError as exc:
        raise InitError(f"{path} is not valid JSON ({exc.msg} at line {exc.lineno} column {exc.colno}); fix it "
                        "first (the other servers in it are kept once it parses)") from None
    if not isinstance(data, dict):
        raise InitError(f"{path} is not a JSON object; fix it first")
    return data


def _plan_client(plan: Plan, rel: str, env_overrides: dict[str, str | None]) -> None:
    servers_key = dict(client_config.LOCATIONS)[rel]
    path = plan.project / rel
    existing = _read_json(path)
    problem = client_entry.validate(existing, servers_key)
    if problem:
        raise InitError(f"{path}: {problem}; fix it by hand first")
    merged = client_entry.merge(existing, client_entry.os_name(), env_overrides, servers_key)
    entry = merged[servers_key][client_entry.definition().server_key]
    plan.entry_command = str(entry["command"])
    if merged != existing:
        data = (json.dumps(merged, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
        plan.changes.append(file_batch.Change(path, data))
        plan.client_changed = True
        others = len(merged[servers_key]) - 1
        kept = f", keeping {others} other server(s)" if others else ""
        verb = "update" if path.exists() else "write"
        plan.lines.append(f"{verb} {rel}: {servers_key}.{client_entry.definition().server_key} runs "
                          f"{' '.join([entry['command'], *entry['args']])}{kept}")


def build_plan(project: Path, clients: Sequence[str], env_overrides: dict[str, str | None], force: bool) -> Plan:
    plan = Plan(project, addon_install.AddonPlan("missing", "", None))
    _plan_addon(plan, force)
    for rel in dict.fromkeys(CLIENT_FILES[name] for name in clients):  # each file once, in order
        _plan_client(plan, rel, env_overrides)
    # project.godot last: the plugin is enabled only once its files are in place.
    _plan_project_godot(plan)
    return plan


# -- what is left ----------------------------------------------------------------------------------


def next_steps(plan: Plan, checks: Sequence[doctor.Check]) -> list[str]:
    steps: list[str] = []
    failing = {c.id for c in checks if c.status == "fail"}
    if failing & NEEDS_EDITOR:
        steps.append(f"Open the project in Godot 4.2+ (the plugin is enabled), or without a display: "
                     f"godot --headless --editor --path {plan.project}")
        steps.append("Or let the bridge start the editor when a tool needs it: "
                     "godot-bridge init --env GODOT_MCP_AUTOLAUNCH=headless --env GODOT_BIN=/path/to/godot")
    other = [c for c in checks if c.status == "fail" and c.id not in NEEDS_EDITOR]
    if other:
        steps.append("Fix what doctor marks ✗ above: " + ", ".join(c.title for c in other))
    if plan.entry_command and shutil.which(plan.entry_command) is None:
        steps.append(f"The MCP entry runs {plan.entry_command!r}, which is not on PATH here: install uv "
                     "(it provides uvx), or edit the entry to run the installed godot-bridge command")
    if plan.client_changed:
        steps.append("Restart your MCP client so it reads the new configuration")
    return steps or ["Nothing: the set-up is complete"]


# -- command line ----------------------------------------------------------------------------------


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="godot-bridge init",
        description="Set a Godot project up for the bridge: copy the toolkit plugin into it, enable the plugin "
        "in project.godot, write the MCP client configuration, then run doctor.",
    )
    parser.add_argument("--project", metavar="DIR",
                        help="the Godot project folder (default: $GODOT_MCP_PROJECT_PATH, else the working dir)")
    parser.add_argument("--client", metavar="NAME", action="extend", nargs="+", choices=sorted(CLIENT_FILES),
                        help="claude, cursor, codex (.mcp.json) or vscode (.vscode/mcp.json); default claude")
    parser.add_argument("--env", metavar="NAME=VALUE", action="append", default=[],
                        help="set an env var in the entry (NAME= removes it), e.g. GODOT_MCP_AUTOLAUNCH=headless")
    parser.add_argument("--dry-run", action="store_true", help="print what would change and write nothing")
    parser.add_argument("--force", action="store_true",
                        help="replace a toolkit copy that is newer or locally modified")
    return parser


def _env_overrides(pairs: Sequence[str]) -> dict[str, str | None]:
    out: dict[str, str | None] = {}
    for pair in pairs:
        name, eq, value = pair.partition("=")
        name = name.strip()
        if not eq or not name:
            raise InitError(f"--env {pair!r}: expected NAME=VALUE")
        if name in ENV_CHECKS and value:
            try:
                check_env_value(name, value)
            except ConfigError as exc:
                raise InitError(f"--env: {exc}") from None
        elif name.startswith("GODOT_MCP_") and name not in ENV_CHECKS:
            raise InitError(f"--env: {name} is not a variable the bridge reads (known: {', '.join(sorted(ENV_CHECKS))})")
        out[name] = value or None
    return out


def _print_plan(plan: Plan, dry_run: bool) -> None:
    if not plan.changes:
        print(f"Nothing to change in {plan.project}: toolkit {plan.addon.shipped_version} is in place, the plugin is "
              "enabled and the MCP configuration has the entry.")
        for line in plan.lines:
            print(f"  {line}")
        return
    print(("Would change" if dry_run else "Setting up") + f" {plan.project}:")
    for line in plan.lines:
        print(f"  - {line}")


def _doctor(project: Path, env: Mapping[str, str]) -> list[doctor.Check]:
    ctx = doctor.build_context(str(project), dict(env), doctor.DEFAULT_PROBE_TIMEOUT)
    checks = asyncio.run(doctor.run(ctx))
    print()
    sys.stdout.write(doctor.render_text(ctx, checks))
    return checks


def main(argv: Sequence[str], env: Mapping[str, str] | None = None) -> int:
    args = _parser().parse_args(list(argv))  # exits 2 with the usage on a bad argument
    env = dict(os.environ if env is None else env)
    try:
        project = _project(args.project, env)
        plan = build_plan(project, args.client or DEFAULT_CLIENTS, _env_overrides(args.env), args.force)
    except (InitError, ToolkitMissing, client_entry.EntryError) as exc:
        sys.stderr.write(f"godot-bridge init: error: {exc}\n")
        return 1
    except OSError as exc:
        sys.stderr.write(f"godot-bridge init: error: cannot read {exc.filename or 'the project'}: "
                         f"{exc.strerror or exc}; nothing was changed\n")
        return 1
    _print_plan(plan, args.dry_run)
    if args.dry_run:
        print("Dry run: nothing was written.")
        return 0
    try:
        file_batch.apply(plan.changes)
    except file_batch.BatchError as exc:
        sys.stderr.write(f"godot-bridge init: error: {exc}\n")
        return 1
    if plan.changes:
        print(f"Done: {len(plan.changes)} file(s) written.")
    checks = _doctor(project, env)
    print("\nLeft to do:")
    for step in next_steps(plan, checks):
        print(f"  - {step}")
    return 1 if any(c.status == "fail" and c.id not in NEEDS_EDITOR for c in checks) else 0
