"""``godot-bridge doctor``: every check's ✓ and ✗ against the simulator and broken fixtures.

The checks run in-process against a ``ToolkitSim`` (a real WebSocket server, registry and
token file under ``data_home``); the last tests run the real ``python -m godot_bridge doctor``.
The environment is built from scratch so the developer's own GODOT_MCP_* never leak in.
"""

from __future__ import annotations

import asyncio
import json
import os
import shlex
import stat
import socket
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from godot_bridge.setup import doctor
from godot_bridge.setup.doctor import Check
from tests.support.bridge_process import ROOT
from tests.sim.server import ToolkitSim

FAST_PROBE = 1.0  # per probe; generous for a loaded machine, the frozen-editor case waits it out once


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", ""])
    child.wait()
    return child.pid


@pytest.fixture
def godot_project(project: Path) -> Path:
    (project / "project.godot").write_text("config_version=5\n", encoding="utf-8")
    return project


@pytest.fixture
async def lsp_listener() -> AsyncIterator[int]:
    """Something accepting TCP where a language server would be (the doctor only probes reachability)."""

    async def on_connect(_reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.close()

    server = await asyncio.start_server(on_connect, "127.0.0.1", 0)
    try:
        yield int(server.sockets[0].getsockname()[1])
    finally:
        server.close()
        await server.wait_closed()


def write_mcp_json(project: Path, content: Any) -> Path:
    path = project / ".mcp.json"
    path.write_text(content if isinstance(content, str) else json.dumps(content), encoding="utf-8")
    return path


def entry(env: dict[str, str] | None = None, key: str = "godot-mcp-toolkit", command: str = sys.executable,
          args: tuple[str, ...] = ("-m", "godot_bridge")) -> dict[str, Any]:
    """An entry that starts this bridge (the installed package, through this interpreter)."""
    return {"mcpServers": {key: {"command": command, "args": list(args), "env": env or {}}}}


async def diagnose(project: Path, data_home: Path, **env: str) -> dict[str, list[Check]]:
    # HOME: the per-user client files are read from there, so not the developer's own.
    ctx = doctor.build_context(str(project), {"XDG_DATA_HOME": str(data_home), "HOME": str(data_home), **env},
                               FAST_PROBE)
    checks = await doctor.run(ctx)
    by_id: dict[str, list[Check]] = {}
    for check in checks:
        by_id.setdefault(check.id, []).append(check)
    by_id["_all"] = checks
    return by_id


def one(found: dict[str, list[Check]], check_id: str) -> Check:
    assert len(found[check_id]) == 1, found[check_id]
    return found[check_id][0]


def failed(found: dict[str, list[Check]]) -> list[str]:
    return [c.id for c in found["_all"] if c.status == "fail"]


# -- everything working ----------------------------------------------------------------------------


async def test_all_checks_pass_with_a_running_editor_and_game(
    sim: ToolkitSim, godot_project: Path, data_home: Path, lsp_listener: int
) -> None:
    sim.publish(lsp_port=lsp_listener)
    await sim.start_game()
    write_mcp_json(godot_project, entry({"GODOT_MCP_READ_ONLY": "1", "GODOT_MCP_RATE_LIMIT": "30"}))
    found = await diagnose(godot_project, data_home)
    statuses = {c.id: c.status for c in found["_all"]}
    assert set(statuses.values()) == {"ok"}, [c for c in found["_all"] if c.status != "ok"]
    assert list(statuses) == [
        "python", "packages", "project", "registry", "registry_entry", "registry_stale", "token",
        "editor_port", "editor_auth", "toolkit_version", "game_port", "lsp", "mcp_json", "tool_list", "entry_start",
        "limits",
        "autolaunch", "confirm", "unasked",
    ]
    assert "godot-bridge 0.1.0 answered initialize" in one(found, "entry_start").detail
    assert f"port {sim.port}" in one(found, "registry_entry").detail
    assert str(sim.token_path) in one(found, "token").detail
    assert "Godot 4.4.1" in one(found, "editor_auth").detail
    assert str(sim.runtime.port if sim.runtime else "?") in one(found, "game_port").detail
    assert f"127.0.0.1:{lsp_listener}" in one(found, "lsp").detail
    limits = one(found, "limits").detail
    assert "read-only on (.mcp.json)" in limits and "30 calls per 60 s (.mcp.json)" in limits
    # The auth probe was a real handshake with the editor's token.
    assert sim.auth_frames and sim.auth_frames[-1]["auth"] == sim.token


# -- Python and packages ---------------------------------------------------------------------------


async def test_python_too_old_fails(monkeypatch: pytest.MonkeyPatch, godot_project: Path, data_home: Path) -> None:
    assert one(await diagnose(godot_project, data_home), "python").status == "ok"
    monkeypatch.setattr(doctor, "MIN_PYTHON", (sys.version_info[0] + 1, 0))
    check = one(await diagnose(godot_project, data_home), "python")
    assert check.status == "fail" and check.fix and "Python" in check.fix


async def test_package_missing_or_off_pin_fails(monkeypatch: pytest.MonkeyPatch, godot_project: Path, data_home: Path) -> None:
    monkeypatch.setattr(doctor, "PACKAGES", ("mcp", "no-such-package-for-doctor"))
    check = one(await diagnose(godot_project, data_home), "packages")
    assert check.status == "fail" and "no-such-package-for-doctor is not installed" in check.detail
    monkeypatch.setattr(doctor, "PACKAGES", ("mcp",))
    monkeypatch.setattr(doctor, "_requirements", lambda: {"mcp": "mcp==0.0.1"})
    check = one(await diagnose(godot_project, data_home), "packages")
    assert check.status == "fail" and "does not satisfy mcp==0.0.1" in check.detail and check.fix


# -- project and registry --------------------------------------------------------------------------


async def test_project_without_project_godot_fails(project: Path, data_home: Path) -> None:
    check = one(await diagnose(project, data_home), "project")
    assert check.status == "fail" and "no project.godot" in check.detail


async def test_registry_missing(godot_project: Path, data_home: Path) -> None:
    found = await diagnose(godot_project, data_home)
    check = one(found, "registry")
    assert check.status == "fail" and "does not exist yet" in check.detail and check.fix
    assert one(found, "token").status == "skip"
    assert one(found, "editor_port").status == "fail"


@pytest.mark.parametrize(
    ("text", "problem"),
    [("{not json", "not valid JSON"), ('{"projects": {}}', "no 'by_path' object")],
)
async def test_registry_malformed(sim: ToolkitSim, godot_project: Path, data_home: Path, text: str, problem: str) -> None:
    sim.registry.write_raw(text)
    check = one(await diagnose(godot_project, data_home), "registry")
    assert check.status == "fail" and problem in check.detail


async def test_registry_without_this_project(sim: ToolkitSim, godot_project: Path, data_home: Path) -> None:
    sim.registry.remove(sim.key)
    sim.registry.update("/somewhere/else", port=sim.port, pid=os.getpid(), token_path="")
    found = await diagnose(godot_project, data_home)
    check = one(found, "registry_entry")
    assert check.status == "fail" and "/somewhere/else" in check.detail and sim.key in check.detail


async def test_stale_entry_of_this_project_fails(sim: ToolkitSim, godot_project: Path, data_home: Path) -> None:
    sim.publish(pid=dead_pid())
    check = one(await diagnose(godot_project, data_home), "registry_stale")
    assert check.status == "fail" and "is not running" in check.detail


async def test_stale_entries_of_other_projects_only_warn(
    sim: ToolkitSim, godot_project: Path, data_home: Path, lsp_listener: int
) -> None:
    sim.publish(lsp_port=lsp_listener)
    sim.registry.update("/old/project", _key="/old/project", port=free_port(), pid=dead_pid(), token_path="")
    sim.registry.update("/old/other", _key="/old/other", port=free_port(), pid=os.getpid(), token_path="")
    found = await diagnose(godot_project, data_home)
    check = one(found, "registry_stale")
    assert check.status == "warn"
    assert "/old/project (pid" in check.detail and "/old/other (nothing listens" in check.detail
    assert "registry_stale" not in failed(found)


# -- token -----------------------------------------------------------------------------------------


async def test_token_file_missing(sim: ToolkitSim, godot_project: Path, data_home: Path) -> None:
    sim.token_path.unlink()
    found = await diagnose(godot_project, data_home)
    check = one(found, "token")
    assert check.status == "fail" and "does not exist" in check.detail and check.fix
    assert one(found, "editor_auth").status == "skip"  # no auth attempt without a token


async def test_token_path_breaking_the_published_rules(sim: ToolkitSim, godot_project: Path, data_home: Path) -> None:
    outside = data_home / "elsewhere" / "mcp_token"
    outside.parent.mkdir()
    outside.write_text(sim.token, encoding="utf-8")
    sim.publish(token_path=str(outside))
    check = one(await diagnose(godot_project, data_home), "token")
    assert check.status == "fail" and "does not end in" in check.detail


@pytest.mark.skipif(os.name != "posix", reason="Unix permissions only")
async def test_token_others_can_read_is_made_private_and_said(sim: ToolkitSim, godot_project: Path,
                                                              data_home: Path) -> None:
    """As the reference toolkit writes it: doctor makes it private, says so with the advice, and goes on."""
    sim.token_path.chmod(0o644)
    sim.token_path.parent.chmod(0o755)
    found = await diagnose(godot_project, data_home)
    private = one(found, "token_private")
    assert private.status == "warn" and "readable by group and others (mode 0644)" in private.detail
    assert private.fix and "godot-bridge init" in private.fix
    assert stat.S_IMODE(sim.token_path.stat().st_mode) == 0o600
    assert stat.S_IMODE(sim.token_path.parent.stat().st_mode) == 0o700
    assert one(found, "token").status == "ok" and one(found, "editor_auth").status == "ok"
    again = await diagnose(godot_project, data_home)
    assert "token_private" not in again, "nothing to say once it is private"


@pytest.mark.skipif(os.name != "posix" or os.geteuid() != 0, reason="giving a file to another account needs root")
async def test_another_accounts_open_token_fails_with_the_fix(sim: ToolkitSim, godot_project: Path,
                                                              data_home: Path) -> None:
    sim.token_path.chmod(0o644)
    os.chown(sim.token_path, 65534, 65534)
    found = await diagnose(godot_project, data_home)
    check = one(found, "token")
    assert check.status == "fail" and "belongs to another account" in check.detail
    assert check.fix and f"chmod 600 {shlex.quote(str(sim.token_path))}" in check.fix
    assert one(found, "editor_auth").status == "skip", "the token is not sent anywhere"


async def test_token_empty(sim: ToolkitSim, godot_project: Path, data_home: Path) -> None:
    sim.token_path.write_text("", encoding="utf-8")
    check = one(await diagnose(godot_project, data_home), "token")
    assert check.status == "fail" and "empty" in check.detail


# -- editor port -----------------------------------------------------------------------------------


async def test_wrong_token_is_rejected_by_the_editor(sim: ToolkitSim, godot_project: Path, data_home: Path) -> None:
    sim.token_path.write_text("0" * 64, encoding="utf-8")
    found = await diagnose(godot_project, data_home)
    assert one(found, "token").status == "ok"
    auth = one(found, "editor_auth")
    assert auth.status == "fail" and "rejected the token" in auth.detail and auth.fix


async def test_frozen_editor_port(sim: ToolkitSim, godot_project: Path, data_home: Path) -> None:
    sim.frozen = True
    auth = one(await diagnose(godot_project, data_home), "editor_auth")
    assert auth.status == "fail" and "no auth ack" in auth.detail
    assert auth.fix and "editor_restart" in auth.fix


async def test_editor_not_listening(sim: ToolkitSim, godot_project: Path, data_home: Path) -> None:
    await sim.stop()
    found = await diagnose(godot_project, data_home)
    port = one(found, "editor_port")
    assert port.status == "fail" and f"nothing listens on 127.0.0.1:{sim.port}" in port.detail
    assert "editor_auth" not in found


async def test_pinned_editor_port_desync_is_named(sim: ToolkitSim, godot_project: Path, data_home: Path) -> None:
    pin = free_port()
    port = one(await diagnose(godot_project, data_home, GODOT_MCP_EDITOR_PORT=str(pin)), "editor_port")
    assert port.status == "fail" and "GODOT_MCP_EDITOR_PORT" in port.detail and f"listens on {sim.port}" in port.detail


async def test_toolkit_version_mismatch_warns(project: Path, data_home: Path) -> None:
    (project / "project.godot").write_text("", encoding="utf-8")
    old = ToolkitSim(data_home, project, plugin_version="0.0.9")
    await old.start()
    try:
        found = await diagnose(project, data_home)
    finally:
        await old.stop()
    check = one(found, "toolkit_version")
    assert check.status == "warn" and "plugin 0.0.9" in check.detail and check.fix
    assert one(found, "editor_auth").status == "ok"


# -- game port -------------------------------------------------------------------------------------


async def test_no_game_is_not_a_failure(sim: ToolkitSim, godot_project: Path, data_home: Path) -> None:
    found = await diagnose(godot_project, data_home)
    assert one(found, "game_port").status == "skip" and "game_port" not in failed(found)


async def test_game_published_but_not_listening(sim: ToolkitSim, godot_project: Path, data_home: Path) -> None:
    # A game's port reaches the registry through its overlay file, as the toolkit writes it.
    sim.registry.write_overlay(sim.key, {"_key": sim.key, "runtime_port": free_port(), "runtime_pid": os.getpid()})
    check = one(await diagnose(godot_project, data_home), "game_port")
    assert check.status == "fail" and "nothing listens" in check.detail


async def test_game_with_wrong_token(sim: ToolkitSim, godot_project: Path, data_home: Path) -> None:
    game = await sim.start_game()
    game.token = "f" * 64  # the game expects another token than the file holds
    check = one(await diagnose(godot_project, data_home), "game_port")
    assert check.status == "fail" and "rejected the token" in check.detail


# -- language server ---------------------------------------------------------------------------------


async def test_lsp_unreachable_warns_unless_pinned(sim: ToolkitSim, godot_project: Path, data_home: Path) -> None:
    sim.publish(lsp_port=free_port())
    found = await diagnose(godot_project, data_home)
    assert one(found, "lsp").status == "warn" and "lsp" not in failed(found)
    pinned = one(await diagnose(godot_project, data_home, GODOT_MCP_LSP_PORT=str(free_port())), "lsp")
    assert pinned.status == "fail" and "(pinned)" in pinned.detail


async def test_lsp_conflict_with_an_earlier_editor(
    sim: ToolkitSim, godot_project: Path, data_home: Path, tmp_path: Path, lsp_listener: int
) -> None:
    other = ToolkitSim(data_home, tmp_path / "other", lsp_port=lsp_listener)
    await other.start()
    try:
        other.publish(started_at=1.0)
        sim.publish(lsp_port=lsp_listener)
        check = one(await diagnose(godot_project, data_home), "lsp")
    finally:
        await other.stop()
    assert check.status == "warn" and "also claimed by the editor of" in check.detail
    assert "started first" in check.detail and check.fix and "language-server port" in check.fix


# -- .mcp.json -------------------------------------------------------------------------------------


async def test_mcp_json_absent_only_warns(godot_project: Path, data_home: Path) -> None:
    check = one(await diagnose(godot_project, data_home), "mcp_json")
    assert check.status == "warn" and check.fix and "godot-mcp-toolkit" in check.fix


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        ("{\n  \"mcpServers\": {,}\n}", "not valid JSON"),
        ({"servers": {}}, 'no "mcpServers"'),
        ({"mcpServers": {"other": {"command": "x"}}}, "no godot-mcp-toolkit entry"),
        ({"mcpServers": {"godot-mcp-toolkit": {"command": "uvx", "env": []}}}, "env\" is not an object"),
        (entry({"GODOT_MCP_READONLY": "1"}), "GODOT_MCP_READONLY: not a variable the bridge reads"),
        (entry({"GODOT_MCP_RATE_LIMIT": "fast"}), "GODOT_MCP_RATE_LIMIT"),
        (entry({"GODOT_MCP_READ_ONLY": "sure"}), "neither on"),
        (entry({"GODOT_MCP_EDITOR_PORT": "70000"}), "invalid port"),
        ({"mcpServers": {"godot-mcp-toolkit": {"command": "uvx", "env": {"GODOT_MCP_READ_ONLY": True}}}}, "not a string"),
    ],
)
async def test_bad_mcp_json(godot_project: Path, data_home: Path, content: Any, problem: str) -> None:
    write_mcp_json(godot_project, content)
    check = one(await diagnose(godot_project, data_home), "mcp_json")
    assert check.status == "fail" and problem in check.detail, check
    assert check.fix


