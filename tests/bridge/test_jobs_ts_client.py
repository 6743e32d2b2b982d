"""The TypeScript MCP client with ``@modelcontextprotocol/ext-tasks`` (from npm) runs long calls
as MCP tasks through the real bridge, in both task forms (2025-11-25 and the 2026-07-28
extension), over stdio and HTTP, into the simulated editor.

scripts/ts_clients.sh installs the two packages (pinned) into .cache/; without npm or a network
the test skips and says why. The client script is tests/clients/ts_tasks.mjs.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.support.bridge_process import ROOT, bridge_env
from tests.support.http_bridge import HttpBridgeProcess
from tests.sim.server import ToolkitSim

SCRIPT = ROOT / "tests" / "clients" / "ts_tasks.mjs"
RESULT = {"passed": True, "totals": {"tests": 2, "passed": 2, "failed": 0, "errored": 0, "skipped": 0}}
RUN = ({"progress": {"progress": 1, "total": 2, "message": "suite 1 of 2 finished"}}, {"sleep": 0.4},
       {"result": RESULT})


def install_clients() -> Path:
    if shutil.which("npm") is None or shutil.which("node") is None:
        pytest.skip("node/npm are not installed: cannot run the TypeScript MCP client")
    done = subprocess.run([str(ROOT / "scripts" / "ts_clients.sh")], capture_output=True, text=True, timeout=300)
    if done.returncode != 0:
        pytest.skip(f"cannot install the TypeScript MCP client (offline?): {done.stderr.strip()[-500:]}")
    return Path(done.stdout.strip().splitlines()[-1])


async def run_client(folder: Path, options: dict[str, Any]) -> dict[str, Any]:
    # Run from the install folder, so the script's imports resolve there (ESM looks beside the script).
    script = folder / SCRIPT.name
    shutil.copyfile(SCRIPT, script)
    proc = await asyncio.create_subprocess_exec("node", str(script), json.dumps(options), cwd=str(folder),
                                                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    try:
        out, err = await asyncio.wait_for(proc.communicate(), 90)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    assert proc.returncode == 0, err.decode(errors="replace")[-3000:]
    found: dict[str, Any] = json.loads(out.decode().strip().splitlines()[-1])
    assert "error" not in found, found["error"]
    return found


@pytest.mark.parametrize("era", ["v1", "v2"])
@pytest.mark.parametrize("transport", ["stdio", "http"])
async def test_ext_tasks_runs_test_run_as_a_task(transport: str, era: str, data_home: Path, project_dir: Path) -> None:
    folder = install_clients()
    sim = ToolkitSim(data_home, project_dir.resolve(), godot_version="4.5.1", lsp_port=None)
    await sim.start()
    http: HttpBridgeProcess | None = None
    try:
        sim.script("test.run", *RUN, times=2)
        sim.script("test.run", RUN[0], {"wait_cancel": 30})
        env = bridge_env(data_home, project_dir)
        options: dict[str, Any] = {"transport": transport, "era": era, "cancel": True}
        if transport == "http":
            http = await HttpBridgeProcess(env).start()
            options["url"] = http.url
        else:
            options.update(command=sys.executable, args=["-m", "godot_bridge"], env=env, cwd=str(ROOT))
        found = await run_client(folder, options)
        assert found["era"] == ("modern" if era == "v2" else "legacy")
        if era == "v1":
            assert found["taskSupport"] == "optional"
        assert found["taskId"], "the call ran as a task"
        # The task's result is exactly the blocking call's.
        assert found["result"]["content"] == found["blocking"]["content"]
        assert found["result"]["structuredContent"] == found["blocking"]["structuredContent"] == RESULT
        # Cancel mid-run stops the work: the toolkit was told while it ran the test process.
        assert found["cancelledStatus"] == "cancelled", found
        assert "test process was killed" in found["cancelledMessage"]
        runs = sim.requests("test.run")
        assert len(runs) == 3
        cancelled = [r.frame["params"]["request_id"] for r in sim.notifications("_cancel")]
        assert cancelled == [str(runs[2].frame["id"])]
    finally:
        if http is not None:
            await http.close()
        await sim.stop()
