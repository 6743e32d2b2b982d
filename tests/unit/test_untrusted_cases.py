"""The bridge's untrusted envelope against the case table the toolkit's envelope runs too.

tests/fixtures/toolkit/untrusted_cases.json: a text, its kind and source, and what each half wraps
it in: godot_bridge/safety/untrusted.py here, the toolkit's security/untrusted.gd in
tests/godot/test_untrusted_cases.gd (same nonce). Where they differ, the row says why.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from godot_bridge.safety.untrusted import wrap

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "toolkit" / "untrusted_cases.json"
CASES: list[dict[str, Any]] = json.loads(FIXTURE.read_text(encoding="utf-8"))["cases"]
NONCE = "0000002a"  # the toolkit's 42, as %08x


def _wrapped(case: dict[str, Any]) -> str | None:
    try:
        return wrap(case["body"], kind=case["kind"], source=case["source"], nonce=NONCE)
    except ValueError:
        return None


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_the_envelope_is_the_tables(case: dict[str, Any]) -> None:
    assert _wrapped(case) == case["bridge"]


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_every_difference_between_the_halves_says_why(case: dict[str, Any]) -> None:
    if case["bridge"] != case["toolkit"]:
        assert case.get("why"), f"{case['name']}: the halves wrap differently and the table does not say why"
