"""`godot-bridge init` on throwaway projects: fresh, already set up, older / newer / edited toolkit,
project.godot and client configs the user already has, and failures that must change nothing."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from godot_bridge.setup import addon_install, client_entry, client_limits, bridge_command, file_batch, init
from godot_bridge.shipped import mcp_entry
from godot_bridge.shipped.toolkit_files import ADDON_REL, PLUGIN_RES_PATH, files, toolkit_dir
from tests.support.setup_project import PROJECT_GODOT, project, snapshot  # noqa: F401 - project: a fixture

REPO = Path(__file__).resolve().parents[2]
OUR_KEY = mcp_entry.definition().server_key
LAUNCH = bridge_command.choose(None, client_entry.os_name()).as_entry()


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    # doctor reads the registry under XDG_DATA_HOME: a private, empty one.
    data = tmp_path / "xdg"
    data.mkdir()
    return {"XDG_DATA_HOME": str(data), "PATH": os.environ.get("PATH", "")}


def run_init(project: Path, env: dict[str, str], *extra: str) -> int:
    return init.main(["--project", str(project), *extra], env)


def shipped() -> dict[str, bytes]:
    return {rel: p.read_bytes() for rel, p in files(toolkit_dir()).items()}


def install_as(project: Path, version: str, *, record: bool) -> Path:
    """A toolkit copy claiming ``version``, optionally with the record an install of it leaves."""
    addon = project / ADDON_REL
    shutil.copytree(toolkit_dir(), addon)
    cfg = addon / "plugin.cfg"
    cfg.write_text(cfg.read_text(encoding="utf-8").replace(f'version="{_version()}"', f'version="{version}"'),
                   encoding="utf-8")
    if record:
        present = {rel: p.read_bytes() for rel, p in files(addon).items()}
        (addon / addon_install.RECORD).write_bytes(addon_install.record_bytes(version, present))
    return addon


def _version() -> str:
    from godot_bridge import __version__

    return __version__


# -- a fresh project ----------------------------------------------------------------------------


def test_fresh_project(project: Path, env: dict[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    assert run_init(project, env) == 0
    out = capsys.readouterr().out
    addon = project / ADDON_REL
    copied = {rel: data for rel, data in snapshot(addon).items() if rel != addon_install.RECORD}
    assert copied == shipped(), "the toolkit, byte for byte"
    record = json.loads((addon / addon_install.RECORD).read_text(encoding="utf-8"))
    assert record["version"] == _version() and set(record["files"]) == set(shipped())
    text = (project / "project.godot").read_text(encoding="utf-8")
    assert text == PROJECT_GODOT + f'\n[editor_plugins]\n\nenabled=PackedStringArray("{PLUGIN_RES_PATH}")\n'
    config = json.loads((project / ".mcp.json").read_text(encoding="utf-8"))
    # The entry runs the bridge that ran init (installed from this checkout: its own script).
    # Its time limit outlasts the longest call (client_limits.py); Claude Code, Copilot CLI and Qwen Code read it.
    # Claude Code searches its tools: every tool is listed (Qwen Code, which reads the file too, would not want it).
    assert config == {"mcpServers": {OUR_KEY: {**LAUNCH, "env": {"GODOT_MCP_TOOL_LIST": "all",
                                                                 "GODOT_MCP_CONFIG_VERSION": "1"},
                                               "timeout": client_limits.longest_call_s() * 1000}}}
    assert "GODOT_MCP_TOOL_LIST=all" in out and "--client qwen" in out
    assert Path(config["mcpServers"][OUR_KEY]["command"]).name == "godot-bridge"
    assert record["launch"] == {**LAUNCH, "how": "installed"}, "the dock reads what init chose"
    # It ends with doctor, which started the entry, and says what is left: the editor, not failures.
    assert "godot-bridge doctor" in out and "✓ Project" in out and "✓ .mcp.json" in out
    assert "✓ .mcp.json starts" in out and "godot-bridge 0.1.0 answered initialize" in out
    assert "✗" not in out and "failed" not in out and "… Editor port" in out
    assert "set-up done; waiting for the editor" in out
    assert "Left to do:" in out and f"godot --headless --editor --path {project}" in out
    assert f"godot-bridge init --project {shlex.quote(str(project))} --env GODOT_MCP_AUTOLAUNCH=headless" in out, \
        "a suggested command keeps the --project given"


def test_second_run_changes_nothing_and_says_so(project: Path, env: dict[str, str],
                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert run_init(project, env) == 0
    before = {rel: (p.read_bytes(), p.stat().st_mtime_ns) for rel, p in
              ((p.relative_to(project).as_posix(), p) for p in project.rglob("*") if p.is_file())}
    capsys.readouterr()
    assert run_init(project, env) == 0
    out = capsys.readouterr().out
    assert f"Nothing to change in {project}" in out
    after = {rel: (p.read_bytes(), p.stat().st_mtime_ns) for rel, p in
             ((p.relative_to(project).as_posix(), p) for p in project.rglob("*") if p.is_file())}
    assert after == before, "not even rewritten with the same bytes"


def test_dry_run_writes_nothing(project: Path, env: dict[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    before = snapshot(project)
    assert run_init(project, env, "--dry-run", "--client", "vscode") == 0
    out = capsys.readouterr().out
    assert snapshot(project) == before
    assert "Would change" in out and "copy toolkit" in out and "write .vscode/mcp.json" in out
    assert "enable the plugin in project.godot" in out and "Dry run: nothing was written." in out


def test_refuses_a_folder_without_project_godot(tmp_path: Path, env: dict[str, str],
                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert run_init(tmp_path, env) == 1
    assert "has no project.godot" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == [tmp_path / "xdg"]


# -- an existing toolkit copy ---------------------------------------------------------------------


def test_older_copy_is_upgraded_and_its_old_files_cleaned(project: Path, env: dict[str, str],
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    addon = install_as(project, "0.0.9", record=False)
    (addon / "commands" / "retired_commands.gd").write_text("extends RefCounted\n", encoding="utf-8")
    present = {rel: p.read_bytes() for rel, p in files(addon).items()}
    (addon / addon_install.RECORD).write_bytes(addon_install.record_bytes("0.0.9", present))
    # What Godot 4.4+ writes beside each script once the project is opened: not the user's files.
    (addon / "commands" / "retired_commands.gd.uid").write_text("uid://b1\n", encoding="utf-8")
    (addon / "plugin.gd.uid").write_text("uid://b2\n", encoding="utf-8")
    (addon / "mcp_extensions").mkdir()
    (addon / "mcp_extensions" / "mine.gd").write_text("extends Node\n", encoding="utf-8")
    assert run_init(project, env) == 0
    out = capsys.readouterr().out
    assert f"upgrade toolkit 0.0.9 to {_version()}" in out
    now = snapshot(addon)
    assert {rel: now[rel] for rel in shipped()} == shipped()
    assert "commands/retired_commands.gd" not in now, "a file the old install put there and this one does not ship"
    assert "commands/retired_commands.gd.uid" not in now, "its Godot sidecar goes with it"
    assert now["plugin.gd.uid"] == b"uid://b2\n", "a sidecar of a file that stays is left to Godot"
    assert now["mcp_extensions/mine.gd"] == b"extends Node\n", "the user's own file stays"
    assert "keep 1 file(s)" in out and "mcp_extensions/mine.gd" in out, "sidecars are not the user's files"


def test_older_copy_without_a_record_is_upgraded(project: Path, env: dict[str, str]) -> None:
    addon = install_as(project, "0.0.1", record=False)
    (addon / "plugin.gd").write_text("# hand edit\n", encoding="utf-8")
    assert run_init(project, env) == 0
    assert (addon / "plugin.gd").read_bytes() == (toolkit_dir() / "plugin.gd").read_bytes()


def test_older_copy_edited_since_install_is_left_alone(project: Path, env: dict[str, str],
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    addon = install_as(project, "0.0.9", record=True)
    (addon / "plugin.gd").write_text("# my fix\n", encoding="utf-8")
    before = snapshot(project)
    assert run_init(project, env) == 1
    err = capsys.readouterr().err
    assert "was changed locally" in err and "plugin.gd" in err and "--force" in err
    assert snapshot(project) == before, "nothing at all is written: not project.godot, not .mcp.json"
    assert run_init(project, env, "--force") == 0
    assert (addon / "plugin.gd").read_bytes() == (toolkit_dir() / "plugin.gd").read_bytes()


def test_newer_copy_needs_force(project: Path, env: dict[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    addon = install_as(project, "99.0.0", record=True)
    before = snapshot(project)
    assert run_init(project, env) == 1
    assert f"toolkit 99.0.0, newer than this bridge's {_version()}" in capsys.readouterr().err
    assert snapshot(project) == before
    assert run_init(project, env, "--force") == 0
    assert "replace toolkit 99.0.0" in capsys.readouterr().out
    assert (addon / "plugin.cfg").read_bytes() == (toolkit_dir() / "plugin.cfg").read_bytes()


def test_same_version_edited_lists_the_files(project: Path, env: dict[str, str],
                                             capsys: pytest.CaptureFixture[str]) -> None:
    assert run_init(project, env) == 0
    addon = project / ADDON_REL
    (addon / "ui" / "dock.gd").write_text("# edited\n", encoding="utf-8")
    (addon / "base" / "version_utils.gd").unlink()
    capsys.readouterr()
    before = snapshot(project)
    assert run_init(project, env) == 1
    err = capsys.readouterr().err
    assert "base/version_utils.gd, ui/dock.gd" in err
    assert snapshot(project) == before


def test_a_linked_toolkit_is_never_written_through(project: Path, env: dict[str, str], tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    (project / "addons").mkdir()
    link = project / ADDON_REL
    link.symlink_to(toolkit_dir(), target_is_directory=True)  # a developer's checkout, linked in
    assert run_init(project, env) == 0
    assert "copy toolkit" not in capsys.readouterr().out and link.is_symlink()
    other = tmp_path / "other_toolkit"
    shutil.copytree(toolkit_dir(), other)
    (other / "plugin.gd").write_text("# elsewhere\n", encoding="utf-8")
    link.unlink()
    link.symlink_to(other, target_is_directory=True)
    assert run_init(project, env, "--force") == 1
    err = capsys.readouterr().err
    assert "symbolic link" in err and "--force" not in err
    assert (other / "plugin.gd").read_text(encoding="utf-8") == "# elsewhere\n"


# -- files the user already has -----------------------------------------------------------------


def test_project_godot_with_other_plugins_and_odd_formatting(project: Path, env: dict[str, str]) -> None:
    original = ('; Engine configuration file.\r\n\r\nconfig_version=5\r\n\r\n[application]\r\n\r\n'
                'config/name = "Odd"\r\nconfig/description="two\r\nlines [x]"\r\n\r\n[editor_plugins]\r\n\r\n'
                'enabled = PackedStringArray( "res://addons/gut/plugin.cfg" ,\r\n  "res://addons/x/plugin.cfg" )\r\n'
                '\r\n[rendering]\r\n\r\nx=1')
    (project / "project.godot").write_bytes(original.encode("utf-8"))
    assert run_init(project, env) == 0
    after = (project / "project.godot").read_bytes().decode("utf-8")
    marker = '"res://addons/x/plugin.cfg"'
    assert after == original.replace(marker, f'{marker}, "{PLUGIN_RES_PATH}"')


def test_existing_client_configs_keep_every_other_server(project: Path, env: dict[str, str]) -> None:
    others = {"filesystem": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "."],
                             "timeout": 0, "ratio": 0.5},
              "github": {"command": "docker", "args": ["run", "x"], "env": {"TOKEN": "t"}}}
    (project / ".mcp.json").write_text(json.dumps({"mcpServers": others, "note": "team"}), encoding="utf-8")
    (project / ".vscode").mkdir()
    (project / ".vscode" / "mcp.json").write_text(json.dumps({"servers": {"other": {"command": "x"}},
                                                              "inputs": []}), encoding="utf-8")
    before = (project / ".mcp.json").read_bytes()
    assert run_init(project, env, "--client", "claude", "vscode") == 0
    config = json.loads((project / ".mcp.json").read_text(encoding="utf-8"))
    assert {k: v for k, v in config["mcpServers"].items() if k != OUR_KEY} == others
    assert config["note"] == "team"
    claude = mcp_entry.definition().clients["claude"]
    assert config["mcpServers"][OUR_KEY] == client_entry.merge(
        {}, client_entry.os_name(), {"GODOT_MCP_TOOL_LIST": "all"}, launch=LAUNCH, client=claude,
        floors=client_limits.floors(claude))["mcpServers"][OUR_KEY]
    text = (project / ".mcp.json").read_bytes()
    assert text.startswith(before[:before.index(b"}}") + 1]), "the other servers' text is untouched"
    vscode = json.loads((project / ".vscode" / "mcp.json").read_text(encoding="utf-8"))
    assert set(vscode["servers"]) == {"other", OUR_KEY} and vscode["inputs"] == []
    assert vscode["servers"][OUR_KEY]["type"] == "stdio", "VS Code needs the transport named"
    assert "mcpServers" not in vscode, "VS Code's file keeps its own servers key"


def test_env_options_land_in_the_entry_and_keep_the_users(project: Path, env: dict[str, str]) -> None:
    (project / ".mcp.json").write_text(json.dumps({"mcpServers": {OUR_KEY: {
        "command": "uvx", "args": [], "env": {"UV_PYTHON": "3.12", "GODOT_MCP_READ_ONLY": "1"}}}}), encoding="utf-8")
    assert run_init(project, env, "--env", "GODOT_MCP_IMAGE_MODE=link", "--env", "GODOT_MCP_READ_ONLY=") == 0
    entry = json.loads((project / ".mcp.json").read_text(encoding="utf-8"))["mcpServers"][OUR_KEY]
    assert entry["env"] == {"UV_PYTHON": "3.12", "GODOT_MCP_TOOL_LIST": "all", "GODOT_MCP_IMAGE_MODE": "link",
                            "GODOT_MCP_CONFIG_VERSION": "1"}


@pytest.mark.parametrize(("flag", "message"), [
    ("GODOT_MCP_IMAGE_MODE=huge", "GODOT_MCP_IMAGE_MODE: 'huge' is not one of"),
    ("GODOT_MCP_TYPO=1", "GODOT_MCP_TYPO is not a variable the bridge reads"),
    ("NOEQUALS", "expected NAME=VALUE"),
])
def test_bad_env_options_change_nothing(project: Path, env: dict[str, str], flag: str, message: str,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    before = snapshot(project)
    assert run_init(project, env, "--env", flag) == 2, "a usage error"
    err = capsys.readouterr().err
    assert message in err and "Run 'godot-bridge init --help'" in err and len(err.splitlines()) == 2
    assert snapshot(project) == before


def test_unknown_client_is_a_usage_error(project: Path, env: dict[str, str]) -> None:
    with pytest.raises(SystemExit) as exited:
        run_init(project, env, "--client", "emacs")
    assert exited.value.code == 2


def test_invalid_client_config_changes_nothing(project: Path, env: dict[str, str],
                                               capsys: pytest.CaptureFixture[str]) -> None:
    (project / ".mcp.json").write_text('{"mcpServers": {"a": 1,}}', encoding="utf-8")
    before = snapshot(project)
    assert run_init(project, env) == 1
    assert "is not valid JSON" in capsys.readouterr().err
    assert snapshot(project) == before


def test_our_entry_not_an_object_is_refused(project: Path, env: dict[str, str],
                                            capsys: pytest.CaptureFixture[str]) -> None:
    (project / ".mcp.json").write_text(json.dumps({"mcpServers": {OUR_KEY: "uvx godot-bridge"}}), encoding="utf-8")
    before = snapshot(project)
    assert run_init(project, env) == 1
    assert f'"mcpServers.{OUR_KEY}" is not an object' in capsys.readouterr().err
    assert snapshot(project) == before


# -- failures half-way ----------------------------------------------------------------------------


def test_failure_while_swapping_puts_everything_back(project: Path, env: dict[str, str],
                                                     monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    (project / ".mcp.json").write_text('{"mcpServers": {"other": {"command": "x"}}}\n', encoding="utf-8")
    before = snapshot(project)
    real, calls = os.replace, []

    def fail_late(src: str | Path, dst: str | Path) -> None:
        calls.append(dst)
        if str(dst).endswith("project.godot"):  # the last file of the batch
            raise OSError(5, "Input/output error")
        real(src, dst)

    monkeypatch.setattr(file_batch, "_replace", fail_late)
    assert run_init(project, env) == 1
    assert "every file was put back as it was" in capsys.readouterr().err
    assert len(calls) > 100, "it failed after most of the batch had landed"
    assert snapshot(project) == before
    assert not (project / "addons").exists()


def _read_only_command(project: Path) -> list[str]:
    base = [sys.executable, "-m", "godot_bridge", "init", "--project", str(project)]
    if os.geteuid() != 0:
        return base
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root without setpriv: permission bits cannot be enforced")
    # Root ignores permission bits through these two capabilities; without them the folder is read-only to us.
    return [setpriv, "--bounding-set=-dac_override,-dac_read_search", *base]


def test_read_only_project_folder(project: Path, env: dict[str, str]) -> None:
    before = snapshot(project)
    project.chmod(0o555)
    try:
        done = subprocess.run(_read_only_command(project), capture_output=True, text=True, timeout=60, check=False,
                              env={**env, "PYTHONPATH": str(REPO)}, cwd=str(REPO), stdin=subprocess.DEVNULL)
    finally:
        project.chmod(0o755)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Permission denied; nothing was changed" in done.stderr
    assert str(project) in done.stderr
    assert snapshot(project) == before
    assert sorted(p.name for p in project.iterdir()) == ["project.godot"], "no folder, no temp file left"
