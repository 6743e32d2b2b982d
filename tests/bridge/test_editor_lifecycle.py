"""editor_launch / editor_restart end to end with a fake Godot executable (tests/support/fake_godot.py).

The fake starts the toolkit simulator as its own process, so launch -> registry entry ->
auth -> ready is the real path. Every process a test causes is listed in $FAKE_GODOT_LOG and
killed at teardown.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import stat
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from godot_bridge.editor.autolaunch import AutoLaunch
from godot_bridge.editor.bridge import EditorBridge
from godot_bridge.editor.lifecycle import EditorLifecycle, LifecycleTiming
from godot_bridge.editor.registry import is_pid_alive
from tests.support.fake_godot import write_fake_godot
from tests.sim.fixtures import BridgeFactory, tool
from tests.sim.server import SimRegistry, canonical_key

pytestmark = pytest.mark.skipif(sys.platform.startswith("win"), reason="the fake Godot is a POSIX script")

TIMING = LifecycleTiming(save_timeout=1.5, stop_grace=1.5, poll=0.05, probe_timeout=1.0)


@pytest.fixture
def godot_project(project: Path) -> Path:
    (project / "project.godot").write_text("config_version=5\n", encoding="utf-8")
    return project


@pytest.fixture
def fake_log(tmp_path: Path, data_home: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The fake's start log; the launched editor inherits this environment (registry under data_home)."""
    log = tmp_path / "fake_godot.jsonl"
    monkeypatch.setenv("XDG_DATA_HOME", str(data_home))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))  # the launched editors' logs: ours, not the machine's
    monkeypatch.setenv("FAKE_GODOT_LOG", str(log))
    for name in ("FAKE_GODOT_MODE", "FAKE_GODOT_FROZEN_ONCE", "FAKE_GODOT_IGNORE_TERM"):
        monkeypatch.delenv(name, raising=False)
    try:
        yield log
    finally:
        for start in starts(log):
            if is_pid_alive(start["pid"]):
                os.kill(start["pid"], signal.SIGKILL)
        deadline = time.monotonic() + 5
        while any(is_pid_alive(s["pid"]) for s in starts(log)) and time.monotonic() < deadline:
            time.sleep(0.02)


def starts(log: Path) -> list[dict[str, Any]]:
    if not log.exists():
        return []
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines() if line.strip()]


@pytest.fixture
def fake_godot(tmp_path: Path, fake_log: Path) -> Path:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    return write_fake_godot(bin_dir)


class Progress:
    def __init__(self) -> None:
        self.messages: list[str] = []
        self.values: list[float] = []

    async def __call__(self, done: float, total: float | None, message: str | None) -> None:
        assert total is not None and 0 <= done <= total
        assert not self.values or done > self.values[-1], "MCP progress must increase"
        self.values.append(done)
        self.messages.append(message or "")


async def lifecycle(make_bridge: BridgeFactory, autolaunch: str = "off", **env: str) -> tuple[EditorLifecycle, EditorBridge]:
    bridge = await make_bridge(env=env, autolaunch=autolaunch)
    life = EditorLifecycle(bridge, TIMING)
    # As the composition root (app.py) wires it.
    bridge.autolaunch = AutoLaunch(lambda: bridge.settings.autolaunch, life.launch, timeout=30)
    return life, bridge


def payload(outcome: Any) -> dict[str, Any]:
    return outcome.structured


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# -- editor_launch -----------------------------------------------------------------------------------


