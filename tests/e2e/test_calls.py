"""Every call of the end-to-end call list (tests/e2e/calls.py) through the real ``godot-bridge``
(stdio) into the real toolkit in the Godot engine: each answers as expected, has its effect, and
an undoable one is taken away by the editor's undo and brought back by redo.

The list runs once, in order (calls build on each other), in a session fixture; each call is then
one test case reporting what went wrong with it.
"""

from __future__ import annotations

import pytest

from tests.e2e.call_list import Outcome
from tests.e2e.calls import CALLS

pytestmark = pytest.mark.asyncio(loop_scope="session")


@pytest.mark.parametrize("name", [call.name for call in CALLS])
async def test_call(outcomes: dict[str, Outcome], name: str) -> None:
    outcome = outcomes[name]
    if outcome.call.pending:
        if outcome.problems:
            pytest.xfail(f"known defect: {outcome.call.pending}: " + "\n".join(outcome.problems))
        pytest.fail(f"{name} passes now: drop its `pending` note ({outcome.call.pending})")
    assert not outcome.problems, f"{name}: " + "\n".join(outcome.problems)


async def test_call_names_are_unique() -> None:
    names = [call.name for call in CALLS]
    assert len(names) == len(set(names)), [n for n in names if names.count(n) > 1]
