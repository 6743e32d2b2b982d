"""The simulator as its own process (``python -m tests.sim``), as a benchmark or a bridge subprocess uses it."""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from godot_bridge.config import Settings
from godot_bridge.editor.bridge import EditorBridge
from godot_bridge.tools.catalogue import load_catalogue
from tests.sim.fixtures import FAST, registry_file, until

ROOT = Path(__file__).resolve().parents[2]


class SimProcess:
    def __init__(self, proc: asyncio.subprocess.Process, info: dict[str, Any]) -> None:
        self.proc = proc
        self.info = info

    async def control(self, **cmd: Any) -> dict[str, Any]:
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write((json.dumps(cmd) + "\n").encode())
        await self.proc.stdin.drain()
        return json.loads(await asyncio.wait_for(self.proc.stdout.readline(), 5))


async def _spawn(*args: str) -> SimProcess:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.sim", *args,
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, cwd=str(ROOT),
    )
    assert proc.stdout
    line = await asyncio.wait_for(proc.stdout.readline(), 10)
    return SimProcess(proc, json.loads(line))


@pytest.fixture
async def sim_process(tmp_path: Path) -> AsyncIterator[SimProcess]:
    project = tmp_path / "proj"
    project.mkdir()
    sp = await _spawn("--data-home", str(tmp_path / "data"), "--project", str(project.resolve()), "--godot-version", "4.5.0")
    try:
        yield sp
    finally:
        if sp.proc.returncode is None:
            sp.proc.terminate()
        await asyncio.wait_for(sp.proc.wait(), 10)


async def test_startup_line_describes_the_registry(sim_process: SimProcess, tmp_path: Path):
    info = sim_process.info
    assert set(info) == {"port", "token", "token_path", "registry_path", "data_home", "project", "key", "pid"}
    assert info["registry_path"] == str(registry_file(tmp_path / "data"))
    entry = json.loads(Path(info["registry_path"]).read_text())["by_path"][info["key"]]
    assert entry["port"] == info["port"] and entry["token_path"] == info["token_path"]
    assert entry["godot_version"] == "4.5.0" and entry["pid"] == info["pid"]
    assert Path(info["token_path"]).read_text() == info["token"]


async def test_a_bridge_drives_the_process_and_it_reports_what_it_got(sim_process: SimProcess, tmp_path: Path):
    info = sim_process.info
    settings = Settings(project_path=Path(info["project"]), env={"XDG_DATA_HOME": info["data_home"]})
    bridge = EditorBridge(settings, catalogue=load_catalogue(), timing=FAST)
    tools = load_catalogue().tools
    try:
        await bridge.start()
        assert bridge.godot_version == (4, 5)
        scripted = await sim_process.control(
            cmd="script", method="scene.create", steps=[{"queued": True}, {"result": {"success": True, "status": "created"}}]
        )
        assert scripted == {"ok": True}
        out = await bridge.forward(tools["scene_create"], {"file_path": "res://a.tscn", "root_type": "Node2D"})
        assert out.structured == {"status": "created", "success": True, "hint": tools["scene_create"].success_hint}
        received = (await sim_process.control(cmd="received"))["received"]
        assert {"jsonrpc": "2.0", "id": received[-1]["id"], "method": "scene.create",
                "params": {"file_path": "res://a.tscn", "root_type": "Node2D"}} == received[-1]

        moved = await sim_process.control(cmd="restart")
        assert moved["ok"] and moved["port"] != info["port"]
        out = await bridge.forward(tools["scene_get_tree"], {"max_depth": 3})
        assert not out.is_error and "tree" in out.structured  # answered from the toolkit's examples
        assert bridge.editor_port == moved["port"]

        game = await sim_process.control(cmd="start_game")
        out = await bridge.forward(tools["runtime_get_node_state"], {"node_path": "/root"})
        assert not out.is_error and bridge.runtime_port == game["runtime_port"]
    finally:
        await bridge.aclose()
    assert await sim_process.control(cmd="stop") == {"ok": True}
    assert await asyncio.wait_for(sim_process.proc.wait(), 10) == 0


async def test_instant_mode_and_sigterm(tmp_path: Path):
    sp = await _spawn("--data-home", str(tmp_path / "d"), "--instant", "--project", str(tmp_path / "p"))
    try:
        settings = Settings(project_path=Path(sp.info["project"]), env={"XDG_DATA_HOME": sp.info["data_home"]})
        bridge = EditorBridge(settings, catalogue=load_catalogue(), timing=FAST)
        try:
            outs = await asyncio.gather(*(bridge.call("node.get_property", {"i": i}) for i in range(200)))
            assert [o["params"]["i"] for o in outs] == list(range(200))
        finally:
            await bridge.aclose()
        assert (await sp.control(cmd="received"))["received"] == []  # instant mode records nothing
    finally:
        sp.proc.terminate()
        assert await asyncio.wait_for(sp.proc.wait(), 10) == 0


async def test_bad_control_lines_do_not_kill_it(sim_process: SimProcess):
    assert (await sim_process.control(cmd="nope"))["ok"] is False
    assert sim_process.proc.stdin
    sim_process.proc.stdin.write(b"not json\n")
    await sim_process.proc.stdin.drain()
    assert sim_process.proc.stdout
    reply = json.loads(await asyncio.wait_for(sim_process.proc.stdout.readline(), 5))
    assert reply["ok"] is False and "JSONDecodeError" in reply["error"]
    assert (await sim_process.control(cmd="push", message={"notification": "game_stopped"})) == {"ok": True}


async def test_control_pushes_errors_on_either_channel_and_crashes_the_game(sim_process: SimProcess):
    info = sim_process.info
    settings = Settings(project_path=Path(info["project"]), env={"XDG_DATA_HOME": info["data_home"]})
    bridge = EditorBridge(settings, catalogue=load_catalogue(), timing=FAST)
    entry = {"id": 1, "severity": "error", "message": "boom", "file": "", "line": 0, "function": "", "stack": [],
             "count": 1, "time_ms": 5}
    try:
        await bridge.start()
        await bridge.call("echo", {})
        refused = await sim_process.control(cmd="notify", name="errors.reported", channel="runtime", params={})
        assert refused["ok"] is False and "no game is running" in refused["error"]
        assert (await sim_process.control(cmd="notify", name="errors.reported",
                                          params={"source": "editor", "entries": [entry]})) == {"ok": True}
        await until(lambda: len(bridge.errors.entries()) == 1)
        await sim_process.control(cmd="start_game")
        await until(lambda: bridge.runtime_port is not None)  # opened on the registry's word alone
        await sim_process.control(cmd="push", channel="runtime", message={
            "notification": "errors.reported", "params": {"source": "game", "entries": [entry]}})
        await until(lambda: len(bridge.errors.entries()) == 2)
        await sim_process.control(cmd="crash_game", exit_code=6, last_lines=["ERROR: out of memory"])
        await until(lambda: len(bridge.errors.entries()) == 3)
        assert bridge.errors.entries()[-1].message == "game crashed (exit code 6): ERROR: out of memory"
        await until(lambda: bridge.runtime_port is None)
    finally:
        await bridge.aclose()
