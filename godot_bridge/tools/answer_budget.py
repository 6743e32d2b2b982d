"""How much text one answer may hold: the toolkit's ``AnswerBudget.BYTES``
(addons/godot_mcp_toolkit/contract/answer_budget.gd says why that figure), read from the toolkit
this bridge ships so the number lives in one place. The bridge holds its own answers to it (a
scene read from its file) and so do the tests (every tool's default answer on real projects).
"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path
from typing import Any

BUDGET_FILE = "contract/answer_budget.gd"
_PACKAGE = Path(__file__).resolve().parents[1]
# Where the toolkit ships (setup/toolkit_files.py finds it the same way): inside the installed
# package as godot_bridge/toolkit, else at the top of a checkout.
_TOOLKITS = (_PACKAGE / "toolkit", _PACKAGE.parent / "addons" / "godot_mcp_toolkit")
_CONSTANT = re.compile(r"^const BYTES := (\d+)$", re.M)


@functools.cache
def budget_bytes() -> int:
    """The most bytes of JSON text one answer holds."""
    file = next((t / BUDGET_FILE for t in _TOOLKITS if (t / BUDGET_FILE).is_file()), None)
    found = _CONSTANT.search(file.read_text(encoding="utf-8")) if file is not None else None
    if found is None:  # a packaging error, not bad input
        raise RuntimeError(f"the shipped toolkit's {BUDGET_FILE} is missing or has no `const BYTES := <n>`")
    return int(found.group(1))


def text_size(value: Any) -> int:
    """The bytes of ``value`` as the compact JSON text a model reads (non-ASCII as UTF-8)."""
    return len(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))
