"""Asking the person first, through real client libraries and the real ``godot-bridge`` process.

Every client here calls ``execute_code`` (it asks: nothing records what code changes) against the
toolkit simulator, whose record of ``execute.code`` requests says whether the call ran. The Python
SDK's client in both eras over stdio and HTTP (with an elicitation callback that accepts or
declines, and without one: the preview and the token); the TypeScript SDK 2.x client (its own
input_required retry in 2026-07-28, its elicitation/create handler in 2025-11-25) and FastMCP's
client, both installed from their registries by scripts/client_libraries.sh; then the wire itself:
a tampered, replayed or mismatched requestState, an approval sent up front, a client that declared
no form elicitation, a target changed between question and answer, a question withdrawn by a
cancel, progress while it is open, and the question asked in the editor's own dialog.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import anyio
import httpx2
import mcp_types as types
import pytest
from mcp.client.stdio import StdioServerParameters

from godot_bridge.consent.gate import UNATTENDED_S
from godot_bridge.consent.policy import UNDO_BUDGET_BYTES
from tests.support.bridge_process import MODERN_META, ROOT, BridgeProcess, body, bridge_env
from tests.support.external import finish, install_or_skip
from tests.support.http_bridge import HttpBridgeProcess, modern_headers
from tests.sim.fixtures import process_sim as sim  # noqa: F401 - the editor this module's bridges talk to
from tests.sim.server import ToolkitSim
from tests.support.sdk_client import sdk_client

CODE = {"code": "1 + 1", "channel": "editor"}  # the editor's channel: the simulator records what runs there
ASKING = "execute_code"
MODERN = "2026-07-28"
CLIENTS = ROOT / "tests" / "clients"
# A person reads the question before answering; an answer sooner is a client's own (nobody's), which runs nothing.
READS_S = UNATTENDED_S + 0.3


def ran(sim: ToolkitSim) -> int:
    return len(sim.requests("execute.code"))


def text_of(result: Any) -> dict[str, Any]:
    return json.loads(result.content[0].text)


# -- the Python SDK's client -------------------------------------------------------------------------


async def sdk_call(target: Any, era: str, answer: str | None, *, confirm: bool = False) -> tuple[int, dict[str, Any]]:
    """One execute_code through the SDK client: (questions the person was asked, the final result).
    ``confirm``: a client that cannot ask repeats the call with the preview's token (the person agreed)."""
    asked: list[str] = []

    async def on_elicit(ctx: Any, params: Any) -> types.ElicitResult:
        asked.append(params.message)
        await anyio.sleep(READS_S)
        if answer == "accept":
            return types.ElicitResult(action="accept", content={"allow": True})
        return types.ElicitResult(action=answer)  # type: ignore[arg-type]

    callback = {"elicitation_callback": on_elicit} if answer is not None else {}
    async with sdk_client(target, mode=MODERN if era == "modern" else "legacy", cache=None, **callback) as client:
        result = text_of(await client.call_tool(ASKING, CODE))
        if confirm:
            assert result["status"] == "confirmation_required" and "1 + 1" in result["question"], result
            result = text_of(await client.call_tool(ASKING, {**CODE, "confirmation_token": result["confirmation_token"]}))
    return len(asked), result


CASES = [  # (era, what the person answers (None: the client cannot ask), confirm with the token, runs)
    ("modern", "accept", False, True), ("modern", "decline", False, False), ("modern", None, True, True),
    ("legacy", "accept", False, True), ("legacy", "cancel", False, False), ("legacy", None, True, True),
]


def judge(sim: ToolkitSim, before: int, case: tuple[Any, ...], asked: int, result: dict[str, Any]) -> None:
    era, answer, _, runs = case
    assert asked == (0 if answer is None else 1), case
    if runs:
        assert ran(sim) == before + 1 and result.get("success") is True, (case, result)
    else:
        assert ran(sim) == before and result["status"] == ("declined" if answer == "decline" else "cancelled"), case
        assert result["done"] is False


async def test_python_sdk_client_over_stdio(sim: ToolkitSim, data_home: Path, project_dir: Path) -> None:
    # One process per case (a stdio client is its own process): each era's yes and its token; HTTP runs them all.
    for case in (CASES[0], CASES[2], CASES[3], CASES[5]):
        before = ran(sim)
        params = StdioServerParameters(command=sys.executable, args=["-m", "godot_bridge"], cwd=str(ROOT),
                                       env=bridge_env(data_home, project_dir))
        with anyio.fail_after(60):
            asked, result = await sdk_call(params, case[0], case[1], confirm=case[2])
        judge(sim, before, case, asked, result)


