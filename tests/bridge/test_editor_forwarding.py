"""Forwarding through the simulator: the exact method and params on the wire, the exact result back."""

from __future__ import annotations

import json
from typing import Any

import pytest

from godot_bridge.tools.catalogue import ToolDef, load_catalogue
from godot_bridge.tools.results import sort_keys
from godot_bridge.tools.surface import extension_tool
from tests.sim.fixtures import BridgeFactory, tool
from tests.sim.server import ToolkitSim

CATALOGUE = load_catalogue()
FORWARDED = [t for t in CATALOGUE.tools.values() if t.channel in ("editor", "runtime")]
SPECIAL = {"game_start", "game_stop", "editor_screenshot", "runtime_screenshot", "extensions_refresh"}
DOMAINS: dict[str, list[ToolDef]] = {}
for _t in FORWARDED:
    if _t.name not in SPECIAL:
        DOMAINS.setdefault(_t.method.split(".")[0], []).append(_t)


def _sample(name: str, schema: dict[str, Any], t: ToolDef) -> Any:
    if name in t.path_params:
        return t.path_params[name][0] + "dir/ünï file.tres"
    if schema.get("enum"):
        return schema["enum"][-1]
    kind = schema.get("type")
    kind = kind[0] if isinstance(kind, list) else kind
    return {
        "string": f"{name}-välue",
        "integer": 3,
        "number": 1.5,
        "boolean": True,
        "array": [1, "two", {"z": 1, "a": 2}],
        "object": {"type": "Vector2", "y": 2, "x": 1},
    }.get(kind, {"nested": [1, {"b": 2, "a": 1}], "Z": None})


def _args(t: ToolDef) -> dict[str, Any]:
    props = t.input_schema.get("properties", {})
    return {name: _sample(name, spec, t) for name, spec in props.items() if not (name == "channel" and t.handles("channel_arg"))}


def test_every_domain_is_sampled():
    assert len(DOMAINS) >= 30
    assert {"scene", "node", "script", "runtime", "input", "execute", "tileset", "save", "debugger"} <= set(DOMAINS)


@pytest.mark.parametrize("domain", sorted(DOMAINS), ids=sorted(DOMAINS))
async def test_method_params_and_result_are_exact(domain: str, sim: ToolkitSim, make_bridge: BridgeFactory):
    game = await sim.start_game()
    bridge = await make_bridge()
    for t in DOMAINS[domain]:
        args = _args(t)
        target = game if t.channel == "runtime" else sim
        reply = {"success": True, "tool": t.name, "z": {"b": [2, {"y": 1, "x": 0}], "a": "ä"}, "count": 1}
        target.script(t.method, {"result": reply})
        outcome = await bridge.forward(t, args)
        frames = target.requests(t.method)
        assert frames, f"{t.name}: nothing reached the {t.channel}"
        assert frames[-1].frame["params"] == args, t.name
        expected = sort_keys({**reply, "hint": t.success_hint} if t.success_hint else reply)
        assert not outcome.is_error, (t.name, outcome.structured)
        assert outcome.structured == expected, t.name
        assert outcome.content == [
            {"type": "text", "text": json.dumps(expected, ensure_ascii=False, separators=(",", ":"), sort_keys=True)}
        ]
    # Nothing for the game went to the editor and vice versa.
    editor_methods = {r.method for r in sim.requests()} - {"extensions.list", "game.start"}
    assert editor_methods == {t.method for t in DOMAINS[domain] if t.channel == "editor"}
    assert {r.method for r in game.requests()} - {"ping"} == {t.method for t in DOMAINS[domain] if t.channel == "runtime"}


async def test_result_is_verbatim_with_keys_sorted_recursively(sim: ToolkitSim, make_bridge: BridgeFactory):
    payload = {"success": True, "zeta": [3, 1, 2], "alpha": {"ÿ": "ü", "b": [{"d": 1, "c": None}]}, "status": "returned"}
    sim.script("scene.get_tree", {"result": payload})
    bridge = await make_bridge()
    out = await bridge.forward(tool("scene_get_tree"), {})
    assert out.content[0]["text"] == '{"alpha":{"b":[{"c":null,"d":1}],"ÿ":"ü"},"status":"returned","success":true,"zeta":[3,1,2]}'
    assert out.structured == payload and list(out.structured) == sorted(payload)


async def test_toolkit_failure_is_passed_through(sim: ToolkitSim, make_bridge: BridgeFactory):
    sim.script("scene.open", {"fail": {"error": "res://x.tscn not found", "code": "NOT_FOUND"}})
    sim.script("scene.open", {"fail": {"error": "bad", "code": "PATH_DENIED", "hint": "toolkit hint"}})
    sim.script("scene.open", {"result": {"success": False, "error": "no code"}})
    bridge = await make_bridge()
    args = {"file_path": "res://x.tscn"}
    first = await bridge.forward(tool("scene_open"), args)
    assert first.is_error and first.structured == {"success": False, "error": "res://x.tscn not found", "code": "NOT_FOUND"}
    second = await bridge.forward(tool("scene_open"), args)
    assert second.structured["hint"] == "toolkit hint"
    third = await bridge.forward(tool("scene_open"), args)
    assert third.structured["code"] == "INTERNAL"


