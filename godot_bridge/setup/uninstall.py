"""``godot-bridge uninstall``: take out what ``init`` put in, and nothing of the user's.

* our entry (the definition's key) from every client file that has it, where the clients read
  them (locate.py, as init found them), and from the per-user files with ``--user``; a file
  that holds nothing else goes, as does a client folder (``.cursor/``, ...) left empty;
* the plugin from ``[editor_plugins] enabled`` in ``project.godot``, restoring the file as it was
  before ``init`` when nothing else changed there (project_godot.disable_plugin);
* the plugin folder: the files the install record lists, when unchanged, the record itself, the
  files Godot wrote beside them, and folders left empty. A file the user changed or added (an
  extension of their own) stays, and so does the folder, unless ``--force``.

As with init, everything is planned first, a problem found then changes nothing, the files are
changed all or nothing (file_batch.py), and ``--dry-run`` prints the plan only.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from godot_bridge import usage
from godot_bridge.errors import SetupError
from godot_bridge.setup import addon_install, doctor, file_batch
from godot_bridge.setup.client_files import ClientFile, ClientFileError, clients, project_path, user_path
from godot_bridge.setup.init import InitError, plugin_line_change
from godot_bridge.setup.locate import Location, locate
from godot_bridge.shipped import mcp_entry
from godot_bridge.shipped.mcp_entry import ClientSpec
from godot_bridge.shipped.toolkit_files import ADDON_REL, PLUGIN_RES_PATH, files, toolkit_dir


class UninstallError(SetupError):
    """Planning found a problem; nothing was changed."""


@dataclass
class Plan:
    where: Location
    changes: list[file_batch.Change] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)  # what stays, and why
    folders: list[Path] = field(default_factory=list)  # to remove once empty, deepest first


def _client_files(plan: Plan, names: Sequence[str], user: bool,
                  env: Mapping[str, str]) -> dict[Path, tuple[ClientSpec, list[str]]]:
    """Each client file of ``names``, once (.mcp.json serves three clients), with the clients reading it."""
    files: dict[Path, tuple[ClientSpec, list[str]]] = {}
    for name in names:
        spec = clients()[name]
        paths = [project_path(spec, plan.where.root)]
        if plan.where.project != plan.where.root:
            paths.append(project_path(spec, plan.where.project))
        home_file = user_path(spec, doctor.home_folder(env), env)
        if user and home_file is not None:
            paths.append(home_file)
        for path in paths:
            files.setdefault(path, (spec, []))[1].append(spec.label)
    return files


def _plan_clients(plan: Plan, names: Sequence[str], user: bool, env: Mapping[str, str]) -> None:
    key = mcp_entry.definition().server_key
    for path, (spec, labels) in _client_files(plan, names, user, env).items():
        label = " / ".join(labels)
        file = ClientFile.read(spec, path)
        if file.text is None:
            continue
        try:
            servers = file.servers() or {}
            if key not in servers:
                found = file.entry()
                if found is not None:
                    plan.kept.append(f"{path}: the entry {found[0]!r} is not the one init writes; remove it by "
                                     "hand if it starts this bridge")
                continue
            text = file.without_entry(key)
        except ClientFileError as exc:
            raise UninstallError(str(exc)) from None
        if text is None:
            plan.changes.append(file_batch.Change(path, None))
            plan.lines.append(f"remove {path} (it held only the {label} entry)")
            if path.parent not in (plan.where.root, plan.where.project):
                plan.folders.append(path.parent)
        else:
            plan.changes.append(file_batch.Change(path, text.encode("utf-8")))
            plan.lines.append(f"take the {label} entry out of {path}")


def _plan_project_godot(plan: Plan) -> None:
    path = plan.where.project / "project.godot"
    if not path.is_file():
        return
    try:
        change = plugin_line_change(path, enable=False)
    except InitError as exc:
        raise UninstallError(str(exc)) from None
    if change is not None:
        plan.changes.append(change)
        plan.lines.append(f"disable the plugin in project.godot ([editor_plugins] enabled -= {PLUGIN_RES_PATH})")


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _recorded(addon: Path) -> dict[str, str]:
    """The install record's file hashes; without a record, the shipped toolkit's (a copy made by hand)."""
    try:
        data = json.loads((addon / addon_install.RECORD).read_text(encoding="utf-8"))
        hashes = data.get("files")
        if isinstance(hashes, dict):
            return {str(k): str(v) for k, v in hashes.items()}
    except (OSError, ValueError, AttributeError):
        pass
    return {rel: _sha(p.read_bytes()) for rel, p in files(toolkit_dir()).items()}


def _plan_addon(plan: Plan, force: bool) -> None:
    addon = plan.where.project / ADDON_REL
    if addon.is_symlink():
        plan.kept.append(f"{addon} is a symbolic link; remove the link by hand")
        return
    if not addon.is_dir():
        return
    ours = _recorded(addon)
    present = files(addon)
    remove, changed, foreign = [], [], []
    for rel, path in present.items():
        if rel == addon_install.RECORD:
            continue
        base = next((rel[:-len(end)] for end in addon_install.SIDECARS if rel.endswith(end)), None)
        if rel in ours:
            (remove if _sha(path.read_bytes()) == ours[rel] else changed).append(rel)
        elif base is not None and base in ours:
            remove.append(rel)  # Godot's .uid / .import beside a toolkit file
        else:
            foreign.append(rel)
    if force:
        remove, changed, foreign = remove + changed + foreign, [], []
    remove = [rel for rel in remove if not any(rel.endswith(end) and rel[:-len(end)] in changed
                                               for end in addon_install.SIDECARS)]
    if (addon / addon_install.RECORD).is_file() and not changed and not foreign:
        remove.append(addon_install.RECORD)
    plan.changes += [file_batch.Change(addon / rel, None) for rel in sorted(remove)]
    if remove:
        plan.lines.append(f"remove {len(remove)} plugin file(s) from {ADDON_REL}/")
    if changed:
        plan.kept.append(f"{ADDON_REL}/: {len(changed)} file(s) you changed: {', '.join(changed[:5])}"
                         + (" ..." if len(changed) > 5 else "") + " (--force removes them too)")
    if foreign:
        plan.kept.append(f"{ADDON_REL}/: {len(foreign)} file(s) the plugin does not ship: {', '.join(foreign[:5])}"
                         + (" ..." if len(foreign) > 5 else "") + " (--force removes them too)")
    folders = sorted({p for rel in remove for p in (addon / rel).parents if p == addon or addon in p.parents},
                     key=lambda p: len(p.parts), reverse=True)
    plan.folders += [*folders, addon.parent]  # addons/ too, when nothing else is in it


def build_plan(where: Location, names: Sequence[str], user: bool, force: bool, env: Mapping[str, str]) -> Plan:
    plan = Plan(where)
    _plan_clients(plan, names, user, env)
    # project.godot before the files: the plugin is disabled before its files go.
    _plan_project_godot(plan)
    _plan_addon(plan, force)
    for change in plan.changes:
        problem = file_batch.refusal(change)
        if problem is not None:
            raise UninstallError(f"{problem}. Nothing was changed")
    return plan


def remove_empty(folders: Sequence[Path]) -> None:
    for folder in folders:
        with contextlib.suppress(OSError):
            folder.rmdir()  # only ever empty: a folder still holding something stays


def _parser() -> argparse.ArgumentParser:
    parser = usage.argparser(usage.UNINSTALL)
    parser.add_argument("--project", metavar="DIR")
    parser.add_argument("--client", metavar="NAME", action="extend", nargs="+", choices=[*sorted(clients()), "all"])
    parser.add_argument("--user", action="store_true")
    parser.add_argument("--dry-run", action="store_true")
    parser.add_argument("--force", action="store_true")
    return parser


def main(argv: Sequence[str], env: Mapping[str, str] | None = None) -> int:
    args = _parser().parse_args(list(argv))
    env = dict(os.environ if env is None else env)
    names = list(clients()) if not args.client or "all" in args.client else list(dict.fromkeys(args.client))
    try:
        where = locate(args.project, env)
        if where.search.project is None:
            raise UninstallError(where.search.note())
        plan = build_plan(where, names, args.user, args.force, env)
    except (UninstallError, mcp_entry.EntryError) as exc:
        return usage.failure(usage.UNINSTALL, str(exc))
    except OSError as exc:
        return usage.read_failure(usage.UNINSTALL, exc)
    if not plan.changes:
        print(f"Nothing to take out of {where.project}: no client entry, plugin line or plugin file of ours.")
    else:
        print(("Would change" if args.dry_run else "Uninstalling from") + f" {where.project}:")
        for line in plan.lines:
            print(f"  - {line}")
    for line in plan.kept:
        print(f"  kept: {line}")
    if args.dry_run:
        print("Dry run: nothing was changed.")
        return 0
    try:
        file_batch.apply(plan.changes)
    except file_batch.BatchError as exc:
        return usage.failure(usage.UNINSTALL, str(exc))
    remove_empty(plan.folders)
    if plan.changes:
        print(f"Done: {len(plan.changes)} file(s) changed or removed. Restart your MCP client so it forgets the entry.")
    return 0
