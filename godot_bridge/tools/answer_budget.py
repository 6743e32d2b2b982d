"""How much text one answer may hold: the toolkit's ``AnswerBudget.BYTES``
(addons/godot_mcp_toolkit/contract/answer_budget.gd says why that figure), read from the toolkit
this bridge ships so the number lives in one place. The bridge holds its own answers to it (a
scene read from its file) and so do the tests (every tool's default answer on real projects).
"""

from __future__ import annotations

import json
from typing import Any

from godot_bridge.tools.toolkit_consts import toolkit_int

BUDGET_FILE = "contract/answer_budget.gd"


def budget_bytes() -> int:
    """The most bytes of JSON text one answer holds."""
    return toolkit_int(BUDGET_FILE, "BYTES")


def text_size(value: Any) -> int:
    """The bytes of ``value`` as the compact JSON text a model reads (non-ASCII as UTF-8)."""
    return len(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))
