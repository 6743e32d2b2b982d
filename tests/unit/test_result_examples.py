"""The toolkit result examples the simulator serves (tests/fixtures/toolkit/results)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.sim import examples


def test_every_example_file_is_well_formed() -> None:
    loaded = examples.load_examples()
    for method, found in loaded.items():
        assert "." in method or method in {"echo", "ping"}, method
        for example in found:
            assert isinstance(example.get("params", {}), dict), method
            assert isinstance(example["result"], dict) and "success" in example["result"], method


def test_example_result_prefers_equal_params(tmp_path: Path) -> None:
    (tmp_path / "d.json").write_text(json.dumps({"x.y": [
        {"params": {"a": 1}, "result": {"success": True, "n": 1}},
        {"params": {"a": 2}, "result": {"success": True, "n": 2}},
    ]}))
    loaded = examples.load_examples(tmp_path)
    assert [e["result"]["n"] for e in loaded["x.y"]] == [1, 2]
    assert examples.example_result("x.y", {"a": 2}, tmp_path) == {"success": True, "n": 2}
    assert examples.example_result("x.y", {"a": 9}, tmp_path) == {"success": True, "n": 1}
    assert examples.example_result("x.z", {}, tmp_path) is None
    assert examples.example_result("x.y", {"a": 9}, tmp_path, exact=True) is None


def test_example_result_falls_back_to_the_closest_params(tmp_path: Path) -> None:
    (tmp_path / "d.json").write_text(json.dumps({"x.y": [
        {"params": {"action": "list", "path": "a"}, "result": {"success": True, "n": 1}},
        {"params": {"action": "set", "path": "a", "fps": 8}, "result": {"success": True, "n": 2}},
        {"params": {"action": "set", "path": "a", "fps": 8, "extra": 1}, "result": {"success": True, "n": 3}},
        {"params": {"action": "set", "path": "b", "fps": 12}, "result": {"success": False, "code": "X"}},
    ]}))
    assert examples.example_result("x.y", {"action": "set", "path": "c", "fps": 12}, tmp_path)["n"] == 2
    assert examples.example_result("x.y", {"path": "b"}, tmp_path)["n"] == 1
    assert examples.example_result("x.y", {"action": "set", "path": "b", "fps": 12}, tmp_path)["code"] == "X"
    assert examples.example_result("x.y", {"action": "set", "path": "b", "fps": 13}, tmp_path)["n"] == 2


def test_malformed_example_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "d.json").write_text(json.dumps({"x.y": [{"params": {}}]}))
    with pytest.raises(ValueError, match="x.y must list examples"):
        examples.load_examples(tmp_path)
