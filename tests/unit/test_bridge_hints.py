"""Every refusal the bridge itself raises carries a hint: each ``ToolError("CODE", ...)`` in the
bridge's source either passes its own ``hint`` or has a code with a fixed one (BRIDGE_HINTS).

Read from the source, so a new refusal without advice fails here rather than reaching a model bare.
"""

from __future__ import annotations

import ast
from pathlib import Path

from godot_bridge.errors import BRIDGE_HINTS, ToolError

SOURCE = Path(__file__).resolve().parents[2] / "godot_bridge"


def _refusals() -> list[tuple[str, int, str, ast.Call]]:
    found = []
    for path in sorted(SOURCE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "ToolError"
                    and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
                found.append((str(path.relative_to(SOURCE)), node.lineno, node.args[0].value, node))
    return found


def test_every_bridge_refusal_has_a_hint():
    refusals = _refusals()
    assert len(refusals) > 40  # the source was read
    bare = []
    for where, line, code, call in refusals:
        hint = next((k.value for k in call.keywords if k.arg == "hint"), None)
        explicit = isinstance(hint, ast.Constant) and hint.value == ""
        if hint is None and code not in BRIDGE_HINTS:
            bare.append(f"{where}:{line} {code}")
        elif explicit:
            # hint="" opts out; only the shutdown message, where there is nothing left to do, may.
            assert code == "DISCONNECTED", f"{where}:{line} {code} passes an empty hint"
    assert bare == []


def test_the_payload_carries_the_codes_hint():
    assert ToolError("READ_FAILED", "x").payload()["hint"] == BRIDGE_HINTS["READ_FAILED"]
    assert ToolError("INVALID_PARAMS", "x", hint="do this").payload()["hint"] == "do this"


def test_the_simulator_answers_with_the_toolkits_default_hints():
    """tests/sim reads DEFAULT_HINTS from the toolkit's source: one hint for every code."""
    import json

    from tests.sim.hints import default_hints, hint_for

    codes = json.loads((SOURCE.parent / "tests" / "data" / "reference" / "error-codes.json").read_text())
    hints = default_hints()
    assert sorted(hints) == sorted(codes["toolkit_codes"])
    assert all(text.strip() for text in hints.values())
    assert hint_for("INVALID_PARAMS").startswith("Fix the parameter the error names")
    assert hint_for("AN_EXTENSION_CODE") == "Read the error, fix what it names, then retry."
