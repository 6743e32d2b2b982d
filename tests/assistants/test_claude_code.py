"""Claude Code, headless, through the bridge into the simulated editor (tests/assistants/README.md).

Three runs: a fast model playing the whole session (connect, always-on call, the asking tool with no
game and in the editor, a ~300 KB answer, discover_tools and a loaded tool); a slow model with a long
call under the entry init wrote, the asking tool allowed by the person in the entry's env, and another
group loaded; a copy of the entry with a 2 s timeout, under which the long call fails (Claude Code
honours the field).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.assistants import claude_code, scenarios as sc
from tests.assistants.anthropic import AnthropicAdapter, footprint
from tests.assistants.model_server import ModelRequest, Say, Turn
from tests.assistants.sandbox import SERVER_KEY, Editor, Sandbox

FAST: list[Turn] = [sc.ALWAYS_ON, sc.ASK_NO_GAME, sc.ASK, sc.BIG, sc.DISCOVER, sc.GROUP_TOOL, Say("done")]
SLOW_TOOL = sc.slow(sc.SLOW_GROUP_TOOL)
SLOW: list[Turn] = [sc.LONG, sc.ASK, sc.SLOW_DISCOVER, SLOW_TOOL, Say("done")]


def named(request: ModelRequest, name: str) -> bool:
    """Claude Code names a deferred tool (its ToolSearch then loads the schema): known is named."""
    return request.knows(name)


def entry_file(sandbox: Sandbox) -> Path:
    return sandbox.project / ".mcp.json"


def entry(sandbox: Sandbox) -> dict[str, Any]:
    return dict(json.loads(entry_file(sandbox).read_text(encoding="utf-8"))["mcpServers"][SERVER_KEY])


@pytest.fixture(scope="module")
def configured(sandbox: Sandbox, editor: Editor) -> Sandbox:
    sandbox.init("claude")
    return sandbox


def play(sandbox: Sandbox, editor: Editor, turns: list[Turn]) -> sc.Session:
    return sc.play(sandbox, editor, AnthropicAdapter(), claude_code.run, turns)


@pytest.fixture(scope="module")
def session(configured: Sandbox, editor: Editor) -> sc.Session:
    editor.script("scene.get_tree", {"result": sc.big_tree()})
    return play(configured, editor, FAST)


def test_connects_and_calls_an_always_on_tool(session: sc.Session) -> None:
    assert session.declared(sc.ALWAYS_ON) == f"{claude_code.PREFIX}project_get_settings"
    sc.check_always_on(session)


def test_requests_name_our_tools_without_schemas(session: sc.Session) -> None:
    """Claude Code defers our tools: a request names them and carries our instructions; a schema only
    once ToolSearch loaded that tool."""
    connected = [r for r in session.run.requests if footprint(r, SERVER_KEY).announced]
    assert connected, session.run.describe()
    first = connected[0]
    assert f"{claude_code.PREFIX}discover_tools" in first.announced and footprint(first, SERVER_KEY).instructions
    raw = [t for t in first.request.json["tools"] if t["name"].startswith(claude_code.PREFIX)]
    assert all(t.get("defer_loading") for t in raw), [t["name"] for t in raw]


def test_discovered_tools_are_named_in_the_next_request(session: sc.Session) -> None:
    sc.check_discovered(session, sc.DISCOVER, sc.GROUP_TOOL, named)


def test_asking_tool_without_a_game_fails_before_asking(session: sc.Session) -> None:
    sc.check_no_game(session)


def test_asking_tool_headless_names_the_setting(session: sc.Session) -> None:
    """``claude -p`` cancels every question at once."""
    sc.check_headless_ask(session)


def test_big_answer_is_saved_to_a_file_the_model_is_pointed_to(session: sc.Session) -> None:
    """Past its token limit Claude Code shows the model a pointer to a file holding the whole answer."""
    seen = session.result(sc.BIG).text
    assert len(seen.encode()) < 4000, len(seen)
    saved = re.search(r"saved to (\S+\.txt)", seen)
    assert saved, seen[:500]
    whole = Path(saved.group(1)).read_text(encoding="utf-8")
    assert whole.count('"Sprite2D"') == len(sc.big_tree()["tree"]["children"]), len(whole)


@pytest.fixture(scope="module")
def slow_session(configured: Sandbox, editor: Editor) -> Iterator[sc.Session]:
    """A slow model, a call longer than a short timeout would allow, under the entry init wrote, and the
    asking tool allowed in the entry's env."""
    with sc.put_back(entry_file(configured)):
        configured.init("claude", "--env", f"{sc.ALLOW_SETTING}=execute_code")
        editor.script("project.get_settings", {"sleep": sc.LONG_CALL_SECONDS}, {"default": True})
        yield play(configured, editor, SLOW)


def test_long_call_gets_through_under_the_entry_init_wrote(configured: Sandbox,
                                                           slow_session: sc.Session) -> None:
    assert entry(configured).get("timeout", 0) >= 60_000, entry(configured)
    sc.check_long_call(slow_session)


def test_allowance_in_the_entry_runs_the_asking_tool(slow_session: sc.Session) -> None:
    sc.check_allowed(slow_session)


def test_slow_model_gets_the_discovered_tools_in_the_next_request(slow_session: sc.Session) -> None:
    sc.check_discovered(slow_session, sc.SLOW_DISCOVER, SLOW_TOOL, named, told=False)


def test_a_shorter_timeout_in_the_entry_cuts_the_long_call(configured: Sandbox, editor: Editor) -> None:
    """Proof that Claude Code reads the field: the same entry with a 2 s timeout fails the 4 s call."""
    def shorter(config: dict[str, Any]) -> None:
        config["mcpServers"][SERVER_KEY]["timeout"] = 2000

    with sc.entry_changed(entry_file(configured), shorter):
        editor.script("project.get_settings", {"sleep": sc.LONG_CALL_SECONDS}, {"default": True})
        session = play(configured, editor, [sc.LONG, Say("done")])
    sc.check_cut_by_timeout(session)
