"""Package fixtures of the end-to-end tests: ONE engine host (the real toolkit in the Godot engine,
tests/engine/e2e/engine_host.py) and its relay for every test here, and one real ``godot-bridge`` over
stdio in front of it. Both are stopped once the last test of this package ran: the engine keeps
rendering while it lives, which would take a core from every test after these. Where no engine can
run (no browser and no ``godot``), every test here is skipped with the reason.

Test modules run on the session's event loop (``pytestmark = pytest.mark.asyncio(loop_scope="session")``),
since the bridge process belongs to it.
"""

from __future__ import annotations

import asyncio

from collections.abc import AsyncIterator, Iterator

import pytest
import pytest_asyncio

from tests.support.bridge_process import BridgeProcess
from tests.engine.e2e.call_list import Outcome, run_calls
from tests.engine.e2e.calls import CALLS
from tests.engine.e2e.engine_host import EngineHost
from tests.support.gd_engine import EngineUnavailable, find_engine

HANDSHAKE = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "e2e", "version": "1"}}


@pytest.fixture(scope="package")
def engine_host() -> Iterator[EngineHost]:
    try:
        engine = find_engine()
    except EngineUnavailable as missing:
        pytest.skip(str(missing))
    host = EngineHost(engine).start()
    try:
        yield host
    finally:
        host.stop()


async def open_bridge(host: EngineHost, extra: dict[str, str] | None = None,
                      args: list[str] | None = None) -> BridgeProcess:
    """A started ``godot-bridge`` (stdio) for the host's project, past the handshake."""
    bridge = BridgeProcess(host.bridge_env(extra), args)
    await bridge.start()
    try:
        await bridge.request("initialize", HANDSHAKE, timeout=30)
        await bridge.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    except BaseException:
        await bridge.close()
        raise
    return bridge


@pytest_asyncio.fixture(scope="package", loop_scope="session")
async def stdio(engine_host: EngineHost) -> AsyncIterator[BridgeProcess]:
    """The real bridge over stdio, connected to the engine host through the relay."""
    bridge = await open_bridge(engine_host)
    try:
        yield bridge
    finally:
        await bridge.close()


@pytest_asyncio.fixture(loop_scope="session")
async def playing(engine_host: EngineHost, stdio: BridgeProcess) -> AsyncIterator[None]:
    """A game running (the user pressed Play) and held by the assistant (game_pause), so calls that
    wait on real frames are deterministic; stopped through the bridge afterwards."""
    await stdio.call_tool("discover_tools", {"request": "game_time"})
    engine_host.published.runtime.clear()
    assert await engine_host.press_play() == 0
    assert await asyncio.to_thread(engine_host.published.runtime.wait, 30), "the game never published its port"
    paused = await stdio.call_tool("game_pause", {}, timeout=60)
    assert paused["isError"] is False, paused
    try:
        yield
    finally:
        await stdio.call_tool("game_stop", {})


@pytest_asyncio.fixture(scope="package", loop_scope="session")
async def outcomes(stdio: BridgeProcess, engine_host: EngineHost) -> dict[str, Outcome]:
    """The whole call list (tests/engine/e2e/calls.py) run once, in order, through the stdio bridge."""
    ran = await run_calls(stdio, engine_host, CALLS)
    return {outcome.call.name: outcome for outcome in ran}
