"""``.mcp.json`` as the live configuration: which entry, which keys, what a reload changes."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import pytest

from godot_bridge.config import Settings
from godot_bridge.live_config import ConfigFileError, LiveConfig, our_env


def config_text(env: dict[str, Any], key: str = "godot-mcp-toolkit") -> str:
    return json.dumps({"mcpServers": {"other": {"command": "x", "env": {"GODOT_MCP_READ_ONLY": "1"}},
                                      key: {"command": "uvx", "env": env}}})


def test_our_entry_by_name_then_by_substring():
    assert our_env(config_text({"GODOT_MCP_READ_ONLY": "1", "PATH": "/x"})) == {"GODOT_MCP_READ_ONLY": "1"}
    assert our_env(config_text({"GODOT_MCP_RATE_LIMIT": 5}, key="my-godot-bridge")) == {"GODOT_MCP_RATE_LIMIT": "5"}
    assert our_env(config_text({"GODOT_MCP_READ_ONLY": True}, key="godot-mcp-dev")) == {"GODOT_MCP_READ_ONLY": "1"}
    # The project folder is who we are: the file cannot move it.
    assert our_env(config_text({"GODOT_MCP_PROJECT_PATH": "/elsewhere"})) == {}


@pytest.mark.parametrize("text, why", [
    ("{oops", "not valid JSON"),
    ("[]", "mcpServers"),
    (json.dumps({"mcpServers": {"other": {}}}), "no 'godot-mcp-toolkit' entry"),
    (json.dumps({"mcpServers": {"godot-mcp-toolkit": []}}), "is not an object"),
    (json.dumps({"mcpServers": {"godot-mcp-toolkit": {"env": "x"}}}), "env is not an object"),
    (config_text({"GODOT_MCP_READ_ONLY": ["1"]}), "GODOT_MCP_READ_ONLY must be"),
])
def test_unusable_files_say_why(text: str, why: str):
    with pytest.raises(ConfigFileError, match=why):
        our_env(text)


class Applied:
    def __init__(self) -> None:
        self.seen: list[Settings] = []

    def __call__(self, settings: Settings) -> None:
        self.seen.append(settings)


def make(project: Path, launch_env: dict[str, str], file_env: dict[str, str] | None, **cli: Any
         ) -> tuple[LiveConfig, Applied]:
    if file_env is not None:
        (project / ".mcp.json").write_text(config_text(file_env), encoding="utf-8")
    settings = Settings.from_env(launch_env, project=str(project), **cli)
    applied = Applied()
    return LiveConfig(settings, applied), applied


def test_launch_file_keys_are_the_files_to_drop(tmp_path: Path):
    launch = {"GODOT_MCP_READ_ONLY": "1", "GODOT_MCP_RATE_LIMIT": "9", "HOME": "/h"}
    live, applied = make(tmp_path, launch, {"GODOT_MCP_READ_ONLY": "1"})
    assert live.reload() is False and applied.seen == []  # the file says what we launched with
    (tmp_path / ".mcp.json").write_text(config_text({"GODOT_MCP_SCRIPT_READ_LIMIT": "64"}), encoding="utf-8")
    assert live.reload() is True
    now = applied.seen[-1]
    # READ_ONLY came from the file and left it; RATE_LIMIT came from elsewhere and stays.
    assert (now.read_only, now.rate_limit, now.script_read_limit_kb) == (False, 9, 64)
    assert now.env["HOME"] == "/h"
    assert live.reload() is False  # unchanged file, nothing applied twice


def test_file_differing_from_launch_applies_at_first_read(tmp_path: Path):
    # The user edited the file after the client launched us: the file wins at the first read.
    live, applied = make(tmp_path, {}, {"GODOT_MCP_READ_ONLY": "yes"})
    assert live.reload() is True and applied.seen[-1].read_only is True


def test_bad_file_keeps_the_last_good_settings_and_says_why_once(tmp_path: Path, caplog: pytest.LogCaptureFixture):
    live, applied = make(tmp_path, {}, {})
    for _ in range(2):
        (tmp_path / ".mcp.json").write_text(config_text({"GODOT_MCP_RATE_LIMIT": "zero"}), encoding="utf-8")
        with caplog.at_level(logging.WARNING, logger="godot_bridge.live_config"):
            assert live.reload() is False
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and "GODOT_MCP_RATE_LIMIT" in warnings[0] and "keeping" in warnings[0]
    assert applied.seen == [] and live.settings.rate_limit is None
    (tmp_path / ".mcp.json").unlink()
    assert live.reload() is False  # no file: nothing to follow


def test_flags_still_win_over_the_file(tmp_path: Path):
    live, applied = make(tmp_path, {}, {}, editor_port=7001)
    (tmp_path / ".mcp.json").write_text(
        config_text({"GODOT_MCP_EDITOR_PORT": "7002", "GODOT_MCP_RUNTIME_PORT": "7003"}), encoding="utf-8")
    assert live.reload() is True
    assert (applied.seen[-1].editor_port, applied.seen[-1].runtime_port) == (7001, 7003)


def test_the_file_followed_for_a_project_below_the_root(tmp_path: Path) -> None:
    from godot_bridge.live_config import config_file

    repo = tmp_path / "repo"
    (repo / "game").mkdir(parents=True)
    (repo / "game" / "project.godot").write_text("config_version=5\n", encoding="utf-8")
    (repo / ".mcp.json").write_text("{}", encoding="utf-8")
    found_below = Settings.from_env({}, project=str(repo))
    assert found_below.project_path == repo / "game" and config_file(found_below, cwd=tmp_path) == repo / ".mcp.json"
    named = Settings.from_env({"GODOT_MCP_PROJECT_PATH": str(repo / "game")})  # the entry names it; started in repo
    assert config_file(named, cwd=repo) == repo / ".mcp.json"
    (repo / "game" / ".mcp.json").write_text("{}", encoding="utf-8")
    assert config_file(named, cwd=repo) == repo / "game" / ".mcp.json", "the project's own comes first"
