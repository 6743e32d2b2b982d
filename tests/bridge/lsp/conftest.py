"""Shared fixtures: a project folder, a fake language server, and a service wired to both."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from godot_bridge.config import Settings
from godot_bridge.lsp.client import LspTimeouts
from godot_bridge.lsp.tools import LspService

from tests.lsp.fake_server import FakeLspServer

# Short enough to keep the timeout tests quick, long enough for a loaded CI machine.
FAST = LspTimeouts(connect=2.0, request=2.0, diagnostics=1.0, probe=0.5)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = (tmp_path / "My Game").resolve()
    root.mkdir()
    (root / "project.godot").write_text("config_version=5\n")
    return root


def write(root: Path, rel: str, text: str) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
async def fake() -> AsyncIterator[FakeLspServer]:
    server = FakeLspServer()
    await server.start()
    yield server
    await server.stop()


class StatusLog:
    def __init__(self) -> None:
        self.pushed: list[dict[str, Any]] = []

    async def __call__(self, status: dict[str, Any]) -> None:
        self.pushed.append(status)

    @property
    def states(self) -> list[str]:
        return [s["state"] for s in self.pushed]


@pytest.fixture
def status() -> StatusLog:
    return StatusLog()


@pytest.fixture
async def make_service(project: Path, status: StatusLog) -> AsyncIterator[Callable[..., LspService]]:
    made: list[LspService] = []

    def _make(
        server: FakeLspServer | None = None, *, timeouts: LspTimeouts = FAST, registry_file: Path | None = None, **settings: Any
    ) -> LspService:
        if server is not None:
            settings.setdefault("lsp_port", server.port)
            settings.setdefault("lsp_host", "127.0.0.1")
        service = LspService(
            Settings(project_path=project, **settings),
            status_sink=status,
            registry_file=registry_file or project.parent / "no-registry.json",
            timeouts=timeouts,
        )
        made.append(service)
        return service

    yield _make
    for service in made:
        await service.aclose()