async def test_python_sdk_client_over_http(sim: ToolkitSim, data_home: Path, project_dir: Path) -> None:
    async with HttpBridgeProcess(bridge_env(data_home, project_dir)) as bridge:
        for case in CASES:
            before = ran(sim)
            with anyio.fail_after(60):
                asked, result = await sdk_call(bridge.url, case[0], case[1], confirm=case[2])
            judge(sim, before, case, asked, result)


async def test_the_sdk_path_behind_the_lean_path_asks_the_same(sim: ToolkitSim, data_home: Path,
                                                               project_dir: Path) -> None:
    # GODOT_BRIDGE_LEAN=0: every line through the SDK from the start; the lean path defers asking calls to it.
    params = StdioServerParameters(command=sys.executable, args=["-m", "godot_bridge"], cwd=str(ROOT),
                                   env=bridge_env(data_home, project_dir, {"GODOT_BRIDGE_LEAN": "0"}))
    with anyio.fail_after(60):
        asked, declined = await sdk_call(params, "modern", "decline")
        assert asked == 1 and declined["status"] == "declined" and ran(sim) == 0
        _, previewed = await sdk_call(params, "legacy", None, confirm=True)
    assert previewed.get("success") is True and ran(sim) == 1


# -- the TypeScript SDK 2.x and FastMCP's client ------------------------------------------------------


def _install(what: str) -> str:
    return install_or_skip(f"the {what} client", ROOT / "scripts" / "client_libraries.sh", what,
                           needs="npm" if what == "ts" else "")


@pytest.fixture(scope="module")
def ts_client() -> list[str]:
    if shutil.which("node") is None:
        pytest.skip("node is not installed: cannot run the TypeScript SDK client")
    return ["node", str(CLIENTS / "ts_consent.mjs"), _install("ts")]


@pytest.fixture(scope="module")
def fastmcp_client() -> list[str]:
    return [_install("fastmcp"), str(CLIENTS / "fastmcp_consent.py")]


