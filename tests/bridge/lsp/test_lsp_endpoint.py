"""Endpoint resolution: CLI/env > registry (earliest live claimant) > guarded 6005."""

from __future__ import annotations

from pathlib import Path

import pytest

from godot_bridge.config import Settings
from godot_bridge.lsp.endpoint import resolve_endpoint

from tests.lsp.registry_util import LIVE_PID, closed_port, dead_pid, entry, listening_port, write_registry

OTHER = "/elsewhere/other-game"
THIRD = "/elsewhere/third-game"


@pytest.fixture
def reg(tmp_path: Path) -> Path:
    return tmp_path / "projects.json"


async def resolve(project: Path, reg: Path, **settings) -> object:
    return await resolve_endpoint(Settings(project_path=project, **settings), registry_file=reg, probe_timeout=0.5)


async def test_pinned_port_beats_a_conflicting_registry(project: Path, reg: Path) -> None:
    with listening_port() as ws:
        write_registry(
            reg,
            entry(project, pid=LIVE_PID, port=ws, started_at=200, lsp_port=6010),
            entry(OTHER, pid=LIVE_PID, port=ws, started_at=100, lsp_port=6010),
        )
        r = await resolve(project, reg, lsp_port=7000)
    assert (r.host, r.port, r.source, r.refusal) == ("127.0.0.1", 7000, "pinned", None)


def test_cli_beats_env_and_env_pins(project: Path) -> None:
    env = {"GODOT_MCP_LSP_PORT": "7001", "GODOT_MCP_LSP_HOST": "127.0.0.1"}
    assert Settings.from_env(env, project=str(project)).lsp_port == 7001
    assert Settings.from_env(env, project=str(project), lsp_port=7002).lsp_port == 7002


async def test_env_pinned_port_resolves_without_the_registry(project: Path, reg: Path) -> None:
    settings = Settings.from_env({"GODOT_MCP_LSP_PORT": "7001"}, project=str(project))
    r = await resolve_endpoint(settings, registry_file=reg)
    assert (r.host, r.port, r.source) == ("127.0.0.1", 7001, "pinned")


async def test_registry_endpoint_is_used(project: Path, reg: Path) -> None:
    write_registry(reg, entry(project, pid=LIVE_PID, port=None, started_at=1, lsp_port=6010, lsp_host="localhost"))
    r = await resolve(project, reg)
    assert (r.host, r.port, r.source, r.refusal) == ("localhost", 6010, "registry", None)


async def test_host_override_keeps_the_registry_port(project: Path, reg: Path) -> None:
    write_registry(reg, entry(project, pid=LIVE_PID, port=None, started_at=1, lsp_port=6010))
    r = await resolve(project, reg, lsp_host="127.0.0.2")
    assert (r.host, r.port, r.source) == ("127.0.0.2", 6010, "registry")


async def test_earlier_live_claimant_means_conflict(project: Path, reg: Path) -> None:
    with listening_port() as ws:
        write_registry(
            reg,
            entry(project, pid=LIVE_PID, port=ws, started_at=200, lsp_port=6010),
            entry(OTHER, pid=LIVE_PID, port=ws, started_at=100, lsp_port=6010),
            entry(THIRD, pid=LIVE_PID, port=ws, started_at=50, lsp_port=6011),  # other port: irrelevant
        )
        r = await resolve(project, reg)
    assert (r.port, r.refusal) == (6010, "conflict")
    assert OTHER in r.detail


async def test_same_start_time_refuses_both_sides(project: Path, reg: Path) -> None:
    with listening_port() as ws:
        write_registry(
            reg,
            entry(project, pid=LIVE_PID, port=ws, started_at=100, lsp_port=6010),
            entry(OTHER, pid=LIVE_PID, port=ws, started_at=100, lsp_port=6010),
        )
        assert (await resolve(project, reg)).refusal == "conflict"


async def test_later_claimant_does_not_matter(project: Path, reg: Path) -> None:
    with listening_port() as ws:
        write_registry(
            reg,
            entry(project, pid=LIVE_PID, port=ws, started_at=100, lsp_port=6010),
            entry(OTHER, pid=LIVE_PID, port=ws, started_at=300, lsp_port=6010),
        )
        r = await resolve(project, reg)
    assert (r.port, r.source, r.refusal) == (6010, "registry", None)


async def test_dead_pid_is_ignored(project: Path, reg: Path) -> None:
    with listening_port() as ws:
        write_registry(
            reg,
            entry(project, pid=LIVE_PID, port=ws, started_at=200, lsp_port=6010),
            entry(OTHER, pid=dead_pid(), port=ws, started_at=100, lsp_port=6010),
        )
        assert (await resolve(project, reg)).refusal is None


async def test_live_pid_with_closed_websocket_port_is_ignored(project: Path, reg: Path) -> None:
    # pids are reused: a live pid alone does not prove the old editor is still there
    write_registry(
        reg,
        entry(project, pid=LIVE_PID, port=None, started_at=200, lsp_port=6010),
        entry(OTHER, pid=LIVE_PID, port=closed_port(), started_at=100, lsp_port=6010),
    )
    assert (await resolve(project, reg)).refusal is None


async def test_unknown_start_time_cannot_win(project: Path, reg: Path) -> None:
    with listening_port() as ws:
        write_registry(
            reg,
            entry(project, pid=LIVE_PID, port=ws, started_at=200, lsp_port=6010),
            entry(OTHER, pid=LIVE_PID, port=ws, started_at=None, lsp_port=6010),
        )
        assert (await resolve(project, reg)).refusal is None
        write_registry(
            reg,
            entry(project, pid=LIVE_PID, port=ws, started_at=None, lsp_port=6010),
            entry(OTHER, pid=LIVE_PID, port=ws, started_at=200, lsp_port=6010),
        )
        assert (await resolve(project, reg)).refusal == "conflict"


async def test_no_entry_falls_back_to_6005_when_nobody_claims_it(project: Path, reg: Path) -> None:
    write_registry(reg, entry(OTHER, pid=dead_pid(), port=closed_port(), started_at=1, lsp_port=6005))
    r = await resolve(project, reg)
    assert (r.host, r.port, r.source, r.refusal) == ("127.0.0.1", 6005, "default", None)
    reg.unlink()  # no registry file at all
    assert (await resolve(project, reg)).port == 6005


async def test_no_entry_and_a_live_editor_on_6005_is_unavailable(project: Path, reg: Path) -> None:
    with listening_port() as ws:
        write_registry(reg, entry(OTHER, pid=LIVE_PID, port=ws, started_at=1, lsp_port=6005))
        r = await resolve(project, reg)
    assert (r.port, r.refusal) == (6005, "unavailable")
    assert OTHER in r.detail and "no registry entry" in r.detail


async def test_entry_without_lsp_port_uses_the_guarded_default(project: Path, reg: Path) -> None:
    with listening_port() as ws:
        write_registry(
            reg,
            entry(project, pid=LIVE_PID, port=ws, started_at=5, lsp_port=None),
            entry(OTHER, pid=LIVE_PID, port=ws, started_at=1, lsp_port=6005),
        )
        r = await resolve(project, reg)
        assert (r.port, r.refusal) == (6005, "unavailable") and "published no language-server port" in r.detail
        write_registry(reg, entry(project, pid=LIVE_PID, port=ws, started_at=5, lsp_port=None))
        r = await resolve(project, reg)
    assert (r.port, r.source, r.refusal) == (6005, "default", None)
