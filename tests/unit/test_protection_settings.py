"""The settings that limit what the assistant may do, against what a model or a typo can do to them.

- An unknown value of a protection's flag is an error at start (naming the variable and the values
  it takes) and, in the live ``.mcp.json``, a reload that keeps the running value and says why.
- A reload that protects less (read-only off, less asking, more tools unasked, the editor's dialog
  off) is held until the next start and said on stderr; one that protects more applies at once.
- When the confirmation settings disagree the stricter wins, and start-up says what it overrode;
  ``GODOT_MCP_ALLOW_UNASKED`` takes commas only, and a name that is no tool is warned about with
  the closest one.
"""

from __future__ import annotations

import json
import logging
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from godot_bridge.app import BridgeApp
from godot_bridge.config import ConfigError, Settings
from godot_bridge.consent.caller import Caller
from godot_bridge.consent.policy import Policy, resolve
from godot_bridge.consent.question import Answer
from godot_bridge.live_config import hold_weakenings
from tests.support.bridge_process import bridge_env
from tests.unit.test_consent import Person, call, make_app

FLAGS = ("GODOT_MCP_READ_ONLY", "GODOT_MCP_CONFIRM_IN_EDITOR")
UNKNOWN = ("2", "enabled", "y", "ja", "read-only", "nein", "-1")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "project.godot").write_text("config_version=5\n")
    return tmp_path


def write_entry(project: Path, env: dict[str, Any]) -> None:
    entry = {"command": "uvx", "args": ["godot-bridge"], "env": env}
    (project / ".mcp.json").write_text(json.dumps({"mcpServers": {"godot-mcp-toolkit": entry}}), encoding="utf-8")


# -- unknown values ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", FLAGS)
@pytest.mark.parametrize("value", UNKNOWN)
def test_an_unknown_flag_value_is_an_error_naming_the_variable_and_its_values(project: Path, name: str,
                                                                             value: str) -> None:
    with pytest.raises(ConfigError) as refused:
        Settings.from_env({name: value}, project=str(project))
    said = str(refused.value)
    assert said.startswith(f"{name}: {value!r} is neither on (1, on, true, yes) nor off (0, false, no, off")


@pytest.mark.parametrize("name", FLAGS)
def test_the_documented_values_still_mean_what_they_say(project: Path, name: str) -> None:
    field = {"GODOT_MCP_READ_ONLY": "read_only", "GODOT_MCP_CONFIRM_IN_EDITOR": "confirm_in_editor"}[name]
    for value, meant in (("1", True), ("TRUE", True), (" yes ", True), ("on", True), ("0", False), ("", False),
                         ("false", False), ("No", False), ("off", False)):
        assert getattr(Settings.from_env({name: value}, project=str(project)), field) is meant, value


def test_the_bridge_refuses_to_start_on_an_unknown_flag_value(project: Path, tmp_path: Path) -> None:
    env = bridge_env(tmp_path / "data", project, {"GODOT_MCP_READ_ONLY": "enabled"})
    started = subprocess.run([sys.executable, "-m", "godot_bridge"], env=env, stdin=subprocess.DEVNULL,
                             capture_output=True, text=True, timeout=60, check=False)
    assert started.returncode == 1 and started.stdout == ""
    assert "GODOT_MCP_READ_ONLY: 'enabled' is neither on (1, on, true, yes) nor off" in started.stderr


def test_an_unknown_value_in_the_live_file_keeps_the_running_one(project: Path,
                                                                 caplog: pytest.LogCaptureFixture) -> None:
    write_entry(project, {"GODOT_MCP_READ_ONLY": "1"})
    app = BridgeApp(Settings.from_env({"GODOT_MCP_READ_ONLY": "1"}, project=str(project)))
    write_entry(project, {"GODOT_MCP_READ_ONLY": "enabled"})
    with caplog.at_level(logging.WARNING):
        assert app.live_config.reload() is False
    assert app.settings.read_only and app.surface.read_only
    assert "GODOT_MCP_READ_ONLY: 'enabled' is neither on" in caplog.text and "keeping the current configuration" \
        in caplog.text


