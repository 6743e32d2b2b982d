"""Claude Code, headless, through the bridge into the simulated editor (tests/assistants/README.md).

Two runs: a fast model playing the whole session (connect, always-on call, discover_tools and a
loaded tool, the asking tool with no game and in the editor, a ~300 KB answer); a slow model loading
another group, a long call, and the asking tool allowed by the person in the entry's env.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.assistants import claude_code, scenarios as sc
from tests.assistants.anthropic import AnthropicAdapter, footprint
from tests.assistants.model_server import Say, Turn
from tests.assistants.sandbox import SERVER_KEY, Editor, Sandbox


@pytest.fixture(scope="module")
def configured(sandbox: Sandbox, editor: Editor) -> Sandbox:
    sandbox.init("claude")
    return sandbox


def play(sandbox: Sandbox, editor: Editor, turns: list[Turn]) -> sc.Session:
    return sc.play(sandbox, editor, AnthropicAdapter(), claude_code.run, turns)


FAST = [sc.ALWAYS_ON, sc.ASK_NO_GAME, sc.ASK, sc.BIG, sc.DISCOVER, sc.GROUP_TOOL, Say("done")]
SLOW_TOOL = sc.slow(sc.SLOW_GROUP_TOOL)
SLOW = [sc.LONG, sc.ASK, sc.SLOW_DISCOVER, SLOW_TOOL, Say("done")]


@pytest.fixture(scope="module")
def session(configured: Sandbox, editor: Editor) -> sc.Session:
    editor.script("scene.get_tree", {"result": sc.big_tree()})
    return play(configured, editor, FAST)


def test_connects_and_calls_an_always_on_tool(session: sc.Session) -> None:
    assert session.declared(sc.ALWAYS_ON) == f"{claude_code.PREFIX}project_get_settings"
    assert any(f"{claude_code.PREFIX}discover_tools" in r.announced for r in session.run.requests), \
        session.run.describe()
    assert sc.succeeded(session.result(sc.ALWAYS_ON)), session.result(sc.ALWAYS_ON)


def test_discovered_tools_are_named_in_the_next_request(session: sc.Session) -> None:
    """Claude Code names a deferred tool (its ToolSearch loads the schema), so "declared" here is: named
    in the next request, under the name discover_tools' same-prefix rule gives."""
    told = session.result(sc.DISCOVER).text
    assert "same prefix" in told, told
    following = session.after(sc.DISCOVER)
    expected = sc.same_prefix(session.declared(sc.DISCOVER), sc.GROUP_TOOL.tool)
    assert following is not None and following.knows(expected), session.run.describe()
    assert session.declared(sc.GROUP_TOOL) == expected and not session.result(sc.GROUP_TOOL).is_error


def test_asking_tool_without_a_game_fails_before_asking(session: sc.Session) -> None:
    answer = session.result(sc.ASK_NO_GAME).text
    assert "GAME_NOT_RUNNING" in answer and sc.ALLOW_SETTING not in answer, answer


def test_asking_tool_headless_names_the_setting(session: sc.Session) -> None:
    """``claude -p`` cancels the question at once: the answer says how to allow the tool unasked."""
    answer = session.result(sc.ASK).text
    assert sc.ALLOW_SETTING in answer and "execute_code" in answer, answer
    assert "execute.code" not in session.editor_methods


def test_big_answer_is_saved_to_a_file_the_model_is_pointed_to(session: sc.Session) -> None:
    """Past its token limit Claude Code shows the model a pointer to a file holding the whole answer."""
    seen = session.result(sc.BIG).text
    assert len(seen.encode()) < 4000, len(seen)
    saved = re.search(r"saved to (\S+\.txt)", seen)
    assert saved, seen[:500]
    whole = Path(saved.group(1)).read_text(encoding="utf-8")
    assert whole.count('"Sprite2D"') == len(sc.big_tree()["tree"]["children"]), len(whole)


def test_requests_name_our_tools_without_schemas(session: sc.Session) -> None:
    """Claude Code defers our tools: a request names them and carries our instructions; a schema only
    once ToolSearch loaded that tool."""
    connected = [r for r in session.run.requests if footprint(r, SERVER_KEY).announced]
    assert connected, session.run.describe()
    first = connected[0]
    assert f"{claude_code.PREFIX}discover_tools" in first.announced and footprint(first, SERVER_KEY).instructions
    raw = [t for t in first.request.json["tools"] if t["name"].startswith(claude_code.PREFIX)]
    assert all(t.get("defer_loading") for t in raw), [t["name"] for t in raw]


@pytest.fixture(scope="module")
def slow_session(configured: Sandbox, editor: Editor) -> Iterator[sc.Session]:
    """A slow model, a call longer than a short timeout would allow (Claude Code's entry has no timeout
    field; its own MCP tool timeout is far longer), and the asking tool allowed in the entry's env."""
    configured.init("claude", "--env", f"{sc.ALLOW_SETTING}=execute_code")
    try:
        editor.script("project.get_settings", {"sleep": sc.LONG_CALL_SECONDS}, {"default": True})
        yield play(configured, editor, SLOW)
    finally:
        configured.init("claude", "--env", f"{sc.ALLOW_SETTING}=")


def test_slow_model_gets_the_discovered_tools_in_the_next_request(slow_session: sc.Session) -> None:
    following = slow_session.after(sc.SLOW_DISCOVER)
    expected = sc.same_prefix(slow_session.declared(sc.SLOW_DISCOVER), sc.SLOW_GROUP_TOOL.tool)
    assert following is not None and following.knows(expected), slow_session.run.describe()
    assert not slow_session.result(SLOW_TOOL).is_error


def test_long_call_gets_through(slow_session: sc.Session) -> None:
    assert sc.succeeded(slow_session.result(sc.LONG)), slow_session.result(sc.LONG)


def test_allowance_in_the_entry_runs_the_asking_tool(slow_session: sc.Session) -> None:
    answer = slow_session.result(sc.ASK).text
    assert "execute.code" in slow_session.editor_methods and sc.ALLOW_SETTING not in answer, answer
