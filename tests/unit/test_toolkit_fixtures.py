"""The toolkit's pure rules, mirrored in Python over the fixtures the GDScript tests also read.

tests/fixtures/toolkit/mcp_json_merge.json  -> ui/mcp_json.gd (merge, validate, read-only mirror)
tests/fixtures/toolkit/registry_projection.json -> registry/store/registry_projection.gd and
paths/project_key.gd; the key cases are also checked against the bridge's own reader
(godot_bridge/editor/registry.py), which is the parity the contract (C16/C17) relies on.
"""

from __future__ import annotations

import copy
import hashlib
import json
import math
from pathlib import Path
from typing import Any

import pytest

from godot_bridge.editor import registry

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "toolkit"
MERGE = json.loads((FIXTURES / "mcp_json_merge.json").read_text(encoding="utf-8"))
PROJECTION = json.loads((FIXTURES / "registry_projection.json").read_text(encoding="utf-8"))

# OS.get_name() values as the bridge's sys.platform sees them.
PLATFORM = {"Windows": "win32", "macOS": "darwin", "Linux": "linux"}

# --- reference for ui/mcp_json.gd -------------------------------------------------------------

SERVERS = "mcpServers"
SERVER_KEY = "godot-mcp-toolkit"
TRUTHY = {"1", "true", "yes", "on"}


def env_string(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return str(value)


def validate(existing: dict[str, Any]) -> str:
    if SERVERS not in existing:
        return ""
    servers = existing[SERVERS]
    if not isinstance(servers, dict):
        return f'"{SERVERS}" is not an object'
    if SERVER_KEY not in servers:
        return ""
    entry = servers[SERVER_KEY]
    if not isinstance(entry, dict):
        return f'"{SERVERS}.{SERVER_KEY}" is not an object'
    if "env" in entry and not isinstance(entry["env"], dict):
        return f'"{SERVERS}.{SERVER_KEY}.env" is not an object'
    return ""


def merge(existing: dict[str, Any], os_name: str, overrides: dict[str, Any]) -> dict[str, Any]:
    config = copy.deepcopy(existing)
    if validate(existing):
        return config
    servers = config.setdefault(SERVERS, {})
    entry = servers.get(SERVER_KEY, {})
    env = {str(k): env_string(v) for k, v in entry.get("env", {}).items()}
    for key, value in overrides.items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = env_string(value)
    env["GODOT_MCP_CONFIG_VERSION"] = "1"
    if os_name == "Windows":
        entry["command"], entry["args"] = "cmd", ["/c", "uvx", "--compile-bytecode", "godot-bridge"]
    else:
        entry["command"], entry["args"] = "uvx", ["--compile-bytecode", "godot-bridge"]
    entry["env"] = env
    servers[SERVER_KEY] = entry
    return config


def read_only(config: dict[str, Any]) -> bool:
    servers = config.get(SERVERS)
    if not isinstance(servers, dict):
        return False
    key = SERVER_KEY if SERVER_KEY in servers else next((k for k in sorted(servers) if "godot-mcp" in k), None)
    entry = servers.get(key) if key else None
    env = entry.get("env") if isinstance(entry, dict) else None
    if not isinstance(env, dict):
        return False
    return env_string(env.get("GODOT_MCP_READ_ONLY", "")).strip().lower() in TRUTHY


# --- reference for registry/store/registry_projection.gd ---------------------------------------

FIELDS = ["_key", "port", "token_path", "pid", "started_at", "godot_version",
          "runtime_port", "runtime_pid", "lsp_host", "lsp_port"]
NUMERIC = ["port", "pid", "runtime_port", "runtime_pid", "lsp_port"]


def _normalise(raw: Any) -> dict[str, Any] | None:
    if not isinstance(raw, dict) or not isinstance(raw.get("_key"), str) or not raw["_key"]:
        return None
    entry = dict(raw)
    for name in NUMERIC:
        value = entry.get(name)
        if isinstance(value, float) and value.is_integer():
            entry[name] = int(value)
    return entry


def _is_port(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 65535


def _time(value: Any) -> float:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0.0


def _newer(a: dict[str, Any], b: dict[str, Any]) -> bool:
    ta, tb = _time(a.get("started_at")), _time(b.get("started_at"))
    return ta > tb if ta != tb else a["_key"] < b["_key"]


def merge_by_path(entries: list[Any], overlays: list[Any]) -> dict[str, Any]:
    by_key: dict[str, dict[str, Any]] = {}
    for raw in entries:
        entry = _normalise(raw)
        if entry is None:
            continue
        shaped = {name: entry.get(name) for name in FIELDS}
        shaped["runtime_port"] = shaped["runtime_pid"] = None
        key = shaped["_key"]
        if key not in by_key or _newer(shaped, by_key[key]):
            by_key[key] = shaped
    owner: dict[int, str] = {}
    for key, entry in by_key.items():
        if _is_port(entry["port"]) and (entry["port"] not in owner or _newer(entry, by_key[owner[entry["port"]]])):
            owner[entry["port"]] = key
    by_path = {k: e for k, e in sorted(by_key.items()) if not _is_port(e["port"]) or owner[e["port"]] == k}
    for raw in overlays:
        overlay = _normalise(raw)
        if overlay is None or not _is_port(overlay.get("runtime_port")):
            continue
        key = overlay["_key"]
        if key not in by_path:
            by_path[key] = {name: None for name in FIELDS} | {
                "_key": key, "port": -1, "token_path": "", "pid": overlay.get("runtime_pid"),
                "started_at": overlay.get("started_at"), "godot_version": overlay.get("godot_version"),
            }
        by_path[key]["runtime_port"] = overlay["runtime_port"]
        by_path[key]["runtime_pid"] = overlay.get("runtime_pid")
    return {"by_path": by_path}


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


@pytest.mark.parametrize("case", MERGE["cases"], ids=lambda c: c["name"])
def test_mcp_json_merge(case: dict[str, Any]) -> None:
    merged = merge(case["input"], case["os"], case["env_overrides"])
    if "expected_error" in case:
        assert case["expected_error"] in validate(case["input"])
        assert merged == case["input"]
    else:
        assert validate(case["input"]) == ""
        assert _same(merged, case["expected"])


def test_mcp_json_merge_keeps_every_other_server() -> None:
    for case in MERGE["cases"]:
        if "expected" in case:
            others = {k: v for k, v in case["input"].get(SERVERS, {}).items() if k != SERVER_KEY}
            assert {k: v for k, v in case["expected"][SERVERS].items() if k != SERVER_KEY} == others


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
            assert parsed.port == (entry["port"] if _is_port(entry["port"]) else None)
            assert parsed.lsp_port == entry["lsp_port"]
            assert parsed.runtime_port_raw == entry["runtime_port"]