@pytest.mark.parametrize(
    ("error", "code", "needle"),
    [
        ({"code": -32601, "message": "Method not found: scene.close"}, "RPC_ERROR", "does not provide 'scene.close'"),
        ({"code": -32000, "message": "mutation watchdog timeout"}, "TIMEOUT", "watchdog aborted 'scene.close'"),
        ({"code": -32603, "message": "internal"}, "RPC_ERROR", "JSON-RPC -32603: internal"),
    ],
)
async def test_jsonrpc_error_replies(error, code, needle, sim: ToolkitSim, make_bridge: BridgeFactory):
    sim.script("scene.close", {"rpc_error": error})
    bridge = await make_bridge()
    out = await bridge.forward(tool("scene_close"), {"file_path": "res://a.tscn"})
    assert out.is_error
    assert out.structured["code"] == code and needle in out.structured["error"]
    assert out.structured["hint"]  # bridge-side failures always carry a hint


async def test_screenshots(sim: ToolkitSim, make_bridge: BridgeFactory):
    inline = {"success": True, "image_base64": "iVBORw0KGgo=", "mime_type": "image/png", "width": 4, "height": 2,
              "bytes": 8, "image_detail": "low", "returned": "4x2", "remediation": ["switched_main_screen"]}
    disk = {"success": True, "path": "/home/u/shot.png", "width": 4, "height": 2, "bytes": 8, "mime_type": "image/png",
            "image_detail": "full", "returned": "4x2", "hint": "Saved full-res"}
    sim.script("editor.screenshot", {"result": inline})
    sim.script("editor.screenshot", {"result": disk})
    bridge = await make_bridge()
    out = await bridge.forward(tool("editor_screenshot"), {"image_detail": "low", "save_path": "user://screenshots/a.png"})
    assert out.content[0] == {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"}
    meta = json.loads(out.content[1]["text"])
    assert "image_base64" not in meta and meta["remediation"] == ["switched_main_screen"] and meta["returned"] == "4x2"
    assert sim.requests("editor.screenshot")[0].params == {"image_detail": "low", "save_path": "user://screenshots/a.png"}
    out = await bridge.forward(tool("editor_screenshot"), {"image_response_mode": "disk"})
    assert [c["type"] for c in out.content] == ["text"] and out.structured == disk

    game = await sim.start_game()
    game.script("runtime.screenshot", {"result": inline})
    out = await bridge.forward(tool("runtime_screenshot"), {})
    assert out.content[0]["type"] == "image"
    assert len(game.requests("runtime.screenshot")) == 1


async def test_extension_commands_follow_list_refresh_and_pushes(data_home, project, make_bridge: BridgeFactory):
    import asyncio

    ext = {"method": "my_ext.do", "description": "d", "input_schema": {"type": "object"}, "annotations": {"readOnlyHint": True}}
    sim = ToolkitSim(data_home, project, extensions=[ext])
    await sim.start()
    changed = asyncio.Event()
    try:
        bridge = await make_bridge(on_change=changed.set)
        await bridge.forward(tool("scene_get_tree"), {})
        assert bridge.extension_commands == [ext]

        changed.clear()
        other = {"method": "my_ext.other", "group": "my_group"}
        await sim.push({"notification": "extensions.changed", "params": {"commands": [other], "removed": ["my_ext.do"]}})
        await asyncio.wait_for(changed.wait(), 2)
        assert bridge.extension_commands == [other]

        sim.extensions = [ext, other]
        changed.clear()
        out = await bridge.forward(tool("extensions_refresh"), {})
        assert out.structured["refreshed"] is True
        assert changed.is_set() and bridge.extension_commands == [ext, other]

        # An extension command is forwarded through the ToolDef the surface projects from it.
        ext_tool = extension_tool(ext)
        assert ext_tool is not None
        sim.script("my_ext.do", {"result": {"success": True, "b": 1, "a": 2}})
        out = await bridge.forward(ext_tool, {"x": 1})
        assert out.structured == {"a": 2, "b": 1, "success": True}
        assert sim.requests("my_ext.do")[0].params == {"x": 1}
    finally:
        await sim.stop()


async def test_raw_call_returns_the_result_and_raises(sim: ToolkitSim, make_bridge: BridgeFactory):
    from godot_bridge.errors import ToolError

    bridge = await make_bridge()
    assert await bridge.call("echo", {"k": [1]}) == {"echo": {"k": [1]}, "success": True}
    sim.script("scene.save", {"fail": {"error": "x", "code": "SAVE_FAILED"}})
    assert (await bridge.call("scene.save"))["code"] == "SAVE_FAILED"  # call() does not shape
    with pytest.raises(ToolError, match="unknown channel"):
        await bridge.call("x", channel="lsp")