async def test_mcp_json_hand_written_key_and_editor_only_vars(godot_project: Path, data_home: Path) -> None:
    write_mcp_json(godot_project, entry({"GODOT_MCP_LOG_LEVEL": "debug"}, key="my-godot-bridge"))
    check = one(await diagnose(godot_project, data_home), "mcp_json")
    assert check.status == "ok" and '"my-godot-bridge"' in check.detail
    write_mcp_json(godot_project, entry({"GODOT_MCP_EDITOR_PORT_MIN": "6600"}))
    check = one(await diagnose(godot_project, data_home), "mcp_json")
    assert check.status == "warn" and "read by the editor plugin" in check.detail


async def test_mcp_json_env_steers_the_other_checks(sim: ToolkitSim, godot_project: Path, data_home: Path) -> None:
    pin = free_port()
    write_mcp_json(godot_project, entry({"GODOT_MCP_EDITOR_PORT": str(pin)}))
    check = one(await diagnose(godot_project, data_home), "editor_port")
    assert check.status == "fail" and f"GODOT_MCP_EDITOR_PORT={pin}" in check.detail


async def test_the_tool_list_of_each_entry(godot_project: Path, data_home: Path) -> None:
    """Every entry's GODOT_MCP_TOOL_LIST: .mcp.json (Claude Code, Copilot CLI and Qwen Code) lists every
    tool, and says what Qwen Code would pay; Gemini CLI's own file with every tool warns; unset is groups."""
    write_mcp_json(godot_project, entry({"GODOT_MCP_TOOL_LIST": "all"}))
    gemini = godot_project / ".gemini" / "settings.json"
    gemini.parent.mkdir()
    gemini.write_text(json.dumps(entry({"GODOT_MCP_TOOL_LIST": "ALL"})), encoding="utf-8")
    found = {c.title: c for c in (await diagnose(godot_project, data_home))["tool_list"]}
    shared, own = found[".mcp.json tool list"], found[".gemini/settings.json tool list"]
    assert shared.status == "ok" and "GODOT_MCP_TOOL_LIST=all" in shared.detail and "Qwen Code" in shared.detail
    assert own.status == "warn" and "Gemini CLI" in own.detail and "groups" in own.fix
    gemini.write_text(json.dumps(entry()), encoding="utf-8")
    found = {c.title: c for c in (await diagnose(godot_project, data_home))["tool_list"]}
    assert found[".gemini/settings.json tool list"].status == "ok"
    assert "GODOT_MCP_TOOL_LIST=groups (default)" in found[".gemini/settings.json tool list"].detail


