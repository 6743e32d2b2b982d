"""What a bridge costs every model request, measured inside the real assistants.

    .venv/bin/python -m bench.context_cost [--clients claude,codex,...] [--tool-list groups,all]
                                           [--no-reference] [--no-peers]

For each assistant CLI (pinned: ``scripts/assistants.sh``; Claude Code, Codex, Gemini CLI, Copilot CLI,
Qwen Code, opencode) and each bridge (this one, configured by
``godot-bridge init``; the reference ``@npgamedev/godot-mcp-server@1.0.2`` in the same entry, only its
command changed: ``bench/install_peers.sh``), one offline session against the toolkit simulator,
driven by a scripted model endpoint on loopback (``tests/assistants``): an always-on read, a
typical error, ``discover_tools`` loading a typical group, a tool of that group. Read from what the
CLI sent its model:

* first  -- the bytes of the first model request that come from the bridge (its tool declarations, as
  the CLI shows them: Claude Code names its MCP tools and defers their schemas);
* after  -- the same in the request after ``discover_tools`` answered (a CLI that re-lists has the new
  tools there);
* success / error -- the size in which the always-on read and a typical error (a missing node) reach
  the model (the tool-result part of the next request, as the CLI wrapped it);
* group tool -- whether the loaded group's tool was reached (``call_tool`` for a CLI that does not re-list).

Each configuration of ``--tool-list`` runs every CLI with the entry ``init`` writes for it and
``GODOT_MCP_TOOL_LIST`` set so (``init``: as ``init`` writes it): ``groups``, the start-up tools with the
rest behind ``discover_tools``; ``all``, every tool. ``codex-search`` and ``copilot-search`` are Codex with a
model whose catalog entry says ``supports_search_tool`` and Copilot CLI with an Anthropic provider: both
defer every MCP tool behind a search, and their model loads a tool by searching for it (``opening``: our
bytes in the very first request, before any search).

Then the ``tools/list`` bytes of the other Godot MCP servers that start without an editor
(``bench/peers.py``). Prints a table, writes JSON to ``bench/results/``. Nothing is asserted: the
targets are in ``tests/unit/test_context_cost.py`` (the start-up list) and the figures here.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import json
import shutil
import sys
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import tomlkit

from bench.peers import REFERENCE, measure_all
from godot_bridge.config import TOOL_LIST_ENV, TOOL_LISTS

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"
CLIENTS = ("claude", "codex", "gemini", "copilot", "qwen", "opencode", "codex-search", "copilot-search")
CONFIGURATIONS = ("init", *TOOL_LISTS)


@dataclass(frozen=True)
class Cost:
    client: str
    bridge: str
    tool_list: str  # GODOT_MCP_TOOL_LIST of the entry ("init": as init writes it; "-": the reference)
    opening: int  # the bridge's bytes in the very first model request (before any search)
    first: int  # the bridge's bytes in the first model request that carries any
    after: int  # ... in the request after discover_tools answered
    success: int | None  # bytes of the always-on read as the model got it
    error: int | None  # bytes of a typical error as the model got it
    group_tool: str  # "called", "via call_tool", "not declared"


def _size(text: str | None) -> int | None:
    return None if text is None else len(text.encode())


def _cli(name: str) -> Any:
    from tests.assistants.clis import CLIS, SEARCHING

    return next(cli for cli in (*CLIS, *SEARCHING) if str(cli) == name)


def init_args(tool_list: str) -> list[str]:
    """What ``godot-bridge init`` is given for the configuration ``tool_list`` (``init``: nothing)."""
    return [] if tool_list in ("init", "-") else ["--env", f"{TOOL_LIST_ENV}={tool_list}"]


def _use_reference(cli: Any, project: Path, data_home: Path) -> None:
    """Point the entry ``init`` wrote at the reference bridge: same key, timeouts and env, its command.
    The reference finds the editor through the same registry (wire compatible), so its env gets the
    data home the simulator published under (Codex passes the bridge no more than the entry's env)."""
    from tests.assistants.sandbox import SERVER_KEY

    node, script = REFERENCE.argv()
    entries = cli.entry
    path = entries.path(project)
    document = entries._load(path.read_text(encoding="utf-8"))
    entry = document[entries.spec["servers"]][SERVER_KEY]
    if isinstance(entry.get("command"), list):  # opencode: the command and its arguments in one list
        entry["command"], env_key = [node, script], "environment"
    else:
        entry["command"], entry["args"], env_key = node, [script], "env"
    if env_key not in entry:
        entry[env_key] = tomlkit.inline_table() if entries.spec["format"] == "toml" else {}
    entry[env_key]["XDG_DATA_HOME"] = str(data_home)
    path.write_text(entries._dump(document), encoding="utf-8")


def measure(client: str, bridge: str, tool_list: str = "init") -> Cost:
    from tests.assistants import scenarios as sc
    from tests.assistants.clis import call_tool
    from tests.assistants.model_server import Say, ToolCall
    from tests.assistants.sandbox import Editor, Sandbox, install

    cli = _cli(client)
    loaded: ToolCall = sc.GROUP_TOOL if cli.relists or bridge == "reference" else call_tool(sc.GROUP_TOOL)
    turns = [sc.ALWAYS_ON, sc.MISSING_NODE, sc.DISCOVER, loaded, Say("done")]
    root = Path(tempfile.mkdtemp(prefix="bench-context-"))
    sandbox = Sandbox.create(root, install())
    editor = Editor(sandbox.data_home, sandbox.project)
    try:
        sandbox.init(cli.client, *init_args(tool_list))
        if bridge == "reference":
            _use_reference(cli, sandbox.project, sandbox.data_home)
        session = sc.play(sandbox, editor, cli.adapter(), cli.run, turns)
        server = session.server
        carrying = [r for r in session.run.requests if cli.footprint(r)]
        after = session.after(sc.DISCOVER)

        def seen(turn: ToolCall) -> str | None:
            found = server.result_of(session.index(turn))
            return found.text if found is not None else None

        served = server.call_of(session.index(loaded))
        reached = seen(loaded) is not None
        how = ("via call_tool" if loaded.tool == "call_tool" else "called") if reached else \
            ("not declared" if served is None or served.declared is None else "no result")
        opening = cli.footprint(session.run.requests[0]) if session.run.requests else 0
        return Cost(client, bridge, tool_list, opening, cli.footprint(carrying[0]) if carrying else 0,
                    cli.footprint(after) if after else 0, _size(seen(sc.ALWAYS_ON)), _size(seen(sc.MISSING_NODE)), how)
    finally:
        editor.stop()
        shutil.rmtree(root, ignore_errors=True)


def _ratio(ours: int | None, ref: int | None) -> str:
    return f"{ours / ref:.2f}x" if ours and ref else "-"


def table(costs: list[Cost], peers: dict[str, dict[str, Any]]) -> str:
    lines = ["| assistant | bridge | tool list | opening request | first request with ours | after discover_tools "
             "| success | error | loaded tool |",
             "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | --- |"]
    by = {(c.client, c.bridge): c for c in costs if c.bridge == "reference" or c.tool_list in ("init", "groups")}
    for c in costs:
        lines.append(f"| {c.client} | {c.bridge} | {c.tool_list} | {c.opening:,} | {c.first:,} | {c.after:,} | "
                     f"{c.success or '-'} | {c.error or '-'} | {c.group_tool} |")
    lines.append("")
    lines.append("| assistant | first request, ours / reference | after discover_tools |")
    lines.append("| --- | ---: | ---: |")
    for client in dict.fromkeys(c.client for c in costs):
        ours, ref = by.get((client, "ours")), by.get((client, "reference"))
        if ours and ref:
            lines.append(f"| {client} | {_ratio(ours.first, ref.first)} | {_ratio(ours.after, ref.after)} |")
    if peers:
        lines += ["", "| server (no editor) | tools | tools/list bytes |", "| --- | ---: | ---: |"]
        for name, found in peers.items():
            if "error" in found:
                lines.append(f"| {name} | - | {found['error']} |")
            else:
                lines.append(f"| {name} | {found['tools']} | {found['bytes']:,} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.context_cost", description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", default=",".join(CLIENTS), help="comma-separated: " + ", ".join(CLIENTS))
    parser.add_argument("--tool-list", default=",".join(TOOL_LISTS),
                        help="comma-separated configurations of this bridge: " + ", ".join(CONFIGURATIONS))
    parser.add_argument("--no-reference", action="store_true", help="this bridge only")
    parser.add_argument("--no-peers", action="store_true", help="skip the other servers' tools/list")
    args = parser.parse_args(argv)
    clients = [c for c in args.clients.split(",") if c]
    lists = [t for t in args.tool_list.split(",") if t]
    unknown = [c for c in clients if c not in CLIENTS] + [t for t in lists if t not in CONFIGURATIONS]
    if unknown:
        parser.error(f"unknown {', '.join(unknown)}; clients: {', '.join(CLIENTS)}; "
                     f"tool lists: {', '.join(CONFIGURATIONS)}")
    bridges = ["ours"] if args.no_reference else ["ours", "reference"]
    if "reference" in bridges and not REFERENCE.installed():
        print("bench.context_cost: the reference bridge is not installed: run bench/install_peers.sh "
              "(or pass --no-reference)", file=sys.stderr)
        return 2
    costs = []
    for client in clients:
        runs = [("ours", t) for t in lists] + [("reference", "-")] * ("reference" in bridges)
        for bridge, tool_list in runs:
            print(f"bench.context_cost: {client} with {bridge} ({tool_list})", file=sys.stderr, flush=True)
            costs.append(measure(client, bridge, tool_list))
    peers = {} if args.no_peers else asyncio.run(measure_all())
    print(table(costs, peers))
    RESULTS.mkdir(parents=True, exist_ok=True)
    out = RESULTS / f"context-{dt.datetime.now():%Y%m%d-%H%M%S}.json"
    out.write_text(json.dumps({"costs": [asdict(c) for c in costs], "peers": peers}, indent=2), encoding="utf-8")
    print(f"bench.context_cost: wrote {out.relative_to(ROOT)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
