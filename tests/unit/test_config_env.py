"""config.ENV_CHECKS: the one list of variables the bridge reads, and the rule for each value."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from godot_bridge.config import EDITOR_ONLY_ENV, ENV_CHECKS, ConfigError, Settings, check_env_value

README = Path(__file__).resolve().parents[2] / "README.md"


def _readme_env_table() -> set[str]:
    text = README.read_text(encoding="utf-8")
    section = text.split("## Environment", 1)[1].split("\n## ", 1)[0]
    names: set[str] = set()
    for row in section.splitlines():
        if row.startswith("| `"):
            names |= set(re.findall(r"`(GODOT_[A-Z_]+)(?:=[^`]*)?`", row.split("|")[1]))
    return names


def test_every_documented_variable_has_a_rule_and_back() -> None:
    assert _readme_env_table() == set(ENV_CHECKS)


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("GODOT_MCP_EDITOR_PORT", "6550"), ("GODOT_MCP_EDITOR_PORT", ""), ("GODOT_MCP_READ_ONLY", "Yes"),
        ("GODOT_MCP_READ_ONLY", "0"), ("GODOT_MCP_RATE_LIMIT", "30"), ("GODOT_MCP_LOG_LEVEL", "debug"),
        ("GODOT_MCP_TOKEN_PATH", "/abs/mcp_token"), ("GODOT_BIN", "godot4"), ("GODOT_MCP_IMAGE_MODE", "link"),
        ("GODOT_MCP_IMAGE_MODE", "Inline"), ("GODOT_MCP_IMAGE_MODE", ""),
    ],
)
def test_valid_values(name: str, value: str) -> None:
    check_env_value(name, value)


@pytest.mark.parametrize(
    ("name", "value", "said"),
    [
        ("GODOT_MCP_EDITOR_PORT", "0", "invalid port"), ("GODOT_MCP_LSP_PORT", "65536", "invalid port"),
        ("GODOT_MCP_READ_ONLY", "please", "neither on"), ("GODOT_MCP_RATE_LIMIT", "0", "positive"),
        ("GODOT_MCP_WS_BUFFER_LIMIT", "1k", "positive"), ("GODOT_MCP_LOG_LEVEL", "loud", "not one of"),
        ("GODOT_MCP_TOKEN_PATH", "relative/mcp_token", "absolute"), ("GODOT_MCP_READONLY", "1", "not a variable"),
        ("GODOT_MCP_IMAGE_MODE", "links", "inline, link"),
    ],
)
def test_invalid_values_name_the_variable(name: str, value: str, said: str) -> None:
    with pytest.raises(ConfigError) as info:
        check_env_value(name, value)
    assert name in str(info.value) and said in str(info.value)


def test_editor_only_variables_are_not_bridge_variables() -> None:
    assert EDITOR_ONLY_ENV == {
        "GODOT_MCP_EDITOR_PORT_MIN", "GODOT_MCP_EDITOR_PORT_MAX", "GODOT_MCP_RUNTIME_PORT_MIN", "GODOT_MCP_RUNTIME_PORT_MAX"
    }
    assert not EDITOR_ONLY_ENV & set(ENV_CHECKS)


def test_image_mode_setting() -> None:
    assert Settings.from_env({}, project="/tmp").image_mode == "inline"
    assert Settings.from_env({"GODOT_MCP_IMAGE_MODE": " LINK "}, project="/tmp").image_mode == "link"
    with pytest.raises(ConfigError, match="GODOT_MCP_IMAGE_MODE"):
        Settings.from_env({"GODOT_MCP_IMAGE_MODE": "thumbnail"}, project="/tmp")
