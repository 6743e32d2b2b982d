"""Gemini CLI, headless (``gemini -p``), through the bridge into the simulated editor
(tests/assistants/README.md).

Gemini CLI declares every tool of ours with its schema and a ``wait_for_previous`` argument of its own
(which the model may fill in: the always-on call here does), re-lists after discover_tools, offers
no elicitation (an asking tool gets the bridge's preview), and cuts a big answer to its first 8,000
and last 32,000 characters.

Two runs: the whole session (whole_session.py); a copy of the entry with a 2 s ``timeout``, under
which the long call fails (Gemini CLI honours the field).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.assistants import gemini_cli, scenarios as sc, whole_session as ws
from tests.assistants.gemini import GeminiAdapter
from tests.assistants.model_server import Say, ToolCall, Turn, ours
from tests.assistants.sandbox import SERVER_KEY, Editor, Sandbox

# Gemini CLI adds this boolean to every tool's schema; a model fills it in and the CLI passes it on.
INJECTED = {"wait_for_previous": True}
ALWAYS_ON = ToolCall(sc.ALWAYS_ON.tool, {**sc.ALWAYS_ON.arguments, **INJECTED})
SLOW_LOADED = sc.slow(sc.SLOW_GROUP_TOOL)


def entry(sandbox: Sandbox) -> dict[str, Any]:
    return dict(json.loads(gemini_cli.entry_file(sandbox).read_text(encoding="utf-8"))["mcpServers"][SERVER_KEY])


@pytest.fixture(scope="module")
def configured(sandbox: Sandbox, editor: Editor) -> Sandbox:
    sandbox.init("gemini", "--env", ws.ALLOWANCE)
    return sandbox


def play(sandbox: Sandbox, editor: Editor, turns: list[Turn]) -> sc.Session:
    return sc.play(sandbox, editor, GeminiAdapter(), gemini_cli.run, turns)


@pytest.fixture(scope="module")
def session(configured: Sandbox, editor: Editor) -> sc.Session:
    ws.script(editor)
    turns = [ALWAYS_ON if t == sc.ALWAYS_ON else t for t in ws.turns(sc.GROUP_TOOL, SLOW_LOADED)]
    return play(configured, editor, turns)


def test_declares_our_tools_with_the_added_argument(session: sc.Session) -> None:
    first = session.run.requests[0]
    assert f"{gemini_cli.PREFIX}discover_tools" in first.names(), first.names()
    assert all("wait_for_previous" in json.dumps(t.raw) for t in ours(first.tools, SERVER_KEY))


def test_always_on_call_with_the_added_argument_succeeds(session: sc.Session) -> None:
    assert session.declared(ALWAYS_ON) == f"{gemini_cli.PREFIX}project_get_settings"
    sc.check_always_on(session, ALWAYS_ON)


def test_long_call_gets_through_under_the_entry_init_wrote(configured: Sandbox, session: sc.Session) -> None:
    assert entry(configured).get("timeout", 0) >= 60_000, entry(configured)
    sc.check_long_call(session)


def test_big_answer_reaches_the_model_cut_keeping_both_ends(session: sc.Session) -> None:
    seen = session.result(sc.BIG).text
    assert len(seen) < sc.BIG_BYTES // 4, len(seen)
    assert '"tree"' in seen[:8000] and "Sprite" in seen[-2000:], (seen[:300], seen[-300:])


def test_asking_tool_without_a_game_fails_before_asking(session: sc.Session) -> None:
    sc.check_no_game(session)


def test_asking_tool_gets_a_preview_and_does_not_run(session: sc.Session) -> None:
    ws.check_preview(session)


def test_allowance_in_the_entry_runs_the_asking_tool(session: sc.Session) -> None:
    ws.check_allowed(session)


def test_discovered_tools_are_declared_in_the_next_request(session: sc.Session) -> None:
    sc.check_discovered(session, sc.DISCOVER, sc.GROUP_TOOL)


def test_slow_model_gets_the_discovered_tools_in_the_next_request(session: sc.Session) -> None:
    sc.check_discovered(session, sc.SLOW_DISCOVER, SLOW_LOADED, told=False)


def test_a_shorter_timeout_in_the_entry_cuts_the_long_call(configured: Sandbox, editor: Editor) -> None:
    """Proof that Gemini CLI reads the field: the same entry with a 2 s timeout fails the 4 s call."""
    def shorter(settings: dict[str, Any]) -> None:
        settings["mcpServers"][SERVER_KEY]["timeout"] = 2000

    with sc.entry_changed(gemini_cli.entry_file(configured), shorter):
        ws.script_long_call(editor)
        session = play(configured, editor, [sc.LONG, Say("done")])
    sc.check_cut_by_timeout(session)
