"""What a bridge costs every model request, measured inside the real assistants.

    .venv/bin/python -m bench.context_cost [--clients claude,codex,...] [--no-reference] [--no-peers]

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

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"
CLIENTS = ("claude", "codex", "gemini", "copilot", "qwen", "opencode")


@dataclass(frozen=True)
class Cost:
    client: str
    bridge: str
    first: int  # the bridge's bytes in the first model request
    after: int  # ... in the request after discover_tools answered
    success: int | None  # bytes of the always-on read as the model got it
    error: int | None  # bytes of a typical error as the model got it
    group_tool: str  # "called", "via call_tool", "not declared"


def _size(text: str | None) -> int | None:
    return None if text is None else len(text.encode())


def _cli(name: str) -> Any:
    from tests.assistants.clis import CLIS

    return next(cli for cli in CLIS if cli.client == name)


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


def measure(client: str, bridge: str) -> Cost:
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
        sandbox.init(client)
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
        return Cost(client, bridge, cli.footprint(carrying[0]) if carrying else 0,
                    cli.footprint(after) if after else 0, _size(seen(sc.ALWAYS_ON)), _size(seen(sc.MISSING_NODE)), how)
    finally:
        editor.stop()
        shutil.rmtree(root, ignore_errors=True)


def _ratio(ours: int | None, ref: int | None) -> str:
    return f"{ours / ref:.2f}x" if ours and ref else "-"


def table(costs: list[Cost], peers: dict[str, dict[str, Any]]) -> str:
    lines = ["| assistant | bridge | first request | after discover_tools | success | error | loaded tool |",
             "| --- | --- | ---: | ---: | ---: | ---: | --- |"]
    by = {(c.client, c.bridge): c for c in costs}
    for c in costs:
        lines.append(f"| {c.client} | {c.bridge} | {c.first:,} | {c.after:,} | {c.success or '-'} | "
                     f"{c.error or '-'} | {c.group_tool} |")
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
    parser.add_argument("--no-reference", action="store_true", help="this bridge only")
    parser.add_argument("--no-peers", action="store_true", help="skip the other servers' tools/list")
    args = parser.parse_args(argv)
    clients = [c for c in args.clients.split(",") if c]
    unknown = [c for c in clients if c not in CLIENTS]
    if unknown:
        parser.error(f"unknown client(s) {', '.join(unknown)}; choose from {', '.join(CLIENTS)}")
    bridges = ["ours"] if args.no_reference else ["ours", "reference"]
    if "reference" in bridges and not REFERENCE.installed():
        print("bench.context_cost: the reference bridge is not installed: run bench/install_peers.sh "
              "(or pass --no-reference)", file=sys.stderr)
        return 2
    costs = []
    for client in clients:
        for bridge in bridges:
            print(f"bench.context_cost: {client} with {bridge}", file=sys.stderr, flush=True)
            costs.append(measure(client, bridge))
    peers = {} if args.no_peers else asyncio.run(measure_all())
    print(table(costs, peers))
    RESULTS.mkdir(parents=True, exist_ok=True)
    out = RESULTS / f"context-{dt.datetime.now():%Y%m%d-%H%M%S}.json"
    out.write_text(json.dumps({"costs": [asdict(c) for c in costs], "peers": peers}, indent=2), encoding="utf-8")
    print(f"bench.context_cost: wrote {out.relative_to(ROOT)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
