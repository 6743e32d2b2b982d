"""The files ``godot-bridge init`` writes, read by the real assistant CLIs that start in a second:
Codex lists the entry with its time limits and the XDG_DATA_HOME it would drop, Copilot CLI reads
the shared .mcp.json in a trusted folder with its time limit, and Qwen Code connects to the bridge
once approved, and still does after a second ``init`` (its approval is bound to the entry's content).

No model is involved and nothing leaves the machine. The CLIs are the pinned ones
``scripts/assistants.sh`` installs into .cache/assistants (or $ASSISTANTS_DIR); without them the
tests skip, saying so. Each CLI runs with a HOME and XDG folders of the test's own, in a process
group of its own that is ended afterwards (the bridge Qwen Code starts included).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
from pathlib import Path

import pytest

from godot_bridge.setup import client_limits, init
from godot_bridge.shipped import mcp_entry

ROOT = Path(__file__).resolve().parents[2]
KEY = mcp_entry.definition().server_key
PROJECT_GODOT = 'config_version=5\n\n[application]\n\nconfig/name="Demo"\n'


def cli_folder() -> Path:
    folder = Path(os.environ.get("ASSISTANTS_DIR") or ROOT / ".cache" / "assistants") / "node_modules" / ".bin"
    missing = [name for name in ("node", "codex", "copilot", "qwen") if not (folder / name).exists()]
    if missing:
        pytest.skip(f"the assistant CLIs are not installed in {folder.parent.parent} ({', '.join(missing)} missing; "
                    "scripts/assistants.sh installs them)")
    return folder


@pytest.fixture
def sandbox(tmp_path: Path) -> dict[str, str]:
    """The environment every CLI (and init) runs with: nothing of the developer's home."""
    home = tmp_path / "home"
    env = {"HOME": str(home), "LANG": "C.UTF-8", "PATH": f"{cli_folder()}:/usr/bin:/bin",
           "XDG_CONFIG_HOME": str(home / ".config"), "XDG_CACHE_HOME": str(home / ".cache"),
           "XDG_STATE_HOME": str(home / ".local" / "state"), "XDG_DATA_HOME": str(tmp_path / "data"),
           "CODEX_HOME": str(home / ".codex")}
    for folder in ("HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "CODEX_HOME"):
        Path(env[folder]).mkdir(parents=True, exist_ok=True)
    return env


@pytest.fixture
def project(tmp_path: Path, sandbox: dict[str, str]) -> Path:
    folder = tmp_path / "game"
    folder.mkdir()
    (folder / "project.godot").write_text(PROJECT_GODOT, encoding="utf-8")
    assert init.main(["--project", str(folder), "--client", "all"], sandbox) == 0
    return folder


def run(argv: list[str], env: dict[str, str], cwd: Path) -> str:
    proc = subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        out, _ = proc.communicate(timeout=60)
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)  # whatever it started (a bridge) goes with it
        except ProcessLookupError:
            pass
        proc.wait()
    return out


def test_codex_reads_the_limits_and_the_variable_it_would_drop(project: Path, sandbox: dict[str, str]) -> None:
    # Codex reads a project's .codex/config.toml once the project is trusted.
    Path(sandbox["CODEX_HOME"], "config.toml").write_text(f'[projects."{project}"]\ntrust_level = "trusted"\n',
                                                          encoding="utf-8")
    out = run(["codex", "mcp", "list", "--json"], sandbox, project)
    entry = next(e for e in json.loads(out[out.index("["):]) if e["name"] == KEY)
    assert entry["tool_timeout_sec"] == client_limits.longest_call_s()
    assert entry["startup_timeout_sec"] == client_limits.START_S
    assert entry["transport"]["env"]["XDG_DATA_HOME"] == sandbox["XDG_DATA_HOME"], "Codex would drop it otherwise"


def test_copilot_reads_the_shared_mcp_json_in_a_trusted_folder(project: Path, sandbox: dict[str, str]) -> None:
    assert "No MCP servers configured" in run(["copilot", "mcp", "list"], sandbox, project), "untrusted: not read"
    copilot_home = Path(sandbox["HOME"], ".copilot")
    copilot_home.mkdir()
    (copilot_home / "config.json").write_text(json.dumps({"trusted_folders": [str(project)]}), encoding="utf-8")
    out = run(["copilot", "mcp", "get", KEY], sandbox, project)
    assert f"Source: Workspace ({project / '.mcp.json'})" in out
    assert f"Timeout: {client_limits.longest_call_s() * 1000}ms" in out


def test_qwen_connects_once_approved_and_a_second_init_keeps_the_approval(project: Path,
                                                                          sandbox: dict[str, str]) -> None:
    assert "Pending approval" in run(["qwen", "mcp", "list"], sandbox, project)
    assert "Approved" in run(["qwen", "mcp", "approve", KEY], sandbox, project)
    assert "Connected" in run(["qwen", "mcp", "list"], sandbox, project), "it starts the bridge and connects"
    before = (project / ".mcp.json").read_bytes()
    assert init.main(["--project", str(project), "--client", "qwen", "claude", "copilot"], sandbox) == 0
    assert (project / ".mcp.json").read_bytes() == before
    assert "Connected" in run(["qwen", "mcp", "list"], sandbox, project), "still approved"
