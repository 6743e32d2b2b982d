"""Gemini CLI, headless, through the bridge into the simulated editor (tests/assistants/README.md).

Three runs: a fast model playing the whole session (connect, an always-on call with the
``wait_for_previous`` argument Gemini CLI adds to every tool, the asking tool with no game and in the
editor, a ~300 KB answer, discover_tools and a loaded tool); a slow model with a long call under the
entry init wrote, the asking tool allowed in the entry's env, and another group loaded; a copy of the
entry with a 2 s timeout, under which the long call fails (Gemini CLI honours the field).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from tests.assistants import gemini_cli, scenarios as sc
from tests.assistants.gemini import GeminiAdapter
from tests.assistants.model_server import Say, ToolCall, Turn, ours
from tests.assistants.sandbox import SERVER_KEY, Editor, Sandbox

# Gemini CLI adds this boolean to every tool's schema; a model fills it in and the CLI passes it on.
INJECTED = {"wait_for_previous": True}
ALWAYS_ON = ToolCall(sc.ALWAYS_ON.tool, {**sc.ALWAYS_ON.arguments, **INJECTED})
FAST: list[Turn] = [ALWAYS_ON, sc.ASK_NO_GAME, sc.ASK, sc.BIG, sc.DISCOVER, sc.GROUP_TOOL, Say("done")]
SLOW_TOOL = sc.slow(sc.SLOW_GROUP_TOOL)
SLOW: list[Turn] = [sc.LONG, sc.ASK, sc.SLOW_DISCOVER, SLOW_TOOL, Say("done")]


@pytest.fixture(scope="module")
def configured(sandbox: Sandbox, editor: Editor) -> Sandbox:
    sandbox.init("gemini")
    return sandbox


def play(sandbox: Sandbox, editor: Editor, turns: list[Turn]) -> sc.Session:
    return sc.play(sandbox, editor, GeminiAdapter(), gemini_cli.run, turns)


def entry(sandbox: Sandbox) -> dict[str, Any]:
    return dict(json.loads(gemini_cli.entry_file(sandbox).read_text(encoding="utf-8"))["mcpServers"][SERVER_KEY])


@pytest.fixture(scope="module")
def session(configured: Sandbox, editor: Editor) -> sc.Session:
    editor.script("scene.get_tree", {"result": sc.big_tree()})
    return play(configured, editor, FAST)


def test_connects_and_declares_our_tools_with_the_added_argument(session: sc.Session) -> None:
    first = session.run.requests[0]
    assert f"{gemini_cli.PREFIX}discover_tools" in first.names(), first.names()
    assert all("wait_for_previous" in json.dumps(t.raw) for t in ours(first.tools, SERVER_KEY))


def test_always_on_call_with_the_added_argument_succeeds(session: sc.Session) -> None:
    assert session.declared(ALWAYS_ON) == f"{gemini_cli.PREFIX}project_get_settings"
    sc.check_always_on(session, ALWAYS_ON)


def test_discovered_tools_are_declared_in_the_next_request(session: sc.Session) -> None:
    sc.check_discovered(session, sc.DISCOVER, sc.GROUP_TOOL)


def test_asking_tool_without_a_game_fails_before_asking(session: sc.Session) -> None:
    sc.check_no_game(session)


def test_asking_tool_gets_a_preview_and_does_not_run(session: sc.Session) -> None:
    """Gemini CLI offers no elicitation: the bridge answers with a preview and a single-use token."""
    assert "confirmation_token" in session.result(sc.ASK).text, session.result(sc.ASK)
    assert "execute.code" not in session.editor_methods


def test_big_answer_reaches_the_model_cut_keeping_both_ends(session: sc.Session) -> None:
    """Gemini CLI keeps the first 8,000 and the last 32,000 characters, and says where the rest is."""
    seen = session.result(sc.BIG).text
    assert len(seen) < sc.BIG_BYTES // 4, len(seen)
    assert '"tree"' in seen[:8000] and "Sprite" in seen[-2000:], (seen[:300], seen[-300:])


@pytest.fixture(scope="module")
def slow_session(configured: Sandbox, editor: Editor) -> Iterator[sc.Session]:
    """A slow model, a call longer than the short timeout below, the asking tool allowed in the env."""
    with sc.put_back(gemini_cli.entry_file(configured)):
        configured.init("gemini", "--env", f"{sc.ALLOW_SETTING}=execute_code")
        editor.script("project.get_settings", {"sleep": sc.LONG_CALL_SECONDS}, {"default": True})
        yield play(configured, editor, SLOW)


def test_long_call_gets_through_under_the_entry_init_wrote(configured: Sandbox,
                                                           slow_session: sc.Session) -> None:
    assert entry(configured).get("timeout", 0) >= 60_000, entry(configured)
    sc.check_long_call(slow_session)


def test_allowance_in_the_entry_runs_the_asking_tool(slow_session: sc.Session) -> None:
    sc.check_allowed(slow_session)


def test_slow_model_gets_the_discovered_tools_in_the_next_request(slow_session: sc.Session) -> None:
    sc.check_discovered(slow_session, sc.SLOW_DISCOVER, SLOW_TOOL, told=False)


def test_a_shorter_timeout_in_the_entry_cuts_the_long_call(configured: Sandbox, editor: Editor) -> None:
    """Proof that Gemini CLI reads the field: the same entry with a 2 s timeout fails the 4 s call."""
    def shorter(settings: dict[str, Any]) -> None:
        settings["mcpServers"][SERVER_KEY]["timeout"] = 2000

    with sc.entry_changed(gemini_cli.entry_file(configured), shorter):
        editor.script("project.get_settings", {"sleep": sc.LONG_CALL_SECONDS}, {"default": True})
        session = play(configured, editor, [sc.LONG, Say("done")])
    sc.check_cut_by_timeout(session)
