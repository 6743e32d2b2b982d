"""Both conflict signals, registry-driven connection, reconnection and the status push (C15, C19)."""

from __future__ import annotations

from pathlib import Path

import pytest

from godot_bridge.errors import ToolError
from godot_bridge.lsp.uris import project_root_uri

from .conftest import write
from tests.lsp.fake_server import GODOT_ROOT_WARNING, FakeLspServer
from tests.lsp.registry_util import LIVE_PID, entry, listening_port, write_registry

OTHER = "/elsewhere/other-game"


@pytest.fixture
def reg(tmp_path: Path) -> Path:
    return tmp_path / "projects.json"


@pytest.fixture(autouse=True)
def script(project: Path) -> None:
    write(project, "a.gd", "extends Node\n")


async def test_registry_endpoint_end_to_end(project: Path, reg: Path, make_service, status) -> None:
    async with FakeLspServer() as fake:
        write_registry(reg, entry(project, pid=LIVE_PID, port=None, started_at=1, lsp_port=fake.port))
        out = await make_service(registry_file=reg).handle("lsp_symbols", {"file_path": "res://a.gd"})
    assert out["count"] == 1
    assert status.pushed == [
        {"state": "active", "host": "127.0.0.1", "port": fake.port, "detail": "connected (registry endpoint)"}
    ]


async def test_registry_conflict_refuses_without_connecting(project: Path, reg: Path, make_service, status) -> None:
    async with FakeLspServer() as fake:
        with listening_port() as ws:
            write_registry(
                reg,
                entry(project, pid=LIVE_PID, port=ws, started_at=200, lsp_port=fake.port),
                entry(OTHER, pid=LIVE_PID, port=ws, started_at=100, lsp_port=fake.port),
            )
            service = make_service(registry_file=reg)
            for _ in range(2):
                with pytest.raises(ToolError) as info:
                    await service.handle("lsp_diagnostics", {"file_path": "res://a.gd"})
                assert info.value.code == "LSP_PORT_CONFLICT" and OTHER in info.value.message
        assert fake.connections == 0
    assert status.states == ["conflict"]
    assert status.pushed[0]["port"] == fake.port and OTHER in status.pushed[0]["detail"]


async def test_unavailable_when_6005_belongs_to_another_live_editor(project: Path, reg: Path, make_service, status) -> None:
    with listening_port() as ws:
        write_registry(reg, entry(OTHER, pid=LIVE_PID, port=ws, started_at=1, lsp_port=6005))
        with pytest.raises(ToolError) as info:
            await make_service(registry_file=reg).handle("lsp_symbols", {"file_path": "res://a.gd"})
    assert info.value.code == "LSP_UNAVAILABLE"
    assert status.pushed == [
        {"state": "unavailable", "host": "127.0.0.1", "port": 6005, "detail": status.pushed[0]["detail"]}
    ]


@pytest.mark.parametrize("method", ["window/showMessage", "window/logMessage"])
async def test_server_warning_about_other_projects_is_a_conflict(project: Path, make_service, status, method: str) -> None:
    async with FakeLspServer(show_message=GODOT_ROOT_WARNING, message_method=method) as fake:
        service = make_service(fake)
        with pytest.raises(ToolError) as info:
            await service.handle("lsp_symbols", {"file_path": "res://a.gd"})
        assert info.value.code == "LSP_PORT_CONFLICT" and "might not work correctly" in info.value.message
        assert fake.messages("textDocument/didOpen") == []  # nothing sent to the wrong project
        await fake.wait_until(lambda: fake.open_connections == 0)  # and we hung up
    assert status.pushed == [
        {"state": "conflict", "host": "127.0.0.1", "port": fake.port, "detail": GODOT_ROOT_WARNING}
    ]


async def test_unrelated_server_messages_are_harmless(project: Path, make_service) -> None:
    async with FakeLspServer(show_message="Godot language server ready") as fake:
        out = await make_service(fake).handle("lsp_symbols", {"file_path": "res://a.gd"})
    assert out["count"] == 1


