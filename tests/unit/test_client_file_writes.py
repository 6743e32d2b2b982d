"""The client file godot-bridge init writes, against the case table the dock's writer runs too.

tests/fixtures/toolkit/client_file_writes.json: an existing .mcp.json (or none), the settings, and
the bytes each half writes: init here (client_files.ClientFile.with_entry over client_entry.merge),
the dock (ui/mcp_json_sync.gd) in tests/godot/test_mcp_json.gd. Where they differ, the row says why.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from godot_bridge import __version__
from godot_bridge.setup import client_entry
from godot_bridge.setup.client_files import ClientFile, ClientFileError
from godot_bridge.shipped import mcp_entry

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "toolkit" / "client_file_writes.json"
CASES: list[dict[str, Any]] = json.loads(FIXTURE.read_text(encoding="utf-8").replace("{version}", __version__))["cases"]
CLIENT = "claude"  # the dock's client (McpJsonSync.DEFAULT_CLIENT)


def _written(case: dict[str, Any]) -> str | None:
    """What init writes for the case's file, or None when it refuses the file."""
    definition = mcp_entry.definition()
    spec = definition.clients[CLIENT]
    file = ClientFile(spec, Path(".mcp.json"), case["input"])
    try:
        merged = client_entry.merge(file.data(), case["os"], case["env_overrides"], client=spec)
        return file.with_entry(merged[spec.servers][definition.server_key])
    except ClientFileError:
        return None


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_init_writes_the_cases_bytes(case: dict[str, Any]) -> None:
    assert _written(case) == case["bridge"]


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_every_difference_between_the_halves_says_why(case: dict[str, Any]) -> None:
    if case["bridge"] != case["toolkit"]:
        assert case.get("why"), f"{case['name']}: the halves write different bytes and the table does not say why"
