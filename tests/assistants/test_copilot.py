"""GitHub Copilot CLI, headless (``copilot -p``), through the bridge into the simulated editor
(tests/assistants/README.md).

Copilot declares every tool of ours with its schema as ``<server key>-<tool>``, re-lists after
discover_tools, declines every question in prompt mode, and keeps a too-large answer in a file,
showing the model a 500-character preview.

Two runs: the whole session (whole_session.py); a copy of the entry with a 2 s ``timeout``, under
which the long call fails.
"""

from __future__ import annotations

import re

import pytest

from tests.assistants import copilot, scenarios as sc, whole_session as ws
from tests.assistants.footprints import chat_footprint
from tests.assistants.model_server import Say, Turn
from tests.assistants.sandbox import SERVER_KEY, Editor, Sandbox
from tests.assistants.setup_entries import configure_mcp_json

LOADED = sc.GROUP_TOOL
SLOW_LOADED = sc.slow(sc.SLOW_GROUP_TOOL)


@pytest.fixture(scope="module")
def configured(sandbox: Sandbox, editor: Editor) -> Sandbox:
    configure_mcp_json(sandbox, "copilot", "--env", ws.ALLOWANCE)
    return sandbox


def play(sandbox: Sandbox, editor: Editor, turns: list[Turn]) -> sc.Session:
    return sc.play(sandbox, editor, copilot.adapter(), copilot.run, turns)


@pytest.fixture(scope="module")
def session(configured: Sandbox, editor: Editor) -> sc.Session:
    ws.script(editor)
    return play(configured, editor, ws.turns(LOADED, SLOW_LOADED))


def test_declares_our_tools_with_their_schemas(session: sc.Session) -> None:
    first = session.run.requests[0]
    ws.check_declared_with_schemas(first, copilot.PREFIX)
    assert chat_footprint(first, copilot.PREFIX).declarations > 0


def test_always_on_call_succeeds(session: sc.Session) -> None:
    assert session.declared(sc.ALWAYS_ON) == f"{copilot.PREFIX}project_get_settings"
    sc.check_always_on(session)


def test_long_call_gets_through_under_the_entry_init_wrote(session: sc.Session) -> None:
    sc.check_long_call(session)


def test_big_answer_is_kept_in_a_file_with_a_preview(session: sc.Session) -> None:
    """The model sees where the whole answer was saved (the run's temp folder; Copilot deletes the file
    when the session ends) and its first 500 characters."""
    seen = session.result(sc.BIG).text
    assert len(seen.encode()) < 2_000, len(seen)
    saved = re.search(r"Saved to: (\S+)", seen)
    assert saved and saved.group(1).startswith(str(session.run.home)), seen
    preview = seen.split("Preview (first 500 chars):", 1)[-1].strip()
    assert preview.startswith('{"has_more"') and len(preview) <= 520, seen


def test_asking_tool_without_a_game_fails_before_asking(session: sc.Session) -> None:
    sc.check_no_game(session)


def test_asking_tool_headless_names_the_setting(session: sc.Session) -> None:
    """``copilot -p`` declines the question: the answer says how to allow the tool unasked."""
    sc.check_headless_ask(session)


def test_allowance_in_the_entry_runs_the_asking_tool(session: sc.Session) -> None:
    ws.check_allowed(session)


def test_discovered_tools_are_declared_in_the_next_request(session: sc.Session) -> None:
    """For a fast model and for a slow one, under the name discover_tools' same-prefix rule gives."""
    sc.check_discovered(session, sc.DISCOVER, LOADED)
    sc.check_discovered(session, sc.SLOW_DISCOVER, SLOW_LOADED)


def test_a_shorter_timeout_in_the_entry_cuts_the_long_call(configured: Sandbox, editor: Editor) -> None:
    """Proof that Copilot reads the field: the same entry with ``"timeout": 2000`` fails the 4 s call."""
    with sc.entry_changed(copilot.entry_file(configured), lambda c: c["mcpServers"][SERVER_KEY].update(timeout=2000)):
        ws.script_long_call(editor)
        session = play(configured, editor, [sc.LONG, Say("done")])
    sc.check_cut_by_timeout(session)
