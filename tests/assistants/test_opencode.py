"""opencode, headless (``opencode run``), through the bridge into the simulated editor
(tests/assistants/README.md).

opencode declares every tool of ours with its schema as ``<server key>_<tool>``, does not re-list
after discover_tools (a loaded tool is reached through the always-on ``call_tool``), offers no
elicitation (the bridge answers with a preview and a token), and cuts a long answer to whole lines,
keeping the whole in a file. Its entry's ``timeout`` bounds the server's start-up and each request,
a request's timer restarting whenever the bridge reports progress.

Two runs: the whole session (whole_session.py); a copy of the entry with a 1 ms ``timeout``, under
which opencode drops the server before it lists a tool.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.assistants import opencode, scenarios as sc, whole_session as ws
from tests.assistants.footprints import chat_footprint
from tests.assistants.model_server import Say, Turn
from tests.assistants.sandbox import SERVER_KEY, Editor, Sandbox
from tests.assistants.setup_entries import configure_opencode

LOADED = ws.call_tool(sc.GROUP_TOOL)
SLOW_LOADED = ws.call_tool(sc.SLOW_GROUP_TOOL, slow=True)


@pytest.fixture(scope="module")
def configured(sandbox: Sandbox, editor: Editor) -> Sandbox:
    configure_opencode(sandbox, "--env", ws.ALLOWANCE)
    return sandbox


def play(sandbox: Sandbox, editor: Editor, turns: list[Turn]) -> sc.Session:
    return sc.play(sandbox, editor, opencode.adapter(), opencode.run, turns)


@pytest.fixture(scope="module")
def session(configured: Sandbox, editor: Editor) -> sc.Session:
    ws.script(editor)
    return play(configured, editor, ws.turns(LOADED, SLOW_LOADED))


def test_declares_our_tools_with_their_schemas(session: sc.Session) -> None:
    first = session.run.requests[0]
    ws.check_declared_with_schemas(first, opencode.PREFIX)
    assert chat_footprint(first, opencode.PREFIX).declarations > 0


def test_always_on_call_succeeds(session: sc.Session) -> None:
    assert session.declared(sc.ALWAYS_ON) == f"{opencode.PREFIX}project_get_settings"
    sc.check_always_on(session)


def test_long_call_gets_through_under_the_entry_init_wrote(configured: Sandbox, session: sc.Session) -> None:
    assert int(opencode.entry(configured).get("timeout", 0)) >= 60_000, opencode.entry(configured)
    sc.check_long_call(session)


def test_big_answer_is_cut_to_whole_lines_and_kept_in_a_file(session: sc.Session) -> None:
    """opencode keeps whole lines up to its limit and says how many bytes it left out; the file it
    names holds the whole answer."""
    seen = session.result(sc.BIG).text
    assert len(seen.encode()) < 4_000 and re.search(r"\.\.\.\d+ bytes truncated\.\.\.", seen), seen[:500]
    saved = re.search(r"Full output saved to: (\S+)", seen)
    assert saved, seen[:500]
    whole = Path(saved.group(1)).read_text(encoding="utf-8")
    assert whole.count('"Sprite2D"') == len(sc.big_tree()["tree"]["children"]), len(whole)


def test_asking_tool_without_a_game_fails_before_asking(session: sc.Session) -> None:
    sc.check_no_game(session)


def test_asking_tool_gets_a_preview_and_does_not_run(session: sc.Session) -> None:
    """opencode offers no elicitation: the bridge answers with a preview and a single-use token."""
    ws.check_preview(session)


def test_allowance_in_the_entry_runs_the_asking_tool(session: sc.Session) -> None:
    ws.check_allowed(session)


def test_loaded_tools_are_reached_through_call_tool(session: sc.Session) -> None:
    """For a fast model and for a slow one."""
    ws.check_through_call_tool(session, sc.DISCOVER, LOADED)
    ws.check_through_call_tool(session, sc.SLOW_DISCOVER, SLOW_LOADED)


def test_the_entry_timeout_bounds_the_start_up(configured: Sandbox, editor: Editor) -> None:
    """Proof that opencode reads the field: with ``"timeout": 1`` (ms) it drops our server before it lists
    a tool, and the model is offered none of ours."""
    with sc.entry_changed(opencode.entry_file(configured), lambda c: c["mcp"][SERVER_KEY].update(timeout=1)):
        session = play(configured, editor, [Say("done")])
    offered = [r for r in session.run.requests if r.tools]
    assert offered and not any(opencode.ours(r.tools) for r in offered), session.run.describe()
