"""The assistants' own tool search finds the tool a task needs (tests/assistants/tool_search.py), through
real Claude Code (its ToolSearch) and real Codex with a model that searches (its tool_search), each with
the entry ``godot-bridge init`` writes for it, into the simulated editor.

A few of the task searches of ``bench/search_tasks.json`` (``python -m bench.tool_search`` runs them all),
in ONE run of each CLI: each must bring back a tool that does the task among its first 8 results. They
miss when the entry lists only the start-up tools (the tools that do these tasks wait in groups, which no
search sees) and when a description lacks the task's own words (BM25 cannot split a tool's name into
words; Claude Code scores a name's parts far above its description's words).
"""

from __future__ import annotations

import pytest

from tests.assistants import tool_search as ts
from tests.assistants.sandbox import Editor, Sandbox

CHECKED = ("tilemap set cells", "simulate keyboard input", "connect a signal", "press a key in the game",
           "change a node property while the game is running")


def checked_tasks() -> list[ts.Task]:
    tasks = {t.query: t for t in ts.load_tasks()}
    return [tasks[q] for q in CHECKED]


@pytest.mark.parametrize("searcher", [ts.CLAUDE, ts.CODEX], ids=lambda s: s.client)
def test_search_reaches_a_tool_that_does_the_task(sandbox: Sandbox, editor: Editor, searcher: ts.Searcher) -> None:
    sandbox.init(searcher.client)
    reaches = ts.search(searcher, sandbox, editor, checked_tasks())
    missed = {r.task.query: r.returned for r in reaches if not r.reached}
    assert not missed, f"{searcher.client}: these searches brought back no tool that does the task: {missed}"
