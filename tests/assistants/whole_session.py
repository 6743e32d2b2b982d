"""Every step of issue 39's scenarios in ONE run of a CLI, the same for every CLI (``turns(cli)``): a CLI
start costs seconds, so each test module pays for this run and the few its own checks need.

The entry is the one ``godot-bridge init --env GODOT_MCP_ALLOW_UNASKED=scene_create`` writes, so
one run meets both kinds of asking tool: ``execute_code`` asked headless (and, with no game, failing
before anyone is asked), ``scene_create`` replacing a scene that exists (it asks then) allowed by the
person. Both are always on, so every CLI declares them from the start. The long call is the first
always-on read, which the editor is scripted to answer after ``LONG_CALL_SECONDS``; the model is fast
for one group and slow for the other. The steps most likely to end the run (a loaded tool that is not
declared) come last.
"""

from __future__ import annotations

from pathlib import Path

from tests.assistants import scenarios as sc
from tests.assistants.clis import Cli
from tests.assistants.footprints import chat_footprint
from tests.assistants.model_server import ModelRequest, Say, ToolCall, Turn
from tests.assistants.sandbox import Editor

ALLOWED_TOOL = "scene_create"
ALLOWANCE = f"{sc.ALLOW_SETTING}={ALLOWED_TOOL}"
REPLACED = "allowed.tscn"  # a scene of the project scene_create replaces: the kind of call that asks
ALLOWED = ToolCall(ALLOWED_TOOL, {"file_path": f"res://{REPLACED}", "root_type": "Node2D", "if_exists": "replace"})
SCENE = '[gd_scene format=3]\n\n[node name="Allowed" type="Node2D"]\n'


def always_on(cli: Cli) -> ToolCall:
    """The always-on call, with what the CLI adds to every call filled in (Gemini CLI's model does)."""
    return cli.as_model_calls(sc.ALWAYS_ON)


def loaded(cli: Cli) -> ToolCall:
    """The fast model's call of a tool of the group it loaded (the tool, or call_tool of it)."""
    return cli.loaded(sc.GROUP_TOOL)


def slow_loaded(cli: Cli) -> ToolCall:
    """The same from a slow model, after the second discover_tools."""
    return cli.loaded(sc.slow(sc.SLOW_GROUP_TOOL))


def turns(cli: Cli) -> list[Turn]:
    """The session. The long call comes first, so it is the one the editor's scripted slow answer goes
    to (the always-on call reads the same method)."""
    return [sc.LONG, always_on(cli), sc.BIG, sc.ASK_NO_GAME, sc.ASK, ALLOWED,
            sc.DISCOVER, loaded(cli), sc.SLOW_DISCOVER, slow_loaded(cli), Say("done")]


def script(editor: Editor) -> None:
    """The editor's answers this session needs: a ~300 KB tree, a read that takes its time; and the
    scene the allowed call replaces, in the project."""
    editor.script("scene.get_tree", {"result": sc.big_tree()})
    script_long_call(editor)
    (Path(editor.info["project"]) / REPLACED).write_text(SCENE, encoding="utf-8")


def script_long_call(editor: Editor) -> None:
    editor.script("project.get_settings", {"sleep": sc.LONG_CALL_SECONDS}, {"default": True})


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
