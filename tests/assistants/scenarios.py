"""The steps every assistant's scenarios are made of, as data, and the checks on them.

One CLI run plays several steps (a CLI start is the costly part), so the test files compose these:
an always-on call, ``discover_tools`` then a tool of the loaded group, the asking tool with no game
(fails before anyone is asked) and in the editor (asked; headless, the question is cancelled or
declined and the answer names the setting that allows it), and a ~300 KB answer.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.assistants.model_server import Adapter, ModelRequest, ModelServer, ToolCall, ToolResult, Turn
from tests.assistants.sandbox import CliRun, Editor, Sandbox

PROMPT = "Work on my Godot project."

ALLOW_SETTING = "GODOT_MCP_ALLOW_UNASKED"

ALWAYS_ON = ToolCall("project_get_settings", {"prefix": "application/"})
GROUP = "classdb"
DISCOVER = ToolCall("discover_tools", {"request": GROUP})
GROUP_TOOL = ToolCall("classdb_search", {"pattern": "Sprite"})
SLOW_GROUP = "audio"
SLOW_DISCOVER = ToolCall("discover_tools", {"request": SLOW_GROUP})
SLOW_GROUP_TOOL = ToolCall("audiobus_list", {})
ASK_NO_GAME = ToolCall("execute_code", {"code": "1 + 1", "channel": "runtime"})
ASK = ToolCall("execute_code", {"code": "1 + 1", "channel": "editor"})
BIG = ToolCall("scene_get_tree", {})
MISSING_NODE = ToolCall("node_get_property", {"node_path": "Ghost", "property": "position"})  # a typical error
BIG_BYTES = 300_000
# Longer than the short timeout the cut check puts in a copy of the entry (whole_session.py), by a margin
# that only the timeout decides.
LONG_CALL_SECONDS = 3.0
LONG = ToolCall("project_get_settings", {"prefix": "display/"})  # scripted to take LONG_CALL_SECONDS

# A model that thinks: the tool answers come back in milliseconds, so a second is slow to the CLI
# (time for anything it does in the background, such as re-listing, to finish first).
SLOW_SECONDS = 1.0


def slow(turn: ToolCall) -> ToolCall:
    """The same call from a slow model: it answers ``SLOW_SECONDS`` after the request came."""
    return ToolCall(turn.tool, turn.arguments, delay=SLOW_SECONDS, when=turn.when)


@dataclass(frozen=True)
class Session:
    """One CLI run and the editor methods that reached the simulator during it."""

    run: CliRun
    editor_methods: list[str]
    turns: tuple[Turn, ...]

    @property
    def server(self) -> ModelServer:
        return self.run.server

    def index(self, turn: Turn) -> int:
        return self.turns.index(turn)

    def result(self, turn: ToolCall) -> ToolResult:
        """The tool result the model got for ``turn`` (asserted to exist)."""
        return result(self.server, self.index(turn))

    def declared(self, turn: ToolCall) -> str:
        """The declared name ``turn`` was called by (asserted to be declared)."""
        return declared(self.server, self.index(turn))

    def after(self, turn: ToolCall) -> ModelRequest | None:
        """The main request after the one that got ``turn``: where its result shows."""
        return self.server.after(self.index(turn))


Runner = Callable[[Sandbox, ModelServer, str], CliRun]


def play(sandbox: Sandbox, editor: Editor | None, adapter: Adapter, runner: Runner, turns: Sequence[Turn],
         prompt: str = PROMPT) -> Session:
    """Run the CLI once through ``turns``. Only a hung CLI fails here: each test asserts the steps it is
    about, so one missing step does not hide the others (a scenario puts its riskiest step last, since
    a tool that is not declared ends the run). ``editor``: the simulator, to record what reached it."""
    before = len(editor.received()) if editor else 0
    with ModelServer(adapter, turns) as server:
        run = runner(sandbox, server, prompt)
    assert run.exit_code is not None, run.describe()
    reached = methods_received(editor.received()[before:]) if editor else []
    return Session(run, reached, tuple(turns))


def big_tree(size: int = BIG_BYTES) -> dict[str, Any]:
    """A scene.get_tree result of about ``size`` bytes of JSON: a root with many Sprite2D children."""
    children = [{"name": f"Sprite{i:05d}", "class": "Sprite2D", "path": f"Sprite{i:05d}", "children": []}
                for i in range(size // 78)]
    return {"success": True, "scene_path": "res://big.tscn",
            "tree": {"name": "Main", "class": "Node2D", "path": ".", "children": children},
            "returned": len(children) + 1, "total_nodes": len(children) + 1, "has_more": False}


def same_prefix(discover_declared: str, tool: str) -> str:
    """The name discover_tools tells the model to use for ``tool``: its own declared name's prefix."""
    assert discover_declared.endswith("discover_tools"), discover_declared
    return discover_declared[: -len("discover_tools")] + tool


