"""How each CLI's model searches the MCP tools the CLI defers, and which tools a search brought back.

A CLI that defers MCP tools gives its model a search tool, run by the CLI itself; the model searches once
per task and reads, in the next request, which tools came back (what it can then call):

* Claude Code: ``ToolSearch({"query", "max_results"})``, keywords scored against tool names and
  descriptions; the tool result is a list of ``tool_reference`` blocks naming the tools loaded.
* Codex with a model whose catalog entry says ``supports_search_tool``: a ``tool_search_call`` item
  (``query``, ``limit``), BM25 over names, descriptions and parameter names; the next request carries a
  ``tool_search_output`` with the namespaces and tools found.
* Copilot CLI with an Anthropic provider: ``tool_search_tool({"pattern", "limit"})``, a regex over names,
  descriptions and parameters; ``tool_reference`` blocks, as Claude Code.

``Task`` is one need as a model would search for it (keywords, and a regex for Copilot CLI) with the tools
that do it; ``search`` plays a list of them through one CLI run (one search a turn) and returns what each
search brought back (``Reach``). The task list is ``bench/search_tasks.json``; ``bench.tool_search`` runs
it, ``test_tool_search.py`` a few of it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.assistants import claude_code, codex, copilot
from tests.assistants import scenarios as sc
from tests.assistants.anthropic import SEARCH_TOOL as CLAUDE_SEARCH
from tests.assistants.anthropic import AnthropicAdapter
from tests.assistants.model_server import Adapter, CallReply, ModelServer, Say, ToolCall
from tests.assistants.openai_responses import SEARCH_TOOL as CODEX_SEARCH
from tests.assistants.openai_responses import searched
from tests.assistants.sandbox import ROOT, Editor, Sandbox

RESULTS = 8  # what the model asks each search for, and the results that count
TASKS = ROOT / "bench" / "search_tasks.json"


@dataclass(frozen=True)
class Task:
    query: str  # keywords, as a model writes them for a keyword search
    pattern: str  # the same need as a regex, for a regex search
    doing: frozenset[str]  # the tools that do it (catalogue names)


def load_tasks(path: Path = TASKS) -> list[Task]:
    data = json.loads(path.read_text(encoding="utf-8"))
    return [Task(t["query"], t["pattern"], frozenset(t["doing"])) for t in data["tasks"]]


Found = Callable[[Mapping[str, Any], str], list[str] | None]


def referenced(body: Mapping[str, Any], call_id: str) -> list[str] | None:
    """The tools named by the ``tool_reference`` blocks of the tool result for ``call_id`` (Anthropic
    Messages; [] when the result is a text, such as "no match"); None when the request has no such result."""
    for msg in body.get("messages") or []:
        content = msg.get("content") if isinstance(msg, dict) else None
        for block in content if isinstance(content, list) else []:
            if not (isinstance(block, dict) and block.get("type") == "tool_result"):
                continue
            if not str(block.get("tool_use_id", "")).endswith(call_id):
                continue
            inner = block.get("content")
            refs = inner if isinstance(inner, list) else []
            return [str(r.get("tool_name", "")) for r in refs
                    if isinstance(r, dict) and r.get("type") == "tool_reference"]
    return None


def codex_found(body: Mapping[str, Any], call_id: str) -> list[str] | None:
    items = body.get("input")
    return searched(items, call_id) if isinstance(items, list) else None


@dataclass(frozen=True)
class Searcher:
    """One CLI whose model searches our tools: how it is run, its search tool, and how our tools are named
    in what the search brings back (prefix + catalogue name)."""

    client: str  # the init client and the benchmark's id
    adapter: Callable[[], Adapter]
    run: sc.Runner
    tool: str  # the search tool's declared name
    arguments: Callable[[Task], dict[str, Any]]
    found: Found
    prefix: str
    # A first search that waits for our server to connect (Claude Code may send its first request, and so
    # a first keyword search, before the server is up: that search finds none of its tools).
    warmup: ToolCall | None = None

    def turn(self, task: Task) -> ToolCall:
        return ToolCall(self.tool, self.arguments(task))

    def ours(self, names: Sequence[str]) -> list[str]:
        """The catalogue names of our tools among ``names``, in order."""
        return [n[len(self.prefix):] for n in names if n.startswith(self.prefix)]


CLAUDE = Searcher("claude", AnthropicAdapter, claude_code.run, CLAUDE_SEARCH,
                  lambda t: {"query": t.query, "max_results": RESULTS}, referenced, claude_code.PREFIX,
                  ToolCall(CLAUDE_SEARCH, {"query": f"select:{claude_code.PREFIX}discover_tools"}))
CODEX = Searcher("codex", codex.adapter, codex.run_searching, CODEX_SEARCH,
                 lambda t: {"query": t.query, "limit": RESULTS}, codex_found, codex.NAMESPACE)
COPILOT = Searcher("copilot", AnthropicAdapter, copilot.run_searching, copilot.SEARCH_TOOL,
                   lambda t: {"pattern": t.pattern, "limit": RESULTS}, referenced, copilot.PREFIX)
SEARCHERS = (CLAUDE, CODEX, COPILOT)
BY_CLIENT = {s.client: s for s in SEARCHERS}


@dataclass(frozen=True)
class Reach:
    """What one search brought back: every tool in order (the CLI's names; None: the search never
    answered, the run ended first), and ours among the first ``RESULTS`` by catalogue name."""

    task: Task
    returned: tuple[str, ...] | None
    ours: tuple[str, ...]

    @property
    def reached(self) -> bool:
        """A tool that does the task is among the first ``RESULTS`` results."""
        return bool(set(self.ours) & self.task.doing)


class NotConnected(RuntimeError):
    """The CLI searched before our server was connected: the run measures nothing."""


def search(searcher: Searcher, sandbox: Sandbox, editor: Editor | None, tasks: Sequence[Task]) -> list[Reach]:
    """Every task's search in ONE run of the CLI (the entry ``init`` wrote in ``sandbox``), in order."""
    warmup = [searcher.warmup] if searcher.warmup else []
    turns = [*warmup, *(searcher.turn(t) for t in tasks), Say("done")]
    session = sc.play(sandbox, editor, searcher.adapter(), searcher.run, turns)
    if warmup and not searcher.ours(returned(searcher, session.server, 0) or []):
        raise NotConnected(f"{searcher.client}: our server was not connected by the first search\n"
                           + session.run.describe())
    reaches = []
    for index, task in enumerate(tasks, start=len(warmup)):
        found = returned(searcher, session.server, index)
        first = searcher.ours((found or [])[:RESULTS])
        reaches.append(Reach(task, None if found is None else tuple(found), tuple(first)))
    return reaches


def returned(searcher: Searcher, server: ModelServer, turn: int) -> list[str] | None:
    """What the search of ``turn`` brought back, read from the first later request that carries it."""
    served = server.call_of(turn)
    if served is None or not isinstance(served.reply, CallReply):
        return None
    call_id = served.reply.call_id
    return next((found for r in server.requests[served.request_index + 1:]
                 if isinstance(r.json, dict) and (found := searcher.found(r.json, call_id)) is not None), None)