async def test_launch_starts_the_editor_and_waits_until_ready(
    make_bridge: BridgeFactory, fake_godot: Path, fake_log: Path, godot_project: Path, tmp_path: Path
) -> None:
    life, bridge = await lifecycle(make_bridge, GODOT_BIN=str(fake_godot))
    progress = Progress()
    outcome = await life.launch_tool({"timeout_s": 30}, progress)
    result = payload(outcome)
    assert not outcome.is_error, result
    assert result["status"] == "launched" and result["godot_from"] == "GODOT_BIN"
    [start] = starts(fake_log)
    assert start["argv"][1:] == ["--editor", "--path", str(godot_project)]
    assert result["pid"] == start["pid"] and is_pid_alive(start["pid"])
    log_file = Path(result["log"])
    # In the user's own log folder, not at a predictable name in the shared temp folder.
    assert log_file.parent == tmp_path / "state" / "godot-bridge" / "log", log_file
    if os.name == "posix":  # the editor's output is the user's alone
        assert stat.S_IMODE(log_file.stat().st_mode) == 0o600
        assert stat.S_IMODE(log_file.parent.stat().st_mode) == 0o700
    assert any("started" in m for m in progress.messages) and progress.messages[-1].startswith("editor ready on port")
    assert progress.values[-1] == 2.0
    # Ready means usable: the bridge's own link talks to the launched editor.
    assert (await bridge.call("echo", {"n": 1}))["echo"] == {"n": 1}  # the editor serves echo, not ping
    assert bridge.editor_port == result["port"]
    again = payload(await life.launch_tool({}, None))
    assert again["status"] == "already_running" and again["pid"] == start["pid"]
    assert len(starts(fake_log)) == 1, "a running editor is not launched twice"


async def test_launch_uses_the_published_godot_path(
    make_bridge: BridgeFactory, fake_godot: Path, fake_log: Path, godot_project: Path, data_home: Path
) -> None:
    # What an editor that has exited leaves behind: its entry, with the path it ran from.
    key = canonical_key(godot_project)
    SimRegistry(data_home).update(key, port=free_port(), pid=None, token_path="", godot_path=str(fake_godot))
    life, _bridge = await lifecycle(make_bridge)
    result = payload(await life.launch_tool({"timeout_s": 30}, None))
    assert result["status"] == "launched" and result["godot_from"] == "the registry (godot_path)", result
    assert result["godot"] == str(fake_godot)


async def test_launch_without_any_godot_path_says_how_to_set_one(
    make_bridge: BridgeFactory, fake_log: Path, godot_project: Path
) -> None:
    outcome = await (await lifecycle(make_bridge))[0].launch_tool({}, None)
    result = payload(outcome)
    assert outcome.is_error and result["code"] == "GODOT_NOT_FOUND"
    assert "GODOT_BIN is not set" in result["error"] and "GODOT_BIN" in result["hint"]
    assert starts(fake_log) == []


async def test_launch_with_a_broken_binary(
    make_bridge: BridgeFactory, fake_log: Path, godot_project: Path, tmp_path: Path
) -> None:
    missing = tmp_path / "nope" / "godot"
    result = payload(await (await lifecycle(make_bridge, GODOT_BIN=str(missing)))[0].launch_tool({}, None))
    assert result["code"] == "GODOT_NOT_FOUND" and "does not exist" in result["error"]
    plain = tmp_path / "godot.txt"
    plain.write_text("not a program", encoding="utf-8")
    result = payload(await (await lifecycle(make_bridge, GODOT_BIN=str(plain)))[0].launch_tool({}, None))
    assert result["code"] == "GODOT_NOT_FOUND" and "not executable" in result["error"]
    result = payload(await (await lifecycle(make_bridge, GODOT_BIN="no-such-godot-xyz"))[0].launch_tool({}, None))
    assert result["code"] == "GODOT_NOT_FOUND" and "not on PATH" in result["error"]


