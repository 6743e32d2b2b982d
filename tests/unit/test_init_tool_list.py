"""The tool list ``godot-bridge init`` writes into each client's entry (GODOT_MCP_TOOL_LIST, from
catalogue/clients.json): every tool for a client that searches its tools, the start-up set with groups
for one that sends every listed tool in each request, one safe value where clients share an entry, and
the person's own value kept."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from godot_bridge.config import TOOL_LIST_ENV, TOOL_LISTS
from godot_bridge.setup import client_entry, client_tool_list, init, bridge_command
from godot_bridge.setup.client_files import ClientFile, clients
from godot_bridge.setup.locate import locate
from godot_bridge.shipped import mcp_entry
from tests.support.setup_project import project  # noqa: F401 - a fixture

OUR_KEY = mcp_entry.definition().server_key
LAUNCH = bridge_command.choose(None, client_entry.os_name())
SEARCHING = {"claude", "cursor", "vscode", "codex", "copilot"}


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    data = tmp_path / "xdg"
    data.mkdir()
    return {"XDG_DATA_HOME": str(data), "PATH": os.environ.get("PATH", ""), "HOME": str(tmp_path / "home")}


def planned(project: Path, env: dict[str, str], *names: str, overrides: dict[str, str | None] | None = None
            ) -> tuple[init.Plan, dict[str, dict[str, Any]]]:
    """init's plan for ``names``, and the env of the entry it would write for each client."""
    plan = init.build_plan(locate(str(project), env), names, overrides or {}, False, launch=LAUNCH, env=env)
    entries = {}
    for name in names:
        client = clients()[name]
        path = init.client_path(client, plan.where, False, env)
        data = ClientFile(client, path, plan.drafts[path]).data() if path in plan.drafts else {}
        entry = client_entry.common(data.get(client.servers, {}).get(OUR_KEY, {}), client)
        entries[name] = entry.get("env", {})
    return plan, entries


def test_every_client_init_writes_for_has_a_checked_choice() -> None:
    table = client_tool_list.choices()
    assert set(table) == set(clients()), "each client init knows has its list, and what was checked of it"
    assert all(c.value in TOOL_LISTS and c.checked for c in table.values())
    assert {name for name, c in table.items() if c.value == "all"} == SEARCHING


@pytest.mark.parametrize("name", sorted(clients()))
def test_each_client_alone_gets_its_own_list(name: str, project: Path, env: dict[str, str]) -> None:
    _, entries = planned(project, env, name)
    assert entries[name][TOOL_LIST_ENV] == ("all" if name in SEARCHING else "groups")


def test_a_shared_entry_takes_groups_when_one_reader_sends_every_tool(project: Path, env: dict[str, str]) -> None:
    """.mcp.json serves Claude Code, Copilot CLI and Qwen Code: with Qwen Code in the run, groups (every tool
    in each of its requests would cost more than a discover_tools call costs the others)."""
    plan, entries = planned(project, env, "claude", "copilot", "qwen")
    assert {entries[n][TOOL_LIST_ENV] for n in entries} == {"groups"}
    said = [line for line in plan.lines if TOOL_LIST_ENV in line]
    assert len(said) == 1 and "Qwen Code" in said[0] and "discover_tools" in said[0], plan.lines
    plan, entries = planned(project, env, "claude", "copilot")
    assert {entries[n][TOOL_LIST_ENV] for n in entries} == {"all"}
    said = [line for line in plan.lines if TOOL_LIST_ENV in line]
    assert len(said) == 1 and "--client qwen" in said[0], "the reader left out is named, with how to add it"


def test_the_persons_value_stays_and_init_says_what_it_would_write(project: Path, env: dict[str, str]) -> None:
    (project / ".mcp.json").write_text(json.dumps({"mcpServers": {OUR_KEY: {
        "command": "uvx", "args": [], "env": {TOOL_LIST_ENV: "groups"}}}}), encoding="utf-8")
    plan, entries = planned(project, env, "claude")
    assert entries["claude"][TOOL_LIST_ENV] == "groups"
    kept = [line for line in plan.lines if TOOL_LIST_ENV in line]
    assert len(kept) == 1 and kept[0].startswith(f"keep {TOOL_LIST_ENV}=groups") and "all" in kept[0], plan.lines


def test_env_option_sets_it_for_every_client_of_the_run(project: Path, env: dict[str, str]) -> None:
    _, entries = planned(project, env, "codex", "claude", overrides={TOOL_LIST_ENV: "groups"})
    assert {e[TOOL_LIST_ENV] for e in entries.values()} == {"groups"}


def test_an_unknown_value_is_refused_naming_the_accepted_ones(project: Path, env: dict[str, str],
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    assert init.main(["--project", str(project), "--env", f"{TOOL_LIST_ENV}=some"], env) == 2
    err = capsys.readouterr().err
    assert TOOL_LIST_ENV in err and "groups, all" in err
    assert not (project / ".mcp.json").exists()
