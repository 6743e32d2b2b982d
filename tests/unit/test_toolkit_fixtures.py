"""The toolkit's pure rules, mirrored in Python over the fixtures the GDScript tests also read.

tests/fixtures/toolkit/mcp_json_merge.json  -> ui/mcp_json.gd (merge, validate, read-only mirror) and
godot_bridge/setup/client_entry.py (the same merge, for `godot-bridge init`)
tests/fixtures/toolkit/registry_projection.json -> registry/store/registry_projection.gd and
paths/project_key.gd; the key cases are also checked against the bridge's own reader
(godot_bridge/editor/registry.py), which is the parity the contract (C16/C17) relies on.
"""

from __future__ import annotations

import hashlib
import json
import math
from pathlib import Path
from typing import Any

import pytest

from godot_bridge import __version__
from godot_bridge.editor import registry
from godot_bridge.setup import client_config, client_entry, client_limits
from godot_bridge.shipped import mcp_entry
from tests.sim.registry import is_port, merge_by_path

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "toolkit"
# {version} in the fixture is the plugin's version (= the bridge's): the uvx form is pinned to it.
MERGE = json.loads((FIXTURES / "mcp_json_merge.json").read_text(encoding="utf-8").replace("{version}", __version__))
PROJECTION = json.loads((FIXTURES / "registry_projection.json").read_text(encoding="utf-8"))

# OS.get_name() values as the bridge's sys.platform sees them.
PLATFORM = {"Windows": "win32", "macOS": "darwin", "Linux": "linux"}

# --- ui/mcp_json.gd's merge is the bridge's own client_entry.merge (godot-bridge init) -----------
# Both read addons/godot_mcp_toolkit/ui/mcp_entry.json; the fixture holds both to the same results.

SERVERS = "mcpServers"
SERVER_KEY = mcp_entry.definition().server_key
TRUTHY = {"1", "true", "yes", "on"}
env_string = client_entry.env_string
validate = client_entry.validate
merge = client_entry.merge


def read_only(config: dict[str, Any]) -> bool:
    servers = config.get(SERVERS)
    if not isinstance(servers, dict):
        return False
    key = mcp_entry.our_key(servers)  # the doctor's choice of entry, the dock's too
    entry = servers.get(key) if key else None
    env = entry.get("env") if isinstance(entry, dict) else None
    if not isinstance(env, dict):
        return False
    return env_string(env.get("GODOT_MCP_READ_ONLY", "")).strip().lower() in TRUTHY


# --- reference for registry/store/registry_projection.gd ---------------------------------------
# merge_by_path lives with the simulator (tests/sim/registry.py), which writes the registry with it.

# --- tests ---------------------------------------------------------------------------------------


def _same(a: Any, b: Any) -> bool:
    """Equality where ints and floats compare numerically, as on the GDScript side."""
    if isinstance(a, int | float) and isinstance(b, int | float) and not isinstance(a, bool) and not isinstance(b, bool):
        return math.isclose(a, b)
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


def merge_case(case: dict[str, Any]) -> dict[str, Any]:
    """The case merged as init merges it: its client's spelling, and the limits as that client's keys."""
    client = mcp_entry.definition().clients.get(case.get("client", ""))
    floors = client_limits.keyed(client, case.get("limits", {})) if client else None
    return merge(case["input"], case["os"], case["env_overrides"], client=client, floors=floors)


def _validate(case: dict[str, Any]) -> str:
    client = mcp_entry.definition().clients.get(case.get("client", ""))
    return validate(case["input"], client.servers, client.env_key) if client else validate(case["input"])


@pytest.mark.parametrize("case", MERGE["cases"], ids=lambda c: c["name"])
def test_mcp_json_merge(case: dict[str, Any]) -> None:
    merged = merge_case(case)
    if "expected_error" in case:
        assert case["expected_error"] in _validate(case)
        assert merged == case["input"]
    else:
        assert _validate(case) == ""
        assert _same(merged, case["expected"])
        if "client" in case:  # keys in the order the file will have them
            servers = mcp_entry.definition().clients[case["client"]].servers
            assert list(merged[servers][SERVER_KEY]) == list(case["expected"][servers][SERVER_KEY])


def test_mcp_json_merge_keeps_every_other_server() -> None:
    for case in MERGE["cases"]:
        if "expected" in case:
            client = mcp_entry.definition().clients.get(case.get("client", ""))
            servers = client.servers if client else SERVERS
            others = {k: v for k, v in case["input"].get(servers, {}).items() if k != SERVER_KEY}
            assert {k: v for k, v in case["expected"][servers].items() if k != SERVER_KEY} == others


@pytest.mark.parametrize("case", MERGE["read_only"], ids=lambda c: c["name"])
def test_mcp_json_read_only_mirror(case: dict[str, Any]) -> None:
    assert read_only(case["input"]) is case["expected"]


@pytest.mark.parametrize("case", PROJECTION["cases"], ids=lambda c: c["name"])
def test_registry_projection(case: dict[str, Any]) -> None:
    assert _same(merge_by_path(case["entries"], case["overlays"]), case["expected"])


@pytest.mark.parametrize("case", PROJECTION["project_key"], ids=lambda c: f"{c['os']}:{c['path']}")
def test_project_key_matches_bridge(case: dict[str, Any]) -> None:
    # The bridge's normalisation must produce exactly the toolkit's key (C17): that is how it finds
    # the entry in projects.json.
    assert registry.project_key(case["path"], PLATFORM[case["os"]]) == case["key"]
    assert hashlib.sha256(case["key"].encode("utf-8")).hexdigest()[:12] == case["hash"]


def test_bridge_reads_every_projected_entry(tmp_path: Path) -> None:
    """Every expected projection is something the bridge's reader accepts field for field."""
    for case in PROJECTION["cases"]:
        path = tmp_path / "projects.json"
        path.write_text(json.dumps(case["expected"]), encoding="utf-8")
        read = registry.read_registry(path)
        assert set(read) == {registry.project_key(k) for k in case["expected"]["by_path"]}, case["name"]
        for key, entry in case["expected"]["by_path"].items():
            parsed = read[registry.project_key(key)]
            assert parsed.key == entry["_key"]
            assert parsed.port == (entry["port"] if is_port(entry["port"]) else None)
            assert parsed.godot_path == (entry.get("godot_path") or None)
            assert parsed.lsp_port == entry["lsp_port"]
            assert parsed.runtime_port_raw == entry["runtime_port"]
