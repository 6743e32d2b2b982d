"""The bridge's path guard against the case table the toolkit's file guard runs too.

tests/fixtures/toolkit/path_guard_cases.json holds every path rule of both halves as one table:
each case says what godot_bridge/safety/pathguard.py answers and what the toolkit's
security/file_guard.gd answers (tests/godot/test_file_guard.gd runs the same rows in the engine).
Where the two answers differ, the row says why; a difference with no reason fails here.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from godot_bridge.errors import ToolError
from godot_bridge.safety.pathguard import PROJECT_PREFIX, check_disk_path, check_path

CASES = json.loads((Path(__file__).resolve().parent.parent / "fixtures" / "toolkit" / "path_guard_cases.json")
                   .read_text(encoding="utf-8"))
UIDS: dict[str, str] = CASES["uids"]


def _label(case: dict[str, Any]) -> str:
    return repr(case["path"]) + (" +user" if case.get("allow_user") else "")


def _answer(check: Any) -> tuple[str, str]:
    """("ok", "") when ``check()`` passes, else (code, message)."""
    try:
        check()
    except ToolError as refused:
        return refused.code, str(refused)
    return "ok", ""


def _assert_case(case: dict[str, Any], code: str, message: str) -> None:
    assert code == case["bridge"], f"{_label(case)}: bridge answered {code} {message}"
    assert case.get("bridge_reason", "") in message, f"{_label(case)}: {message!r}"


@pytest.mark.parametrize("case", CASES["project"], ids=_label)
def test_project_path_rules(case: dict[str, Any]) -> None:
    prefixes = [PROJECT_PREFIX, "user://"] if case.get("allow_user") else [PROJECT_PREFIX]
    code, message = _answer(lambda: check_path("path", case["path"], prefixes, resolve_uid=UIDS.get))
    _assert_case(case, code, message)


@pytest.mark.parametrize("case", CASES["disk"], ids=_label)
def test_disk_path_rules(case: dict[str, Any]) -> None:
    code, message = _answer(lambda: check_disk_path("source_path", case["path"]))
    _assert_case(case, code, message)


@pytest.mark.parametrize("case", CASES["project"] + CASES["disk"], ids=_label)
def test_every_difference_between_the_halves_says_why(case: dict[str, Any]) -> None:
    if case["bridge"] != case["toolkit"]:
        assert case.get("why"), f"{_label(case)}: the halves answer differently and the table does not say why"
    if case["toolkit"] == "ok" and "normalized" not in case:
        pytest.fail(f"{_label(case)}: a path the toolkit accepts names the path it answers (normalized)")


def test_the_table_covers_both_answers_of_each_half() -> None:
    """Both kinds of answer on each side, and the toolkit's three refusal codes: a table of one kind
    would prove nothing about the rules."""
    rows = CASES["project"]
    assert {case["bridge"] for case in rows} == {"ok", "PATH_DENIED"}
    assert {case["toolkit"] for case in rows} == {"ok", "PATH_DENIED", "INVALID_PATH", "NOT_FOUND"}
