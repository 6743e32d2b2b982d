"""What a tool reads, a tool writes back: on real public projects' scenes and resources
(tests/fixtures/projects/, provenance in each README), through the real bridge and the real
toolkit in the engine.

For every node of each scene, every property node_get_property_list shows (mask "all", page by
page; a value too large to list read with node_get_property; one larger than any answer is read
as its stand-in, {"omitted": true, ...}): read it,
write the same value back with node_set_property, read again (the value each write reads back
after writing). Each write must succeed, as "unchanged" where the property still held the value
read (a stand-in given back: "unchanged" and `kept`, the value left as stored), each value read
again must be the one read first, and the scene saved afterwards must be
byte for byte the file saved before the writes. (Before, not the original file: this engine
host is not an editor, so the project's own scripts run their _ready and instanced scenes pack
without the editor's edit state; what the host's first save changes is not the round trip's.)

For every resource file: resource_load (every page), resource_write with the properties it gave
(one larger than an answer as the stand-in it showed, which the write keeps and names in `kept`),
resource_load again: the same properties, and the file unchanged. The same for an
AnimationPlayer's libraries/ (2d/skeleton, 80 KB), read and written back by node.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio

from tests.support.bridge_process import BridgeProcess
from tests.engine.e2e.call_list import body
from tests.engine.e2e.engine_host import EDITED_SCENE, EngineHost
from tests.engine.e2e.fixture_projects import FixtureProject

pytestmark = pytest.mark.asyncio(loop_scope="session")

# (fixture project, scene in that project): 2D + GUI, 2D tile maps, GUI, 3D.
SCENES = [
    ("roundtrip_rhythm_game", "res://scenes/main/main.tscn"),
    ("roundtrip_dynamic_tilemap_layers", "res://world.tscn"),
    ("roundtrip_control_gallery", "res://control_gallery.tscn"),
    ("roundtrip_csg", "res://csg.tscn"),
]
RESOURCES = [
    ("roundtrip_csg", "res://blue_material.tres"),
    ("roundtrip_platformer", "res://gui/kenney_mini_square.tres"),
    ("roundtrip_platformer", "res://level/tileset.tres"),
    ("roundtrip_physics_tests", "res://assets/robot_head/godot3_robot_head_collision.tres"),
]
# What the engine itself does not let go back, as "Class.property" patterns, with why. The tool
# must refuse each by name (SET_FAILED, "read-only"); every other property of every node must
# round-trip.
ENGINE_LIMITS: dict[str, str] = {
    "*.multiplayer": "Node.multiplayer is the tree's MultiplayerAPI: the engine has a getter, no setter",
}
BATCH = 200  # node_set_property's batch ceiling
# resource_load wraps strings in an untrusted envelope with a fresh nonce on every read.
ENVELOPE = re.compile(r"^<untrusted-[0-9a-f]{8} [^>]*>\n(.*)\n</untrusted-[0-9a-f]{8}>$", re.S)


def unwrapped(value: Any) -> Any:
    return ENVELOPE.sub(r"\1", value) if isinstance(value, str) else value


def limited(cls: str, prop: str) -> str | None:
    for pattern, why in ENGINE_LIMITS.items():
        if fnmatch.fnmatchcase(f"{cls}.{prop}", pattern):
            return why
    return None


def judged(cls: str, item: dict[str, Any], outcome: dict[str, Any]) -> str:
    """What is wrong with one write-back, or ""."""
    why = limited(cls, item["property"])
    if why is not None:
        refused = not outcome["success"] and outcome["code"] == "SET_FAILED" and "read-only" in outcome["error"]
        return "" if refused else f"an engine limit ({why}) must be refused as read-only, got {outcome}"
    if not outcome["success"]:
        return f"{outcome['code']} {outcome['error']}"
    if omitted(item["value"]):
        kept = outcome["status"] == "unchanged" and outcome.get("kept") == [item["property"]]
        return "" if kept else f"the stand-in given back must be kept as stored, got {outcome}"
    # A write echoes a large value by its size only (it answers what it did).
    echoed = not omitted(outcome["value"]) and not omitted(outcome["previous"])
    # "updated" is right when an earlier write of the batch moved this property (an anchors preset
    # re-applies its offsets) and this one put it back; not when it already held the value read.
    if echoed and outcome["status"] != "unchanged" and outcome["previous"] == item["value"]:
        return f"{outcome['status']} though it held the value read: {item['value']!r}, stored {outcome['value']!r}"
    # The value the tool reads back after the write is the one read before it.
    if echoed and outcome["value"] != item["value"]:
        return f"read {item['value']!r}, then {outcome['value']!r}"
    return ""


async def ok(bridge: BridgeProcess, tool: str, args: dict[str, Any]) -> dict[str, Any]:
    result = await bridge.call_tool(tool, args, timeout=120)
    answer = body(result)
    assert result["isError"] is False, (tool, args, str(answer)[:2000])
    return answer


def project(host: EngineHost, name: str) -> FixtureProject:
    return next(fixture for fixture in host.fixtures if fixture.name == name)


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def real_projects(stdio: BridgeProcess, engine_host: EngineHost) -> AsyncIterator[None]:
    """The resource tools loaded; the host's own scene edited again after."""
    await ok(stdio, "discover_tools", {"request": "resource_io"})
    try:
        yield
    finally:
        await ok(stdio, "scene_open", {"file_path": EDITED_SCENE})


