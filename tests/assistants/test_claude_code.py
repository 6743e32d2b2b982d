"""Claude Code, headless (``claude -p``), through the bridge into the simulated editor
(tests/assistants/README.md).

Claude Code defers our tools behind its ToolSearch (a request names them; a schema comes once the
model searched for it), cancels every question in print mode, and saves a too-large answer to a file
it points the model to.

Two runs: the whole session (whole_session.py); a copy of the entry with a 2 s ``timeout``, under
which the long call fails (Claude Code honours the field).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.assistants import claude_code, scenarios as sc, whole_session as ws
from tests.assistants.anthropic import AnthropicAdapter, footprint
from tests.assistants.model_server import ModelRequest, Say, Turn
from tests.assistants.sandbox import SERVER_KEY, Editor, Sandbox

SLOW_LOADED = sc.slow(sc.SLOW_GROUP_TOOL)


def named(request: ModelRequest, name: str) -> bool:
    """Claude Code names a deferred tool (its ToolSearch then loads the schema): known is named."""
    return request.knows(name)


def entry_file(sandbox: Sandbox) -> Path:
    return sandbox.project / ".mcp.json"


def entry(sandbox: Sandbox) -> dict[str, Any]:
    return dict(json.loads(entry_file(sandbox).read_text(encoding="utf-8"))["mcpServers"][SERVER_KEY])


@pytest.fixture(scope="module")
def configured(sandbox: Sandbox, editor: Editor) -> Sandbox:
    sandbox.init("claude", "--env", ws.ALLOWANCE)
    return sandbox


def play(sandbox: Sandbox, editor: Editor, turns: list[Turn]) -> sc.Session:
    return sc.play(sandbox, editor, AnthropicAdapter(), claude_code.run, turns)


@pytest.fixture(scope="module")
def session(configured: Sandbox, editor: Editor) -> sc.Session:
    ws.script(editor)
    return play(configured, editor, ws.turns(sc.GROUP_TOOL, SLOW_LOADED))


def test_requests_name_our_tools_without_schemas(session: sc.Session) -> None:
    """A request names our tools and carries our instructions; a schema only once ToolSearch loaded it."""
    connected = [r for r in session.run.requests if footprint(r, SERVER_KEY).announced]
    assert connected, session.run.describe()
    first = connected[0]
    assert f"{claude_code.PREFIX}discover_tools" in first.announced and footprint(first, SERVER_KEY).instructions
    raw = [t for t in first.request.json["tools"] if t["name"].startswith(claude_code.PREFIX)]
    assert all(t.get("defer_loading") for t in raw), [t["name"] for t in raw]


def test_always_on_call_succeeds(session: sc.Session) -> None:
    assert session.declared(sc.ALWAYS_ON) == f"{claude_code.PREFIX}project_get_settings"
    sc.check_always_on(session)


def test_long_call_gets_through_under_the_entry_init_wrote(configured: Sandbox, session: sc.Session) -> None:
    assert entry(configured).get("timeout", 0) >= 60_000, entry(configured)
    sc.check_long_call(session)


def test_big_answer_is_saved_to_a_file_the_model_is_pointed_to(session: sc.Session) -> None:
    """Past its token limit Claude Code shows the model a ~2 KB pointer to a file with the whole answer."""
    seen = session.result(sc.BIG).text
    assert len(seen.encode()) < 4000, len(seen)
    saved = re.search(r"saved to (\S+\.txt)", seen)
    assert saved, seen[:500]
    whole = Path(saved.group(1)).read_text(encoding="utf-8")
    assert whole.count('"Sprite2D"') == len(sc.big_tree()["tree"]["children"]), len(whole)


def test_asking_tool_without_a_game_fails_before_asking(session: sc.Session) -> None:
    sc.check_no_game(session)


def test_asking_tool_headless_names_the_setting(session: sc.Session) -> None:
    """``claude -p`` cancels every question at once: the answer says how to allow the tool unasked."""
    sc.check_headless_ask(session)


def test_allowance_in_the_entry_runs_the_asking_tool(session: sc.Session) -> None:
    ws.check_allowed(session)


def test_discovered_tools_are_named_in_the_next_request(session: sc.Session) -> None:
    sc.check_discovered(session, sc.DISCOVER, sc.GROUP_TOOL, named)


def test_slow_model_gets_the_discovered_tools_in_the_next_request(session: sc.Session) -> None:
    sc.check_discovered(session, sc.SLOW_DISCOVER, SLOW_LOADED, named, told=False)


def test_a_shorter_timeout_in_the_entry_cuts_the_long_call(configured: Sandbox, editor: Editor) -> None:
    """Proof that Claude Code reads the field: the same entry with a 2 s timeout fails the 4 s call."""
    def shorter(config: dict[str, Any]) -> None:
        config["mcpServers"][SERVER_KEY]["timeout"] = 2000

    with sc.entry_changed(entry_file(configured), shorter):
        ws.script_long_call(editor)
        session = play(configured, editor, [sc.LONG, Say("done")])
    sc.check_cut_by_timeout(session)