# -- read-only and rate limits ---------------------------------------------------------------------


async def test_limits_from_the_environment(godot_project: Path, data_home: Path) -> None:
    check = one(await diagnose(godot_project, data_home, GODOT_MCP_READ_ONLY="yes", GODOT_MCP_RATE_LIMIT="5"), "limits")
    assert check.status == "ok" and "read-only on (environment)" in check.detail and "5 calls per 60 s" in check.detail
    bad = one(await diagnose(godot_project, data_home, GODOT_MCP_RATE_LIMIT="0"), "limits")
    assert bad.status == "fail" and "GODOT_MCP_RATE_LIMIT" in bad.detail and bad.fix


# -- starting the editor: GODOT_MCP_AUTOLAUNCH and GODOT_BIN ---------------------------------------


async def test_autolaunch_setting_and_godot_bin(godot_project: Path, data_home: Path, tmp_path: Path) -> None:
    godot = tmp_path / "godot"
    godot.write_text("#!/bin/sh\n", encoding="utf-8")
    godot.chmod(0o755)
    off = one(await diagnose(godot_project, data_home), "autolaunch")
    assert off.status == "ok" and "GODOT_MCP_AUTOLAUNCH off (default)" in off.detail and "GODOT_BIN is not set" in off.detail
    ready = one(await diagnose(godot_project, data_home, GODOT_MCP_AUTOLAUNCH="headless", GODOT_BIN=str(godot)),
                "autolaunch")
    assert ready.status == "ok" and f"starts {godot} (from GODOT_BIN) --headless --editor once" in ready.detail
    window = one(await diagnose(godot_project, data_home, GODOT_MCP_AUTOLAUNCH="window", GODOT_BIN=str(godot)),
                 "autolaunch")
    assert window.status == "ok" and "GODOT_MCP_AUTOLAUNCH=window (environment)" in window.detail
    missing = one(await diagnose(godot_project, data_home, GODOT_MCP_AUTOLAUNCH="headless"), "autolaunch")
    assert missing.status == "fail" and "GODOT_BIN is not set" in missing.detail and "GODOT_BIN" in (missing.fix or "")
    broken = one(await diagnose(godot_project, data_home, GODOT_MCP_AUTOLAUNCH="headless",
                                GODOT_BIN=str(tmp_path / "nope")), "autolaunch")
    assert broken.status == "fail" and "does not exist" in broken.detail
    write_mcp_json(godot_project, entry({"GODOT_MCP_AUTOLAUNCH": "sometimes"}))
    typo = await diagnose(godot_project, data_home)
    assert one(typo, "mcp_json").status == "fail" and "GODOT_MCP_AUTOLAUNCH" in one(typo, "mcp_json").detail


