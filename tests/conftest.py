from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from tests.bridge_process import BridgeProcess, bridge_env


@pytest.fixture
def project_dir(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    project.mkdir()
    (project / "project.godot").write_text("config_version=5\n", encoding="utf-8")
    return project


@pytest.fixture
def data_home(tmp_path: Path) -> Path:
    home = tmp_path / "data"
    home.mkdir()
    return home


@pytest.fixture
def spawn_bridge(data_home: Path, project_dir: Path) -> Callable[..., BridgeProcess]:
    """Factory: ``await spawn_bridge(env_extra, args)`` -> a started BridgeProcess (closed at teardown)."""
    started: list[BridgeProcess] = []

    async def spawn(extra: dict[str, str] | None = None, args: list[str] | None = None) -> BridgeProcess:
        proc = BridgeProcess(bridge_env(data_home, project_dir, extra), args)
        started.append(proc)
        return await proc.start()

    spawn.started = started  # type: ignore[attr-defined]
    return spawn


@pytest.fixture
async def bridge(spawn_bridge: Callable[..., BridgeProcess]) -> AsyncIterator[BridgeProcess]:
    proc = await spawn_bridge()
    try:
        yield proc
    finally:
        await proc.close()


@pytest.fixture(autouse=True)
async def _close_spawned(request: pytest.FixtureRequest) -> AsyncIterator[None]:
    yield
    if "spawn_bridge" in request.fixturenames:
        for proc in request.getfixturevalue("spawn_bridge").started:
            await proc.close()
