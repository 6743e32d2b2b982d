"""Checkpoints end to end: create one, change files through tools (modify, create, delete, a project
setting), restore, and every file is back byte for byte on the engine's disk."""

from __future__ import annotations

import pytest

from tests.support.bridge_process import BridgeProcess
from tests.engine.e2e.call_list import body
from tests.engine.e2e.engine_host import EngineHost

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def ok(bridge: BridgeProcess, tool: str, args: dict) -> dict:
    result = await bridge.call_tool_confirmed(tool, args, timeout=60)  # checkpoint_restore asks first
    assert result["isError"] is False, (tool, body(result))
    return body(result)


async def test_restore_puts_back_every_byte(stdio: BridgeProcess, engine_host: EngineHost) -> None:
    await ok(stdio, "discover_tools", {"request": ["checkpoints", "cleanup"]})
    await ok(stdio, "folder_create", {"path": "res://cp"})
    await ok(stdio, "script_write", {"file_path": "res://cp/keep.gd", "content": "extends Node\n\nvar lives := 3\n"})
    await ok(stdio, "script_write", {"file_path": "res://cp/gone.gd", "content": "extends Node\n# to be deleted\n"})
    paths = ["res://cp/keep.gd", "res://cp/gone.gd", "res://project.godot"]
    before = {path: await engine_host.read_file(path) for path in paths}
    assert all(data is not None for data in before.values())

    checkpoint = await ok(stdio, "checkpoint_create", {"label": "before the rework"})
    cid = checkpoint["id"]
    await ok(stdio, "script_write", {"file_path": "res://cp/keep.gd", "content": "extends Node2D\n\nvar lives := 9\n"})
    await ok(stdio, "script_write", {"file_path": "res://cp/new.gd", "content": "extends Node\n"})
    await ok(stdio, "file_delete", {"file_path": "res://cp/gone.gd"})
    await ok(stdio, "project_set_setting", {"setting": "application/config/description", "value": "reworked"})
    assert await engine_host.read_file("res://cp/keep.gd") != before["res://cp/keep.gd"]
    assert await engine_host.read_file("res://cp/gone.gd") is None

    diff = await ok(stdio, "checkpoint_diff", {"id": cid})
    changed = {entry["path"]: entry["status"] for entry in diff["files"]}
    assert changed == {"res://cp/keep.gd": "modified", "res://cp/new.gd": "created",
                       "res://cp/gone.gd": "deleted", "res://project.godot": "modified"}, diff

    restored = await ok(stdio, "checkpoint_restore", {"id": cid})
    assert not restored.get("conflicts"), restored
    for path, data in before.items():
        assert await engine_host.read_file(path) == data, f"{path} differs after the restore"
    assert await engine_host.path_kind("res://cp/new.gd") is None
    listed = await ok(stdio, "checkpoint_list", {})
    assert [entry["id"] for entry in listed["checkpoints"]][-1] == cid
