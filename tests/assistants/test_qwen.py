"""Qwen Code, headless (``qwen -p``), through the bridge into the simulated editor
(tests/assistants/README.md).

Qwen Code connects a project's server only once the person approved its entry (``qwen mcp approve``,
bound to the entry's content: an edited entry is approved again). It defers every tool of ours: the
model sees their names and cut descriptions in a reminder and calls them through its own
``tool_call``. It does not re-list after discover_tools, so a loaded tool is reached through the
always-on ``call_tool``. It offers no elicitation (the bridge answers with a preview and a token), and
keeps a too-large answer in a file under ``~/.qwen/tmp``, showing the model a preview.

Two runs: the whole session (whole_session.py); a copy of the entry with a 2 s ``timeout``, under
which the long call fails.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.assistants import qwen, scenarios as sc, whole_session as ws
from tests.assistants.footprints import chat_footprint
from tests.assistants.model_server import Say, Turn
from tests.assistants.sandbox import SERVER_KEY, Editor, Sandbox
from tests.assistants.setup_entries import configure_mcp_json

LOADED = ws.call_tool(sc.GROUP_TOOL)
SLOW_LOADED = ws.call_tool(sc.SLOW_GROUP_TOOL, slow=True)


@pytest.fixture(scope="module")
def configured(sandbox: Sandbox, editor: Editor) -> Sandbox:
    configure_mcp_json(sandbox, "qwen", "--env", ws.ALLOWANCE)
    return sandbox


def play(sandbox: Sandbox, editor: Editor, turns: list[Turn]) -> sc.Session:
    """One run with the entry as it is now, approved by the person first."""
    return sc.play(sandbox, editor, qwen.adapter(), qwen.run_approved, turns)


@pytest.fixture(scope="module")
def session(configured: Sandbox, editor: Editor) -> sc.Session:
    ws.script(editor)
    return play(configured, editor, ws.turns(LOADED, SLOW_LOADED))


def test_announces_our_tools_by_name_only(session: sc.Session) -> None:
    first = session.run.requests[0]
    assert f"{qwen.PREFIX}discover_tools" in first.announced, first.announced
    assert not [t for t in qwen.ours(first.tools) if "deferred" not in t.raw], "Qwen Code declared a tool of ours"
    footprint = chat_footprint(first, qwen.PREFIX)
    assert footprint.announced > 0 and footprint.declarations == 0, footprint


def test_always_on_call_through_tool_call_succeeds(session: sc.Session) -> None:
    assert session.declared(sc.ALWAYS_ON) == f"{qwen.PREFIX}project_get_settings"
    sc.check_always_on(session)


def test_long_call_gets_through_under_the_entry_init_wrote(configured: Sandbox, session: sc.Session) -> None:
    entry = json.loads(qwen.entry_file(configured).read_text(encoding="utf-8"))["mcpServers"][SERVER_KEY]
    assert entry.get("timeout", 0) >= 60_000, entry
    sc.check_long_call(session)


def test_big_answer_is_kept_in_a_file_with_a_preview(session: sc.Session) -> None:
    seen = session.result(sc.BIG).text
    assert len(seen.encode()) < 4_000 and seen.startswith("<persisted-output>"), seen[:300]
    saved = re.search(r"saved to: (\S+)", seen)
    assert saved and saved.group(1).startswith(str(session.run.home)), seen[:300]
    whole = Path(saved.group(1)).read_text(encoding="utf-8")
    assert whole.count('"Sprite2D"') == len(sc.big_tree()["tree"]["children"]), len(whole)


def test_asking_tool_without_a_game_fails_before_asking(session: sc.Session) -> None:
    sc.check_no_game(session)


def test_asking_tool_gets_a_preview_and_does_not_run(session: sc.Session) -> None:
    """Qwen Code offers no elicitation: the bridge answers with a preview and a single-use token."""
    ws.check_preview(session)


def test_allowance_in_the_entry_runs_the_asking_tool(session: sc.Session) -> None:
    ws.check_allowed(session)


def test_loaded_tools_are_reached_through_call_tool(session: sc.Session) -> None:
    """For a fast model and for a slow one."""
    ws.check_through_call_tool(session, sc.DISCOVER, LOADED)
    ws.check_through_call_tool(session, sc.SLOW_DISCOVER, SLOW_LOADED)


def test_a_shorter_timeout_in_the_entry_cuts_the_long_call(configured: Sandbox, editor: Editor) -> None:
    """Proof that Qwen Code reads the field: the same entry (approved again, since it changed) with
    ``"timeout": 2000`` fails the 4 s call."""
    with sc.entry_changed(qwen.entry_file(configured), lambda c: c["mcpServers"][SERVER_KEY].update(timeout=2000)):
        ws.script_long_call(editor)
        session = play(configured, editor, [sc.LONG, Say("done")])
    sc.check_cut_by_timeout(session)
