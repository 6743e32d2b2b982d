"""Long calls in the background through the real bridge process into the simulated editor.

Real clients: the Python SDK client without tasks (a handshake-era host such as Claude Code)
through ``background: true`` + ``job_status``; the Python SDK client with the tasks extension
(2026-07-28) calling ``tasks/*`` itself, over stdio and HTTP; raw JSON lines for the 2025-11-25
task methods the Python SDK deliberately leaves out. The simulator's ``test.run`` reports counted
progress and takes its time, or waits for the bridge's ``_cancel`` (what the toolkit answers by
killing the test process), so cancel, end of input and session ends are seen to stop the work.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from mcp.shared.exceptions import MCPError

from tests.support.bridge_process import BridgeProcess, body, bridge_env
from tests.support.http_bridge import HttpBridgeProcess, sse_messages
from tests.bridge.test_mcp_resources_prompts import params
from tests.sim.fixtures import process_sim as game_sim  # noqa: F401 - a fixture
from tests.sim.server import ToolkitSim
from tests.support.sdk_client import sdk_client
from tests.support.tasks_client import TASKS, TasksExtension, request

RESULT = {"passed": True, "totals": {"tests": 3, "passed": 3, "failed": 0, "errored": 0, "skipped": 0}}
RUN_PROGRESS = {"progress": {"progress": 1, "total": 2, "message": "res://test/test_a.gd: 2 passed"}}
SLOW_RUN = (RUN_PROGRESS, {"sleep": 0.6},
            {"progress": {"progress": 2, "total": 2, "message": "res://test/test_b.gd: 1 passed"}},
            {"result": RESULT})
HANDSHAKE = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}
TASK_META = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
             "io.modelcontextprotocol/clientCapabilities": {"extensions": {TASKS: {}}}}


def payload(result: Any) -> dict[str, Any]:
    return json.loads(result.content[0].text)


def cancels(sim: ToolkitSim) -> list[dict[str, Any]]:
    return [r.frame for r in sim.notifications("_cancel")]


async def until(check: Any, timeout: float = 15.0) -> None:
    with anyio.fail_after(timeout):
        while not check():
            await anyio.sleep(0.02)


async def test_a_client_without_tasks_runs_test_run_in_the_background(game_sim: ToolkitSim, data_home: Path,
                                                                      project_dir: Path) -> None:
    game_sim.script("test.run", *SLOW_RUN, times=None)
    with anyio.fail_after(60):
        async with sdk_client(params(data_home, project_dir), mode="legacy", cache=None) as client:
            await client.call_tool("discover_tools", {"request": "testing"})
            blocking = await client.call_tool("test_run", {"suite_path": "res://test/test_a.gd"})
            started = payload(await client.call_tool("test_run", {"suite_path": "res://test/test_a.gd",
                                                                  "background": True}))
            assert started["status"] == "working" and started["tool"] == "test_run"
            listed_tools = [tool.name for tool in (await client.list_tools()).tools]
            assert "job_status" in listed_tools, "the answer names job_status: its group joins the client's list"
            job_id = started["job_id"]
            early = payload(await client.call_tool("job_status", {"job_id": job_id}))
            assert early["status"] == "working" and "job_status" in early["hint"]
            listed = json.loads((await client.read_resource("godot://jobs")).contents[0].text)
            assert [job["job_id"] for job in listed["jobs"]] == [job_id]
            final = await client.call_tool("job_status", {"job_id": job_id, "wait_s": 20})
            # The background call's result is exactly the blocking call's.
            assert final.content == blocking.content and final.structured_content == blocking.structured_content
            assert final.is_error is False
    # The toolkit saw the same call twice, without the bridge's own argument.
    assert [r.params for r in game_sim.requests("test.run")] == [{"suite_path": "res://test/test_a.gd"}] * 2


async def test_job_cancel_stops_the_run_and_says_what_had_taken_effect(game_sim: ToolkitSim, data_home: Path,
                                                                      project_dir: Path) -> None:
    game_sim.script("test.run", {"progress": {"progress": 1, "total": 3, "message": "res://test/test_a.gd: 2 passed"}},
                    {"wait_cancel": 30})
    with anyio.fail_after(60):
        async with sdk_client(params(data_home, project_dir), mode="legacy", cache=None) as client:
            await client.call_tool("discover_tools", {"request": "testing"})
            job_id = payload(await client.call_tool("test_run", {"background": True}))["job_id"]
            await until(lambda: game_sim.requests("test.run"))
            # The progress has reached the bridge before the cancel.
            with anyio.fail_after(10):
                while "message" not in payload(await client.call_tool("job_status", {"job_id": job_id})):
                    await anyio.sleep(0.05)
            cancelled = payload(await client.call_tool("job_cancel", {"job_id": job_id}))
            assert cancelled["status"] == "cancelled"
            assert "test process was killed" in cancelled["message"]
            assert "res://test/test_a.gd: 2 passed" in cancelled["message"]
            again = await client.call_tool("job_cancel", {"job_id": job_id})
            assert again.is_error and payload(again)["code"] == "JOB_FINISHED"
            await until(lambda: cancels(game_sim))
    run = game_sim.requests("test.run")[0]
    assert [c["params"]["request_id"] for c in cancels(game_sim)] == [str(run.frame["id"])]


@pytest.mark.parametrize("transport", ["stdio", "http"])
async def test_the_python_sdk_client_with_the_tasks_extension(transport: str, game_sim: ToolkitSim,
                                                              data_home: Path, project_dir: Path) -> None:
    game_sim.script("test.run", *SLOW_RUN, times=None)
    env = bridge_env(data_home, project_dir)
    http = HttpBridgeProcess(env) if transport == "http" else None
    if http is not None:
        await http.start()
    target: Any = http.url if http is not None else params(data_home, project_dir)
    tasks = TasksExtension()
    try:
        with anyio.fail_after(60):
            async with sdk_client(target, mode="2026-07-28", cache=None, extensions=[tasks]) as client, \
                    sdk_client(target, mode="2026-07-28", cache=None) as plain:
                await client.call_tool("discover_tools", {"request": "testing"})
                await plain.call_tool("discover_tools", {"request": "testing"})
                blocking = await plain.call_tool("test_run", {})
                assert not tasks.created
                result = await client.call_tool("test_run", {})  # a task: its result comes through tasks/get
                (created,) = tasks.created
                assert created.status == "working" and created.ttl_ms == 3_600_000 and tasks.polls >= 2
                assert result.content == blocking.content and result.structured_content == blocking.structured_content
                task = await request(client.session, "tasks/get", {"taskId": created.task_id})
                assert task["status"] == "completed" and task["result"]["isError"] is False
                assert "io.modelcontextprotocol/related-task" not in (task["result"].get("_meta") or {})
                assert await request(client.session, "tasks/cancel", {"taskId": created.task_id}) == \
                    {"resultType": "complete", "_meta": task["_meta"]}  # a finished task: acknowledged
                for removed in ("tasks/result", "tasks/list"):
                    with pytest.raises(MCPError) as gone:
                        await request(client.session, removed, {"taskId": created.task_id})
                    assert gone.value.code == -32601
                # A request that does not declare the extension may not touch tasks.
                with pytest.raises(MCPError) as undeclared:
                    await request(plain.session, "tasks/get", {"taskId": created.task_id})
                assert undeclared.value.code == -32021
                assert undeclared.value.data == {"requiredCapabilities": {"extensions": {TASKS: {}}}}
    finally:
        if http is not None:
            await http.close()


async def test_handshake_tasks_over_stdio(game_sim: ToolkitSim, data_home: Path, project_dir: Path) -> None:
    """2025-11-25 tasks as raw lines: created at once, progress on the call's token after the answer,
    tasks/get, tasks/list, tasks/result (the call's exact result), status notifications, cancel."""
    game_sim.script("test.run", *SLOW_RUN, times=2)
    game_sim.script("test.run", {"wait_cancel": 30})
    async with BridgeProcess(bridge_env(data_home, project_dir)) as bridge:
        await bridge.request("initialize", HANDSHAKE)
        await bridge.call_tool("discover_tools", {"request": "testing"})
        blocking = (await bridge.request("tools/call", {"name": "test_run", "arguments": {}}, timeout=30))["result"]
        created = await bridge.request("tools/call", {"name": "test_run", "arguments": {}, "task": {"ttl": 60_000},
                                                      "_meta": {"progressToken": "tok"}})
        task = created["result"]["task"]
        assert task["status"] == "working" and task["ttl"] == 60_000 and task["pollInterval"] > 0
        listed = (await bridge.request("tasks/list", {}))["result"]["tasks"]
        assert [t["taskId"] for t in listed] == [task["taskId"]]
        result = (await bridge.request("tasks/result", {"taskId": task["taskId"]}, timeout=30))["result"]
        assert result["_meta"] == {"io.modelcontextprotocol/related-task": {"taskId": task["taskId"]}}
        assert {k: v for k, v in result.items() if k != "_meta"} == blocking
        progress = [n["params"] for n in bridge.notifications if n.get("method") == "notifications/progress"
                    and n["params"]["progressToken"] == "tok"]
        assert [p.get("message") for p in progress if p.get("message", "").startswith("res://")] == [
            "res://test/test_a.gd: 2 passed", "res://test/test_b.gd: 1 passed"]
        assert all(p["_meta"] == {"io.modelcontextprotocol/related-task": {"taskId": task["taskId"]}} for p in progress)
        statuses = [n["params"] for n in bridge.notifications if n.get("method") == "notifications/tasks/status"]
        assert statuses[-1]["taskId"] == task["taskId"] and statuses[-1]["status"] == "completed"
        got = (await bridge.request("tasks/get", {"taskId": task["taskId"]}))["result"]
        assert got["status"] == "completed"

        # Cancel mid-run: the toolkit is told (it kills the test process) before tasks/cancel answers.
        running = (await bridge.request("tools/call", {"name": "test_run", "arguments": {}, "task": {}}))
        running_id = running["result"]["task"]["taskId"]
        await until(lambda: len(game_sim.requests("test.run")) == 3)
        cancelled = (await bridge.request("tasks/cancel", {"taskId": running_id}))["result"]
        assert cancelled["status"] == "cancelled" and "test process was killed" in cancelled["statusMessage"]
        await until(lambda: cancels(game_sim))
        assert [c["params"]["request_id"] for c in cancels(game_sim)] == [str(game_sim.requests("test.run")[2].frame["id"])]
        again = await bridge.request("tasks/cancel", {"taskId": running_id})
        assert again["error"]["code"] == -32602
        # A tool that never runs as a task says so.
        refused = await bridge.request("tools/call", {"name": "scene_get_tree", "arguments": {}, "task": {}})
        assert refused["error"]["code"] == -32601 and "taskSupport" in refused["error"]["message"]


async def test_end_of_input_ends_the_connections_jobs(game_sim: ToolkitSim, data_home: Path,
                                                      project_dir: Path) -> None:
    game_sim.script("test.run", {"wait_cancel": 30})
    bridge = BridgeProcess(bridge_env(data_home, project_dir))
    await bridge.start()
    try:
        await bridge.request("initialize", HANDSHAKE)
        await bridge.call_tool("discover_tools", {"request": "testing"})
        started = await bridge.call_tool("test_run", {"background": True})
        assert json.loads(started["content"][0]["text"])["status"] == "working"
        await until(lambda: game_sim.requests("test.run"))
        assert bridge.proc is not None and bridge.proc.stdin is not None
        bridge.proc.stdin.close()
        await until(lambda: cancels(game_sim))  # the job ended with its connection: the run is stopped
        assert await asyncio.wait_for(bridge.proc.wait(), 20) == 0
    finally:
        await bridge.close()


async def test_http_tasks_belong_to_their_session_and_end_with_it(game_sim: ToolkitSim, data_home: Path,
                                                                  project_dir: Path) -> None:
    game_sim.script("test.run", {"wait_cancel": 30})
    async with HttpBridgeProcess(bridge_env(data_home, project_dir)) as bridge, httpx2.AsyncClient() as http:
        headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}

        async def post(body: dict[str, Any], session: str | None = None) -> tuple[httpx2.Response, dict[str, Any]]:
            extra = {"Mcp-Session-Id": session} if session else {}
            response = await http.post(bridge.url, json=body, headers={**headers, **extra}, timeout=30)
            text = response.text
            messages = sse_messages(text) if text.startswith("event:") or "\ndata:" in text else [json.loads(text)]
            return response, next(m for m in messages if "id" in m)

        sessions = []
        for _ in range(2):
            response, _ = await post({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": HANDSHAKE})
            sessions.append(response.headers["mcp-session-id"])
        mine, theirs = sessions
        await post({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                    "params": {"name": "discover_tools", "arguments": {"request": "testing"}}}, mine)
        _, created = await post({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
                                 "params": {"name": "test_run", "arguments": {}, "task": {}}}, mine)
        task_id = created["result"]["task"]["taskId"]
        _, got = await post({"jsonrpc": "2.0", "id": 4, "method": "tasks/get", "params": {"taskId": task_id}}, mine)
        assert got["result"]["status"] == "working"
        # Another client's task id is answered as an unknown one.
        _, refused = await post({"jsonrpc": "2.0", "id": 5, "method": "tasks/get", "params": {"taskId": task_id}},
                                theirs)
        _, unknown = await post({"jsonrpc": "2.0", "id": 6, "method": "tasks/get", "params": {"taskId": "nope"}},
                                theirs)
        assert refused["error"]["code"] == unknown["error"]["code"] == -32602
        assert refused["error"]["message"].replace(task_id, "X") == unknown["error"]["message"].replace("nope", "X")
        _, theirs_list = await post({"jsonrpc": "2.0", "id": 7, "method": "tasks/list", "params": {}}, theirs)
        assert theirs_list["result"]["tasks"] == []
        await until(lambda: game_sim.requests("test.run"))
        assert not cancels(game_sim)
        # The session ends (DELETE): its task's work is stopped.
        assert (await http.delete(bridge.url, headers={"Mcp-Session-Id": mine})).status_code == 200
        await until(lambda: cancels(game_sim))

        # 2026-07-28 over HTTP: the task id rides in Mcp-Name, and must.
        meta_headers = {**headers, "MCP-Protocol-Version": "2026-07-28"}
        call = {"jsonrpc": "2.0", "id": 8, "method": "tasks/get", "params": {"taskId": task_id, "_meta": TASK_META}}
        missing = await http.post(bridge.url, json=call, headers={**meta_headers, "Mcp-Method": "tasks/get"})
        assert missing.status_code == 400 and missing.json()["error"]["code"] == -32020
        named = await http.post(bridge.url, json=call, headers={**meta_headers, "Mcp-Method": "tasks/get",
                                                                "Mcp-Name": task_id})
        assert named.json()["error"]["code"] == -32602  # the ended session's task is gone, and never was this client's


async def test_modern_task_status_rides_a_listen_stream_filtered_by_task_id(game_sim: ToolkitSim, data_home: Path,
                                                                           project_dir: Path) -> None:
    game_sim.script("test.run", *SLOW_RUN)
    async with BridgeProcess(bridge_env(data_home, project_dir)) as bridge:
        await bridge.call_tool("discover_tools", {"request": "testing"})
        created = (await bridge.request("tools/call", {"name": "test_run", "arguments": {},
                                                       "_meta": TASK_META}))["result"]
        assert created["resultType"] == "task" and created["status"] == "working" and created["ttlMs"] == 3_600_000
        assert not {"result", "error", "inputRequests", "requestState"} & set(created)
        task_id = created["taskId"]
        # Without the extension declared, task notifications are refused.
        undeclared = await bridge.request("subscriptions/listen", {"notifications": {"taskIds": [task_id]}},
                                          modern=True)
        assert undeclared["error"]["code"] == -32021
        await bridge.send({"jsonrpc": "2.0", "id": "listen", "method": "subscriptions/listen", "params": {
            "notifications": {"taskIds": [task_id, "someone-elses"]}, "_meta": TASK_META}})
        ack = await bridge.wait_notification("notifications/subscriptions/acknowledged")
        assert ack["params"]["notifications"]["taskIds"] == [task_id]  # only this client's tasks
        with anyio.fail_after(20):
            while not any(n.get("method") == "notifications/tasks" and n["params"]["status"] == "completed"
                          for n in bridge.notifications):
                await anyio.sleep(0.02)
        note = next(n["params"] for n in bridge.notifications if n.get("method") == "notifications/tasks"
                    and n["params"]["status"] == "completed")
        assert note["taskId"] == task_id and note["result"]["structuredContent"] == RESULT
        assert note["_meta"] == {"io.modelcontextprotocol/subscriptionId": "listen"}
        got = (await bridge.request("tasks/get", {"taskId": task_id, "_meta": TASK_META}))["result"]
        assert {k: v for k, v in got.items() if k not in ("_meta", "resultType")} == \
            {k: v for k, v in note.items() if k != "_meta"}


async def test_a_task_whose_editor_disconnects_fails_and_says_to_check(game_sim: ToolkitSim, data_home: Path,
                                                                      project_dir: Path) -> None:
    game_sim.script("test.run", RUN_PROGRESS, {"abort": True})
    async with BridgeProcess(bridge_env(data_home, project_dir)) as bridge:
        await bridge.request("initialize", HANDSHAKE)
        await bridge.call_tool("discover_tools", {"request": "testing"})
        task_id = (await bridge.request("tools/call", {"name": "test_run", "arguments": {}, "task": {}}))[
            "result"]["task"]["taskId"]
        with anyio.fail_after(30):
            while (task := (await bridge.request("tasks/get", {"taskId": task_id}))["result"])["status"] == "working":
                await anyio.sleep(0.05)
        assert task["status"] == "failed"
        assert "may have applied" in task["statusMessage"] and "undo" in task["statusMessage"]
        # tasks/result still answers what the blocking call would have: the disconnect.
        result = (await bridge.request("tasks/result", {"taskId": task_id}))["result"]
        assert result["isError"] is True and body(result)["code"] == "DISCONNECTED"