NODE_HEADER = re.compile(r'^\[node name="([^"]+)"(?:[^\]\n]*?parent="([^"]*)")?', re.M)


def scene_nodes(text: str) -> list[str]:
    """The scene file's own nodes as paths from its root ("." first): the nodes the project made,
    not the ones its scripts add when they run here."""
    paths = []
    for name, parent in NODE_HEADER.findall(text):
        paths.append("." if not paths else name if parent in ("", ".") else f"{parent}/{name}")
    return paths


def omitted(value: Any) -> bool:
    """A value an answer shows by its size only (too large for one answer)."""
    return isinstance(value, dict) and value.get("omitted") is True


async def properties(bridge: BridgeProcess, node_path: str) -> tuple[str, dict[str, Any]]:
    """Every property of the node, page by page; a value too large to list is read on its own."""
    values: dict[str, Any] = {}
    args: dict[str, Any] = {"node_path": node_path, "mask": "all"}
    while True:
        listed = await ok(bridge, "node_get_property_list", args)
        values.update({entry["name"]: entry["value"] for entry in listed["properties"]})
        if not listed["has_more"]:
            break
        args = {**args, "offset": listed["next_offset"]}
    for name in [name for name, value in values.items() if omitted(value)]:
        values[name] = (await ok(bridge, "node_get_property", {"node_path": node_path, "property": name}))["value"]
    return listed["class"], values


@pytest.mark.parametrize(("name", "scene"), SCENES, ids=[name for name, _ in SCENES])
async def test_every_property_of_every_node_goes_back_as_it_was(
        stdio: BridgeProcess, engine_host: EngineHost, real_projects: None, name: str, scene: str) -> None:
    path = project(engine_host, name).res(scene)
    await ok(stdio, "scene_open", {"file_path": path})
    await ok(stdio, "editor_save_scene", {})
    saved_before = await engine_host.read_file(path)
    assert saved_before is not None
    nodes = scene_nodes(saved_before.decode("utf-8"))
    assert len(nodes) >= 5, nodes
    before = {node: await properties(stdio, node) for node in nodes}
    # A value over one answer goes back as the stand-in read in its place.
    items = [{"node_path": node, "property": prop, "value": value}
             for node, (_, values) in before.items() for prop, value in values.items()]
    assert len(items) > 10 * len(before), "a real scene's nodes have many properties"

    problems: list[str] = []
    start = 0
    while start < len(items):
        # A batch's answer shows the results that fit one answer; the items after them, written
        # too, are sent again (writing a value a property holds changes nothing) to be judged.
        batch = items[start:start + BATCH]
        answer = body(await stdio.call_tool("node_set_property", {"batch": batch}, timeout=120))
        assert answer["results"], answer
        for item, outcome in zip(batch, answer["results"], strict=False):
            problem = judged(before[item["node_path"]][0], item, outcome)
            if problem:
                problems.append(f"{before[item['node_path']][0]} {item['node_path']}:{item['property']}: {problem}")
        start += len(answer["results"])
    assert not problems, f"{len(problems)} of {len(items)} properties did not round-trip:\n" + "\n".join(problems)

    await ok(stdio, "editor_save_scene", {})
    assert await engine_host.read_file(path) == saved_before, "writing every value back changed the saved scene"


async def load_all(bridge: BridgeProcess, path: str) -> tuple[str, dict[str, Any], int]:
    """Every stored property of a resource file, page by page; and how many pages it took."""
    values: dict[str, Any] = {}
    offset: int | None = 0
    pages = 0
    cls = ""
    while offset is not None:
        page = await ok(bridge, "resource_load", {"file_path": path, "offset": offset})
        cls = page["class"]
        values.update(page["properties"])
        offset = page.get("next_offset")
        pages += 1
        assert pages < 100
    return cls, values, pages


