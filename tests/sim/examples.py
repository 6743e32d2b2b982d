"""The toolkit's result examples (tests/fixtures/toolkit/results/*.json) for the simulator.

Each example was checked against the real toolkit in the Godot engine by the GDScript domain tests,
so a simulator that answers from them serves real shapes, not guesses (see the README there).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

RESULTS_DIR = Path(__file__).resolve().parents[1] / "fixtures" / "toolkit" / "results"


@cache
def load_examples(directory: Path = RESULTS_DIR) -> dict[str, list[dict[str, Any]]]:
    """method -> its examples, across every domain file."""
    found: dict[str, list[dict[str, Any]]] = {}
    for path in sorted(directory.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict):
            raise ValueError(f"{path}: expected an object of method -> examples")
        for method, examples in data.items():
            if not isinstance(examples, list) or not all(isinstance(e, dict) and "result" in e for e in examples):
                raise ValueError(f"{path}: {method} must list examples with a 'result'")
            found.setdefault(method, []).extend(examples)
    return found


def example_result(
    method: str, params: dict[str, Any] | None, directory: Path = RESULTS_DIR, *, exact: bool = False
) -> dict[str, Any] | None:
    """The result of the first example whose params equal these, else (unless ``exact``) the
    method's first; None when there is none."""
    examples = load_examples(directory).get(method)
    if not examples:
        return None
    for example in examples:
        if example.get("params") == (params or {}):
            return dict(example["result"])
    return None if exact else dict(examples[0]["result"])
