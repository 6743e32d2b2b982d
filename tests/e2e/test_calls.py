"""Every call of the end-to-end call list (tests/e2e/calls.py) through the real ``godot-bridge``
(stdio) into the real toolkit in the Godot engine: each answers as expected, has its effect, and
an undoable one is taken away by the editor's undo and brought back by redo.

The list runs once, in order (calls build on each other), in a session fixture; each call is then
one test case reporting what went wrong with it.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest
import pytest_asyncio

from godot_bridge.catalogue import load_catalogue
from tests.bridge_process import BridgeProcess
from tests.e2e.call_list import Call, Outcome, run_calls
from tests.e2e.calls import CALLS
from tests.e2e.engine_host import EngineHost

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def _prepare(bridge: BridgeProcess, host: EngineHost, loaded: set[str], call: Call) -> None:
    """Load the call's group once, and do what the user does first (press Play or Stop)."""
    group = load_catalogue().tools[call.tool].group if call.tool in load_catalogue().tools else None
    if group and group not in loaded:
        await bridge.call_tool("discover_tools", {"request": group})
        loaded.add(group)
    if call.host == "play":
        assert await host.press_play() == 0
    elif call.host == "stop":
        await host.press_stop()


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def outcomes(stdio: BridgeProcess, engine_host: EngineHost) -> dict[str, Outcome]:
    loaded: set[str] = set()

    async def before(call: Call) -> None:
        await _prepare(stdio, engine_host, loaded, call)

    ran: Sequence[Outcome] = await run_calls(stdio, engine_host, CALLS, before)
    return {outcome.call.name: outcome for outcome in ran}


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