async def test_godot_like_root_check(project: Path, make_service, status) -> None:
    # The fake warns exactly when rootUri differs, as Godot 4.5+ does: our real root passes...
    async with FakeLspServer(expected_root_uri=project_root_uri(project)) as fake:
        assert (await make_service(fake).handle("lsp_symbols", {"file_path": "res://a.gd"}))["count"] == 1
    # ...and an editor of another project refuses us.
    async with FakeLspServer(expected_root_uri="file:///elsewhere/other-game") as fake:
        with pytest.raises(ToolError) as info:
            await make_service(fake).handle("lsp_symbols", {"file_path": "res://a.gd"})
    assert info.value.code == "LSP_PORT_CONFLICT"
    assert status.states == ["active", "conflict"]


async def test_warning_arriving_later_turns_into_a_conflict(project: Path, fake: FakeLspServer, make_service, status) -> None:
    service = make_service(fake)
    await service.handle("lsp_symbols", {"file_path": "res://a.gd"})
    await fake.notify_clients("window/showMessage", {"type": 2, "message": GODOT_ROOT_WARNING})
    with pytest.raises(ToolError) as info:
        await service.handle("lsp_symbols", {"file_path": "res://a.gd"})
    assert info.value.code == "LSP_PORT_CONFLICT"
    assert status.states == ["active", "conflict"]
    await fake.wait_until(lambda: fake.open_connections == 0)


async def test_reconnects_when_the_registry_endpoint_changes(project: Path, reg: Path, make_service, status) -> None:
    async with FakeLspServer() as first, FakeLspServer() as second:
        write_registry(reg, entry(project, pid=LIVE_PID, port=None, started_at=1, lsp_port=first.port))
        service = make_service(registry_file=reg)
        await service.handle("lsp_symbols", {"file_path": "res://a.gd"})
        await service.handle("lsp_symbols", {"file_path": "res://a.gd"})
        assert first.connections == 1 and second.connections == 0

        write_registry(reg, entry(project, pid=LIVE_PID, port=None, started_at=2, lsp_port=second.port))
        await service.handle("lsp_symbols", {"file_path": "res://a.gd"})
        assert second.connections == 1
        await first.wait_until(lambda: first.open_connections == 0)  # the old connection was closed
        assert second.messages("textDocument/didOpen")  # fresh server, document opened again
    assert [(s["state"], s["port"]) for s in status.pushed] == [("active", first.port), ("active", second.port)]


async def test_failing_status_sink_does_not_fail_the_tool(project: Path, fake: FakeLspServer) -> None:
    from godot_bridge.config import Settings
    from godot_bridge.lsp.tools import LspService

    async def broken(_: dict) -> None:
        raise RuntimeError("editor gone")

    service = LspService(Settings(project_path=project, lsp_port=fake.port), status_sink=broken)
    try:
        assert (await service.handle("lsp_symbols", {"file_path": "res://a.gd"}))["count"] == 1
    finally:
        await service.aclose()


async def test_refresh_status_pushes_and_can_force_a_resend(project: Path, fake: FakeLspServer, make_service, status) -> None:
    service = make_service(fake)
    first = await service.refresh_status()
    assert first == {"state": "active", "host": "127.0.0.1", "port": fake.port, "detail": "connected (pinned endpoint)"}
    assert await service.refresh_status() == first and len(status.pushed) == 1  # unchanged: not re-sent
    assert await service.refresh_status(force=True) == first and len(status.pushed) == 2  # editor restarted
    assert fake.connections == 1


async def test_refresh_status_never_raises(project: Path, make_service, status) -> None:
    async with FakeLspServer() as gone:
        port = gone.port
    result = await make_service(lsp_port=port).refresh_status()
    assert result is not None and result["state"] == "unavailable" and status.states == ["unavailable"]


async def test_server_that_never_answers_initialize_is_unavailable(project: Path, make_service, status) -> None:
    from godot_bridge.lsp.client import LspTimeouts

    from tests.lsp.fake_server import NO_REPLY

    async with FakeLspServer(responses={"initialize": NO_REPLY}) as fake:
        service = make_service(fake, timeouts=LspTimeouts(connect=2.0, request=0.3, diagnostics=0.3))
        with pytest.raises(ToolError) as info:
            await service.handle("lsp_symbols", {"file_path": "res://a.gd"})
        await fake.wait_until(lambda: fake.open_connections == 0)
    assert info.value.code == "LSP_UNAVAILABLE" and "initialize" in info.value.message
    assert status.states == ["unavailable"]
