"""Screenshots as links: the SDK client against the real bridge process and the
simulator answering with real PNGs, in both protocol eras. A link is returned, listed and read back
byte-exact; the oldest is dropped beyond the store's bounds; an unknown id is a clear not-found."""

from __future__ import annotations

import base64
import json
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.shared.exceptions import MCPError

from godot_bridge.editor.screenshot_store import DEFAULT_MAX_COUNT
from tests.support.bridge_process import ROOT, bridge_env
from tests.support.pngs import make_png
from tests.sim.fixtures import tool
from tests.sim.fixtures import process_sim as sim  # noqa: F401 - the editor this module's bridges talk to
from tests.sim.server import ToolkitSim
from tests.support.sdk_client import sdk_client

ERAS = ["legacy", "2026-07-28"]
UNKNOWN = "godot://screenshots/" + "0" * 24 + ".png"


def params(data_home: Path, project: Path, extra: dict[str, str] | None = None) -> StdioServerParameters:
    return StdioServerParameters(command=sys.executable, args=["-m", "godot_bridge"],
                                 env=bridge_env(data_home, project, extra), cwd=str(ROOT))


def shot(png: bytes, **extra: Any) -> dict[str, Any]:
    """A screenshot reply as the toolkit shapes it (commands/runtime/screenshot_response.gd), around a real PNG."""
    return {"result": {"success": True, "mime_type": "image/png", "image_base64": base64.b64encode(png).decode(),
                       "width": 1280, "height": 720, "bytes": len(png), "image_detail": "full",
                       "returned": "64x36", **extra}}


async def read_png(client: Client, uri: str) -> bytes:
    contents = (await client.read_resource(uri)).contents
    assert len(contents) == 1 and contents[0].mime_type == "image/png" and str(contents[0].uri) == uri
    return base64.b64decode(contents[0].blob)


async def not_found(client: Client, uri: str, mode: str) -> str:
    with pytest.raises(MCPError) as missing:
        await client.read_resource(uri)
    assert missing.value.error.code == (-32002 if mode == "legacy" else -32602)
    return missing.value.error.message


async def start_game(client: Client, sim: ToolkitSim) -> ToolkitSim:
    started = await client.call_tool("game_start", {})
    assert not started.is_error and sim.runtime is not None
    return sim.runtime


@pytest.mark.parametrize("mode", ERAS)
async def test_runtime_link_is_listed_and_read_back_byte_exact(mode: str, sim: ToolkitSim, data_home: Path,
                                                               project_dir: Path) -> None:
    png = make_png(64, 36)
    with anyio.fail_after(30):
        async with sdk_client(params(data_home, project_dir), mode=mode, cache=None) as client:
            game = await start_game(client, sim)
            game.script("runtime.screenshot", shot(png))
            result = await client.call_tool("runtime_screenshot", {"image_response_mode": "link", "image_detail": "mid"})
            assert not result.is_error
            link, text = result.content
            assert link.type == "resource_link" and link.mime_type == "image/png" and link.size == len(png)
            assert "64x36" in link.description and "game window" in link.description
            uri = str(link.uri)
            meta = json.loads(text.text)
            assert meta["uri"] == uri and meta["returned"] == "64x36" and "image_base64" not in meta
            assert result.structured_content == meta
            # The toolkit never hears "link": it was asked for the image inline.
            assert game.requests("runtime.screenshot")[-1].params == {"image_response_mode": "inline",
                                                                     "image_detail": "mid"}

            listed = {str(r.uri): r for r in (await client.list_resources()).resources}
            assert uri in listed and listed[uri].size == len(png) and listed[uri].mime_type == "image/png"
            assert await read_png(client, uri) == png
            assert "never taken" in await not_found(client, UNKNOWN, mode)


