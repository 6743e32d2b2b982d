from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from tests.support.bridge_process import BridgeProcess, bridge_env

# The simulator fixtures (project, sim, make_bridge) for every test module, no per-module imports.
pytest_plugins = ["tests.sim.fixtures"]


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """With ``-n``: each file on one worker (its module fixtures made once), and all of tests/engine/e2e on
    one worker, since its package fixture is a whole Godot engine: two would cost two engines."""
    from xdist.scheduler import LoadScopeScheduling

    class FileOrEnginePackage(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return "tests/engine/e2e" if nodeid.startswith("tests/engine/e2e/") else nodeid.split("::", 1)[0]

    return FileOrEnginePackage(config, log)


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
async def spawn_bridge(data_home: Path, project_dir: Path) -> AsyncIterator[Callable[..., BridgeProcess]]:
    """Factory: ``await spawn_bridge(env_extra, args)`` -> a started BridgeProcess, stopped at teardown."""
    started: list[BridgeProcess] = []

    async def spawn(extra: dict[str, str] | None = None, args: list[str] | None = None) -> BridgeProcess:
        proc = BridgeProcess(bridge_env(data_home, project_dir, extra), args)
        started.append(proc)
        return await proc.start()

    try:
        yield spawn
    finally:
        for proc in started:
            await proc.close()


@pytest.fixture
async def bridge(spawn_bridge: Callable[..., BridgeProcess]) -> AsyncIterator[BridgeProcess]:
    return_value = await spawn_bridge()
    yield return_value
