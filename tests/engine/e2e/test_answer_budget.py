"""Every answer reaches the model whole: each tool's answer with its default arguments, on real
public projects (tests/fixtures/projects, provenance in each README), through the real bridge and
the real toolkit in the engine, is at most one answer's size (tools/answer_budget.py: the
toolkit's contract/answer_budget.gd, which says why 12,000 bytes). What does not fit is paged
(has_more and the tool's own way on), never cut in the middle.

The calls here are the reads whose answers grow with a project (trees, property lists, files,
resources, tile maps, settings) and writes of large values, then arguments that ask for more than
one answer holds (a large limit or max_bytes, a batch of 200), which get the first page and the
way on; tests/engine/e2e/test_calls.py holds every other tool's answer on the host project to the same
size.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import quote

import pytest
import pytest_asyncio

from godot_bridge.tools.answer_budget import budget_bytes
from tests.support.bridge_process import BridgeProcess
from tests.engine.e2e.call_list import Call, body, prepare, text_bytes
from tests.engine.e2e.engine_host import EDITED_SCENE, OUTSIDE, EngineHost

pytestmark = pytest.mark.asyncio(loop_scope="session")

SKELETON = "res://fixtures/answers_skeleton/player/player.tscn"
TILES = "res://fixtures/roundtrip_dynamic_tilemap_layers/world.tscn"
GALLERY = "res://fixtures/roundtrip_control_gallery/control_gallery.tscn"
LEVEL = "res://outside/open_rpg/src/main.tscn"
FACES = "res://fixtures/roundtrip_physics_tests/assets/robot_head/godot3_robot_head_collision.tres"
TILESET = "res://fixtures/roundtrip_platformer/level/tileset.tres"

# (tool, arguments, what it reads), in order: a scene_open makes the calls after it read that scene.
CALLS: list[tuple[str, dict[str, Any], str]] = [
    ("scene_open", {"file_path": SKELETON}, "2d/skeleton's player: 31 nodes, an 80 KB AnimationLibrary"),
    ("scene_get_tree", {}, "the tree"),
    ("scene_query", {}, "every node"),
    ("scene_spatial_map", {}, "where they are"),
    ("editor_scene_stats", {}, "what the scene is made of"),
    ("node_get_property", {"node_path": "AnimationPlayer", "property": "libraries/"}, "the AnimationLibrary"),
    ("node_set_property", {"node_path": "AnimationPlayer", "property": "libraries/", "value": None},
     "a write replacing the AnimationLibrary: answers what it did"),
    ("node_get_property_list", {"node_path": "Sprite2D/Polygons/Body"}, "a Polygon2D's properties"),
    ("node_get_property_list", {"node_path": "AnimationTree"}, "an AnimationTree's properties"),
    ("animationtree_list", {"node_path": "AnimationTree"}, "its nodes"),
    ("signal_list", {"node_path": "AnimationPlayer"}, "its signals"),
    ("scene_open", {"file_path": TILES}, "dynamic_tilemap_layers: two TileMapLayers"),
    ("tilemap_read_cells", {"node_path": "Ground"}, "every cell of a layer"),
    ("node_get_property", {"node_path": "Ground", "property": "tile_map_data"}, "its packed cells"),
    ("node_get_property_list", {"node_path": "Ground"}, "its properties"),
    ("scene_open", {"file_path": GALLERY}, "control_gallery: 150 Controls"),
    ("scene_get_tree", {}, "the tree"),
    ("scene_query", {}, "every node"),
    ("scene_spatial_map", {}, "where they are"),
    ("node_get_property_list", {"node_path": ".", "mask": "all"}, "every property of the root"),
    ("resource_load", {"file_path": FACES}, "a 567 KB ConcavePolygonShape3D"),
    ("resource_load", {"file_path": TILESET}, "a TileSet with embedded atlas sources"),
    ("script_read", {"file_path": SKELETON}, "an 80 KB scene file"),
    ("script_read", {"file_path": FACES}, "a 567 KB line"),
    ("script_read", {"file_path": LEVEL}, "a 125 KB level"),
    ("asset_list", {}, "every file of the project"),
    ("asset_get_dependencies", {"file_path": GALLERY}, "what a scene loads"),
    ("project_get_settings", {}, "every setting"),
    ("classdb_get_info", {"class_name": "Control"}, "a class with many members"),
    ("classdb_search", {}, "every class"),
    ("editor_get_console", {}, "the editor's output after all this"),
    ("history", {}, "the assistant's edits"),
]
RESOURCES = [SKELETON, GALLERY, LEVEL]
PLATFORMER_SETTINGS = "user://platformer_3d/project.godot"
# Arguments that ask for more than one answer holds get its first page and the way on, last, on
# the control gallery (the batch writes its root's tooltip 200 times).
EXPLICIT: list[tuple[str, dict[str, Any], str]] = [
    ("classdb_get_info", {"class_name": "Control", "include_inherited": True, "limit": 500}, "limit 500"),
    ("classdb_search", {"limit": 500}, "limit 500"),
    ("asset_get_dependencies", {"file_path": LEVEL, "include_transitive": True, "limit": 2000}, "limit 2000"),
    ("editor_get_console", {"limit": 1000}, "limit 1000"),
    ("history", {"limit": 100}, "limit 100"),
    ("save_read", {"path": PLATFORMER_SETTINGS}, "a 12.5 KB file"),
    ("save_read", {"path": PLATFORMER_SETTINGS, "max_bytes": 4194304}, "max_bytes 4 MiB"),
    ("node_set_property", {"batch": [{"node_path": ".", "property": "tooltip_text", "value": f"tip {index}"}
                                     for index in range(200)]}, "a batch of 200"),
]


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def measured(stdio: BridgeProcess, engine_host: EngineHost) -> AsyncIterator[dict[str, tuple[int, dict[str, Any]]]]:
    """Each call's answer size and body, by "tool:what"; the host's own scene edited again after,
    and no group left loaded."""
    found: dict[str, tuple[int, dict[str, Any]]] = {}
    loaded: set[str] = set()
    try:
        for tool, args, what in CALLS:
            await prepare(stdio, engine_host, loaded, Call(tool, args, what))
            result = await stdio.call_tool(tool, args, timeout=120)
            found[f"{tool}:{what}"] = (text_bytes(result), body(result))
        for path in RESOURCES:
            reply = await stdio.request("resources/read", {"uri": "godot://scene/" + quote(path, safe="/:")}, timeout=60)
            text = reply["result"]["contents"][0]["text"]
            found[f"godot://scene/:{path}"] = (len(text.encode("utf-8")), json.loads(text))
        project_godot = (OUTSIDE / "platformer_3d" / "project.godot").read_bytes()
        await engine_host.write_file(PLATFORMER_SETTINGS, project_godot)
        await engine_host.load_settings(PLATFORMER_SETTINGS, "input")
        result = await stdio.call_tool("project_get_settings", {"prefix": "input/"}, timeout=60)
        found["project_get_settings:3d/platformer's input map"] = (text_bytes(result), body(result))
        for tool, args, what in EXPLICIT:
            await prepare(stdio, engine_host, loaded, Call(tool, args, what))
            result = await stdio.call_tool(tool, args, timeout=120)
            found[f"{tool}:{what}"] = (text_bytes(result), body(result))
        yield found
    finally:
        await engine_host.restore_settings()
        await engine_host.remove_file(PLATFORMER_SETTINGS)
        await stdio.call_tool("scene_open", {"file_path": EDITED_SCENE}, timeout=60)
        # The groups loaded here are unloaded: the call list loads each itself and judges that.
        await stdio.call_tool("discover_tools", {"reset": True}, timeout=60)


NAMES = [f"{tool}:{what}" for tool, _, what in CALLS] + [f"godot://scene/:{path}" for path in RESOURCES] + [
    "project_get_settings:3d/platformer's input map"] + [f"{tool}:{what}" for tool, _, what in EXPLICIT]


@pytest.mark.parametrize("name", NAMES)
async def test_an_answer_fits_one_answer(measured: dict[str, tuple[int, dict[str, Any]]], name: str) -> None:
    size, answer = measured[name]
    assert answer.get("success", True) is not False and "code" not in answer, (name, str(answer)[:600])
    assert size <= budget_bytes(), f"{name}: {size} bytes, over {budget_bytes()}"


async def test_the_large_ones_say_how_to_go_on(measured: dict[str, tuple[int, dict[str, Any]]]) -> None:
    """What did not fit is paged, with the tool's own way on, not cut silently."""
    def get(name: str) -> dict[str, Any]:
        return measured[name][1]
    assert get("script_read:a 125 KB level")["has_more"] and get("script_read:a 125 KB level")["next_start_line"] > 1
    assert get("resource_load:a 567 KB ConcavePolygonShape3D")["properties"]["data"]["omitted"] is True
    assert get("tilemap_read_cells:every cell of a layer").get("next_region") or not get(
        "tilemap_read_cells:every cell of a layer")["has_more"]
    level = get(f"godot://scene/:{LEVEL}")
    assert level["has_more"] and level["returned"] < level["total_nodes"] == 120
    written = get("node_set_property:a write replacing the AnimationLibrary: answers what it did")
    assert written["previous"]["omitted"] is True and written["status"] == "updated", written
    platformer = get("project_get_settings:3d/platformer's input map")
    assert platformer["has_more"] and platformer["next_offset"] == platformer["returned"]


async def test_an_argument_asking_for_more_gets_the_first_page(measured: dict[str, tuple[int, dict[str, Any]]]) -> None:
    """A limit (max_bytes, a batch) larger than one answer holds: the first page, and how to go on."""
    def get(name: str) -> dict[str, Any]:
        return measured[name][1]
    for name in ("classdb_get_info:limit 500", "classdb_search:limit 500"):
        assert get(name)["has_more"] and get(name)["next_offset"] == get(name)["returned"] < 500, (name, get(name))
    whole = (OUTSIDE / "platformer_3d" / "project.godot").stat().st_size
    for name in ("save_read:a 12.5 KB file", "save_read:max_bytes 4 MiB"):
        page = get(name)
        assert page["has_more"] and page["next_offset"] == page["returned"] < whole == page["total_bytes"], page
        assert "offset" in page["hint"], page
    batch = get("node_set_property:a batch of 200")
    assert (batch["applied"], batch["failed"], batch["has_more"], batch["failed_indexes"]) == (200, 0, True, []), batch
    assert batch["results"][0]["value"] == "tip 0" and 0 < batch["returned"] < 200, batch
