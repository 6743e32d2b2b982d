"""Every step of the scenarios in ONE run of a CLI, the same for every CLI (``play``): a CLI start
costs seconds, so each test module pays for this one run.

The entry is the one ``godot-bridge init --env GODOT_MCP_ALLOW_UNASKED=scene_create`` writes, so
one run meets both kinds of asking tool: ``execute_code`` asked headless (and, with no game, failing
before anyone is asked), ``scene_create`` replacing a scene that exists (it asks then) allowed by the
person. Both are always on, so every CLI declares them from the start. The long call is the first
always-on read, which the editor is scripted to answer after ``LONG_CALL_SECONDS``; the model is fast
for one group and slow for the other. The steps most likely to end the run (a loaded tool that is not
declared) come last.

What needs another entry runs in the same CLI run too, as a copy of our entry under another key (one
more server: a bridge of its own): a copy whose timeout is shorter than the long call
(``SHORT_TIMEOUT_S``), which the model calls by its full name right after the long call to ours; and
what a test module adds (``play(..., copies, more)``).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from tests.assistants import scenarios as sc
from tests.assistants.clis import Cli
from tests.assistants.entries import Copy
from tests.assistants.footprints import chat_footprint
from tests.assistants.model_server import ModelRequest, Say, ToolCall, Turn
from tests.assistants.sandbox import SERVER_KEY, Editor, Sandbox

ALLOWED_TOOL = "scene_create"
ALLOWANCE = f"{sc.ALLOW_SETTING}={ALLOWED_TOOL}"
REPLACED = "allowed.tscn"  # a scene of the project scene_create replaces: the kind of call that asks
ALLOWED = ToolCall(ALLOWED_TOOL, {"file_path": f"res://{REPLACED}", "root_type": "Node2D", "if_exists": "replace"})
SCENE = '[gd_scene format=3]\n\n[node name="Allowed" type="Node2D"]\n'

# Longer than our key and not starting with it: a bare tool name still finds our server's tool
# (model_server.resolve: the shortest match), and no CLI's prefix for ours matches the copy's tools.
CUT_KEY = f"cut-{SERVER_KEY}"
# Shorter than the long call. Not less: Gemini CLI (and Qwen Code, its fork) bound the server's start-up
# by the same field, and at 1 s a busy machine's start-up went past it (the copy was never listed).
SHORT_TIMEOUT_S = 2.0
OPENCODE_START_UP_S = 0.001  # opencode: a timeout this short drops the server at start-up


def play(cli: Cli, sandbox: Sandbox, editor: Editor, copies: Sequence[Copy] = (),
         more: Sequence[ToolCall] = ()) -> sc.Session:
    """The CLI's run through every step, the copy with a short timeout and ``copies`` beside our entry;
    ``more``: the model's calls to those, right after the long call."""
    session = turns(cli, more, cli.lists_all(sandbox.project))
    script(editor, session)
    with cli.entry.with_copies(sandbox.project, [cut_copy(cli), *copies]):
        return cli.play(sandbox, editor, session)


def cut_copy(cli: Cli) -> Copy:
    """Our entry with a timeout shorter than the long call; opencode's drops the server at start-up
    (its timeout restarts on every progress report, so it cannot cut the call)."""
    seconds = SHORT_TIMEOUT_S if cli.timeout_cuts_calls else OPENCODE_START_UP_S
    return Copy(CUT_KEY, cli.entry.call_timeout_change(seconds))


def cut_long(cli: Cli) -> ToolCall:
    """The long call to the copy with the short timeout, by the copy's full name for the tool."""
    return ToolCall(cli.declared(sc.LONG.tool, CUT_KEY), sc.LONG.arguments)


def always_on(cli: Cli) -> ToolCall:
    """The always-on call, with what the CLI adds to every call filled in (Gemini CLI's model does)."""
    return cli.as_model_calls(sc.ALWAYS_ON)


def loaded(cli: Cli, listed: bool) -> ToolCall:
    """The fast model's call of a tool of the group it found (the tool, or call_tool of it); ``listed``:
    the entry lists every tool."""
    return cli.loaded(sc.GROUP_TOOL, listed)


def slow_loaded(cli: Cli, listed: bool) -> ToolCall:
    """The same from a slow model, after the second discover_tools."""
    return cli.loaded(sc.slow(sc.SLOW_GROUP_TOOL), listed)


def turns(cli: Cli, more: Sequence[ToolCall] = (), listed: bool = False) -> list[Turn]:
    """The session. The long calls come first, so they are the ones the editor's scripted slow answers
    go to (the always-on call reads the same method)."""
    cut = [cut_long(cli)] if cli.timeout_cuts_calls else []
    return [sc.LONG, *cut, *more, always_on(cli), sc.BIG, sc.ASK_NO_GAME, sc.ASK, ALLOWED,
            sc.DISCOVER, loaded(cli, listed), sc.SLOW_DISCOVER, slow_loaded(cli, listed), Say("done")]


def script(editor: Editor, session: Sequence[Turn]) -> None:
    """The editor's answers ``session`` needs: a ~300 KB tree, a read that takes its time for each long
    call; and the scene the allowed call replaces, in the project."""
    editor.script("scene.get_tree", {"result": sc.big_tree()})
    long_calls = sum(1 for t in session if isinstance(t, ToolCall) and t.arguments == sc.LONG.arguments)
    editor.script("project.get_settings", {"sleep": sc.LONG_CALL_SECONDS}, {"default": True}, times=long_calls)
    (Path(editor.info["project"]) / REPLACED).write_text(SCENE, encoding="utf-8")


def check_allowed(session: sc.Session) -> None:
    """The entry's env allows scene_create: replacing a scene, which asks, ran unasked."""
    answer = session.result(ALLOWED).text
    assert "scene.create" in session.editor_methods and sc.ALLOW_SETTING not in answer, answer


def check_declared_with_schemas(first: ModelRequest, prefix: str) -> None:
    """A chat CLI that declares our tools: every one with its schema, discover_tools among them."""
    mine = [t for t in first.tools if t.namespace == prefix]
    assert f"{prefix}discover_tools" in first.names(), first.names()
    assert mine and all("parameters" in t.raw.get("function", {}) for t in mine)
    assert chat_footprint(first, prefix).declarations > 0


def check_dropped_at_start_up(session: sc.Session, cli: Cli) -> None:
    """The copy with a start-up-length timeout was dropped before it listed a tool; ours was listed."""
    offered = [name for r in session.run.requests for name in r.names()]
    assert cli.declared("discover_tools") in offered, session.run.describe()
    assert not [name for name in offered if name.startswith(cli.declared("", CUT_KEY))], session.run.describe()