# -- output and the real process -------------------------------------------------------------------


def test_text_output_marks_and_fixes(godot_project: Path, data_home: Path) -> None:
    ctx = doctor.build_context(str(godot_project), {"XDG_DATA_HOME": str(data_home)}, FAST_PROBE)
    checks = [Check("a", "Alpha", "ok", "fine"), Check("b", "Beta", "fail", "broken", "do this")]
    text = doctor.render_text(ctx, checks)
    assert "✓ Alpha" in text and "✗ Beta" in text and "fix: do this" in text and "1 check(s) failed" in text
    assert not doctor.passed(checks) and doctor.passed(checks[:1])


def test_arguments() -> None:
    args = doctor.parse_args(["--json", "--project=/p", "--timeout", "2"])
    assert args.json and args.project == "/p" and args.timeout == 2.0
    for bad in (["--jsn"], ["--project"], ["--timeout", "soon"], ["--timeout", "0"]):
        with pytest.raises(ValueError):
            doctor.parse_args(bad)


async def _run_doctor(data_home: Path, *args: str) -> tuple[int, str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GODOT_MCP_")}
    env.update({"XDG_DATA_HOME": str(data_home), "PYTHONPATH": str(ROOT)})
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "godot_bridge", "doctor", *args,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, stdin=asyncio.subprocess.DEVNULL,
        env=env, cwd=str(ROOT),
    )
    try:
        out, err = await asyncio.wait_for(proc.communicate(), 60)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    return proc.returncode or 0, out.decode(), err.decode()


