"""Codex CLI, headless (``codex exec``), through the bridge into the simulated editor
(tests/assistants/README.md).

Codex starts the bridge with a filtered environment, so it finds the editor only through what the
entry ``init`` wrote carries (the editor's data home). It never re-lists after discover_tools: the
loaded tools are reached through the always-on ``call_tool``. ``codex exec`` declines every question,
and by itself refuses a tool annotated destructive unless the entry approves it.

Three runs: the whole session (whole_session.py); a copy of the entry with a 2 s
``tool_timeout_sec``, under which the long call fails; a copy without the data home, whose failure
names the registry file read.
"""

from __future__ import annotations

import re

import pytest

from tests.assistants import codex, scenarios as sc, whole_session as ws
from tests.assistants.footprints import responses_footprint
from tests.assistants.model_server import Say, Turn
from tests.assistants.sandbox import Editor, Sandbox

LOADED = ws.call_tool(sc.GROUP_TOOL)
SLOW_LOADED = ws.call_tool(sc.SLOW_GROUP_TOOL, slow=True)


@pytest.fixture(scope="module")
def configured(sandbox: Sandbox, editor: Editor) -> Sandbox:
    sandbox.init("codex", "--env", ws.ALLOWANCE)
    return sandbox


def play(sandbox: Sandbox, editor: Editor, turns: list[Turn]) -> sc.Session:
    return sc.play(sandbox, editor, codex.adapter(), codex.run, turns)


@pytest.fixture(scope="module")
def session(configured: Sandbox, editor: Editor) -> sc.Session:
    ws.script(editor)
    return play(configured, editor, ws.turns(LOADED, SLOW_LOADED))


def test_declares_our_tools_in_one_namespace(session: sc.Session) -> None:
    """Codex declares each server as one namespace whose description is the server's instructions."""
    first = session.run.requests[0]
    mine = {t.name for t in codex.ours(first.tools)}
    assert {"discover_tools", "call_tool", "project_get_settings"} <= mine, sorted(mine)
    assert responses_footprint(first, codex.NAMESPACE).instructions > 0


def test_finds_the_editor_through_the_entry_init_wrote(configured: Sandbox, session: sc.Session) -> None:
    """Codex passes the bridge only HOME, PATH, ... and the entry's env: the data home must be in it."""
    assert f'XDG_DATA_HOME = "{configured.data_home}"' in codex.entry_text(configured), \
        codex.entry_text(configured)
    assert session.declared(sc.ALWAYS_ON) == f"{codex.NAMESPACE}project_get_settings"
    sc.check_always_on(session)


def test_long_call_gets_through_under_the_entry_init_wrote(configured: Sandbox, session: sc.Session) -> None:
    timeout = re.search(r"^tool_timeout_sec = (\d+)", codex.entry_text(configured), re.MULTILINE)
    assert timeout and int(timeout.group(1)) >= 60, codex.entry_text(configured)
    sc.check_long_call(session)


def test_big_answer_reaches_the_model_cut_keeping_both_ends(session: sc.Session) -> None:
    """Codex keeps the first and last 6,000 characters of a long answer, with a marker between."""
    seen = session.result(sc.BIG).text
    assert len(seen.encode()) < 16_000, len(seen)
    assert '"has_more"' in seen[:500] and seen.rstrip().endswith("}"), (seen[:200], seen[-200:])
    assert re.search(r"\u2026\d+ tokens truncated\u2026", seen), seen[5_900:6_100]


def test_asking_tool_without_a_game_fails_before_asking(session: sc.Session) -> None:
    sc.check_no_game(session)


def test_asking_tool_headless_names_the_setting(session: sc.Session) -> None:
    """The call reaches the bridge (Codex's own approval would refuse a tool annotated destructive:
    "requires approval, but approval policy is never"), ``codex exec`` declines the question, and the
    answer says how to allow the tool unasked."""
    sc.check_headless_ask(session)


def test_allowance_in_the_entry_runs_the_asking_tool(session: sc.Session) -> None:
    ws.check_allowed(session)


def test_loaded_tools_are_reached_through_call_tool(session: sc.Session) -> None:
    """For a fast model and for a slow one."""
    ws.check_through_call_tool(session, sc.DISCOVER, LOADED)
    ws.check_through_call_tool(session, sc.SLOW_DISCOVER, SLOW_LOADED)


def test_a_shorter_timeout_in_the_entry_cuts_the_long_call(configured: Sandbox, editor: Editor) -> None:
    """Proof that Codex reads the field: the same entry with ``tool_timeout_sec = 2`` fails the 4 s call."""
    with sc.put_back(configured.project / codex.ENTRY_FILE):
        codex.with_entry(configured, {"tool_timeout_sec": "2"})
        ws.script_long_call(editor)
        session = play(configured, editor, [sc.LONG, Say("done")])
    sc.check_cut_by_timeout(session)


def test_without_the_data_home_the_failure_names_the_registry_file(configured: Sandbox, editor: Editor) -> None:
    """An entry without XDG_DATA_HOME (as written before init carried it): the bridge looks under Codex's
    HOME, and CONNECT_FAILED names the registry file it read."""
    path = configured.project / codex.ENTRY_FILE
    with sc.put_back(path):
        path.write_text(re.sub(r'XDG_DATA_HOME = "[^"]*",? ?', "", codex.entry_text(configured)), encoding="utf-8")
        session = play(configured, editor, [sc.ALWAYS_ON, Say("done")])
    answer = session.result(sc.ALWAYS_ON).text
    read = session.run.home / ".local" / "share" / "godot-mcp-toolkit" / "projects.json"
    assert "CONNECT_FAILED" in answer and str(read) in answer, answer
