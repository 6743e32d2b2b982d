"""Every call of the end-to-end call list (tests/engine/e2e/calls.py) through the real ``godot-bridge``
(stdio) into the real toolkit in the Godot engine: each answers as expected, has its effect, and
an undoable one is taken away by the editor's undo and brought back by redo.

The list runs once, in order (calls build on each other), in a package fixture; each call is then
one test case reporting what went wrong with it.
"""

from __future__ import annotations

import pytest

from godot_bridge.tools.answer_budget import budget_bytes
from godot_bridge.tools.catalogue import load_catalogue
from tests.engine.e2e.call_list import Outcome
from tests.engine.e2e.calls import CALLS, HTTP_CALLS, NOT_HERE
from tests.support.gd_engine import REPO

pytestmark = pytest.mark.asyncio(loop_scope="session")


@pytest.mark.parametrize("name", [call.name for call in CALLS])
async def test_call(outcomes: dict[str, Outcome], name: str) -> None:
    outcome = outcomes[name]
    assert not outcome.problems, f"{name}: " + "\n".join(outcome.problems)


async def test_every_answer_fits_one_answer(outcomes: dict[str, Outcome]) -> None:
    """Every tool's answer on the host project reaches the model whole (tools/answer_budget.py);
    tests/engine/e2e/test_answer_budget.py holds the reads that grow with a project to it on real ones."""
    over = {name: outcome.text_bytes for name, outcome in outcomes.items() if outcome.text_bytes > budget_bytes()}
    assert over == {}, f"answers over {budget_bytes()} bytes: {over}"


async def test_call_names_are_unique() -> None:
    names = [call.name for call in CALLS]
    assert len(names) == len(set(names)), [n for n in names if names.count(n) > 1]


async def test_the_list_covers_every_always_on_tool_and_every_group() -> None:
    tools = load_catalogue().tools
    called = {call.tool for call in CALLS}
    always_on = sorted(name for name, tool in tools.items() if tool.group is None)
    assert [name for name in always_on if name not in called] == []
    groups = {tool.group for tool in tools.values() if tool.group}
    reached = {tools[name].group for name in called if name in tools and tools[name].group}
    assert groups - reached == set(NOT_HERE), "every group is called, or listed in NOT_HERE with why"


async def test_the_readme_states_the_count() -> None:
    """docs/dev/testing.md says how many calls pass end to end; keep it true."""
    total = len(CALLS) + len(HTTP_CALLS)
    assert f"{total} of {total} calls" in (REPO / "docs" / "dev" / "testing.md").read_text(encoding="utf-8")
