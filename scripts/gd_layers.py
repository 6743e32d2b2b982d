#!/usr/bin/env python3
"""CI: the toolkit's folders stand in layers, each using only the layers below it, with no cycle.

A folder of addons/godot_mcp_toolkit/ uses another when one of its scripts names a script there:
a ".gd" path in a string (preload, load, extends, or a constant loaded later such as a list of
command files; relative paths resolved against the script's folder; comments ignored) or a
class_name the other script declares. RANKS gives every folder its layer. A folder uses only
folders of a lower rank, so nothing below commands/ reaches into a command domain; the command
domains (commands/<domain>/) share one rank and may use one another's helpers, as long as no
folder cycle forms (checked on its own, whatever the ranks say).

usage: gd_layers.py [--repo PATH] [--graph]   (--graph: print the folder graph and its figures)
Exit status: 0 clean, 1 problems.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gd_common import REPO, TOOLKIT, fail_exit, gd_files, lex, resolve_script_path  # noqa: E402

COMMANDS = "commands"
# Folder (relative to the toolkit; "." is its top, plugin.gd) -> layer, lowest first. A new folder
# needs a rank here: put it above everything it uses and below everything that uses it.
RANKS: dict[str, int] = {
    # Leaves: use nothing of the toolkit. Folder existence and the engine's and plugin's versions;
    # the wire's envelopes, error codes, params, coercion, paging and answer budget; raw sockets.
    "base": 0,
    "contract": 0,
    "transport/peer": 0,
    # The project's places and files: the project key and per-project folders; the one door every
    # file change goes through and the checkpoint journal behind it; the registry's files; the
    # request router and dispatch lanes (they know only the contract).
    "paths": 1,
    "checkpoints": 1,
    "registry/store": 1,
    "transport/dispatch": 1,
    # Guards (path guard, token, secret scrubber, untrusted envelope), the toolkit's project
    # settings (saved through the file door), the machine-wide registry of open editors.
    "security": 2,
    "settings": 2,
    "registry": 2,
    # What the domains share: logs and the error store, file writes with undo, how an edit is made
    # and recorded (undo builder, deferred saves, the edit ledger), the live scene tree (node
    # lookup, property access, signals), extensions, the dock and the person's question.
    "logs": 3,
    "files": 3,
    "edits": 3,
    "scene_tree": 3,
    "extensions": 3,
    "ui": 3,
    # The seams: commands reach the editor or the game through a context, and the wire through
    # the transport.
    "context": 4,
    "transport": 4,
    # Every command domain, commands/<domain>/ (one rank for all of them: see DOMAIN_RANK).
    # The editor's list of command files.
    COMMANDS: 6,
    # The composition roots: the editor's (core/toolkit_app.gd) and the game's (runtime/).
    "core": 7,
    "runtime": 7,
    # The editor glue and the plugin that starts it all; the example extension beside them.
    "editor": 8,
    ".": 9,
    "examples/mcp_extensions": 9,
}
DOMAIN_RANK = 5


@dataclass(frozen=True)
class Use:
    """One script naming another, across folders."""

    source: str  # toolkit-relative script path
    target: str
    how: str  # the path string or class name


def folder_of(script: str) -> str:
    parent = script.rsplit("/", 1)[0] if "/" in script else "."
    return parent


def rank_of(folder: str) -> int | None:
    if folder.startswith(COMMANDS + "/") and folder.count("/") == 1:
        return DOMAIN_RANK
    return RANKS.get(folder)


def is_domain(folder: str) -> bool:
    return rank_of(folder) == DOMAIN_RANK and folder.startswith(COMMANDS + "/")


_CLASS_NAME = re.compile(r"^class_name\s+(\w+)", re.M)
_WORD = re.compile(r"\b[A-Z]\w*\b")


def uses(repo: Path = REPO) -> list[Use]:
    """Every cross-folder use inside the toolkit, sorted."""
    base = TOOLKIT.as_posix() + "/"
    files = gd_files(repo, TOOLKIT)
    lexed = {rel: lex((repo / rel).read_text(encoding="utf-8")) for rel in files}
    classes = {name: rel for rel, lx in lexed.items() for name in _CLASS_NAME.findall(lx.raw)}
    found: set[Use] = set()
    for rel, lx in lexed.items():
        named: dict[Path, str] = {}
        for _, value in lx.strings:
            if value.endswith(".gd"):
                target = resolve_script_path(repo, rel, value)
                if target is not None and target.as_posix().startswith(base):
                    named.setdefault(target, value)
        for name in set(_WORD.findall(lx.code)) & classes.keys():
            named.setdefault(classes[name], name)
        source = rel.as_posix()[len(base):]
        for target, how in named.items():
            inside = target.as_posix()[len(base):]
            if folder_of(inside) != folder_of(source):
                found.add(Use(source, inside, how))
    return sorted(found, key=lambda u: (u.source, u.target))


def folder_graph(all_uses: Iterable[Use]) -> dict[str, set[str]]:
    graph: dict[str, set[str]] = defaultdict(set)
    for use in all_uses:
        graph[folder_of(use.source)].add(folder_of(use.target))
    return graph


def cycle_groups(graph: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one node (each holds a cycle), sorted."""
    nodes = sorted(set(graph) | {t for targets in graph.values() for t in targets})
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []
    for root in nodes:
        if root in index:
            continue
        # Tarjan's algorithm, iterative: (node, its remaining successors).
        work = [(root, iter(sorted(graph.get(root, ()))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, successors = work[-1]
            for nxt in successors:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph.get(nxt, ())))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        groups.append(sorted(group))
    return sorted(groups)


def _first_use(all_uses: list[Use], source: str, target: str) -> Use:
    return next(u for u in all_uses if folder_of(u.source) == source and folder_of(u.target) == target)


def check(repo: Path = REPO) -> list[str]:
    all_uses = uses(repo)
    base = TOOLKIT.as_posix() + "/"
    folders = {folder_of(rel.as_posix()[len(base):]) for rel in gd_files(repo, TOOLKIT)}
    problems = [f"{TOOLKIT.as_posix()}/{folder}/: no rank in gd_layers.RANKS (give it the layer it belongs to)"
                for folder in sorted(folders) if rank_of(folder) is None]
    problems += [f"gd_layers.RANKS names {folder}/, which holds no script (remove it)"
                 for folder in sorted(set(RANKS) - folders)]
    for use in all_uses:
        here, there = folder_of(use.source), folder_of(use.target)
        low, high = rank_of(here), rank_of(there)
        if low is None or high is None or high < low or (is_domain(here) and is_domain(there)):
            continue
        why = ("nothing below commands/ may use a command domain: move the shared piece down"
               if is_domain(there) else "a layer uses only the layers below it")
        problems.append(f"{TOOLKIT.as_posix()}/{use.source}: uses {use.target} ({use.how}): {here}/ (rank {low}) "
                        f"-> {there}/ (rank {high}); {why}")
    graph = folder_graph(all_uses)
    for group in cycle_groups(graph):
        inside = [f"{a} -> {b} ({_first_use(all_uses, a, b).source})"
                  for a in group for b in sorted(graph.get(a, ())) if b in group]
        problems.append("folder cycle: " + "; ".join(inside))
    return problems


def describe(repo: Path = REPO) -> str:
    """The folder graph's figures: folders, uses, back-arrows, cycles, the largest scripts."""
    all_uses = uses(repo)
    graph = folder_graph(all_uses)
    base = TOOLKIT.as_posix() + "/"
    files = gd_files(repo, TOOLKIT)
    ranks = {folder: rank for folder in {folder_of(rel.as_posix()[len(base):]) for rel in files}
             if (rank := rank_of(folder)) is not None}
    back = [(a, b) for a in graph for b in graph[a] if a in ranks and b in ranks
            and ranks[b] >= ranks[a] and not (is_domain(a) and is_domain(b))]
    sizes = sorted(((len((repo / rel).read_text(encoding="utf-8").splitlines()), rel.as_posix()[len(base):])
                    for rel in files), reverse=True)[:3]
    lines = [f"folders: {len({folder_of(rel.as_posix()[len(base):]) for rel in files})}; cross-folder uses: "
             f"{len(all_uses)} script -> script, {sum(len(t) for t in graph.values())} folder -> folder",
             f"back-arrows (to the same or a higher layer): {len(back)}; cycle groups: {len(cycle_groups(graph))}",
             "largest scripts: " + ", ".join(f"{name} ({count} lines)" for count, name in sizes)]
    for rank in sorted(set(ranks.values())):
        members = sorted(f for f, r in ranks.items() if r == rank)
        domains = [m for m in members if is_domain(m)]
        shown = [m for m in members if not is_domain(m)] + ([f"{COMMANDS}/<{len(domains)} domains>"] if domains else [])
        lines.append(f"  layer {rank}: " + ", ".join(shown))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repo", type=Path, default=REPO)
    parser.add_argument("--graph", action="store_true", help="print the folder graph's figures")
    args = parser.parse_args(argv)
    if args.graph:
        print(describe(args.repo))
    return fail_exit(check(args.repo), "gd_layers: the toolkit's folders stand in layers, no cycle", "gd_layers")


if __name__ == "__main__":
    sys.exit(main())