async def test_process_json_passes_with_a_working_editor(sim: ToolkitSim, godot_project: Path, data_home: Path) -> None:
    write_mcp_json(godot_project, entry())
    code, out, _err = await _run_doctor(data_home, "--json", "--project", str(godot_project), "--timeout", "1")
    data = json.loads(out)  # stdout is exactly one JSON document
    assert code == 0 and data["ok"] is True, out
    by_id = {c["id"]: c["status"] for c in data["checks"]}
    assert by_id["editor_auth"] == "ok" and by_id["game_port"] == "skip"
    assert data["project"] == str(godot_project)


async def test_process_exits_1_on_failure(godot_project: Path, data_home: Path) -> None:
    code, out, _err = await _run_doctor(data_home, "--project", str(godot_project), "--timeout", "0.5")
    assert code == 1
    assert "✗ Registry file" in out and "fix:" in out and "check(s) failed" in out


async def test_process_usage_error(data_home: Path) -> None:
    code, out, err = await _run_doctor(data_home, "--bogus")
    assert code == 2 and out == "" and "unknown argument: --bogus" in err


async def test_vscode_mcp_json_is_read_under_servers(godot_project: Path, data_home: Path) -> None:
    (godot_project / ".vscode").mkdir()
    (godot_project / ".vscode" / "mcp.json").write_text(
        json.dumps({"servers": {"godot-mcp-toolkit": {"command": "uvx", "env": {"GODOT_MCP_RATE_LIMIT": "9"}}}}),
        encoding="utf-8",
    )
    found = await diagnose(godot_project, data_home)
    check = one(found, "mcp_json")
    assert check.status == "ok" and check.title == ".vscode/mcp.json"
    assert "9 calls per 60 s (.vscode/mcp.json)" in one(found, "limits").detail


