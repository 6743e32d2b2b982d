"""The simulator (tests/sim) proven against the real toolkit: the end-to-end call list
(tests/engine/e2e/calls.py), every call that reaches the toolkit, is run through a real bridge against the
simulator too, and each answer is compared with the engine host's: success or failure, the error
code, and the result's keys and the JSON type of each. A difference that must stay is listed, with
why, in tests/sim/differences.json; any other difference fails, and so does a listed one that no
longer differs.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from godot_bridge.tools.catalogue import load_catalogue
from tests.support.bridge_process import BridgeProcess, bridge_env, call_confirmed
from tests.engine.e2e.call_list import Call, Outcome, body, json_type
from tests.engine.e2e.calls import CALLS
from tests.engine.e2e.conftest import HANDSHAKE
from tests.engine.e2e.engine_host import EngineHost
from tests.sim.server import ToolkitSim

pytestmark = pytest.mark.asyncio(loop_scope="session")

DIFFERENCES = Path(__file__).resolve().parents[2] / "sim" / "differences.json"


def compared(call: Call) -> bool:
    """Calls the simulator stands in for: the toolkit's own methods (not the bridge's tools, not a
    project's extension, which the simulator only knows by its description)."""
    tool = load_catalogue().tools.get(call.tool)
    return tool is not None and tool.method is not None and tool.channel in ("editor", "runtime")


@dataclass(frozen=True)
class Shape:
    ok: bool
    code: str | None
    keys: dict[str, str]  # a success's top-level keys -> JSON type

    @staticmethod
    def of(answer: dict[str, Any], is_error: bool) -> Shape:
        if is_error:
            return Shape(False, answer.get("code"), {})
        return Shape(True, None, {key: json_type(value) for key, value in answer.items()})


def differences(real: Shape, sim: Shape) -> set[str]:
    """What differs, as tokens the differences file can allow: "outcome" (one succeeds, the other
    fails), "code", "missing:<key>" (only the real toolkit returns it), "extra:<key>" (only the
    simulator does), "type:<key>" (another JSON type)."""
    if real.ok != sim.ok:
        return {"outcome"}
    if not real.ok:
        return set() if real.code == sim.code else {"code"}
    found = {f"missing:{key}" for key in set(real.keys) - set(sim.keys)}
    found |= {f"extra:{key}" for key in set(sim.keys) - set(real.keys)}
    found |= {f"type:{key}" for key in set(real.keys) & set(sim.keys) if real.keys[key] != sim.keys[key]}
    return found


@pytest_asyncio.fixture(scope="package", loop_scope="session")
async def sim_answers(engine_host: EngineHost, outcomes: dict[str, Outcome],
                      tmp_path_factory: pytest.TempPathFactory) -> dict[str, Shape]:
    """Every compared call, in order, with the arguments the engine host was sent, through a real
    bridge against the simulator."""
    home = tmp_path_factory.mktemp("sim-home")
    sim = ToolkitSim(home, engine_host.project, godot_version=engine_host.published.godot_version, lsp_port=None)
    await sim.start()
    bridge = BridgeProcess(bridge_env(home, engine_host.project))
    answers: dict[str, Shape] = {}
    try:
        await bridge.start()
        await bridge.request("initialize", HANDSHAKE, timeout=30)
        loaded: set[str] = set()
        for call in CALLS:
            if not compared(call):
                continue
            group = load_catalogue().tools[call.tool].group
            if group and group not in loaded:
                await bridge.call_tool("discover_tools", {"request": group})
                loaded.add(group)
            if call.host == "play":
                await sim.start_game()
            result = await call_confirmed(bridge, call.tool, outcomes[call.name].args, timeout=30)
            answers[call.name] = Shape.of(body(result), bool(result.get("isError")))
    finally:
        await bridge.close()
        await sim.stop()
    return answers


@pytest_asyncio.fixture(scope="package", loop_scope="session")
async def found_differences(outcomes: dict[str, Outcome], sim_answers: dict[str, Shape]) -> dict[str, set[str]]:
    """call name -> what differs (empty calls left out), with each side's answer for the message."""
    found: dict[str, set[str]] = {}
    for name, sim in sim_answers.items():
        real = outcomes[name]
        assert real.answer is not None and real.is_error is not None, f"{name} did not run on the engine host"
        diff = differences(Shape.of(real.answer, real.is_error), sim)
        if diff:
            found[name] = diff
    return found


@dataclass(frozen=True)
class Listed:
    why: str
    allow: frozenset[str]


def listed() -> dict[str, Listed]:
    """tests/sim/differences.json: a call name, or a tool name for all its calls -> why, and what may differ."""
    data = json.loads(DIFFERENCES.read_text(encoding="utf-8"))
    return {name: Listed(entry["why"], frozenset(entry["allow"])) for name, entry in data["differences"].items()}


def entries_for(name: str, known: dict[str, Listed]) -> list[str]:
    return [key for key in (name, name.split(":", 1)[0]) if key in known]


async def test_every_toolkit_method_of_the_catalogue_is_compared(sim_answers: dict[str, Shape]) -> None:
    catalogue = {t.method for t in load_catalogue().tools.values() if t.method and t.channel in ("editor", "runtime")}
    called = {load_catalogue().tools[call.tool].method for call in CALLS if call.name in sim_answers}
    missing = sorted(catalogue - called)
    assert not missing, f"methods the call list never calls: {missing}"


async def test_no_unexplained_difference(found_differences: dict[str, set[str]]) -> None:
    known = listed()
    unexplained = {}
    for name, diff in found_differences.items():
        allowed = set().union(*(known[key].allow for key in entries_for(name, known)))
        if diff - allowed:
            unexplained[name] = sorted(diff - allowed)
    assert not unexplained, "the simulator differs from the real toolkit (fix tests/sim, or list it with why in " \
        "tests/sim/differences.json):\n" + "\n".join(f"  {n}: {', '.join(d)}" for n, d in unexplained.items())


async def test_no_listed_difference_is_stale(found_differences: dict[str, set[str]]) -> None:
    known = listed()
    used: dict[str, set[str]] = {key: set() for key in known}
    for name, diff in found_differences.items():
        for key in entries_for(name, known):
            used[key] |= diff & known[key].allow
    stale = {key: sorted(known[key].allow - used[key]) for key in known if known[key].allow - used[key]}
    assert not stale, f"listed in tests/sim/differences.json but no longer different: {stale}"


async def test_every_listed_difference_says_why() -> None:
    for name, entry in listed().items():
        assert entry.why.strip() and entry.allow, name
