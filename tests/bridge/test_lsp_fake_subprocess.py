"""The fake language server as a separate process (how the lead's bridge-process tests use it)."""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from godot_bridge.config import Settings
from godot_bridge.errors import ToolError
from godot_bridge.lsp.tools import LspService

REPO = Path(__file__).resolve().parents[2]


@asynccontextmanager
async def fake_process(*flags: str) -> AsyncIterator[int]:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.lsp.fake_server", "--port", "0", *flags,
        cwd=REPO, stdout=asyncio.subprocess.PIPE,
    )
    try:
        assert proc.stdout is not None
        line = await asyncio.wait_for(proc.stdout.readline(), 15)
        announced = json.loads(line)
        assert announced["host"] == "127.0.0.1"
        yield announced["port"]
    finally:
        if proc.returncode is None:
            proc.terminate()
        assert await asyncio.wait_for(proc.wait(), 10) is not None


async def test_tools_against_the_subprocess(tmp_path: Path) -> None:
    (tmp_path / "a.gd").write_text("extends Node\nfunc go():\n\tpass #ERR nope\n", encoding="utf-8")
    pushed: list[dict] = []

    async def sink(status: dict) -> None:
        pushed.append(status)

    async with fake_process("--split", "5", "--coalesce") as port:
        service = LspService(Settings(project_path=tmp_path.resolve(), lsp_port=port), status_sink=sink)
        try:
            diags = await service.handle("lsp_diagnostics", {"file_path": "res://a.gd"})
            symbols = await service.handle("lsp_symbols", {"file_path": "res://a.gd"})
        finally:
            await service.aclose()
    assert diags["errors"] == 1 and diags["diagnostics"][0]["line"] == 3
    assert [s["name"] for s in symbols["symbols"]] == ["Script", "go"]
    assert pushed == [{"state": "active", "host": "127.0.0.1", "port": port, "detail": "connected (pinned endpoint)"}]


@pytest.mark.parametrize("extra", [[], ["--log-message"]])
async def test_conflict_message_from_the_subprocess(tmp_path: Path, extra: list[str]) -> None:
    (tmp_path / "a.gd").write_text("extends Node\n", encoding="utf-8")
    warning = "The GDScript Language Server might not work correctly with other projects than the one opened in Godot."
    async with fake_process("--show-message", warning, *extra) as port:
        service = LspService(Settings(project_path=tmp_path.resolve(), lsp_port=port))
        try:
            with pytest.raises(ToolError) as info:
                await service.handle("lsp_symbols", {"file_path": "res://a.gd"})
        finally:
            await service.aclose()
    assert info.value.code == "LSP_PORT_CONFLICT"
