"""The time limits ``init`` writes for each MCP client: derived from the tool catalogue,
above the longest one call can block before the bridge answers it itself, under each client's own key
and unit."""

from __future__ import annotations

import dataclasses
import math

from godot_bridge.editor.autolaunch import DEFAULT_TIMEOUT_S
from godot_bridge.editor.forward import WAIT_MARGIN_S
from godot_bridge.setup import client_limits
from godot_bridge.setup.client_entry import definition
from godot_bridge.tools.catalogue import Catalogue, load_catalogue


def test_the_longest_call_covers_every_tool_at_its_longest_wait_after_an_autolaunch() -> None:
    catalogue = load_catalogue()
    longest = client_limits.longest_call_s()
    test_run = catalogue.tools["test_run"]
    asked = test_run.input_schema["properties"]["timeout_ms"]["maximum"] / 1000  # test_run's longest wait
    assert longest >= DEFAULT_TIMEOUT_S + asked + WAIT_MARGIN_S
    for tool in catalogue.tools.values():
        assert longest >= DEFAULT_TIMEOUT_S + (tool.timeout_ms or 0) / 1000, tool.name
    launch = catalogue.tools["editor_launch"].input_schema["properties"]["timeout_s"]["maximum"]
    assert longest >= DEFAULT_TIMEOUT_S + launch
    assert longest % 60 == 0 and longest - 60 < DEFAULT_TIMEOUT_S + max(
        map(client_limits.tool_bound_s, catalogue.tools.values())), "rounded up to the minute, no more"


def test_the_value_follows_the_catalogue() -> None:
    """One place defines it: a tool given a longer timeout in the catalogue moves every client's limit."""
    catalogue = load_catalogue()
    slow = dataclasses.replace(catalogue.tools["asset_import"], timeout_ms=3_600_000)
    changed = Catalogue({**catalogue.tools, "asset_import": slow}, catalogue.groups)
    assert client_limits.longest_call_s(changed) == math.ceil((DEFAULT_TIMEOUT_S + 3600) / 60) * 60
    codex = definition().clients["codex"]
    assert client_limits.floors(codex, changed)["tool_timeout_sec"] == client_limits.longest_call_s(changed)


def test_each_client_gets_its_own_keys_and_units() -> None:
    clients = definition().clients
    longest = client_limits.longest_call_s()
    assert client_limits.floors(clients["codex"]) == {"tool_timeout_sec": longest,
                                                      "startup_timeout_sec": client_limits.START_S}
    for name in ("claude", "copilot", "qwen", "gemini", "opencode"):  # all in milliseconds
        assert client_limits.floors(clients[name]) == {"timeout": longest * 1000}, name
    assert client_limits.floors(clients["cursor"]) == {} and client_limits.floors(clients["vscode"]) == {}
    assert longest * 1000 > 600_000, "above Gemini CLI's and Qwen Code's own 10 minutes, so none of them cuts first"
