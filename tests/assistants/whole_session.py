"""Every step of issue 39's scenarios in ONE run of a CLI, for the CLIs of B2's tests (Codex, Copilot
CLI, Qwen Code, opencode): a CLI start costs seconds, so each test module pays for two runs only,
this one and the copy of the entry with a short timeout.

The entry is the one ``godot-bridge init --env GODOT_MCP_ALLOW_UNASKED=node_call_method`` writes, so
one run meets both kinds of asking tool: ``execute_code`` asked headless (and, with no game, failing
before anyone is asked), ``node_call_method`` allowed by the person. The long call is the first
always-on read, which the editor is scripted to answer after ``LONG_CALL_SECONDS``; the model is fast
for one group and slow for the other. The steps most likely to end the run (a loaded tool that is not declared)
come last.
"""

from __future__ import annotations

from tests.assistants import scenarios as sc
from tests.assistants.model_server import ModelRequest, Say, ToolCall, Turn
from tests.assistants.sandbox import Editor

ALLOWED_TOOL = "node_call_method"
ALLOWANCE = f"{sc.ALLOW_SETTING}={ALLOWED_TOOL}"
ALLOWED = ToolCall(ALLOWED_TOOL, {"node_path": ".", "method_name": "get_name"})


def call_tool(loaded: ToolCall, *, slow: bool = False) -> ToolCall:
    """``loaded`` through the always-on call_tool, as a client that does not re-list reaches it."""
    turn = ToolCall("call_tool", {"name": loaded.tool, "arguments": dict(loaded.arguments)})
    return sc.slow(turn) if slow else turn


def turns(loaded: ToolCall, slow_loaded: ToolCall) -> list[Turn]:
    """The session; ``loaded`` / ``slow_loaded``: how the model calls a tool of the group it loaded
    (the tool itself, or ``call_tool``), the second from a slow model. The long call comes first, so it
    is the one the editor's scripted slow answer goes to (the always-on call reads the same method)."""
    return [sc.LONG, sc.ALWAYS_ON, sc.BIG, sc.ASK_NO_GAME, sc.ASK, ALLOWED,
            sc.DISCOVER, loaded, sc.SLOW_DISCOVER, slow_loaded, Say("done")]


def script(editor: Editor) -> None:
    """The editor's answers this session needs: a ~300 KB tree, a read that takes its time."""
    editor.script("scene.get_tree", {"result": sc.big_tree()})
    script_long_call(editor)


def script_long_call(editor: Editor) -> None:
    editor.script("project.get_settings", {"sleep": sc.LONG_CALL_SECONDS}, {"default": True})


def check_allowed(session: sc.Session) -> None:
    """The entry's env allows node_call_method: it ran, unasked."""
    answer = session.result(ALLOWED).text
    assert "node.call_method" in session.editor_methods and sc.ALLOW_SETTING not in answer, answer


def check_preview(session: sc.Session) -> None:
    """A CLI without elicitation: the asking tool gets the bridge's preview and single-use token, and
    does not run."""
    answer = session.result(sc.ASK).text
    assert "confirmation_token" in answer, answer
    assert "execute.code" not in session.editor_methods


def check_declared_with_schemas(first: ModelRequest, prefix: str) -> None:
    """A CLI that declares our tools: every one with its schema, discover_tools among them."""
    mine = [t for t in first.tools if t.namespace == prefix]
    assert f"{prefix}discover_tools" in first.names(), first.names()
    assert mine and all("parameters" in t.raw.get("function", {}) for t in mine)


def check_through_call_tool(session: sc.Session, discover: ToolCall, loaded: ToolCall) -> None:
    """A CLI that does not re-list: discover_tools says to use call_tool, the next request still does not
    know the loaded tool (under the same-prefix name), and call_tool runs it."""
    told = session.result(discover).text
    assert "call_tool" in told, told
    tool = str(loaded.arguments["name"])
    following = session.after(discover)
    expected = sc.same_prefix(session.declared(discover), tool)
    assert following is not None and not following.knows(expected), f"{expected} is listed now: re-listed?"
    assert sc.succeeded(session.result(loaded)), session.result(loaded)
