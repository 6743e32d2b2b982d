"""Whether the assistants' own tool search finds our tools, measured through the real CLIs.

    .venv/bin/python -m bench.tool_search [--clients claude,codex,copilot] [--tool-list init,groups,all]

Claude Code, Codex (with a model whose catalog entry says ``supports_search_tool``) and Copilot CLI (with an
Anthropic provider) defer MCP tools behind a search their model calls. For each CLI and each configuration
(``init``: the entry ``godot-bridge init`` writes; ``groups`` / ``all``: that entry with
``GODOT_MCP_TOOL_LIST`` set so), one offline session against the toolkit simulator in which a scripted
model searches once per task of ``bench/search_tasks.json`` (keywords; a regex for Copilot CLI) asking
for 8 results (``tests/assistants/tool_search.py``). A task is reached when a tool that does it is among
the first 8 tools the search brought back. Prints a table and, for every task missed, what came back;
writes JSON to ``bench/results/``. Nothing is asserted: ``tests/assistants/test_tool_search.py`` holds a
few of the tasks.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.context_cost import CONFIGURATIONS, init_args

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"
CLIENTS = ("claude", "codex", "copilot")


@dataclass(frozen=True)
class Run:
    client: str
    tool_list: str
    reaches: list[Any]  # tests.assistants.tool_search.Reach, one per task

    @property
    def reached(self) -> int:
        return sum(r.reached for r in self.reaches)

    @property
    def discover(self) -> int:
        """Searches that brought back discover_tools (the way to the groups) among the first 8."""
        return sum("discover_tools" in r.ours for r in self.reaches)

    def as_json(self) -> dict[str, Any]:
        return {"client": self.client, "tool_list": self.tool_list, "reached": self.reached,
                "tasks": len(self.reaches), "discover_tools_returned": self.discover,
                "searches": [{"query": r.task.query, "pattern": r.task.pattern, "doing": sorted(r.task.doing),
                              "returned": r.returned, "ours_in_first_8": list(r.ours), "reached": r.reached}
                             for r in self.reaches]}


def measure(client: str, tool_list: str, tasks: list[Any], attempts: int = 2) -> Run:
    """One CLI run through every task; again (a fresh sandbox) if the CLI searched before our server was up."""
    from tests.assistants import tool_search as ts
    from tests.assistants.sandbox import Editor, Sandbox, install

    searcher = ts.BY_CLIENT[client]
    for attempt in range(1, attempts + 1):
        root = Path(tempfile.mkdtemp(prefix="bench-search-"))
        editor = None
        try:
            sandbox = Sandbox.create(root, install())
            editor = Editor(sandbox.data_home, sandbox.project)
            sandbox.init(client, *init_args(tool_list))
            return Run(client, tool_list, ts.search(searcher, sandbox, editor, tasks))
        except ts.NotConnected:
            if attempt == attempts:
                raise
            print(f"bench.tool_search: {client} searched before the server was connected; once more",
                  file=sys.stderr, flush=True)
        finally:
            if editor is not None:
                editor.stop()
            shutil.rmtree(root, ignore_errors=True)
    raise AssertionError("unreachable")


def table(runs: list[Run]) -> str:
    lines = ["| assistant | tool list | reached (of tasks) | discover_tools came back |", "| --- | --- | ---: | ---: |"]
    lines += [f"| {r.client} | {r.tool_list} | {r.reached} / {len(r.reaches)} | {r.discover} |" for r in runs]
    for run in runs:
        missed = [r for r in run.reaches if not r.reached]
        if missed:
            lines += ["", f"{run.client}, {run.tool_list}: missed"]
            for r in missed:
                query = r.task.pattern if run.client == "copilot" else r.task.query
                came = "no answer" if r.returned is None else (", ".join(r.ours) or "none of ours")
                lines.append(f"- {query!r} (doing: {', '.join(sorted(r.task.doing))}): {came}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.tool_search", description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", default=",".join(CLIENTS), help="comma-separated: " + ", ".join(CLIENTS))
    parser.add_argument("--tool-list", default="init", help="comma-separated: " + ", ".join(CONFIGURATIONS))
    parser.add_argument("--tasks", type=Path, default=None, help="a task file (default bench/search_tasks.json)")
    args = parser.parse_args(argv)
    clients = [c for c in args.clients.split(",") if c]
    lists = [t for t in args.tool_list.split(",") if t]
    if bad := [c for c in clients if c not in CLIENTS] + [t for t in lists if t not in CONFIGURATIONS]:
        parser.error(f"unknown: {', '.join(bad)}; clients {', '.join(CLIENTS)}; tool lists {', '.join(CONFIGURATIONS)}")
    from tests.assistants.tool_search import TASKS, load_tasks

    tasks = load_tasks(args.tasks or TASKS)
    runs = []
    for client in clients:
        for tool_list in lists:
            print(f"bench.tool_search: {client}, {tool_list}", file=sys.stderr, flush=True)
            runs.append(measure(client, tool_list, tasks))
    print(table(runs))
    RESULTS.mkdir(parents=True, exist_ok=True)
    out = RESULTS / f"search-{dt.datetime.now():%Y%m%d-%H%M%S}.json"
    out.write_text(json.dumps([r.as_json() for r in runs], indent=2), encoding="utf-8")
    print(f"bench.tool_search: wrote {out.relative_to(ROOT)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