# -- the entry starts, as the client would start it --------------------------------------------------


def fake_command(folder: Path, name: str, body: str) -> Path:
    """An executable script ``name`` in ``folder`` running ``body`` (Python)."""
    folder.mkdir(exist_ok=True)
    path = folder / name
    path.write_text(f"#!{sys.executable}\n{body}\n", encoding="utf-8")
    path.chmod(0o755)
    return path


async def test_entry_with_uvx_missing_fails_with_the_fix(godot_project: Path, data_home: Path, tmp_path: Path) -> None:
    write_mcp_json(godot_project, entry(command="uvx", args=("--compile-bytecode", "godot-bridge@0.1.0")))
    check = one(await diagnose(godot_project, data_home, PATH=str(tmp_path / "empty")), "entry_start")
    assert check.status == "fail" and "uvx is not found" in check.detail
    assert check.fix and "--launch installed" in check.fix and "uv" in check.fix
    assert f"--project {shlex.quote(str(godot_project))}" in check.fix, "the suggested command keeps the --project"


async def test_entry_whose_uvx_fails_says_what_it_said(godot_project: Path, data_home: Path, tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    fake_command(bin_dir, "uvx", "import sys; sys.stderr.write('error: godot-bridge was not found in the package "
                 "registry\\n'); sys.exit(1)")
    write_mcp_json(godot_project, entry(command="uvx", args=("godot-bridge@0.1.0",)))
    check = one(await diagnose(godot_project, data_home, PATH=str(bin_dir)), "entry_start")
    assert check.status == "fail" and "exited with status 1 before answering" in check.detail
    assert "not found in the package registry" in check.detail and check.fix and "--launch installed" in check.fix


async def test_entry_answering_as_another_server_or_version(godot_project: Path, data_home: Path,
                                                            tmp_path: Path) -> None:
    answer = ("import sys, json; sys.stdin.readline(); print(json.dumps({'jsonrpc': '2.0', 'id': 1, 'result': "
              "{'serverInfo': {'name': NAME, 'version': '0.0.9'}}}), flush=True); sys.stdin.read()")
    other = fake_command(tmp_path / "bin", "other", answer.replace("NAME", "'other-server'"))
    write_mcp_json(godot_project, entry(command=str(other), args=()))
    check = one(await diagnose(godot_project, data_home), "entry_start")
    assert check.status == "fail" and "other-server answered, not godot-bridge" in check.detail
    old = fake_command(tmp_path / "bin", "old", answer.replace("NAME", "'godot-bridge'"))
    write_mcp_json(godot_project, entry(command=str(old), args=()))
    check = one(await diagnose(godot_project, data_home), "entry_start")
    assert check.status == "fail" and "starts godot-bridge 0.0.9, but the project's plugin is 0.1.0" in check.detail


async def test_entry_that_never_answers_is_stopped(godot_project: Path, data_home: Path, tmp_path: Path) -> None:
    mute = fake_command(tmp_path / "bin", "mute", "import sys, os; open(sys.argv[1], 'w').write(str(os.getpid())); "
                        "sys.stdin.read()")
    pid_file = tmp_path / "pid"
    write_mcp_json(godot_project, entry(command=str(mute), args=(str(pid_file),)))
    ctx = doctor.build_context(str(godot_project), {"XDG_DATA_HOME": str(data_home), "HOME": str(data_home)},
                               FAST_PROBE)
    ctx.start_timeout = 0.5
    check = next(c for c in await doctor.check_entry_start(ctx))
    assert check.status == "fail" and "did not answer initialize within 0.5 s" in check.detail
    pid = int(pid_file.read_text(encoding="utf-8"))
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)  # closing its stdin ended it: nothing is left running


