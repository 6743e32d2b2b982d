"""`godot-bridge uninstall`: what init put in comes out, what the user put in stays (unless --force),
and a problem found while planning changes nothing."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from godot_bridge.setup import addon_install, init, uninstall
from godot_bridge.setup.locate import locate
from godot_bridge.shipped.toolkit_files import ADDON_REL
from tests.support.setup_project import PROJECT_GODOT, project, snapshot  # noqa: F401 - project: a fixture



@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    data = tmp_path / "xdg"
    data.mkdir()
    return {"XDG_DATA_HOME": str(data), "HOME": str(tmp_path / "home"), "PATH": os.environ.get("PATH", "")}


def test_init_then_uninstall_gives_back_the_project(project: Path, env: dict[str, str]) -> None:
    (project / ".mcp.json").write_text('{\n  "mcpServers": {\n    "other": {"command": "x"}\n  }\n}\n',
                                       encoding="utf-8")
    before = snapshot(project)
    assert init.main(["--project", str(project), "--client", "claude", "vscode"], env) == 0
    assert snapshot(project) != before
    assert uninstall.main(["--project", str(project)], env) == 0
    assert snapshot(project) == before
    assert sorted(p.name for p in project.iterdir()) == [".mcp.json", "project.godot"], "no folder left behind"


def test_the_users_own_files_stay_unless_forced(project: Path, env: dict[str, str],
                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert init.main(["--project", str(project)], env) == 0
    addon = project / ADDON_REL
    (addon / "my_extension.gd").write_text("extends Node\n", encoding="utf-8")
    (addon / "plugin.gd").write_text((addon / "plugin.gd").read_text(encoding="utf-8") + "# mine\n", encoding="utf-8")
    (addon / "plugin.gd.uid").write_text("uid://x\n", encoding="utf-8")  # Godot's, beside a toolkit file
    capsys.readouterr()
    assert uninstall.main(["--project", str(project)], env) == 0
    out = capsys.readouterr().out
    assert sorted(p.relative_to(addon).as_posix() for p in addon.rglob("*") if p.is_file()) == [
        addon_install.RECORD, "my_extension.gd", "plugin.gd", "plugin.gd.uid"]
    assert "kept: addons/godot_mcp_toolkit/: 1 file(s) you changed: plugin.gd" in out
    assert "my_extension.gd (--force removes them too)" in out
    assert "godot_mcp_toolkit" not in (project / "project.godot").read_text(encoding="utf-8")
    assert not (project / ".mcp.json").exists()
    assert uninstall.main(["--project", str(project), "--force"], env) == 0
    assert not (project / "addons").exists()


def test_dry_run_and_a_problem_change_nothing(project: Path, env: dict[str, str],
                                             capsys: pytest.CaptureFixture[str]) -> None:
    assert init.main(["--project", str(project), "--client", "gemini"], env) == 0
    after_init = snapshot(project)
    assert uninstall.main(["--project", str(project), "--dry-run"], env) == 0
    assert "Would change" in capsys.readouterr().out and snapshot(project) == after_init
    settings = project / ".gemini" / "settings.json"
    settings.write_text(settings.read_text(encoding="utf-8")[:-3], encoding="utf-8")  # broken JSON
    broken = snapshot(project)
    assert uninstall.main(["--project", str(project)], env) == 1
    assert "not JSON with comments" in capsys.readouterr().err
    assert snapshot(project) == broken


def test_a_hand_written_entry_is_named_not_removed(project: Path, env: dict[str, str],
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    text = json.dumps({"mcpServers": {"my-godot-bridge": {"command": "godot-bridge"}}})
    (project / ".mcp.json").write_text(text, encoding="utf-8")
    assert uninstall.main(["--project", str(project)], env) == 0
    assert (project / ".mcp.json").read_text(encoding="utf-8") == text
    assert "'my-godot-bridge' is not the one init writes" in capsys.readouterr().out


def test_a_read_only_project_godot_is_refused_by_both(project: Path, env: dict[str, str],
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    path = project / "project.godot"
    path.chmod(0o444)
    try:
        before = snapshot(project)
        assert init.main(["--project", str(project)], env) == 1
        err = capsys.readouterr().err
        assert "project.godot is read-only (mode 0444)" in err and "Nothing was changed" in err
        assert snapshot(project) == before
        path.chmod(0o644)
        assert init.main(["--project", str(project)], env) == 0
        path.chmod(0o444)
        after = snapshot(project)
        assert uninstall.main(["--project", str(project)], env) == 1
        assert "is read-only" in capsys.readouterr().err and snapshot(project) == after
    finally:
        path.chmod(0o644)


def test_where_the_client_files_go(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = tmp_path / "repo"
    game = repo / "game"
    game.mkdir(parents=True)
    (game / "project.godot").write_text(PROJECT_GODOT, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert locate(str(repo), {}).root == repo, "pointed at the repository: its root"
    assert locate(str(game), {}).root == game, "pointed at the project, from outside a repository: the project"
    subprocess.run(["git", "init", "-q", str(repo)], check=True, timeout=30)
    monkeypatch.chdir(repo)
    where = locate("game", {})
    assert where.root == repo and where.project == game and where.below_root, "from the repository's root"
    monkeypatch.chdir(game)
    assert locate(None, {}).root == game