async def test_launch_reports_godot_exiting_early(
    make_bridge: BridgeFactory, fake_godot: Path, fake_log: Path, godot_project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FAKE_GODOT_MODE", "exit")
    result = payload(await (await lifecycle(make_bridge, GODOT_BIN=str(fake_godot)))[0].launch_tool({"timeout_s": 30}, None))
    assert result["code"] == "LAUNCH_FAILED" and "exited with code 3" in result["error"]
    assert "cannot open the project" in result["error"]  # its own output, from the log file


async def test_launch_timeout_names_what_was_seen_last(
    make_bridge: BridgeFactory, fake_godot: Path, fake_log: Path, godot_project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FAKE_GODOT_MODE", "no_plugin")
    result = payload(await (await lifecycle(make_bridge, GODOT_BIN=str(fake_godot)))[0].launch_tool({"timeout_s": 1}, None))
    assert result["code"] == "TIMEOUT"
    assert "not ready within 1 s; last seen: no registry entry for the project yet" in result["error"]
    [start] = starts(fake_log)
    assert f"pid {start['pid']} is left running" in result["error"]


async def test_launch_refuses_a_project_without_project_godot(
    make_bridge: BridgeFactory, fake_godot: Path, fake_log: Path, project: Path
) -> None:
    result = payload(await (await lifecycle(make_bridge, GODOT_BIN=str(fake_godot)))[0].launch_tool({}, None))
    assert result["code"] == "LAUNCH_FAILED" and "no project.godot" in result["error"]
    assert starts(fake_log) == []


async def test_headless_launch(make_bridge: BridgeFactory, fake_godot: Path, fake_log: Path, godot_project: Path) -> None:
    life, bridge = await lifecycle(make_bridge, GODOT_BIN=str(fake_godot))
    progress = Progress()
    result = payload(await life.launch_tool({"timeout_s": 30, "headless": True}, progress))
    assert result["status"] == "launched" and result["headless"] is True, result
    [start] = starts(fake_log)
    assert start["argv"][1:] == ["--headless", "--editor", "--path", str(godot_project)]
    assert result["command"] == [str(fake_godot), "--headless", "--editor", "--path", str(godot_project)]
    assert any("without a window (--headless)" in m for m in progress.messages)
    assert (await bridge.call("echo", {"n": 1}))["echo"] == {"n": 1}
    assert bridge.headless is True, "the toolkit's handshake says it runs headless"
    again = payload(await life.launch_tool({"headless": True}, None))
    assert again["status"] == "already_running" and again["headless"] is True


# -- editor_restart ----------------------------------------------------------------------------------


async def test_restart_saves_stops_and_relaunches(
    make_bridge: BridgeFactory, fake_godot: Path, fake_log: Path, godot_project: Path
) -> None:
    life, bridge = await lifecycle(make_bridge, GODOT_BIN=str(fake_godot))
    first = payload(await life.launch_tool({"timeout_s": 30}, None))
    progress = Progress()
    outcome = await life.restart_tool({"timeout_s": 30}, progress)
    result = payload(outcome)
    assert not outcome.is_error, result
    assert result["status"] == "restarted" and result["saved"].startswith("saved") and result["stopped"] == "terminated"
    assert result["old_pid"] == first["pid"] and not is_pid_alive(first["pid"])
    assert result["pid"] != first["pid"] and is_pid_alive(result["pid"])
    # The toolkit's reply names the scene it saved (the simulator answers with its result example).
    assert [m for m in progress.messages if m.startswith("save:")] == ["save: saved res://tmp_tests/scene/level.tscn"]
    assert len(starts(fake_log)) == 2
    assert (await bridge.call("echo", {"n": 1}))["echo"] == {"n": 1}  # the bridge follows the new editor


async def test_restart_keeps_the_editor_headless_unless_told(
    make_bridge: BridgeFactory, fake_godot: Path, fake_log: Path, godot_project: Path
) -> None:
    life, bridge = await lifecycle(make_bridge, GODOT_BIN=str(fake_godot))
    payload(await life.launch_tool({"timeout_s": 30, "headless": True}, None))
    assert (await bridge.call("echo", {}))["echo"] == {}  # connected: the bridge knows how the editor runs
    kept = payload(await life.restart_tool({"timeout_s": 30}, None))
    assert kept["status"] == "restarted" and kept["headless"] is True, kept
    assert (await bridge.call("echo", {}))["echo"] == {}
    windowed = payload(await life.restart_tool({"timeout_s": 30, "headless": False}, None))
    assert windowed["headless"] is False, windowed
    assert [s["argv"][1] for s in starts(fake_log)] == ["--headless", "--headless", "--editor"]


async def test_restart_of_a_hung_editor_needs_force(
    make_bridge: BridgeFactory, fake_godot: Path, fake_log: Path, godot_project: Path,
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
) -> None:
    marker = tmp_path / "frozen-once"
    marker.touch()
    monkeypatch.setenv("FAKE_GODOT_FROZEN_ONCE", str(marker))
    monkeypatch.setenv("FAKE_GODOT_IGNORE_TERM", "1")
    life, _bridge = await lifecycle(make_bridge, GODOT_BIN=str(fake_godot))
    # editor_launch starts it but never sees it ready: it accepts connections and never acks auth.
    # Long enough for a slow machine to start the fake: the last state seen must be the refused auth.
    launched = payload(await life.launch_tool({"timeout_s": 6}, None))
    assert launched["code"] == "TIMEOUT" and "auth did not succeed" in launched["error"]
    [hung] = starts(fake_log)

    busy = payload(await life.launch_tool({}, None))
    assert busy["code"] == "EDITOR_UNRESPONSIVE" and "editor_restart" in busy["hint"]

    refused = payload(await life.restart_tool({"timeout_s": 30}, None))
    assert refused["code"] == "SAVE_FAILED" and "force=true" in refused["hint"]
    assert is_pid_alive(hung["pid"]), "a failed save leaves the editor running"

    monkeypatch.delenv("FAKE_GODOT_IGNORE_TERM")  # the relaunched editor behaves
    result = payload(await life.restart_tool({"timeout_s": 30, "force": True}, None))
    assert result["status"] == "restarted" and result["stopped"] == "killed", result
    assert not is_pid_alive(hung["pid"]) and is_pid_alive(result["pid"])


async def test_restart_with_nothing_running(make_bridge: BridgeFactory, fake_godot: Path, fake_log: Path, godot_project: Path) -> None:
    result = payload(await (await lifecycle(make_bridge, GODOT_BIN=str(fake_godot)))[0].restart_tool({}, None))
    assert result["code"] == "EDITOR_NOT_RUNNING" and "editor_launch" in result["hint"]
    assert starts(fake_log) == []


async def test_restart_never_stops_when_it_could_not_relaunch(
    make_bridge: BridgeFactory, fake_godot: Path, fake_log: Path, godot_project: Path
) -> None:
    life, _bridge = await lifecycle(make_bridge, GODOT_BIN=str(fake_godot))
    first = payload(await life.launch_tool({"timeout_s": 30}, None))
    no_bin, _ = await lifecycle(make_bridge, GODOT_BIN=str(fake_godot) + ".missing")
    result = payload(await no_bin.restart_tool({}, None))
    assert result["code"] == "GODOT_NOT_FOUND" and is_pid_alive(first["pid"])


# -- GODOT_MCP_AUTOLAUNCH ---------------------------------------------------------------------------


async def test_autolaunch_starts_the_editor_once_for_concurrent_calls(
    make_bridge: BridgeFactory, fake_godot: Path, fake_log: Path, godot_project: Path
) -> None:
    _life, bridge = await lifecycle(make_bridge, autolaunch="headless", GODOT_BIN=str(fake_godot))
    messages: list[str] = []

    async def progress(_done: float, _total: float | None, message: str | None) -> None:
        messages.append(message or "")

    first, second = await asyncio.gather(
        bridge.forward(tool("scene_get_tree"), {}, progress), bridge.forward(tool("scene_get_tree"), {}))
    assert not first.is_error and not second.is_error, (first.structured, second.structured)
    [start] = starts(fake_log)
    assert start["argv"][1:] == ["--headless", "--editor", "--path", str(godot_project)]
    assert any("starting the Godot editor" in m for m in messages), messages
    assert not (await bridge.forward(tool("scene_get_tree"), {})).is_error
    assert len(starts(fake_log)) == 1, "an editor that answers is not started again"
    # The editor goes away: once means once; the call says so and how to start it again.
    os.kill(start["pid"], signal.SIGKILL)
    await wait_dead(start["pid"])
    after = await bridge.forward(tool("scene_get_tree"), {})
    assert after.is_error and "does not start another" in after.structured["error"], after.structured
    assert "editor_launch" in after.structured["hint"]
    assert len(starts(fake_log)) == 1


async def test_autolaunch_window_mode(make_bridge: BridgeFactory, fake_godot: Path, fake_log: Path,
                                     godot_project: Path) -> None:
    _life, bridge = await lifecycle(make_bridge, autolaunch="window", GODOT_BIN=str(fake_godot))
    assert not (await bridge.forward(tool("scene_get_tree"), {})).is_error
    assert [s["argv"][1:] for s in starts(fake_log)] == [["--editor", "--path", str(godot_project)]]


async def test_autolaunch_failure_is_reported_and_not_retried(
    make_bridge: BridgeFactory, fake_godot: Path, fake_log: Path, godot_project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FAKE_GODOT_MODE", "exit")
    _life, bridge = await lifecycle(make_bridge, autolaunch="headless", GODOT_BIN=str(fake_godot))
    failed = (await bridge.forward(tool("scene_get_tree"), {})).structured
    assert failed["code"] == "LAUNCH_FAILED", failed
    assert "GODOT_MCP_AUTOLAUNCH=headless could not start one" in failed["error"] and "exited with code 3" in failed["error"]
    again = (await bridge.forward(tool("scene_get_tree"), {})).structured
    assert again["code"] == "LAUNCH_FAILED" and len(starts(fake_log)) == 1, "one attempt per bridge"


async def test_autolaunch_without_a_godot_binary(make_bridge: BridgeFactory, fake_log: Path, godot_project: Path) -> None:
    _life, bridge = await lifecycle(make_bridge, autolaunch="headless")
    failed = (await bridge.forward(tool("scene_get_tree"), {})).structured
    assert failed["code"] == "GODOT_NOT_FOUND" and "GODOT_BIN" in failed["hint"], failed


async def test_autolaunch_off_starts_nothing(make_bridge: BridgeFactory, fake_godot: Path, fake_log: Path,
                                            godot_project: Path) -> None:
    _life, bridge = await lifecycle(make_bridge, GODOT_BIN=str(fake_godot))
    failed = (await bridge.forward(tool("scene_get_tree"), {})).structured
    assert failed["code"] == "CONNECT_FAILED" and starts(fake_log) == []


async def wait_dead(pid: int) -> None:
    deadline = time.monotonic() + 5
    while is_pid_alive(pid) and time.monotonic() < deadline:
        await asyncio.sleep(0.02)


# -- through the real bridge process ---------------------------------------------------------------


async def test_launch_through_the_bridge_process(spawn_bridge: Any, fake_godot: Path, fake_log: Path, project_dir: Path) -> None:
    bridge = await spawn_bridge({"GODOT_BIN": str(fake_godot), "FAKE_GODOT_LOG": str(fake_log)})
    assert "editor_launch" not in await bridge.tool_names(), "on demand, not at start-up"
    await bridge.call_tool("discover_tools", {"request": "editor_lifecycle"})
    tools = {t["name"]: t for t in (await bridge.request("tools/list"))["result"]["tools"]}
    assert {"editor_launch", "editor_restart"} <= set(tools)
    assert "Available:" not in tools["editor_launch"]["description"], "only discover_tools lists the groups"
    resp = await bridge.request(
        "tools/call",
        {"name": "editor_launch", "arguments": {"timeout_s": 30}, "_meta": {"progressToken": "launch-1"}},
        timeout=60,
    )
    result = resp["result"]
    data = json.loads(result["content"][0]["text"])
    assert result["isError"] is False and data["status"] == "launched", data
    [start] = starts(fake_log)
    assert start["argv"][1:] == ["--editor", "--path", str(project_dir.resolve())]
    progress = [n for n in bridge.notifications if n.get("method") == "notifications/progress"]
    assert len(progress) >= 2 and all(p["params"]["progressToken"] == "launch-1" for p in progress)
    # The launched editor serves the bridge's ordinary tools (stdout stayed protocol-only throughout:
    # the reader fails the test on any other line).
    tree = await bridge.call_tool("scene_get_tree", {})
    assert tree["isError"] is False and json.loads(tree["content"][0]["text"])["success"] is True


async def test_autolaunch_through_the_bridge_process(spawn_bridge: Any, fake_godot: Path, fake_log: Path,
                                                    project_dir: Path) -> None:
    bridge = await spawn_bridge({"GODOT_BIN": str(fake_godot), "FAKE_GODOT_LOG": str(fake_log),
                                 "GODOT_MCP_AUTOLAUNCH": "headless"})
    tree = await bridge.call_tool("scene_get_tree", {}, timeout=60)
    assert tree["isError"] is False, tree
    [start] = starts(fake_log)
    assert start["argv"][1:] == ["--headless", "--editor", "--path", str(project_dir.resolve())]
    info = json.loads((await bridge.request("resources/read", {"uri": "godot://project/info"}))["result"]["contents"][0]["text"])
    assert info["editor"]["connected"] is True and info["editor"]["headless"] is True