# -- runs with nobody to ask: GODOT_MCP_ALLOW_UNASKED ------------------------------------------------


async def test_the_tools_allowed_unasked_are_shown(godot_project: Path, data_home: Path) -> None:
    unset = one(await diagnose(godot_project, data_home), "unasked")
    assert unset.status == "ok" and "GODOT_MCP_ALLOW_UNASKED=" in unset.detail and "cannot use them" in unset.detail
    named = one(await diagnose(godot_project, data_home, GODOT_MCP_ALLOW_UNASKED="execute_code,save_write"), "unasked")
    assert named.status == "ok" and "execute_code, save_write run without asking anyone" in named.detail
    typo = one(await diagnose(godot_project, data_home, GODOT_MCP_ALLOW_UNASKED="execute_cod,scene_get_tree"),
               "unasked")
    assert typo.status == "warn" and "not tools of the catalogue: execute_cod" in typo.detail
    assert "never ask anyway: scene_get_tree" in typo.detail
    bad = one(await diagnose(godot_project, data_home, GODOT_MCP_ALLOW_UNASKED="execute_code;true"), "unasked")
    assert bad.status == "fail" and bad.fix
    spaced = one(await diagnose(godot_project, data_home, GODOT_MCP_ALLOW_UNASKED="execute_code save_write"), "unasked")
    assert spaced.status == "fail" and "separated by commas" in spaced.detail, "only the comma separates"
    cased = one(await diagnose(godot_project, data_home, GODOT_MCP_ALLOW_UNASKED="Execute_Code"), "unasked")
    assert cased.status == "warn" and "Execute_Code (did you mean execute_code?)" in cased.detail