@pytest.mark.parametrize("mode", ERAS)
async def test_editor_screenshot_link_after_discover_keeps_save_path(mode: str, sim: ToolkitSim, data_home: Path,
                                                                     project_dir: Path) -> None:
    png = make_png(40, 30, (10, 200, 10))
    sim.script("editor.screenshot", shot(png, path="/abs/proj/shots/a.png", node_path="Sprite",
                                         hint="Saved full-res → /abs/proj/shots/a.png."))
    with anyio.fail_after(30):
        async with sdk_client(params(data_home, project_dir), mode=mode, cache=None) as client:
            discovered = await client.call_tool("discover_tools", {"request": "editor_advanced"})
            assert not discovered.is_error
            args = {"image_response_mode": "link", "save_path": "res://shots/a.png", "node_path": "Sprite"}
            result = await client.call_tool("editor_screenshot", args)
            assert not result.is_error
            link = result.content[0]
            assert link.type == "resource_link" and "editor viewport" in link.description
            assert "40x30" in link.description
            assert json.loads(result.content[1].text)["path"] == "/abs/proj/shots/a.png"
            # A save_path still gets its file: the toolkit is asked for both (file + inline image).
            assert sim.requests("editor.screenshot")[-1].params == {**args, "image_response_mode": "both"}
            assert await read_png(client, str(link.uri)) == png

            # thumbnail: a second, low-detail inline capture rides along as a small image block.
            preview = make_png(12, 9)
            sim.script("editor.screenshot", shot(png))
            sim.script("editor.screenshot", shot(preview, image_detail="low", returned="12x9"))
            result = await client.call_tool("editor_screenshot", {**args, "thumbnail": True})
            link, image, text = result.content
            assert link.type == "resource_link" and image.type == "image"
            assert base64.b64decode(image.data) == preview and json.loads(text.text)["thumbnail"] == "12x9"
            sent = [r.params for r in sim.requests("editor.screenshot")[-2:]]
            assert sent == [{**args, "image_response_mode": "both"},
                            {"image_response_mode": "inline", "image_detail": "low", "node_path": "Sprite"}]
            assert await read_png(client, str(link.uri)) == png


async def test_env_default_link_evicts_the_oldest_and_inline_still_works(sim: ToolkitSim, data_home: Path,
                                                                         project_dir: Path) -> None:
    count = DEFAULT_MAX_COUNT + 1
    pngs = [make_png(8 + n, 8, (n, 0, 0)) for n in range(count)]
    with anyio.fail_after(60):
        async with sdk_client(params(data_home, project_dir, {"GODOT_MCP_IMAGE_MODE": "link"}), mode="legacy",
                          cache=None) as client:
            game = await start_game(client, sim)
            uris = []
            for png in pngs:
                game.script("runtime.screenshot", shot(png))
                result = await client.call_tool("runtime_screenshot", {})  # no mode: the setting's link
                assert result.content[0].type == "resource_link", result
                uris.append(str(result.content[0].uri))
            assert len(set(uris)) == count
            assert "dropped" in await not_found(client, uris[0], "legacy")
            assert await read_png(client, uris[1]) == pngs[1]
            assert await read_png(client, uris[-1]) == pngs[-1]
            kept = [str(r.uri) for r in (await client.list_resources()).resources if "screenshots" in str(r.uri)]
            assert kept == list(reversed(uris[1:]))  # newest first

            game.script("runtime.screenshot", shot(pngs[0]))
            inline = await client.call_tool("runtime_screenshot", {"image_response_mode": "inline"})
            assert inline.content[0].type == "image" and base64.b64decode(inline.content[0].data) == pngs[0]
            assert game.requests("runtime.screenshot")[-1].params == {"image_response_mode": "inline"}


async def test_a_configuration_reload_switches_the_default_mode(data_home: Path, project: Path, make_bridge) -> None:
    """GODOT_MCP_IMAGE_MODE from .mcp.json applies at the next call (live_config hands over new settings)."""
    editor = ToolkitSim(data_home, project)
    await editor.start()
    try:
        bridge = await make_bridge()
        png = make_png(20, 10)
        editor.script("editor.screenshot", shot(png), times=2)
        before = await bridge.forward(tool("editor_screenshot"), {})
        assert [b["type"] for b in before.content] == ["image", "text"]
        bridge.update_settings(bridge.settings.with_env({**bridge.settings.env, "GODOT_MCP_IMAGE_MODE": "link"}))
        after = await bridge.forward(tool("editor_screenshot"), {})
        assert after.content[0]["type"] == "resource_link"
        kept = bridge.images.find(after.content[0]["uri"])
        assert kept is not None and kept.data == png
    finally:
        await editor.stop()
