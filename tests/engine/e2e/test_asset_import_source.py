"""asset_import from a file on disk, through the real bridge and the real toolkit in the engine: a key
under a hidden folder is never copied (directly, through call_tool, or as a background job); a file
from outside the project is copied only once the person agreed, the question saying what the
toolkit read of it; one that is no asset is refused before anyone is asked.

The engine's files are its own (the web engine has an in-memory disk): the test puts the outside
files there through the host, at the same absolute paths the bridge is given.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio

from tests.support.bridge_process import BridgeProcess, body
from tests.engine.e2e.engine_host import EngineHost
from tests.support.pngs import make_png

pytestmark = pytest.mark.asyncio(loop_scope="session")

SOURCE = "/tmp/godot_bridge_e2e_import"
KEY = f"{SOURCE}/home/.ssh/id_rsa"
HERO = f"{SOURCE}/art/hero.png"
NOTES = f"{SOURCE}/art/notes.txt"
DEST = "res://e2e_import"


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def sources(engine_host: EngineHost, stdio: BridgeProcess) -> AsyncIterator[bytes]:
    """The outside files on the engine's disk and the destination folder; all removed afterwards."""
    png = make_png(3, 2)
    await engine_host.write_file(KEY, b"-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n")
    await engine_host.write_file(HERO, png)
    await engine_host.write_file(NOTES, b"-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n")
    made = await stdio.call_tool("folder_create", {"path": DEST}, timeout=60)
    assert not made["isError"], made
    try:
        yield png
    finally:
        for path in (f"{DEST}/hero.png", f"{DEST}/notes.txt", f"{DEST}/id_rsa.txt", DEST, KEY, HERO, NOTES):
            await engine_host.remove_file(path)


async def answer(bridge: BridgeProcess, name: str, args: dict[str, Any]) -> dict[str, Any]:
    return body(await bridge.call_tool(name, args, timeout=60))


async def test_a_key_under_a_hidden_folder_is_never_copied(engine_host: EngineHost, stdio: BridgeProcess,
                                                           sources: bytes) -> None:
    args = {"source_path": KEY, "dest_path": f"{DEST}/id_rsa.txt"}
    for name, sent in (("asset_import", args), ("call_tool", {"name": "asset_import", "arguments": args}),
                       ("asset_import", {**args, "background": True})):
        refused = await answer(stdio, name, sent)
        assert refused["code"] == "PATH_DENIED" and "(.ssh)" in refused["error"], (name, refused)
    assert await engine_host.path_kind(f"{DEST}/id_rsa.txt") is None


async def test_a_file_from_outside_is_copied_once_the_person_agreed(engine_host: EngineHost, stdio: BridgeProcess,
                                                                    sources: bytes) -> None:
    args = {"source_path": HERO, "dest_path": f"{DEST}/hero.png"}
    preview = await answer(stdio, "asset_import", args)
    assert preview["status"] == "confirmation_required", preview
    assert preview["would"] == f"Copy {HERO}, a file from outside the project, to {DEST}/hero.png"
    assert preview["target"] == [f"{HERO}: {len(sources)} bytes, PNG image"], "what the toolkit read of it"
    assert await engine_host.path_kind(f"{DEST}/hero.png") is None, "nothing before the yes"
    copied = await answer(stdio, "asset_import", {**args, "confirmation_token": preview["confirmation_token"]})
    assert copied["status"] == "created" and copied["source"] == "source_path", copied
    assert await engine_host.read_file(f"{DEST}/hero.png") == sources


async def test_a_file_that_is_no_asset_is_refused_before_anyone_is_asked(engine_host: EngineHost,
                                                                          stdio: BridgeProcess, sources: bytes) -> None:
    refused = await answer(stdio, "asset_import", {"source_path": NOTES, "dest_path": f"{DEST}/notes.txt"})
    assert refused["code"] == "INVALID_PARAMS" and "nothing was asked or done" in refused["error"], refused
    assert "confirmation_token" not in refused and await engine_host.path_kind(f"{DEST}/notes.txt") is None