async def test_which_setting_wins_is_shown(godot_project: Path, data_home: Path) -> None:
    plain = one(await diagnose(godot_project, data_home), "confirm")
    assert plain.status == "ok" and "when settings disagree the stricter wins: GODOT_MCP_CONFIRM_IN_EDITOR=1" in \
        plain.detail and plain.detail.index("GODOT_MCP_CONFIRM=always: every change asks") < \
        plain.detail.index("GODOT_MCP_ALLOW_UNASKED: the named tools run")
    both = {"GODOT_MCP_CONFIRM_IN_EDITOR": "1", "GODOT_MCP_ALLOW_UNASKED": "execute_code"}
    confirm = one(await diagnose(godot_project, data_home, **both), "confirm")
    assert confirm.status == "warn" and "Overridden: GODOT_MCP_ALLOW_UNASKED=execute_code does not apply: " \
        "GODOT_MCP_CONFIRM_IN_EDITOR=1 is stricter" in confirm.detail and "asked in a dialog of the Godot editor" \
        in confirm.detail
    unasked = one(await diagnose(godot_project, data_home, **both), "unasked")
    assert unasked.status == "warn" and "does not apply" in unasked.detail
    assert "run without asking" not in unasked.detail
    always = one(await diagnose(godot_project, data_home, GODOT_MCP_CONFIRM="always",
                                GODOT_MCP_ALLOW_UNASKED="execute_code"), "confirm")
    assert always.status == "warn" and "GODOT_MCP_CONFIRM=always is stricter" in always.detail


# -- a client that passes on only some variables (Codex) ------------------------------------------


def codex_toml(project: Path, command: Path, env: dict[str, str] | None = None) -> None:
    (project / ".codex").mkdir(exist_ok=True)
    table = ", ".join(f'{k} = "{v}"' for k, v in (env or {}).items())
    (project / ".codex" / "config.toml").write_text(
        f'[mcp_servers.godot-mcp-toolkit]\ncommand = "{command}"\nargs = []\nenv = {{{table}}}\n', encoding="utf-8")


async def test_codex_entry_is_started_with_codex_s_environment(godot_project: Path, data_home: Path,
                                                              tmp_path: Path) -> None:
    """doctor starts each entry as its client would: Codex passes on HOME, PATH and a few more, not
    XDG_DATA_HOME, so the bridge it starts reads the default folder's registry, not the editor's."""
    # Answers initialize with the XDG_DATA_HOME it was given as its version, to show what it saw.
    echo = fake_command(tmp_path / "bin", "echo-env", "import sys, json, os; sys.stdin.readline(); print(json.dumps("
                        "{'jsonrpc': '2.0', 'id': 1, 'result': {'serverInfo': {'name': 'godot-bridge', 'version': "
                        "os.environ.get('XDG_DATA_HOME', 'unset')}}}), flush=True); sys.stdin.read()")
    codex_toml(godot_project, echo)
    write_mcp_json(godot_project, entry(command=str(echo), args=()))
    found = await diagnose(godot_project, data_home)
    started = {c.title: c.detail for c in found["entry_start"]}
    assert "starts godot-bridge unset" in started[".codex/config.toml starts"]
    assert f"starts godot-bridge {data_home}" in started[".mcp.json starts"], "Claude Code passes everything on"
    check = one(found, "client_env")
    assert check.status == "fail" and check.title == ".codex/config.toml environment"
    assert "does not carry XDG_DATA_HOME" in check.detail
    assert f"reads the registry {Path.home() / '.local/share/godot-mcp-toolkit/projects.json'}" in check.detail
    assert check.fix and "--client codex" in check.fix
    codex_toml(godot_project, echo, {"XDG_DATA_HOME": str(data_home)})  # what init writes (test_client_files)
    found = await diagnose(godot_project, data_home)
    assert one(found, "client_env").status == "ok"
    assert f"starts godot-bridge {data_home}" in next(c.detail for c in found["entry_start"] if "codex" in c.title)