# -- what a reload may change at once ---------------------------------------------------------------


@pytest.mark.parametrize(("running", "wanted", "env"), [
    ({"read_only": True}, {"read_only": False}, "GODOT_MCP_READ_ONLY=off turns read-only mode off"),
    ({"confirm": "always"}, {"confirm": "irreversible"}, "GODOT_MCP_CONFIRM=irreversible asks the person less"),
    ({"confirm": "irreversible"}, {"confirm": "never"}, "GODOT_MCP_CONFIRM=never asks the person less"),
    ({"confirm_in_editor": True}, {"confirm_in_editor": False},
     "GODOT_MCP_CONFIRM_IN_EDITOR=off stops asking in the editor's dialog"),
    ({}, {"allow_unasked": frozenset({"execute_code"})},
     "GODOT_MCP_ALLOW_UNASKED=execute_code lets more tools run without asking"),
])
def test_each_weakening_is_held_and_said(project: Path, running: dict[str, Any], wanted: dict[str, Any],
                                         env: str) -> None:
    now = Settings(project_path=project, **running)
    kept, said = hold_weakenings(now, Settings(project_path=project, **wanted))
    assert all(getattr(kept, field) == getattr(now, field) for field in wanted), "the running value stays"
    assert len(said) == 1 and said[0].startswith(env) and "only when your MCP client starts the bridge again" in said[0]
    back, nothing = hold_weakenings(kept, now)
    assert nothing == [] and back == now, "going back to the stronger value is no weakening"


def test_a_mixed_change_applies_what_protects_more_and_holds_the_rest(project: Path) -> None:
    now = Settings(project_path=project, confirm="irreversible",
                   allow_unasked=frozenset({"execute_code", "save_write"}))
    wanted = Settings(project_path=project, confirm="always", read_only=True, rate_limit=5,
                      allow_unasked=frozenset({"save_write", "scene_close"}))
    kept, said = hold_weakenings(now, wanted)
    assert (kept.confirm, kept.read_only, kept.rate_limit) == ("always", True, 5), "stronger and neutral apply"
    assert kept.allow_unasked == {"save_write"}, "a tool taken off the list is off at once; one added waits"
    assert [line.split("=")[0] for line in said] == ["GODOT_MCP_ALLOW_UNASKED"]


def test_removing_read_only_from_the_file_does_not_lift_it_while_running(project: Path,
                                                                         caplog: pytest.LogCaptureFixture) -> None:
    write_entry(project, {"GODOT_MCP_READ_ONLY": "1", "GODOT_MCP_CONFIRM_IN_EDITOR": "1"})
    app = BridgeApp(Settings.from_env({"GODOT_MCP_READ_ONLY": "1", "GODOT_MCP_CONFIRM_IN_EDITOR": "1"},
                                      project=str(project)))
    tools = app.tool_list()
    told: list[int] = []
    tools.on_change = lambda: told.append(1)
    listed = {tool.name for tool in tools.visible()}
    write_entry(project, {"GODOT_MCP_RATE_LIMIT": "7"})  # as the assistant's own file tools could
    with caplog.at_level(logging.WARNING):
        app.live_config.reload()
    assert app.surface.read_only and app.settings.read_only and {t.name for t in tools.visible()} == listed
    assert app.policy.in_editor and told == []
    assert app.settings.rate_limit == 7, "what protects nothing applies at once"
    assert "GODOT_MCP_READ_ONLY=off turns read-only mode off (running: on); it applies only when your MCP client " \
           "starts the bridge again" in caplog.text
    assert "GODOT_MCP_CONFIRM_IN_EDITOR=off" in caplog.text


def test_turning_read_only_on_in_the_file_applies_at_once(project: Path) -> None:
    write_entry(project, {})
    app = BridgeApp(Settings.from_env({}, project=str(project)))
    tools = app.tool_list()
    told: list[int] = []
    tools.on_change = lambda: told.append(1)
    write_entry(project, {"GODOT_MCP_READ_ONLY": "1"})
    assert app.live_config.reload() is True
    assert app.surface.read_only and told == [1] and all(t.read_only_safe or t.meta for t in tools.visible())


