"""One path for a ``tools/call`` (godot_bridge/mcp/core/calls.py): read once, one route, one run.

The lean stdio path and the SDK path both read a call with ``CallPath.read``, decide with
``CallPath.route`` whether it is served at once, may ask the person, or runs as a task, and run it
with ``CallPath.run``; call_tool's inner name is unwrapped in ``read`` alone.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from godot_bridge.app import BridgeApp
from godot_bridge.config import Settings
from godot_bridge.mcp.core.calls import CallPath, CallRefused, Route
from godot_bridge.mcp.core.peers import Peer
from godot_bridge.mcp.core.protocol import (
    CLIENT_CAPABILITIES_META_KEY,
    CLIENT_INFO_META_KEY,
    INVALID_PARAMS,
    PROTOCOL_VERSION_META_KEY,
    TASKS_EXTENSION,
)

TASKS = {"extensions": {TASKS_EXTENSION: {}}}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "project.godot").write_text("config_version=5\n")
    return tmp_path


def make_app(project: Path, **settings: Any) -> BridgeApp:
    return BridgeApp(Settings(project_path=project, env={"XDG_DATA_HOME": str(project / "data")}, **settings))


def modern_params(name: str, arguments: Any = None, *, capabilities: Any = None, client: str = "probe") -> dict[str, Any]:
    return {"name": name, "arguments": arguments or {}, "_meta": {
        PROTOCOL_VERSION_META_KEY: "2026-07-28", CLIENT_CAPABILITIES_META_KEY: capabilities or {},
        CLIENT_INFO_META_KEY: {"name": client, "version": "1"}}}


def counting_target(app: BridgeApp) -> list[Any]:
    """Record every unwrap of call_tool's target (``ToolDispatch.target`` of a call_tool call)."""
    seen: list[Any] = []
    real = app.dispatch.target

    def target(name: Any, arguments: Any) -> tuple[Any, Any]:
        if name == "call_tool" and isinstance(arguments, dict):
            seen.append(arguments.get("name"))
        return real(name, arguments)

    app.dispatch.target = target  # type: ignore[method-assign]
    return seen


def test_a_call_through_call_tool_is_unwrapped_once_for_reading_and_routing(project: Path) -> None:
    app = make_app(project)
    seen = counting_target(app)
    calls = CallPath(app)
    tools = app.tool_list()
    params = modern_params("call_tool", {"name": "mcp__godot-mcp-toolkit__game_start", "arguments": {"scene": "x"}},
                           capabilities=TASKS)
    call = calls.read(params, modern=True)
    assert (call.name, call.target, call.target_arguments) == ("call_tool", "game_start", {"scene": "x"})
    assert call.wants_task and call.modern and call.client == "probe" and call.progress_token is None
    assert calls.route(call, tools) is Route.TASK  # game_start is job-capable; the request declared tasks
    assert calls.route(call, tools) is Route.TASK
    assert seen == ["mcp__godot-mcp-toolkit__game_start"], "the route must use what was read, not unwrap again"


@pytest.mark.parametrize(("params", "modern", "route"), [
    # 2026-07-28: a job-capable tool becomes a task only when the request declares the extension.
    (modern_params("game_start", capabilities=TASKS), True, Route.TASK),
    (modern_params("game_start"), True, Route.AT_ONCE),
    # 2025-11-25: params.task asks for one; a tool that is never a job stays a plain call.
    ({"name": "game_start", "arguments": {}, "task": {"ttl": 1000}}, False, Route.TASK),
    ({"name": "scene_get_tree", "arguments": {}, "task": {}}, False, Route.AT_ONCE),
    # A tool that may ask the person (under the default policy) needs a channel for the question;
    # through call_tool too.
    ({"name": "execute_code", "arguments": {"code": "1"}}, False, Route.MAY_ASK),
    ({"name": "call_tool", "arguments": {"name": "execute_code", "arguments": {}}}, False, Route.MAY_ASK),
    # A job-capable tool that may ask still runs as a task when one is asked for (the task asks).
    (modern_params("editor_restart", capabilities=TASKS), True, Route.TASK),
    ({"name": "editor_restart", "arguments": {}}, False, Route.MAY_ASK),
    # What the SDK would refuse is read without a fault, and left to the call (or the SDK) to answer.
    ({"name": 7, "arguments": "x", "_meta": []}, False, Route.AT_ONCE),
    ({"name": "no_such_tool", "arguments": {}, "task": {}}, False, Route.AT_ONCE),
])
def test_one_function_routes_every_call(project: Path, params: dict[str, Any], modern: bool, route: Route) -> None:
    app = make_app(project)
    calls = CallPath(app)
    assert calls.route(calls.read(params, modern), app.tool_list()) is route


def test_the_progress_token_is_read_with_the_call(project: Path) -> None:
    calls = CallPath(make_app(project))
    call = calls.read({"name": "scene_get_tree", "_meta": {"progressToken": "p-1"}}, False)
    assert call.progress_token == "p-1" and call.arguments is None and not call.wants_task


async def test_running_an_unknown_tool_is_refused_with_invalid_params(project: Path) -> None:
    app = make_app(project)
    calls = CallPath(app)
    peer = Peer(app.tool_list(), standing=True)
    with pytest.raises(CallRefused) as refused:
        await calls.run(calls.read({"name": "no_such_tool", "arguments": {}}, False), peer, None)
    assert refused.value.code == INVALID_PARAMS and "no_such_tool" in refused.value.message


async def test_running_names_the_client_of_a_standing_peer_only(project: Path) -> None:
    app = make_app(project)
    calls = CallPath(app)
    standing = Peer(app.tool_list(), standing=True, fixed=app.tool_list(fixed=True))
    shared = Peer(app.tool_list(), standing=False, fixed=app.tool_list(fixed=True))
    for peer in (standing, shared):
        with pytest.raises(CallRefused):
            await calls.run(calls.read(modern_params("no_such_tool", client="codex"), True), peer, None)
    assert standing.tools_for(True).client == "codex"
    assert shared.tools_for(True).client is None  # requests outside a session cannot be told apart