async def drive(command: list[str], env: dict[str, str], specs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Run a client driver (tests/clients/README.md) over ``specs``; one answer per call."""
    program, script, *rest = command
    full_env = {**env, "BRIDGE_PYTHON": sys.executable, "BRIDGE_ROOT": str(ROOT)}
    if rest:
        full_env["TS_CLIENT_DIR"] = rest[0]
    proc = await asyncio.create_subprocess_exec(program, script, json.dumps(specs), env=full_env, cwd=str(ROOT),
                                                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await finish(proc, 120)
    assert proc.returncode == 0, err.decode(errors="replace")[-2000:]
    return [json.loads(line) for line in out.decode().strip().splitlines()[-len(specs):]]


DRIVEN = [("stdio", "modern", "accept"), ("stdio", "legacy", "decline"),
          ("http", "modern", None), ("http", "modern", "decline"), ("http", "legacy", "accept"), ("http", "legacy", None)]


async def _each_driven(command: list[str], sim: ToolkitSim, data_home: Path, project_dir: Path) -> None:
    env = bridge_env(data_home, project_dir)
    async with HttpBridgeProcess(env) as bridge:
        # Each call its own code, so what reached the editor says which calls ran.
        specs = [{"server": "stdio" if where == "stdio" else bridge.url, "era": era, "answer": answer, "tool": ASKING,
                  "arguments": {**CODE, "code": f"{i} + 1"}, "reads_s": READS_S}
                 for i, (where, era, answer) in enumerate(DRIVEN)]
        answers = await drive(command, env, specs)
    for spec, got in zip(specs, answers, strict=True):
        case, result, answer = (spec, got), got["result"], spec["answer"]
        assert got["asked"] == (0 if answer is None else 1), case
        assert got["protocol"] == (MODERN if spec["era"] == "modern" else "2025-11-25"), case
        if answer == "accept":
            assert result.get("success") is True, case
        elif answer is None:
            assert result["status"] == "confirmation_required" and result["confirmation_token"], case
        else:
            assert result["status"] == "declined", case
    ran_codes = sorted(r.params["code"] for r in sim.requests("execute.code"))
    assert ran_codes == sorted(s["arguments"]["code"] for s in specs if s["answer"] == "accept")


async def test_typescript_sdk_client(ts_client: list[str], sim: ToolkitSim, data_home: Path, project_dir: Path) -> None:
    await _each_driven(ts_client, sim, data_home, project_dir)


async def test_fastmcp_client(fastmcp_client: list[str], sim: ToolkitSim, data_home: Path, project_dir: Path) -> None:
    await _each_driven(fastmcp_client, sim, data_home, project_dir)


# -- the wire: 2026-07-28 input_required --------------------------------------------------------------

ELICITING = {**MODERN_META, "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}}}
ACCEPT = {"action": "accept", "content": {"allow": True}}


@pytest.fixture
async def stdio(sim: ToolkitSim, spawn_bridge: Callable[..., Any]) -> AsyncIterator[BridgeProcess]:
    yield await spawn_bridge()


async def modern_call(bridge: BridgeProcess, arguments: dict[str, Any], meta: dict[str, Any] | None = None,
                      **extra: Any) -> dict[str, Any]:
    params = {"name": extra.pop("tool", ASKING), "arguments": arguments, "_meta": meta or ELICITING, **extra}
    return await bridge.request("tools/call", params, timeout=30)


async def test_input_required_then_the_answer(stdio: BridgeProcess, sim: ToolkitSim) -> None:
    first = (await modern_call(stdio, CODE))["result"]
    assert first["resultType"] == "input_required" and ran(sim) == 0
    request = first["inputRequests"]["confirm"]
    assert request["method"] == "elicitation/create" and "1 + 1" in request["params"]["message"]
    assert list(request["params"]["requestedSchema"]["properties"]) == ["allow"]
    state = first["requestState"]
    assert state.startswith("v1.") and "rs_" not in state, "sealed: the client cannot read it"
    await asyncio.sleep(READS_S)  # the person reads the question
    done = (await modern_call(stdio, CODE, inputResponses={"confirm": ACCEPT}, requestState=state))["result"]
    assert done["resultType"] == "complete" and done["isError"] is False and ran(sim) == 1
    replayed = await modern_call(stdio, CODE, inputResponses={"confirm": ACCEPT}, requestState=state)
    assert replayed["error"]["code"] == -32602 and "already used" in replayed["error"]["message"]
    assert ran(sim) == 1


async def test_a_tampered_state_is_refused_and_other_arguments_ask_again(stdio: BridgeProcess, sim: ToolkitSim) -> None:
    state = (await modern_call(stdio, CODE))["result"]["requestState"]
    tampered = await modern_call(stdio, CODE, inputResponses={"confirm": ACCEPT}, requestState=state[:-4] + "AAAA")
    assert tampered["error"]["code"] == -32602 and "requestState" in tampered["error"]["message"]
    other = (await modern_call(stdio, {**CODE, "code": "OS.kill(1)"}, inputResponses={"confirm": ACCEPT},
                               requestState=state))["result"]
    assert other["resultType"] == "input_required" and "OS.kill(1)" in other["inputRequests"]["confirm"]["params"][
        "message"], "an answer about one call never runs another"
    up_front = (await modern_call(stdio, CODE, inputResponses={"confirm": ACCEPT}))["result"]
    assert up_front["resultType"] == "input_required", "an approval sent without being asked is no answer"
    assert ran(sim) == 0


async def test_a_client_that_declared_no_form_elicitation_gets_a_preview(stdio: BridgeProcess, sim: ToolkitSim) -> None:
    for capabilities in ({}, {"sampling": {}}, {"elicitation": {"url": {}}}):
        meta = {**MODERN_META, "io.modelcontextprotocol/clientCapabilities": capabilities}
        result = (await modern_call(stdio, CODE, meta))["result"]
        assert result["resultType"] == "complete" and "inputRequests" not in result, capabilities
        assert result["structuredContent"]["status"] == "confirmation_required", capabilities
    assert ran(sim) == 0


async def test_the_target_changed_between_question_and_answer_asks_again(stdio: BridgeProcess, sim: ToolkitSim,
                                                                          project_dir: Path) -> None:
    big = project_dir / "huge.bin"
    with big.open("wb") as handle:
        handle.truncate(UNDO_BUDGET_BYTES + 1)
    target = {"file_path": "res://huge.bin"}
    asked = (await modern_call(stdio, target, tool="file_delete"))["result"]
    assert asked["resultType"] == "input_required" and "32.0 MiB" in asked["inputRequests"]["confirm"]["params"]["message"]
    with big.open("r+b") as handle:
        handle.write(b"the person's last edit")
    await asyncio.sleep(READS_S)
    again = (await modern_call(stdio, target, tool="file_delete", inputResponses={"confirm": ACCEPT},
                               requestState=asked["requestState"]))["result"]
    assert again["resultType"] == "input_required" and "changed" in again["inputRequests"]["confirm"]["params"]["message"]
    assert not sim.requests("file.delete")
    await asyncio.sleep(READS_S)
    done = (await modern_call(stdio, target, tool="file_delete", inputResponses={"confirm": ACCEPT},
                              requestState=again["requestState"]))["result"]
    assert done["resultType"] == "complete" and [r.params for r in sim.requests("file.delete")] == [target]


async def test_over_http_the_state_is_sealed_and_checked_too(sim: ToolkitSim, data_home: Path, project_dir: Path) -> None:
    async with HttpBridgeProcess(bridge_env(data_home, project_dir)) as bridge, httpx2.AsyncClient() as http:
        async def post(params: dict[str, Any]) -> dict[str, Any]:
            body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {**params, "_meta": ELICITING}}
            response = await http.post(bridge.url, json=body, headers=modern_headers("tools/call", ASKING))
            return dict(response.json())
        first = (await post({"name": ASKING, "arguments": CODE}))["result"]
        assert first["resultType"] == "input_required"
        bad = await post({"name": ASKING, "arguments": CODE, "inputResponses": {"confirm": ACCEPT},
                          "requestState": first["requestState"] + "x"})
        assert bad["error"]["code"] == -32602 and ran(sim) == 0
        await asyncio.sleep(READS_S)
        good = await post({"name": ASKING, "arguments": CODE, "inputResponses": {"confirm": ACCEPT},
                           "requestState": first["requestState"]})
        assert good["result"]["isError"] is False and ran(sim) == 1


# -- the wire: a handshake-era question in flight ------------------------------------------------------

HANDSHAKE = {"protocolVersion": "2025-11-25", "capabilities": {"elicitation": {}},
             "clientInfo": {"name": "raw", "version": "1"}}


async def _question(stdio: BridgeProcess, rid: str, meta: dict[str, Any] | None = None) -> dict[str, Any]:
    await stdio.request("initialize", HANDSHAKE)
    await stdio.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    params: dict[str, Any] = {"name": ASKING, "arguments": CODE}
    if meta:
        params["_meta"] = meta
    await stdio.send({"jsonrpc": "2.0", "id": rid, "method": "tools/call", "params": params})
    return await stdio.wait_notification("elicitation/create", timeout=30)


async def test_progress_flows_while_the_question_is_open(stdio: BridgeProcess, sim: ToolkitSim) -> None:
    answer = stdio.expect("call-1")
    question = await _question(stdio, "call-1", {"progressToken": "p1"})
    progress = await stdio.wait_notification("notifications/progress")
    assert progress["params"]["progressToken"] == "p1" and "waiting for the person" in progress["params"]["message"]
    await asyncio.sleep(READS_S)
    await stdio.send({"jsonrpc": "2.0", "id": question["id"], "result": ACCEPT})
    result = (await asyncio.wait_for(answer, 30))["result"]
    assert result["isError"] is False and ran(sim) == 1


async def test_a_cancelled_call_withdraws_its_question(stdio: BridgeProcess, sim: ToolkitSim) -> None:
    question = await _question(stdio, "call-2")
    mark = len(stdio.notifications)
    await stdio.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "call-2"}})
    withdrawn = await stdio.wait_notification("notifications/cancelled", start=mark)
    assert withdrawn["params"]["requestId"] == question["id"], "the client is told to drop the question"
    await stdio.send({"jsonrpc": "2.0", "id": question["id"], "result": ACCEPT})  # too late: it counts for nothing
    pong = await stdio.request("ping")
    assert "result" in pong and ran(sim) == 0
    assert not any(n.get("unmatched_response", {}).get("id") == "call-2" for n in stdio.notifications)


# -- the question in the editor's own dialog -----------------------------------------------------------


async def test_the_editor_dialog_asks_for_every_client(sim: ToolkitSim, spawn_bridge: Callable[..., Any]) -> None:
    bridge = await spawn_bridge({"GODOT_MCP_CONFIRM_IN_EDITOR": "1"})
    headless = await bridge.call_tool(ASKING, CODE)
    assert headless["isError"] is True and body(headless)["code"] == "HEADLESS_UNSUPPORTED"
    assert ran(sim) == 0, "an editor with nobody at it refuses: never a weaker way of asking"
    sim.script("editor.confirm", {"result": {"success": True, "answer": "accept"}})
    allowed = await bridge.call_tool(ASKING, CODE)
    assert allowed["isError"] is False and ran(sim) == 1
    sent = sim.requests("editor.confirm")[-1].params
    assert "1 + 1" in sent["message"] and sent["timeout_ms"] == 120000
    sim.script("editor.confirm", {"result": {"success": True, "answer": "decline"}})
    refused = await bridge.call_tool(ASKING, CODE)  # answered at once: still the person's no
    assert refused["structuredContent"]["status"] == "declined" and ran(sim) == 1
    assert "asked" not in refused["structuredContent"] and "GODOT_MCP_ALLOW_UNASKED" not in json.dumps(refused)


async def test_a_cancelled_call_closes_the_editor_dialog(sim: ToolkitSim, spawn_bridge: Callable[..., Any]) -> None:
    bridge = await spawn_bridge({"GODOT_MCP_CONFIRM_IN_EDITOR": "1"})
    sim.script("editor.confirm", {"wait_cancel": 30})
    await bridge.send({"jsonrpc": "2.0", "id": "dialog-1", "method": "tools/call",
                       "params": {"name": ASKING, "arguments": CODE}})
    asked = await sim.wait_for("editor.confirm", timeout=20)
    await bridge.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "dialog-1"}})
    cancel = await sim.wait_for("_cancel", timeout=20)
    assert str((cancel.frame.get("params") or {}).get("request_id")) == str(asked.frame["id"]), "that dialog closes"
    assert ran(sim) == 0


# -- answers no person gave, answers that cannot be used, calls that cannot run ------------------------

UNUSABLE = ["yes", {}, {"action": "ACCEPT"}, {"action": "accept", "content": "yes"}]


@pytest.mark.parametrize("lean", [True, False], ids=["lean-path", "sdk-path"])
@pytest.mark.parametrize("answer", UNUSABLE, ids=["bare-string", "empty", "ACCEPT", "content-string"])
async def test_a_handshake_answer_that_cannot_be_used_is_a_prompt_result(sim: ToolkitSim, spawn_bridge: Callable[..., Any],
                                                                         lean: bool, answer: Any) -> None:
    """Never the 120 s wait for an answer that already came, never -32602 on the tools/call."""
    stdio = await spawn_bridge({} if lean else {"GODOT_BRIDGE_LEAN": "0"})
    called = stdio.expect("call-u")
    question = await _question(stdio, "call-u")
    await asyncio.sleep(READS_S)
    await stdio.send({"jsonrpc": "2.0", "id": question["id"], "result": answer})
    result = (await asyncio.wait_for(called, 15))["result"]
    assert result["isError"] is False and result["structuredContent"]["status"] == "unusable_answer", result
    assert "could not be used" in result["structuredContent"]["message"] and ran(sim) == 0


@pytest.mark.parametrize("responses", ["yes", {"confirm": "yes"}, {"confirm": {}}, {"confirm": {"action": "ACCEPT"}},
                                       {"confirm": {"action": "accept", "content": "yes"}}])
async def test_a_2026_answer_that_cannot_be_used_is_a_prompt_result(stdio: BridgeProcess, sim: ToolkitSim,
                                                                    responses: Any) -> None:
    state = (await modern_call(stdio, CODE))["result"]["requestState"]
    await asyncio.sleep(READS_S)
    answered = await modern_call(stdio, CODE, inputResponses=responses, requestState=state)
    assert "error" not in answered, answered
    result = answered["result"]
    assert result["resultType"] == "complete" and result["structuredContent"]["status"] == "unusable_answer", result
    assert ran(sim) == 0


async def _http_handshake_question(http: Any, url: str) -> tuple[str, Any, Any]:
    """A handshake session over HTTP whose tools/call stream carries a question: (session id, the open
    stream's response, its line iterator) once the elicitation/create arrived on it."""
    init = await http.post(url, json={"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": HANDSHAKE},
                           headers={"Accept": "application/json, text/event-stream"})
    session = init.headers["mcp-session-id"]
    headers = {"Accept": "application/json, text/event-stream", "Mcp-Session-Id": session,
               "MCP-Protocol-Version": "2025-11-25"}
    await http.post(url, json={"jsonrpc": "2.0", "method": "notifications/initialized"}, headers=headers)
    return session, headers, http.stream("POST", url, headers=headers, json={
        "jsonrpc": "2.0", "id": "call-h", "method": "tools/call", "params": {"name": ASKING, "arguments": CODE}})


async def _sse(lines: Any) -> dict[str, Any]:
    async for line in lines:
        if line.startswith("data:"):
            return dict(json.loads(line[5:]))
    raise AssertionError("the stream ended")


@pytest.mark.parametrize("answer", ["yes", {}], ids=["bare-string", "empty"])
async def test_over_http_an_answer_that_cannot_be_used_is_a_prompt_result(sim: ToolkitSim, data_home: Path,
                                                                          project_dir: Path, answer: Any) -> None:
    async with HttpBridgeProcess(bridge_env(data_home, project_dir)) as bridge, httpx2.AsyncClient(timeout=30) as http:
        _, headers, call = await _http_handshake_question(http, bridge.url)
        async with call as stream:
            lines = stream.aiter_lines()
            question = await _sse(lines)
            while question.get("method") != "elicitation/create":
                question = await _sse(lines)
            await asyncio.sleep(READS_S)
            await http.post(bridge.url, json={"jsonrpc": "2.0", "id": question["id"], "result": answer}, headers=headers)
            with anyio.fail_after(15):
                result = await _sse(lines)
                while result.get("id") != "call-h":
                    result = await _sse(lines)
        assert result["result"]["structuredContent"]["status"] == "unusable_answer", result
    assert ran(sim) == 0


async def test_an_accept_faster_than_a_person_reads_runs_nothing(stdio: BridgeProcess, sim: ToolkitSim) -> None:
    """In both eras: an accept that comes at once is the client's own (an auto-answering hook), not a person's."""
    called = stdio.expect("call-fast")
    question = await _question(stdio, "call-fast")
    await stdio.send({"jsonrpc": "2.0", "id": question["id"], "result": ACCEPT})
    handshake = (await asyncio.wait_for(called, 15))["result"]["structuredContent"]
    state = (await modern_call(stdio, CODE, ELICITING))["result"]["requestState"]
    modern = (await modern_call(stdio, CODE, inputResponses={"confirm": ACCEPT}, requestState=state))["result"]
    for result in (handshake, modern["structuredContent"]):
        assert result["status"] == "accepted" and result["asked"] == "nobody" and result["done"] is False, result
        assert "GODOT_MCP_ALLOW_UNASKED=execute_code" in result["hint"]
    assert ran(sim) == 0


async def test_a_call_too_large_to_send_is_refused_before_anyone_is_asked(stdio: BridgeProcess, sim: ToolkitSim) -> None:
    """2 MiB of code cannot reach the editor (its buffer takes 1 MiB): refused first, in either era and
    without elicitation, never after a question."""
    big = {**CODE, "code": "x" * (2 * 1024 * 1024)}
    answer = stdio.expect("call-big")
    await stdio.request("initialize", HANDSHAKE)
    await stdio.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    await stdio.send({"jsonrpc": "2.0", "id": "call-big", "method": "tools/call",
                      "params": {"name": ASKING, "arguments": big}})
    handshake = (await asyncio.wait_for(answer, 30))["result"]
    modern = (await modern_call(stdio, big))["result"]
    unable = (await modern_call(stdio, big, {**MODERN_META, "io.modelcontextprotocol/clientCapabilities": {}}))["result"]
    for result in (handshake, modern, unable):
        assert result["isError"] is True and body(result)["code"] == "REQUEST_TOO_LARGE", result
    assert not [n for n in stdio.notifications if n.get("method") == "elicitation/create"], "nobody was asked"
    assert ran(sim) == 0
