"""Pytest fixtures around the simulator (``project``, ``sim``, ``make_bridge``) and helpers.

tests/conftest.py registers this module as a pytest plugin, so the fixtures need no import;
a test module imports only the helpers it uses (FAST, fast, tool, ...). ``data_home`` comes
from tests/conftest.py. ``FAST`` shrinks every delay so reconnect/heartbeat/timeout paths finish in
milliseconds. Bridges made by ``make_bridge`` and the ``sim`` are always stopped.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from godot_bridge.config import Settings
from godot_bridge.editor.bridge import EditorBridge
from godot_bridge.editor.timing import Timing
from godot_bridge.tools.catalogue import ToolDef, load_catalogue
from tests.sim.server import APP_DIR, ToolkitSim

FAST = Timing(
    call_timeout=2.0,
    connect_timeout=1.0,
    auth_timeout=1.0,
    backoff_initial=0.05,
    backoff_max=0.2,
    reconnect_wait=1.0,
    reconnect_poll=0.05,
    setup_timeout=1.0,
    heartbeat_interval=0.1,
    heartbeat_misses=3,
    runtime_wait=3.0,
    crash_context_timeout=0.5,
    watch_debounce_ms=20,
    watch_poll=0.05,
)


def fast(**changes: Any) -> Timing:
    return replace(FAST, **changes)


def tool(name: str) -> ToolDef:
    found = load_catalogue().tools.get(name)
    assert found is not None, f"{name} is not in the catalogue"
    return found


def registry_file(home: Path) -> Path:
    return home / APP_DIR / "projects.json"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    path = tmp_path / "My Project"
    path.mkdir()
    return path.resolve()


@pytest.fixture
async def sim(data_home: Path, project: Path) -> AsyncIterator[ToolkitSim]:
    server = ToolkitSim(data_home, project)
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


@pytest.fixture
async def process_sim(data_home: Path, project_dir: Path) -> AsyncIterator[ToolkitSim]:
    """The editor a spawned bridge process talks to (``spawn_bridge`` / ``bridge`` in tests/conftest.py):
    the project with its project.godot, Godot 4.5.1, no language server. A module whose tests drive
    the real process takes it as its ``sim`` with ``from tests.sim.fixtures import process_sim as sim``."""
    server = ToolkitSim(data_home, project_dir.resolve(), godot_version="4.5.1", lsp_port=None)
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


BridgeFactory = Callable[..., Awaitable[EditorBridge]]


@pytest.fixture
async def make_bridge(data_home: Path, project: Path) -> AsyncIterator[BridgeFactory]:
    made: list[EditorBridge] = []

    async def factory(
        *,
        timing: Timing = FAST,
        start: bool = True,
        on_change: Callable[[], None] | None = None,
        env: dict[str, str] | None = None,
        **settings: Any,
    ) -> EditorBridge:
        full_env = {"XDG_DATA_HOME": str(data_home), **(env or {})}
        bridge = EditorBridge(
            Settings(project_path=project, env=full_env, **settings),
            catalogue=load_catalogue(),
            on_change=on_change,
            timing=timing,
            registry_file=registry_file(data_home),
        )
        made.append(bridge)
        if start:
            await bridge.start()
        return bridge

    try:
        yield factory
    finally:
        for bridge in made:
            await bridge.aclose()


async def until(predicate: Callable[[], bool], timeout: float = 3.0, what: str = "condition") -> None:
    """For state with no event to await (another process's doing): re-check on every loop turn."""
    async with asyncio.timeout(timeout):
        while not predicate():
            await asyncio.sleep(0.01)
