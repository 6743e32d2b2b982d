"""Claude Code, headless, through the bridge into the simulated editor (tests/assistants/README.md).

Two runs: a fast model playing the whole session (connect, always-on call, discover_tools and a
loaded tool, the asking tool with no game and in the editor, a ~300 KB answer); a slow model loading
another group, a long call, and the asking tool allowed by the person in the entry's env.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.assistants import claude_code, scenarios as sc
from tests.assistants.anthropic import AnthropicAdapter, footprint
from tests.assistants.model_server import ModelServer, Say, ToolCall
from tests.assistants.sandbox import SERVER_KEY, CliRun, Editor, Sandbox


@pytest.fixture(scope="module")
def configured(sandbox: Sandbox, editor: Editor) -> Sandbox:
    sandbox.init("claude")
    return sandbox


def play(sandbox: Sandbox, turns: list[ToolCall | Say], prompt: str = "Work on my Godot project.") -> CliRun:
    with ModelServer(AnthropicAdapter(), turns) as server:
        run = claude_code.run(sandbox, server, prompt)
    assert run.exit_code == 0 and server.finished, run.describe()
    return run


@dataclass(frozen=True)
class Session:
    run: CliRun
    editor_methods: list[str]  # what reached the editor during the run


@pytest.fixture(scope="module")
def session(configured: Sandbox, editor: Editor) -> Session:
    editor.script("scene.get_tree", {"result": sc.big_tree()})
    frames_before = len(editor.received())
    run = play(configured, [sc.ALWAYS_ON, sc.DISCOVER, sc.GROUP_TOOL, sc.ASK_NO_GAME, sc.ASK, sc.BIG,
                            Say("done")])
    return Session(run, sc.methods_received(editor.received()[frames_before:]))


def test_connects_and_calls_an_always_on_tool(session: Session) -> None:
    server = session.run.server
    assert sc.declared(server, 0) == f"{claude_code.PREFIX}project_get_settings"
    assert any(f"{claude_code.PREFIX}discover_tools" in r.announced for r in session.run.requests), \
        session.run.describe()
    answer = sc.result(server, 0)
    assert not answer.is_error and '"success":true' in answer.text.replace(" ", ""), answer


def test_discovered_tools_are_declared_in_the_next_request(session: Session) -> None:
    """Claude Code announces a deferred tool by name (its ToolSearch loads the schema), so "declared"
    here is: named in the request, as the tool discover_tools' prefix rule gives."""
    server = session.run.server
    discover = sc.declared(server, 1)
    told = sc.result(server, 1).text
    assert "same prefix" in told, told
    following = server.after(1)
    assert following is not None, session.run.describe()
    expected = sc.same_prefix(discover, sc.GROUP_TOOL.tool)
    assert following.knows(expected), (expected, following.announced, following.names())
    loaded = sc.result(server, 2)
    assert sc.declared(server, 2) == expected and not loaded.is_error, loaded


def test_asking_tool_without_a_game_fails_before_asking(session: Session) -> None:
    answer = sc.result(session.run.server, 3).text
    assert "GAME_NOT_RUNNING" in answer, answer
    assert sc.ALLOW_SETTING not in answer, answer


def test_asking_tool_headless_names_the_setting(session: Session) -> None:
    """``claude -p`` cancels the question at once: the answer says how to allow the tool unasked."""
    answer = sc.result(session.run.server, 4).text
    assert sc.ALLOW_SETTING in answer and "execute_code" in answer, answer
    assert "execute.code" not in session.editor_methods


def test_big_answer_is_saved_to_a_file_the_model_is_pointed_to(session: Session) -> None:
    """Past its token limit Claude Code shows the model a pointer to a file holding the whole answer."""
    seen = sc.result(session.run.server, 5).text
    assert len(seen.encode()) < 4000, len(seen)
    saved = re.search(r"saved to (\S+\.txt)", seen)
    assert saved, seen[:500]
    whole = Path(saved.group(1)).read_text(encoding="utf-8")
    assert whole.count('"Sprite2D"') == len(sc.big_tree()["tree"]["children"]), len(whole)


def test_requests_carry_our_tool_names_not_schemas(session: Session) -> None:
    """Claude Code defers our tools: a request carries their names and our instructions; a schema only
    once ToolSearch loaded that tool."""
    connected = [r for r in session.run.requests if footprint(r, SERVER_KEY).announced]
    assert connected, session.run.describe()
    first = connected[0]
    assert f"{claude_code.PREFIX}discover_tools" in first.announced and footprint(first, SERVER_KEY).instructions
    raw = [t for t in first.request.json["tools"] if t["name"].startswith(claude_code.PREFIX)]
    assert all(t.get("defer_loading") for t in raw), [t["name"] for t in raw]


@pytest.fixture(scope="module")
def slow_session(configured: Sandbox, editor: Editor) -> Iterator[Session]:
    """A slow model, a call longer than a short timeout would allow (Claude Code's entry has no timeout
    field; its own MCP tool timeout is far longer), and the asking tool allowed in the entry's env."""
    configured.init("claude", "--env", f"{sc.ALLOW_SETTING}=execute_code")
    try:
        editor.script("project.get_settings", {"sleep": sc.LONG_CALL_SECONDS}, {"default": True})
        before = len(editor.received())
        run = play(configured, [sc.SLOW_DISCOVER, sc.slow(sc.SLOW_GROUP_TOOL), sc.LONG, sc.ASK, Say("done")])
        yield Session(run, sc.methods_received(editor.received()[before:]))
    finally:
        configured.init("claude", "--env", f"{sc.ALLOW_SETTING}=")


def test_slow_model_gets_the_discovered_tools_in_the_next_request(slow_session: Session) -> None:
    server = slow_session.run.server
    following = server.after(0)
    expected = sc.same_prefix(sc.declared(server, 0), sc.SLOW_GROUP_TOOL.tool)
    assert following is not None and following.knows(expected), slow_session.run.describe()
    assert not sc.result(server, 1).is_error


def test_long_call_gets_through(slow_session: Session) -> None:
    answer = sc.result(slow_session.run.server, 2)
    assert not answer.is_error and '"success":true' in answer.text.replace(" ", ""), answer


def test_allowance_in_the_entry_runs_the_asking_tool(slow_session: Session) -> None:
    answer = sc.result(slow_session.run.server, 3).text
    assert "execute.code" in slow_session.editor_methods, answer
    assert sc.ALLOW_SETTING not in answer, answer
