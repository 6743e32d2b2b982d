"""test_run as an MCP task against the real toolkit in the Godot engine, end to end.

The engine's project gets GUT's entry script and a suite (as a project with GUT installed has
them); the toolkit plans the run, starts one test process per suite through its context (the
engine host's process table stands in for the headless Godot it would start: it runs for some
frames and writes a GUT JUnit report) and reports counted progress. As a 2025-11-25 task the run
answers at once, its result is exactly what the blocking call answers, and a cancel mid-run has
the toolkit kill the process.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest
import pytest_asyncio

from tests.support.bridge_process import BridgeProcess
from tests.engine.e2e.engine_host import EngineHost

pytestmark = pytest.mark.asyncio(loop_scope="session")

REPORT = (Path(__file__).resolve().parents[2] / "fixtures" / "testing" / "gut_junit.xml").read_text(encoding="utf-8")
SUITE = "res://test/test_e2e_job.gd"
GUT_FILES = {
    "res://addons/gut/gut_cmdln.gd": b"extends SceneTree\n",
    "res://addons/gut/plugin.cfg": b'[plugin]\nname="Gut"\nversion="9.3.0"\nscript="gut_plugin.gd"\n',
    SUITE: b"extends GutTest\n\nfunc test_adds():\n\tassert_eq(1 + 1, 2)\n",
}
# What changes from one run to the next of the same tests: how long it took.
TIMING = ("elapsed_ms", "duration_s")


@pytest_asyncio.fixture(loop_scope="session")
async def gut_project(engine_host: EngineHost, stdio: BridgeProcess) -> AsyncIterator[None]:
    """The engine's project with GUT and one suite, removed again afterwards (the other tests know
    the project without a framework)."""
    for path, data in GUT_FILES.items():
        await engine_host.write_file(path, data)
    await stdio.call_tool("discover_tools", {"request": "testing"})
    try:
        yield
    finally:
        for path in GUT_FILES:
            await engine_host.remove_file(path)
        await engine_host.process_plan(0)


def untimed(value: object) -> object:
    if isinstance(value, dict):
        return {k: untimed(v) for k, v in value.items() if k not in TIMING}
    if isinstance(value, list):
        return [untimed(v) for v in value]
    return value


async def test_test_run_as_a_task_answers_what_the_blocking_call_answers(
        engine_host: EngineHost, stdio: BridgeProcess, gut_project: None) -> None:
    await engine_host.process_plan(30, exit_code=1, report=REPORT)
    blocking = (await stdio.request("tools/call", {"name": "test_run", "arguments": {"include_passed": True}},
                                    timeout=60))["result"]
    assert not blocking["isError"], blocking
    assert blocking["structuredContent"]["totals"]["tests"] == 5  # the report the process wrote was read

    created = await stdio.request("tools/call", {"name": "test_run", "arguments": {"include_passed": True},
                                                 "task": {"ttl": 120_000}, "_meta": {"progressToken": "e2e-task"}})
    task = created["result"]["task"]
    assert task["status"] == "working"
    result = (await stdio.request("tasks/result", {"taskId": task["taskId"]}, timeout=60))["result"]
    assert result["_meta"] == {"io.modelcontextprotocol/related-task": {"taskId": task["taskId"]}}
    assert result["isError"] is False
    assert untimed(result["structuredContent"]) == untimed(blocking["structuredContent"])
    # The toolkit's counted progress reached the client on the call's token while the task ran.
    counted = [n["params"] for n in stdio.notifications if n.get("method") == "notifications/progress"
               and n["params"].get("progressToken") == "e2e-task" and SUITE in n["params"].get("message", "")]
    assert counted, "the suite's progress was reported on the task's token"
    assert (await stdio.request("tasks/get", {"taskId": task["taskId"]}))["result"]["status"] == "completed"


async def test_cancelling_the_task_kills_the_test_process(engine_host: EngineHost, stdio: BridgeProcess,
                                                          gut_project: None) -> None:
    await engine_host.process_plan(-1)  # runs until killed
    started_before, killed_before = await engine_host.processes()
    created = await stdio.request("tools/call", {"name": "test_run", "arguments": {}, "task": {}})
    task_id = created["result"]["task"]["taskId"]

    async def running() -> bool:
        return (await engine_host.processes())[0] == started_before + 1

    await until_async(running)
    cancelled = (await stdio.request("tasks/cancel", {"taskId": task_id}, timeout=30))["result"]
    assert cancelled["status"] == "cancelled" and "test process was killed" in cancelled["statusMessage"]

    async def killed() -> bool:
        started, killed = await engine_host.processes()
        return started == started_before + 1 and len(killed) == len(killed_before) + 1

    await until_async(killed)  # the toolkit killed the process it had started (and no other)
    status = [n["params"] for n in stdio.notifications if n.get("method") == "notifications/tasks/status"
              and n["params"]["taskId"] == task_id]
    assert status and status[-1]["status"] == "cancelled"
    # The editor is free again: a plain call is answered at once.
    listed = await stdio.call_tool("test_list", {}, timeout=30)
    assert SUITE in json.dumps(listed["structuredContent"])


async def until_async(check: Callable[[], Awaitable[bool]], timeout: float = 30.0) -> None:
    """Poll an asynchronous condition (the engine's process table) until it holds."""
    async with asyncio.timeout(timeout):
        while not await check():
            await asyncio.sleep(0.05)
