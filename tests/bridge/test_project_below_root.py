"""A Godot project one folder below where the MCP client starts the bridge (``repo/game/project.godot``).

The real bridge is started in the repository root with no project configured, as Claude Code
or Cursor start it there: it must find ``game/`` itself, and when the root holds two projects,
every "cannot reach the editor" answer must name both and say how to choose.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

from godot_bridge.config import ProjectSearch, Settings
from tests.support.bridge_process import ROOT, body

INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
CALL = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "scene_get_tree", "arguments": {}}}


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def project(folder: Path) -> Path:
    folder.mkdir(parents=True)
    (folder / "project.godot").write_text("config_version=5\n", encoding="utf-8")
    return folder


def call_from(cwd: Path, tmp_path: Path) -> tuple[dict[str, Any], str]:
    """Start the bridge in ``cwd`` with no project set, call a tool, return its result and stderr."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GODOT_MCP_")}
    env.update({"XDG_DATA_HOME": str(tmp_path / "xdg"), "PYTHONPATH": str(ROOT),
                "GODOT_MCP_EDITOR_PORT": str(closed_port())})
    proc = subprocess.Popen([sys.executable, "-m", "godot_bridge"], cwd=cwd, env=env, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(json.dumps(INIT) + "\n")
        proc.stdin.flush()
        assert json.loads(proc.stdout.readline())["result"]["serverInfo"]["name"] == "godot-bridge"
        proc.stdin.write(json.dumps(CALL) + "\n")
        proc.stdin.flush()
        answer = json.loads(proc.stdout.readline())
        proc.stdin.close()
        proc.wait(timeout=30)
        assert proc.stderr is not None
        err = proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for stream in (proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()
    return body(answer["result"]), err


def test_the_bridge_started_in_the_root_finds_the_project_below(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    game = project(repo / "game")
    (repo / "docs").mkdir()
    result, err = call_from(repo, tmp_path)
    assert result["code"] == "CONNECT_FAILED"
    assert f"cannot reach the Godot editor for {game}" in result["error"]
    assert f"the project {game} is the one subfolder of {repo}" in result["error"]
    assert "editor_launch" in result["hint"] and "GODOT_MCP_AUTOLAUNCH" in result["hint"]
    assert f"project: the project {game}" in err


def test_two_projects_below_the_root_are_named_with_how_to_choose(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    first, second = project(repo / "client"), project(repo / "server")
    result, err = call_from(repo, tmp_path)
    assert f"{repo} (from the working directory) has no project.godot, and several of its subfolders have one: " \
           f"{first}, {second}" in result["error"]
    assert "set GODOT_MCP_PROJECT_PATH" in result["error"]
    assert "no Godot project:" in err


def test_the_search_itself(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    game = project(repo / "game")
    (repo / ".hidden").mkdir()
    (repo / ".hidden" / "project.godot").write_text("", encoding="utf-8")
    assert ProjectSearch.run(repo, "--project").project == game, "hidden folders are not searched"
    assert ProjectSearch.run(game, "--project").project == game
    assert Settings.from_env({"GODOT_MCP_PROJECT_PATH": str(repo)}).project_path == game
    deeper = tmp_path / "deeper"
    project(deeper / "a" / "b")
    none = ProjectSearch.run(deeper, "the working directory")
    assert none.project is None and "nor does any folder directly below it" in none.note()
    assert Settings.from_env({}, project=str(deeper)).project_note().startswith(f"{deeper} (from --project) has no")
