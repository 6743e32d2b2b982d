"""Listings a model can finish, on real public projects (tests/fixtures/projects, provenance in its
README), through the real bridge and the real toolkit in the engine.

asset_list: the project's own files first (a folder's own files before its subfolders'), the
toolkit's own folder never listed, every file reached page by page with offset / next_offset, and
what is left counted by folder while there is more. scene_get_tree: a tree cut at one answer is
read on, branch by branch, with the same tool (root_path) in the same shape until every node was
seen; the cut's hints (the tool's and the godot://scene resource's) say so.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import quote

import pytest
import pytest_asyncio

from tests.support.bridge_process import BridgeProcess
from tests.engine.e2e.call_list import body
from tests.engine.e2e.engine_host import EDITED_SCENE, OUTSIDE, outside_path

pytestmark = pytest.mark.asyncio(loop_scope="session")

DODGE = outside_path("dodge_the_creeps", "res://")
TOOLKIT = "res://addons/godot_mcp_toolkit/"
GALLERY = "res://fixtures/roundtrip_control_gallery/control_gallery.tscn"
LEVEL = outside_path("open_rpg", "res://src/main.tscn")
# The files asset_list leaves to their asset (a .uid, an .import); the host does not copy project.godot.
SIDECARS = (".uid", ".import")
TREE_SHAPE = {"scene_path", "tree", "returned", "total_nodes", "has_more"}


async def ok(bridge: BridgeProcess, tool: str, args: dict[str, Any]) -> dict[str, Any]:
    result = await bridge.call_tool(tool, args, timeout=120)
    answer = body(result)
    assert result["isError"] is False, (tool, args, str(answer)[:2000])
    return answer


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def bridge(stdio: BridgeProcess) -> AsyncIterator[BridgeProcess]:
    """asset_list's group loaded; afterwards the host's own scene edited again, no group left loaded."""
    await ok(stdio, "discover_tools", {"request": "asset_ops"})
    try:
        yield stdio
    finally:
        await stdio.call_tool("scene_open", {"file_path": EDITED_SCENE}, timeout=60)
        await stdio.call_tool("discover_tools", {"reset": True}, timeout=60)


async def every_page(bridge: BridgeProcess, args: dict[str, Any]) -> list[dict[str, Any]]:
    """asset_list from ``args``, following next_offset to the end; each page checked on the way."""
    pages = [await ok(bridge, "asset_list", args)]
    while pages[-1]["has_more"]:
        page = pages[-1]
        left = page["total_files"] - page["next_offset"]
        assert "offset" in page["hint"] and page["remaining"], page
        assert sum(page["remaining"].values()) <= left, "remaining counts what is left, no more"
        if len(page["remaining"]) < 12:
            assert sum(page["remaining"].values()) == left, "every folder named: every file left counted"
        pages.append(await ok(bridge, "asset_list", {**args, "offset": page["next_offset"]}))
        assert len(pages) < 50
    return pages


def paths(pages: list[dict[str, Any]]) -> list[str]:
    return [entry["path"] for page in pages for entry in page["files"]]


async def test_a_game_lists_its_own_top_folder_first(bridge: BridgeProcess) -> None:
    """2d/dodge_the_creeps: its scenes and scripts in its top folder come before fonts/."""
    source = OUTSIDE / "dodge_the_creeps"
    own = sorted(DODGE + file.relative_to(source).as_posix() for file in source.rglob("*")
                 if file.is_file() and file.name != "project.godot" and not file.name.endswith(SIDECARS))
    top = sorted(path for path in own if "/" not in path[len(DODGE):])
    listed = paths(await every_page(bridge, {"path_prefix": DODGE}))
    assert listed == top + sorted(set(own) - set(top)), listed
    assert {DODGE + name for name in ("main.tscn", "player.tscn", "hud.tscn", "mob.tscn")} <= set(listed[:len(top)])


async def test_a_game_reads_page_by_page(bridge: BridgeProcess) -> None:
    first = await ok(bridge, "asset_list", {"path_prefix": DODGE, "limit": 4})
    assert (first["returned"], first["has_more"], first["next_offset"]) == (4, True, 4), first
    assert first["remaining"] == {DODGE: first["total_files"] - 5, DODGE + "fonts/": 1}, first
    pages = await every_page(bridge, {"path_prefix": DODGE, "limit": 4})
    whole = paths(await every_page(bridge, {"path_prefix": DODGE}))
    assert len(pages) == 3 and paths(pages) == whole, "the pages joined are the listing"


async def test_the_whole_project_lists_the_game_and_never_the_toolkit(bridge: BridgeProcess) -> None:
    """asset_list {}: the toolkit's 200 files were the first pages, the project's scenes behind them."""
    pages = await every_page(bridge, {})
    listed = paths(pages)
    assert not [path for path in listed if path.lower().startswith(TOOLKIT)], "the toolkit is not the project's"
    assert len(listed) == len(set(listed)) == pages[0]["total_files"], "every file once"
    top = [path for path in listed if "/" not in path[len("res://"):]]
    assert "res://project.godot" in top and listed[:len(top)] == top, "the top folder first"
    assert "res://scenes/main.tscn" in paths(pages[:1]), "the game's own scene on the first page"
    assert DODGE + "main.tscn" in listed
    refused = body(await bridge.call_tool("asset_list", {"path_prefix": TOOLKIT}, timeout=60))
    assert refused["code"] == "PATH_DENIED", "named, it is refused as every tool refuses it"


def nodes(tree: dict[str, Any]) -> list[dict[str, Any]]:
    return [tree] + [node for child in tree["children"] for node in nodes(child)]


async def test_a_cut_tree_is_read_on_with_the_same_tool(bridge: BridgeProcess) -> None:
    """gui/control_gallery: 150 Controls are more than one answer; each cut branch (child_count) is
    read with scene_get_tree root_path, in the same shape, until every node was seen once."""
    await ok(bridge, "scene_open", {"file_path": GALLERY})
    whole = await ok(bridge, "scene_get_tree", {})
    assert whole["has_more"] and whole["returned"] < whole["total_nodes"], whole["returned"]
    assert "scene_get_tree root_path" in whole["hint"], whole["hint"]
    seen: dict[str, str] = {}
    pending = [whole]
    reads = 0
    while pending:
        answer = pending.pop()
        assert TREE_SHAPE <= set(answer), answer.keys()
        for node in nodes(answer["tree"]):
            seen.setdefault(node["path"], node["class"])
            if len(node["children"]) < node.get("child_count", 0):
                assert node is not answer["tree"], f"{node['path']}'s children alone outgrow one answer"
                branch = await ok(bridge, "scene_get_tree", {"root_path": node["path"]})
                reads += 1
                assert branch["tree"]["path"] == node["path"] and branch["tree"]["class"] == node["class"]
                assert len(branch["tree"]["children"]) == node["child_count"] or branch["has_more"]
                pending.append(branch)
        assert reads < 100
    assert reads > 0 and len(seen) == whole["total_nodes"], (reads, len(seen), whole["total_nodes"])


async def test_the_scene_resource_names_the_way_on(bridge: BridgeProcess) -> None:
    """godot://scene/...: from the file (open_rpg's level, 120 nodes) and from the editor (the gallery)."""
    for path, source in ((LEVEL, "file"), (GALLERY, "editor")):
        if source == "editor":
            await ok(bridge, "scene_open", {"file_path": GALLERY})
        reply = await bridge.request("resources/read", {"uri": "godot://scene/" + quote(path, safe="/:")}, timeout=60)
        tree = json.loads(reply["result"]["contents"][0]["text"])
        assert tree["source"] == source and tree["has_more"], (path, tree["source"])
        assert "scene_get_tree root_path" in tree["hint"], tree["hint"]
