"""tests/support/gd_engine.py: engine choice and how runner.gd's output becomes per-file results."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.gd_engine import EngineUnavailable, Run, find_engine, parse_runner


def test_no_engine_is_reported_with_what_is_missing(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv("GODOT", raising=False)
    monkeypatch.delenv("GODOT_WEB_CHROMIUM", raising=False)
    monkeypatch.setenv("GODOT_WEB_TEMPLATE", str(tmp_path / "template"))
    with pytest.raises(EngineUnavailable) as missing:
        find_engine()
    text = str(missing.value)
    assert "no chromium on PATH" in text
    assert f"no Godot web template in {tmp_path / 'template'}" in text
    assert "tests/godot/web/setup.sh" in text


def test_native_godot_wins(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    fake = tmp_path / "godot"
    fake.write_text("#!/bin/sh\n", encoding="utf-8")
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv("GODOT", raising=False)
    engine = find_engine()
    assert engine.kind == "native"
    assert engine.command == (str(fake),)


def test_web_engine_when_set_up(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    template = tmp_path / "template"
    template.mkdir()
    for name in ("index.js", "index.wasm"):
        (template / name).write_bytes(b"x")
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv("GODOT", raising=False)
    monkeypatch.setenv("GODOT_WEB_TEMPLATE", str(template))
    monkeypatch.setenv("GODOT_WEB_CHROMIUM", "/opt/some/chromium")
    assert find_engine().kind == "web"


def test_runner_output_is_split_per_file_and_method() -> None:
    stdout = "\n".join([
        "FILE test_a.gd", "PASS test_a.gd::test_one", "FAIL test_a.gd::test_two",
        "FILE test_b.gd", "SKIP test_b.gd: needs a listening socket",
        "FILE test_c.gd", "LOADFAIL test_c.gd",
        "FILE test_d.gd",
        "godot tests: 2 methods, 3 checks, 1 failures, 1 files not loading",
    ])
    stderr = "\n".join([
        "SCRIPT ERROR: Parse Error: nope",
        "FAIL test_a.gd::test_two: sizes differ",
        "      expected: 2",
        "      actual:   3",
    ])
    results = parse_runner(Run(1, stdout, stderr, "web"))
    assert results["test_a.gd"].passed == ["test_one"]
    assert results["test_a.gd"].failed == {"test_two": ["sizes differ\nexpected: 2\nactual:   3"]}
    assert (results["test_b.gd"].status, results["test_b.gd"].reason) == ("skipped", "needs a listening socket")
    assert results["test_c.gd"].status == "loadfail"
    assert results["test_d.gd"].status == "ran" and not results["test_d.gd"].passed
