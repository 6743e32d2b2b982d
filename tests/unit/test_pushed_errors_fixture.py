"""The pushed-error frames in tests/fixtures/toolkit/pushed_errors.json follow the agreed wire.

The GDScript tests produce errors.reported exactly from the toolkit (tests/godot/test_error_store.gd)
and check game_crashed's keys (test_error_push.gd); this checks both frames against the shape the
bridge reads (docs/dev/contract.md, C14 "Other plugin events"), so a fixture edit that drifts from
the contract fails here, on the Python side, without an engine.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "toolkit" / "pushed_errors.json"
ENTRY_TYPES: dict[str, type] = {
    "id": int, "severity": str, "message": str, "file": str, "line": int, "function": str, "stack": list,
    "count": int, "time_ms": int,
}
FRAME_TYPES: dict[str, type] = {"file": str, "line": int, "function": str}


def _frames() -> dict[str, Any]:
    return json.loads(FIXTURE.read_text(encoding="utf-8"))


def test_errors_reported_frame_has_the_agreed_shape() -> None:
    frame = _frames()["errors.reported"]
    assert frame["notification"] == "errors.reported"
    params = frame["params"]
    assert set(params) == {"source", "entries"} and params["source"] in ("game", "editor")
    ids = []
    for entry in params["entries"]:
        assert set(entry) == set(ENTRY_TYPES), entry
        for key, kind in ENTRY_TYPES.items():
            assert isinstance(entry[key], kind) and not isinstance(entry[key], bool), (key, entry[key])
        assert entry["severity"] in ("error", "warning") and entry["count"] >= 1 and entry["line"] >= 0
        for step in entry["stack"]:
            assert set(step) == set(FRAME_TYPES) and all(isinstance(step[k], t) for k, t in FRAME_TYPES.items())
        ids.append(entry["id"])
    assert ids == sorted(set(ids)), "ids grow and are distinct within a push"


def test_game_crashed_frame_has_the_agreed_shape() -> None:
    frame = _frames()["game_crashed"]
    assert frame["notification"] == "game_crashed"
    params = frame["params"]
    assert set(params) == {"exit_code", "last_lines", "log_path"}
    assert params["exit_code"] is None or isinstance(params["exit_code"], int)
    assert isinstance(params["log_path"], str)
    assert params["last_lines"] and all(isinstance(line, str) for line in params["last_lines"])
