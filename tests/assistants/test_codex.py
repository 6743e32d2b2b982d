"""Codex CLI, headless (``codex exec``), through the bridge into the simulated editor
(tests/assistants/README.md).

Codex starts the bridge with a filtered environment, so it finds the editor only through what the
entry ``init`` wrote carries (the editor's data home). It never re-lists after discover_tools: the
loaded tools are reached through the always-on ``call_tool``. ``codex exec`` declines every question,
and by itself refuses a tool annotated destructive unless the entry approves it (the asking tool
reaches the bridge, which asks: TestEveryCli).
"""

from __future__ import annotations

import re

import pytest

from tests.assistants import clis, scenarios as sc, whole_session as ws
from tests.assistants.entries import Copy
from tests.assistants.every_cli import EveryCli
from tests.assistants.footprints import responses_footprint
from tests.assistants.model_server import ToolCall
from tests.assistants.sandbox import SERVER_KEY, Editor, Sandbox

CLI = clis.CODEX
NO_DATA_HOME = Copy(f"no-data-home-{SERVER_KEY}", lambda entry: entry["env"].pop("XDG_DATA_HOME"))
WITHOUT_DATA_HOME = ToolCall(CLI.declared(sc.ALWAYS_ON.tool, NO_DATA_HOME.key), sc.ALWAYS_ON.arguments)


@pytest.fixture(scope="module")
def session(configured: Sandbox, editor: Editor) -> sc.Session:
    """The whole session, with a server whose entry lacks the data home and a call of it."""
    return ws.play(CLI, configured, editor, [NO_DATA_HOME], [WITHOUT_DATA_HOME])


TestEveryCli = EveryCli  # the checks every CLI passes, on this module's CLI


def test_declares_our_tools_in_one_namespace(session: sc.Session) -> None:
    """Codex declares each server as one namespace whose description is the server's instructions."""
    first = session.run.requests[0]
    mine = {t.name for t in first.tools if t.namespace == CLI.prefix}
    assert {"discover_tools", "call_tool", "project_get_settings"} <= mine, sorted(mine)
    assert responses_footprint(first, CLI.prefix).instructions > 0


def test_the_entry_init_wrote_carries_the_data_home(configured: Sandbox) -> None:
    """Codex passes the bridge only HOME, PATH, ... and the entry's env: the data home must be in it (with
    it the always-on call reaches the editor: TestEveryCli)."""
    entry = CLI.entry.read(configured.project)
    assert entry["env"].get("XDG_DATA_HOME") == str(configured.data_home), entry


def test_big_answer_reaches_the_model_cut_keeping_both_ends(session: sc.Session) -> None:
    """Codex keeps the first and last 6,000 characters of a long answer, with a marker between."""
    seen = session.result(sc.BIG).text
    assert len(seen.encode()) < 16_000, len(seen)
    assert '"has_more"' in seen[:500] and seen.rstrip().endswith("}"), (seen[:200], seen[-200:])
    assert re.search(r"\u2026\d+ tokens truncated\u2026", seen), seen[5_900:6_100]


def test_without_the_data_home_the_failure_names_the_registry_file(session: sc.Session) -> None:
    """A copy of the entry without XDG_DATA_HOME (as written before init carried it): its bridge looks
    under Codex's HOME, and CONNECT_FAILED names the registry file it read."""
    answer = session.result(WITHOUT_DATA_HOME).text
    read = session.run.home / ".local" / "share" / "godot-mcp-toolkit" / "projects.json"
    assert "CONNECT_FAILED" in answer and str(read) in answer, answer