def result(server: ModelServer, turn: int) -> ToolResult:
    found = server.result_of(turn)
    assert found is not None, f"turn {turn}: no tool result came back (served: {server.call_of(turn)})"
    return found


def declared(server: ModelServer, turn: int) -> str:
    served = server.call_of(turn)
    assert served is not None and served.declared, f"turn {turn} was not called: {served}"
    return served.declared


def succeeded(answer: ToolResult) -> bool:
    return not answer.is_error and '"success":true' in answer.text.replace(" ", "")


# -- the checks every CLI's tests make (a CLI's own ways are passed in) ------------------------------


def check_listed(session: Session, discover: ToolCall, loaded: ToolCall) -> None:
    """Every tool is listed (GODOT_MCP_TOOL_LIST=all): the CLI knew ``loaded`` from its first request
    that carried our tools, discover_tools loaded nothing and says the tools are in the list, and the
    model's call of the tool by the name the same-prefix rule gives succeeds."""
    told = session.result(discover).text
    assert "in your tool list" in told and "activated" not in told, told
    expected = same_prefix(session.declared(discover), loaded.tool)
    first = next(r for r in session.run.requests if r.knows(session.declared(discover)))
    assert first.knows(expected), (expected, session.run.describe())
    assert session.declared(loaded) == expected, session.declared(loaded)
    assert succeeded(session.result(loaded)), session.result(loaded)


def check_loaded(session: Session, discover: ToolCall, loaded: ToolCall, *, relists: bool) -> None:
    """discover_tools loaded the group of ``loaded`` (a tool of it, or call_tool of one). A CLI that
    re-lists: the answer tells the same-prefix rule, the very next request knows the tool under that
    rule's name, and the model's call of it succeeds. One that does not: the answer says to use
    call_tool, the next request still does not know the tool, and call_tool runs it."""
    told = session.result(discover).text
    assert ("same prefix" if relists else "call_tool") in told, told
    tool = str(loaded.arguments["name"]) if loaded.tool == "call_tool" else loaded.tool
    expected = same_prefix(session.declared(discover), tool)
    following = session.after(discover)
    assert following is not None, session.run.describe()
    assert following.knows(expected) == relists, (expected, relists, session.run.describe())
    if relists:
        assert session.declared(loaded) == expected, session.declared(loaded)
    assert succeeded(session.result(loaded)), session.result(loaded)


def check_no_game(session: Session) -> None:
    """The asking tool with no game to run in fails GAME_NOT_RUNNING before anyone is asked."""
    answer = session.result(ASK_NO_GAME).text
    assert "GAME_NOT_RUNNING" in answer and ALLOW_SETTING not in answer, answer


def check_headless_ask(session: Session) -> None:
    """Nobody to ask: the question is cancelled or declined, the tool does not run, and the answer
    names the setting that allows it unasked."""
    answer = session.result(ASK).text
    assert ALLOW_SETTING in answer and ASK.tool in answer, answer
    assert "execute.code" not in session.editor_methods


def check_preview(session: Session) -> None:
    """A CLI without elicitation: the asking tool gets the bridge's preview and single-use token, and
    does not run."""
    answer = session.result(ASK).text
    assert "confirmation_token" in answer, answer
    assert "execute.code" not in session.editor_methods


def check_saved_whole(seen: str, where: str) -> str:
    """A CLI that keeps a too-large answer in a file: ``where`` (a pattern whose group is the path) finds
    the file in what the model saw, and the file holds the whole ~300 KB answer. Returns the path."""
    saved = re.search(where, seen)
    assert saved, seen[:500]
    whole = Path(saved.group(1)).read_text(encoding="utf-8")
    assert whole.count('"Sprite2D"') == len(big_tree()["tree"]["children"]), len(whole)
    return saved.group(1)


def check_long_call(session: Session) -> None:
    assert succeeded(session.result(LONG)), session.result(LONG)


def check_cut_by_timeout(answer: ToolResult) -> None:
    """Under an entry whose timeout is shorter than the call, the call failed as timed out."""
    assert "timed out" in answer.text.lower() and not succeeded(answer), answer


def methods_received(frames: list[dict[str, Any]]) -> list[str]:
    return [str(f.get("method")) for f in frames if isinstance(f, dict) and "method" in f]