# -- which setting wins -----------------------------------------------------------------------------


@pytest.mark.parametrize(("settings", "policy", "overridden"), [
    ({"confirm_in_editor": True, "allow_unasked": frozenset({"execute_code"})},
     Policy("irreversible", True), ["GODOT_MCP_ALLOW_UNASKED=execute_code does not apply: "
                                    "GODOT_MCP_CONFIRM_IN_EDITOR=1 is stricter"]),
    ({"confirm": "always", "allow_unasked": frozenset({"execute_code"})},
     Policy("always"), ["GODOT_MCP_ALLOW_UNASKED=execute_code does not apply: GODOT_MCP_CONFIRM=always is stricter"]),
    ({"confirm": "never", "confirm_in_editor": True}, Policy("irreversible", True),
     ["GODOT_MCP_CONFIRM=never does not apply: GODOT_MCP_CONFIRM_IN_EDITOR=1"]),
    ({"allow_unasked": frozenset({"execute_code"})}, Policy(unasked=frozenset({"execute_code"})), []),
    ({"confirm": "never", "allow_unasked": frozenset({"execute_code"})},
     Policy("never", unasked=frozenset({"execute_code"})), []),
])
def test_the_stricter_setting_wins_and_says_what_it_overrode(project: Path, settings: dict[str, Any], policy: Policy,
                                                             overridden: list[str]) -> None:
    got, said = resolve(Settings(project_path=project, **settings))
    assert got == policy
    assert len(said) == len(overridden) and all(line.startswith(want) for line, want in zip(said, overridden))


async def test_the_editor_dialog_is_not_skipped_for_a_tool_allowed_unasked(project: Path,
                                                                           caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING):
        app, editor = make_app(project, confirm_in_editor=True, allow_unasked=frozenset({"execute_code"}))
    assert "GODOT_MCP_ALLOW_UNASKED=execute_code does not apply" in caplog.text, "said at start"
    editor.replies["editor.confirm"] = {"success": True, "answer": "decline"}
    declined = await call(app, "execute_code", {"code": "1", "channel": "editor"}, Caller(owner=object()))
    assert declined["status"] == "declined" and editor.forwarded == []
    assert [method for method, _ in editor.reads] == ["editor.confirm"], "the person at the editor was asked"


async def test_always_asks_even_for_a_tool_allowed_unasked(project: Path) -> None:
    app, editor = make_app(project, confirm="always", allow_unasked=frozenset({"execute_code"}))
    person = Person(Answer.DECLINE)
    declined = await call(app, "execute_code", {"code": "1", "channel": "editor"}, Caller(owner=object(), asker=person))
    assert declined["status"] == "declined" and len(person.asked) == 1 and editor.forwarded == []


def test_unknown_names_in_the_unasked_list_are_warned_about_at_start(project: Path,
                                                                     caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING):
        app = BridgeApp(Settings.from_env({"GODOT_MCP_ALLOW_UNASKED": "Execute_Code, save_writ,script_read_x,zzzz"},
                                          project=str(project)))
    warned = [r.getMessage() for r in caplog.records if "GODOT_MCP_ALLOW_UNASKED names no tool" in r.getMessage()]
    assert len(warned) == 1
    assert "Execute_Code (did you mean execute_code?)" in warned[0], "names are case-sensitive, with a suggestion"
    assert "save_writ (did you mean save_write?)" in warned[0] and ", zzzz" in warned[0]
    assert app.policy.unasked == {"Execute_Code", "save_writ", "script_read_x", "zzzz"}, "kept as written"
    assert not app.policy.allows_unasked(app.catalogue.tools["execute_code"]), "a name in another case is no name"


def test_a_correct_list_warns_nothing(project: Path, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING):
        app = BridgeApp(Settings.from_env({"GODOT_MCP_ALLOW_UNASKED": "execute_code,save_write"}, project=str(project)))
    assert app.policy.unasked == {"execute_code", "save_write"} and caplog.records == []