@pytest.mark.parametrize(("name", "resource"), RESOURCES, ids=[r.rsplit("/", 1)[-1] for _, r in RESOURCES])
async def test_every_property_resource_load_gives_resource_write_takes_back(
        stdio: BridgeProcess, engine_host: EngineHost, real_projects: None, name: str, resource: str) -> None:
    path = project(engine_host, name).res(resource)
    file_before = await engine_host.read_file(path)
    cls, values, _ = await load_all(stdio, path)
    assert values, f"{path} has stored properties"
    shown_by_size = sorted(name for name, value in values.items() if omitted(value))
    written = await ok(stdio, "resource_write", {"file_path": path, "properties": values})
    assert written["status"] == "unchanged", written
    assert sorted(written.get("kept", [])) == shown_by_size, written
    assert written["properties_set"] == len(values) - len(shown_by_size)
    again_cls, again, _ = await load_all(stdio, path)
    assert again_cls == cls
    differ = [f"{key}: {values[key]!r} then {again.get(key)!r}" for key in values
              if unwrapped(again.get(key)) != unwrapped(values[key])]
    assert not differ, differ
    assert await engine_host.read_file(path) == file_before


async def test_a_value_larger_than_an_answer_is_sized_and_its_file_reads_in_pages(
        stdio: BridgeProcess, engine_host: EngineHost, real_projects: None) -> None:
    path = project(engine_host, "roundtrip_physics_tests").res("res://assets/robot_head/godot3_robot_head_collision.tres")
    _, values, _ = await load_all(stdio, path)
    faces = values["data"]
    # 16 000 points are more than one answer: shown by kind and size, never cut.
    assert faces == {"omitted": True, "variant": "PackedVector3Array", "json_bytes": faces["json_bytes"]}, faces
    assert faces["json_bytes"] > 256 * 1024

    data = await engine_host.read_file(path)
    assert data is not None
    text = data.decode("utf-8")
    line_number = next(i for i, line in enumerate(text.split("\n"), 1) if len(line) > 256 * 1024)
    pieces: list[str] = []
    args: dict[str, Any] = {"file_path": path, "start_line": line_number}
    while True:
        read = await ok(stdio, "script_read", args)
        content = read["content"]
        pieces.append(content[content.index(">\n") + 2:content.rindex("\n</")])
        if not read["has_more"]:
            break
        args = {"file_path": path, "start_line": read["next_start_line"], "line_offset": read.get("next_line_offset", 0)}
    assert len(pieces) > 1, "the line came in pieces"
    # Each page is the file's bytes from where the previous one stopped: joined, they are the file.
    assert "".join(pieces) == "".join(text.splitlines(keepends=True)[line_number - 1:])


async def test_an_animation_library_shown_by_its_size_goes_back_as_it_was(
        stdio: BridgeProcess, engine_host: EngineHost, real_projects: None) -> None:
    """2d/skeleton's AnimationPlayer: libraries/ (an 80 KB AnimationLibrary) is read as its stand-in;
    given back, it is kept as stored, said in `kept`, and the scene saves as before. On a copy of the
    file (its uid left out), since other tests edit the open original."""
    original = await engine_host.read_file(project(engine_host, "answers_skeleton").res("res://player/player.tscn"))
    assert original is not None
    header, rest = original.decode("utf-8").split("\n", 1)
    path = project(engine_host, "answers_skeleton").res("res://player/player_kept.tscn")
    await engine_host.write_file(path, (re.sub(r' uid="[^"]*"', "", header) + "\n" + rest).encode("utf-8"))
    try:
        await ok(stdio, "scene_open", {"file_path": path})
        await ok(stdio, "editor_save_scene", {})
        saved_before = await engine_host.read_file(path)
        read = await ok(stdio, "node_get_property", {"node_path": "AnimationPlayer", "property": "libraries/"})
        assert omitted(read["value"]) and read["value"]["json_bytes"] > 12000, str(read)[:400]
        back = await ok(stdio, "node_set_property", {"node_path": "AnimationPlayer", "property": "libraries/",
                                                     "value": read["value"]})
        assert (back["status"], back["kept"]) == ("unchanged", ["libraries/"]), back
        again = await ok(stdio, "node_get_property", {"node_path": "AnimationPlayer", "property": "libraries/"})
        assert again["value"] == read["value"]
        await ok(stdio, "editor_save_scene", {})
        assert await engine_host.read_file(path) == saved_before, "the library is as it was"
    finally:
        await stdio.call_tool("scene_open", {"file_path": EDITED_SCENE}, timeout=60)
        await engine_host.remove_file(path)
