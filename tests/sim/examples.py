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
    successful example whose params are closest (``closeness``; the first of equals): a failure
    depends on the project's state, which the simulator does not have, so it is answered only to
    exactly its params. None when the method has no example."""
    examples = load_examples(directory).get(method)
    if not examples:
        return None
    wanted = params or {}
    for example in examples:
        if example.get("params") == wanted:
            return dict(example["result"])
    if exact:
        return None
    succeeded = [example for example in examples if example["result"].get("success") is not False]
    best = max(succeeded or examples, key=lambda example: closeness(example.get("params") or {}, wanted))
    return dict(best["result"])


def closeness(example: dict[str, Any], wanted: dict[str, Any]) -> int:
    """How alike two params objects are: an equal value counts 2, a shared key 1, a key only the
    example has -1 (its result may answer to it)."""
    score = 0
    for key, value in example.items():
        if key not in wanted:
            score -= 1
        else:
            score += 2 if wanted[key] == value else 1
    return score
