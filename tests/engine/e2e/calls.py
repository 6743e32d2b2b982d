"""The end-to-end call list: every always-on tool and tools of every on-demand group, with valid
arguments (and the error paths), each with the effect it must have on the engine host's project.

The project (tests/godot/e2e/project): the edited scene res://scenes/main.tscn is
Main (Node2D) > Player (Node2D at 100,200, scripts/player.gd) > Sprite (Sprite2D); Hud (Control) >
Score (Label); Mover (AnimationPlayer); World3D (Node3D). The game is res://scenes/game.tscn:
Game > Player (same script), Sky (ColorRect), Anim (AnimationPlayer with "blink").
Calls run in this order and build on each other (a script written, then attached, ...); what they
create lives under res://e2e/ and user://e2e/.
"""

from __future__ import annotations

from tests.engine.e2e.call_list import Call, Derived, FileHas, Has, Kind, Near, Read
from tests.engine.e2e.shader_calls import SHADER_CALLS


def vec2(x: float, y: float) -> dict[str, object]:
    return {"type": "Vector2", "x": x, "y": y}


def prop(node: str, name: str, value: object) -> Read:
    return Read("node_get_property", {"node_path": node, "property": name}, {"value": value})


def no_node(node: str) -> Read:
    return Read("node_get_property", {"node_path": node, "property": "name"}, code="NOT_FOUND")


MOVER_GD = "extends Node2D\n\nvar speed := 200.0\n"

EDITOR: list[Call] = [
    # --- reading the edited scene
    Call("scene_get_tree", {}, "the edited scene's tree",
         result={"scene_path": "res://scenes/main.tscn", "tree": {"name": "Main", "children": [{"name": "Player"}]}}),
    Call("scene_get_tree", {"root_path": "Player"}, "one branch of it",
         result={"tree": {"name": "Player", "path": "Player", "children": [{"path": "Player/Sprite"}]}}),
    Call("scene_query", {"class_filter": "Node2D"}, "every Node2D",
         result={"total_matches": 3, "nodes": [{"path": "Player"}, {"path": "Player/Sprite"}]}),
    Call("scene_spatial_map", {}, "where the 2D nodes are",
         result={"nodes": [{"path": "Player", "position": [100.0, 200.0]}]}),
    Call("node_get_property", {"node_path": "Player", "property": "position"}, "a property's value",
         result={"value": vec2(100, 200)}),
    Call("node_get_property_list", {"node_path": "Player"}, "a node's properties",
         result={"class": "Node2D", "properties": [{"name": "visible", "value": True}]}),
    Call("signal_list", {"node_path": "Hud"}, "a node's signals", result={"signals": [{"name": "resized"}]}),
    # --- changing it, undoably
    Call("node_set_property", {"node_path": "Player", "property": "position", "value": vec2(5, 6)},
         "move the player", effect=prop("Player", "position", vec2(5, 6)),
         undone=prop("Player", "position", vec2(100, 200))),
    Call("node_call_method", {"node_path": "Player", "method_name": "translate", "args": [vec2(3, 4)]},
         "a method that moves it", effect=prop("Player", "position", vec2(8, 10)),
         undone=prop("Player", "position", vec2(5, 6))),
    Call("scene_create_node", {"class_name": "Marker2D", "parent_path": "Player", "node_name": "Muzzle",
                               "properties": {"position": vec2(16, 0)}},
         "a new node with properties", effect=prop("Player/Muzzle", "position", vec2(16, 0)),
         undone=no_node("Player/Muzzle")),
    Call("node_manage", {"action": "rename", "node_path": "Player/Muzzle", "new_name": "Barrel"},
         "rename it", effect=prop("Player/Barrel", "name", "Barrel"), undone=prop("Player/Muzzle", "name", "Muzzle")),
    # --- the assistant's own history: its newest edit (the rename) stepped back, then forward again
    Call("history", {"limit": 100}, "the assistant's edits, newest first",
         result={"entries": [{"method": "node.manage", "scene": "res://scenes/main.tscn", "state": "done",
                              "undoable": True}], "dropped": 0}),
    Call("undo", {"dry_run": True}, "what undo would step back: the rename",
         result={"dry_run": True, "would_undo": [{"method": "node.manage"}]}, effect=prop("Player/Barrel", "name", "Barrel")),
    Call("undo", {}, "step back the rename, the assistant's newest edit",
         result={"undone": [{"method": "node.manage", "scene": "res://scenes/main.tscn"}]},
         effect=prop("Player/Muzzle", "name", "Muzzle")),
    Call("redo", {}, "re-apply it", result={"redone": [{"method": "node.manage"}]},
         effect=prop("Player/Barrel", "name", "Barrel")),
    Call("redo", {"steps": 1}, "nothing left to redo", code="INVALID_STATE"),
    Call("node_groups", {"action": "add", "node_path": "Player", "group": "heroes"}, "put a node in a group",
         effect=Read("node_groups", {"action": "list", "node_path": "Player"}, {"groups": [{"group": "heroes"}]})),
    Call("control_set_layout", {"node_path": "Hud", "preset": "full_rect"}, "anchor a Control",
         effect=prop("Hud", "anchor_right", 1.0), undone=prop("Hud", "anchor_right", 0.0)),
    Call("signal_manage", {"action": "connect", "node_path": "Hud", "signal_name": "resized",
                           "target_path": "Player", "method_name": "on_hud_resized"},
         "connect a signal to a script method",
         effect=Read("signal_list", {"node_path": "Hud", "include_connections": True},
                     {"signals": [{"name": "resized", "connections": [{"method_name": "on_hud_resized", "target_path": "Player"}]}]})),
    # --- files
    Call("folder_create", {"path": "res://e2e"}, "a folder for what the calls make", file=FileHas("res://e2e", dir=True)),
    Call("script_write", {"file_path": "res://e2e/mover.gd", "content": MOVER_GD}, "a new script",
         file=FileHas("res://e2e/mover.gd", MOVER_GD)),
    Call("script_read", {"file_path": "res://e2e/mover.gd"}, "read it back",
         result={"total_lines": 3, "content": Has("var speed := 200.0")}),
    Call("script_edit", {"file_path": "res://e2e/mover.gd", "old_string": "200.0", "new_string": "320.0"},
         "edit one occurrence", file=FileHas("res://e2e/mover.gd", "var speed := 320.0")),
    Call("script_check", {"file_path": "res://e2e/mover.gd"}, "it compiles", result={"valid": True, "errors": []}),
    Call("node_set_script", {"node_path": "Player/Sprite", "script_path": "res://e2e/mover.gd"}, "attach it",
         effect=Read("node_get_property", {"node_path": "Player/Sprite", "property": "speed"}, {"value": 320.0})),
    Call("editor_save_scene", {}, "save the edited scene", file=FileHas("res://scenes/main.tscn", '"Barrel"')),
    # --- the project
    Call("project_get_settings", {"prefix": "application/config/"}, "settings by prefix",
         result={"settings": Has('"application/config/name":"godot-bridge e2e"')}),
    Call("project_set_setting", {"setting": "application/config/description", "value": "end to end"},
         "change a setting",
         effect=Read("project_get_settings", {"prefix": "application/config/description"},
                     {"settings": Has('"end to end"')}),
         file=FileHas("res://project.godot", 'config/description="end to end"')),
    Call("script_write", {"file_path": "res://e2e/globals.gd", "content": "extends Node\n\nvar lives := 3\n"},
         "an autoload's script"),
    Call("autoload_manage", {"action": "register", "name": "E2eGlobals", "script_path": "res://e2e/globals.gd"},
         "register an autoload",
         effect=Read("autoload_manage", {"action": "list"}, {"autoloads": [{"name": "E2eGlobals"}]})),
    # --- console, code, extensions, discovery
    Call("editor_get_console", {}, "the editor's output", result={"source": "buffer", "entries": []}),
    Call("execute_code", {"code": "get_node(\"Player\").position", "channel": "editor"},
         "an expression over the edited scene", result={"value": vec2(8, 10)}),
    Call("extensions_refresh", {}, "the project's extensions", result={"commands": [{"method": "wordtools.count"}]}),
    Call("discover_tools", {"request": "classdb"}, "load a group",
         result={"activated_tools": [{"name": "classdb_get_info"}, {"name": "classdb_search"}]}),
    Call("call_tool", {"name": "classdb_get_info", "arguments": {"class_name": "Timer", "sections": ["signals"]}},
         "a tool by name, as a client that does not re-list reaches it",
         result={"class_name": "Timer", "signals": [{"name": "timeout"}]}),
    Call("debugger_get_log", {"limit": 5}, "the last game's log with no game running", result={"source": "file"}),
    # --- background jobs (tests/engine/e2e/test_jobs.py runs one)
    Call("job_status", {}, "this client's jobs: none yet", result={"jobs": []}),
    Call("job_cancel", {"job_id": "no-such-job"}, "a job that never existed", code="JOB_NOT_FOUND"),
    # --- scenes
    Call("scene_create", {"file_path": "res://e2e/level.tscn", "root_type": "Node3D"}, "a new scene file",
         file=FileHas("res://e2e/level.tscn", 'type="Node3D"')),
    Call("scene_open", {"file_path": "res://e2e/level.tscn"}, "open it",
         effect=Read("scene_get_tree", {}, {"scene_path": "res://e2e/level.tscn"})),
    Call("scene_open", {"file_path": "res://scenes/main.tscn"}, "back to the main scene",
         effect=Read("scene_get_tree", {}, {"scene_path": "res://scenes/main.tscn"})),
    Call("scene_delete_node", {"node_path": "Player/Barrel"}, "delete a node",
         effect=no_node("Player/Barrel"), undone=prop("Player/Barrel", "name", "Barrel")),
    # --- error paths: the codes and hints come from the toolkit
    Call("node_get_property", {"node_path": "Ghost", "property": "position"}, "a missing node",
         code="NOT_FOUND"),
    Call("script_read", {"file_path": "res://e2e/none.gd"}, "a file that is not there", code="NOT_FOUND"),
    Call("node_set_property", {"node_path": "Player", "property": "position", "value": "far away"},
         "a value of the wrong type", code="INVALID_VALUE"),
    Call("node_call_method", {"node_path": "Player", "method_name": "no_such_method"}, "an unknown method",
         code="INVALID_METHOD"),
]


def res(path: str) -> dict[str, str]:
    return {"type": "Resource", "path": path}


def expr(code: str, value: object) -> Read:
    """An expression evaluated over the edited scene in the engine, and the value it must give."""
    return Read("execute_code", {"code": code, "channel": "editor"}, {"value": value})


def node_class(path: str, cls: str) -> Read:
    return expr(f"get_node(\"{path}\").get_class()", cls)


PNG_2X1 = "iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAIAAAB7QOjdAAAADUlEQVR4nGP4zwAE/wEHAAH/4iOeWQAAAABJRU5ErkJggg=="
SHEET = "res://art/sheet.tres"
TILESET = "res://e2e/world.tres"

# One or more tools of every on-demand group that reaches the toolkit, in the order they build on
# each other.
GROUPS: list[Call] = [
    # 3d_tools
    Call("3d_create_primitive", {"parent_path": "World3D", "primitive": "box", "name": "Crate",
                                 "size": {"x": 2, "y": 1, "z": 2}}, "a box",
         effect=node_class("World3D/Crate", "MeshInstance3D"), undone=no_node("World3D/Crate")),
    Call("3d_create_light", {"parent_path": "World3D", "light_type": "omni", "name": "Lamp", "energy": 2},
         "a light", effect=prop("World3D/Lamp", "light_energy", 2.0), undone=no_node("World3D/Lamp")),
    Call("3d_create_camera", {"parent_path": "World3D", "name": "Eye", "projection": "orthogonal", "size": 10},
         "a camera", effect=prop("World3D/Eye", "size", 10.0), undone=no_node("World3D/Eye")),
    Call("3d_setup_environment", {"parent_path": "World3D", "tonemap": "aces"}, "an environment",
         effect=node_class("World3D/WorldEnvironment", "WorldEnvironment"), undone=no_node("World3D/WorldEnvironment")),
    # animation_authoring
    Call("animation_keyframe", {"action": "add", "player_path": "Mover", "animation_name": "walk",
                                "track_path": "Player:position", "time": 0.5, "value": vec2(10, 20)},
         "a key on a new track",
         effect=Read("animation_get_keys", {"player_path": "Mover", "animation_name": "walk",
                                            "track_path": "Player:position"}, {"keys": [{"time": 0.5}]})),
    Call("animation_get_keys", {"player_path": "Mover", "animation_name": "walk", "track_path": "Player:position"},
         "the keys of a track", result={"keys": [{"time": 0.5}]}),
    Call("scene_create_node", {"class_name": "AnimationTree", "parent_path": ".", "node_name": "Tree",
                               "properties": {"anim_player": {"type": "NodePath", "path": "../Mover"}}},
         "an AnimationTree", effect=node_class("Tree", "AnimationTree"), undone=no_node("Tree")),
    Call("animationtree_edit", {"node_path": "Tree", "action": "set_root", "root_type": "AnimationNodeStateMachine"},
         "a state machine root",
         effect=Read("animationtree_list", {"node_path": "Tree"}, {"root_type": "AnimationNodeStateMachine"})),
    Call("animationtree_list", {"node_path": "Tree"}, "the tree's nodes",
         result={"anim_player": "../Mover", "nodes": [{"name": "Start"}, {"name": "End"}]}),
    # asset_ops
    Call("asset_list", {"limit": 2}, "the project's top folder first, and the way on",
         result={"files": [{"path": "res://project.godot"}], "has_more": True, "next_offset": 2}),
    Call("asset_list", {"path_prefix": "res://scenes"}, "the scenes", result={"files": [{"path": "res://scenes/main.tscn"}]}),
    Call("asset_get_dependencies", {"file_path": "res://scenes/game.tscn"}, "what a scene uses",
         result={"dependencies": [{"path": "res://scripts/player.gd", "type": "GDScript"}]}),
    Call("asset_import", {"base64_data": PNG_2X1, "dest_path": "res://e2e/dot.png"}, "a PNG from base64",
         file=FileHas("res://e2e/dot.png", "PNG")),
    # audio
    Call("audiobus_edit", {"action": "add_bus", "bus_name": "Music", "volume_db": -6}, "a new bus",
         effect=Read("audiobus_list", {}, {"buses": [{"name": "Music"}]})),
    Call("audiobus_list", {}, "the buses", result={"buses": [{"name": "Master"}]}),
    # classdb
    Call("classdb_get_info", {"class_name": "Timer", "sections": ["signals"]}, "a class's signals",
         result={"base": "Node", "signals": [{"name": "timeout"}]}),
    Call("classdb_search", {"pattern": "Timer", "instantiable_only": True}, "classes by name",
         result={"classes": [{"name": "Timer"}]}),
    # debugger
    Call("debug_state", {}, "the debugger", result={"game_running": False, "paused": False}),
    Call("debug_set_breakpoint", {"file_path": "res://e2e/mover.gd", "line": 3}, "a breakpoint",
         effect=Read("debug_list_breakpoints", {}, {"breakpoints": [{"file_path": "res://e2e/mover.gd", "line": 3}]})),
    Call("debug_list_breakpoints", {}, "the breakpoints", result={"count": 1}),
    Call("debug_continue", {}, "continue with no game under the debugger", code="GAME_NOT_RUNNING"),
    # editor_advanced
    Call("editor_screenshot", {"image_detail": "low"}, "the editor's viewport",
         result={"mime_type": "image/png", "image_detail": "low"}, image=True),
    Call("editor_refresh", {}, "rescan the project", result={"scope": "project"}),
    Call("editor_wait_for_idle", {"timeout_ms": 2000}, "wait until the editor is idle", result={"idle": True}),
    # editor_lifecycle (the bridge's own: an editor answers, so nothing is started)
    Call("editor_launch", {"timeout_s": 30}, "an editor is already running", result={"status": "already_running"}),
    # input_map
    Call("input_map_action", {"action": "add", "name": "e2e_dash", "deadzone": 0.2}, "a new action",
         effect=Read("project_get_settings", {"prefix": "input/e2e_dash"}, {"settings": Has('"input/e2e_dash":{"deadzone":0.2')})),
    Call("input_map_event", {"action": "bind", "name": "e2e_dash", "event": {"type": "key", "keycode": "SHIFT"}},
         "a key for it", result={"events": [{"type": "key", "keycode": "Shift"}]},
         file=FileHas("res://project.godot", "e2e_dash={"),
         # The settings read gives the binding in the shape input_map_event took, not an empty Resource.
         effect=Read("project_get_settings", {"prefix": "input/e2e_dash"},
                     {"settings": Has('"events":[{"keycode":"Shift","text":"Shift","type":"key"}]')})),
    # layer_naming
    Call("layer_names_set", {"category": "2d_physics", "layers": {"1": "player", "2": "walls"}}, "name two layers",
         file=FileHas("res://project.godot", '2d_physics/layer_2="walls"')),
    Call("layer_names_get", {"category": "2d_physics"}, "the layer names",
         result={"layers": Has('{"1":"player","2":"walls"}')}),
    # navigation
    Call("scene_create_node", {"class_name": "NavigationRegion2D", "parent_path": ".", "node_name": "Floor"},
         "a navigation region", effect=node_class("Floor", "NavigationRegion2D")),
    Call("navigation_edit", {"node_path": "Floor", "action": "set",
                             "outlines": [[{"x": 0, "y": 0}, {"x": 200, "y": 0}, {"x": 200, "y": 200},
                                           {"x": 0, "y": 200}]]},
         "an outline", effect=expr("get_node(\"Floor\").navigation_polygon.get_outline_count()", 1),
         undone=expr("get_node(\"Floor\").navigation_polygon == null", True)),
    # particles
    Call("particles_create", {"parent_path": ".", "type": "2d", "preset": "fire", "name": "Fire", "amount": 16},
         "fire particles", effect=prop("Fire", "amount", 16), undone=no_node("Fire")),
    # path_editing
    Call("scene_create_node", {"class_name": "Path2D", "parent_path": ".", "node_name": "Track"}, "a path",
         effect=node_class("Track", "Path2D")),
    Call("path2d_edit_curve", {"node_path": "Track", "action": "set",
                               "points": [{"position": {"x": 0, "y": 0}}, {"position": {"x": 100, "y": 0}}]},
         "a curve on it", effect=expr("get_node(\"Track\").curve.point_count", 2),
         undone=expr("get_node(\"Track\").curve == null", True)),
    Call("scene_create_node", {"class_name": "Sprite2D", "parent_path": ".", "node_name": "Rock",
                               "properties": {"texture": res(SHEET)}}, "a sprite with a texture",
         effect=expr("get_node(\"Rock\").texture.get_width()", 64)),
    Call("collision_from_texture", {"sprite_path": "Rock"}, "its collision shape traced",
         effect=expr("get_node(\"CollisionPolygon2D\").polygon.size()", 4), undone=no_node("CollisionPolygon2D")),
    # performance (the editor's half; the game's below)
    Call("editor_scene_stats", {}, "what the edited scene is made of",
         result={"by_class": {"GPUParticles2D": 1, "Path2D": 1}}),
    # placeholders
    Call("texture_generate", {"file_path": "res://e2e/ball.png", "shape": "circle", "width": 32, "height": 16,
                              "fill_color": "red"}, "a placeholder texture", file=FileHas("res://e2e/ball.png", "PNG")),
    Call("sound_generate", {"file_path": "res://e2e/blip.wav", "waveform": "square", "duration": 0.1},
         "a placeholder sound", file=FileHas("res://e2e/blip.wav", "RIFF")),
    # procedural
    Call("procedural_edit_gradient", {"file_path": "res://e2e/fire.tres", "action": "set",
                                      "points": [{"offset": 0, "color": {"r": 1, "g": 0, "b": 0, "a": 1}},
                                                 {"offset": 1, "color": {"r": 1, "g": 1, "b": 0, "a": 1}}]},
         "a gradient file", file=FileHas("res://e2e/fire.tres", "Gradient")),
    Call("procedural_edit_noise", {"file_path": "res://e2e/caves.tres", "noise_type": "cellular", "seed": 42},
         "a noise file", file=FileHas("res://e2e/caves.tres", "seed = 42")),
    Call("procedural_edit_curve", {"file_path": "res://e2e/ease.tres", "action": "set",
                                   "points": [{"position": {"x": 0, "y": 0}}, {"position": {"x": 1, "y": 1}}]},
         "a curve file", file=FileHas("res://e2e/ease.tres", "Curve")),
    # resource_io
    Call("resource_write", {"file_path": "res://e2e/title.tres", "type": "LabelSettings",
                            "properties": {"font_size": 24}}, "a resource file",
         file=FileHas("res://e2e/title.tres", "font_size = 24")),
    Call("resource_load", {"file_path": "res://e2e/title.tres"}, "read it back",
         result={"class": "LabelSettings", "properties": {"font_size": 24}}),
    # scene_advanced
    Call("scene_diff", {"before": {"tree": {"name": "Main", "class": "Node2D", "path": ".", "children": []}},
                        "after": {"tree": {"name": "Main", "class": "Node2D", "path": ".",
                                           "children": [{"name": "New", "class": "Node", "path": "New",
                                                         "children": []}]}}},
         "two snapshots compared", result={"added": [{"path": "New", "class": "Node"}], "removed": []}),
    Call("scene_instantiate", {"parent_path": ".", "scene_path": "res://scenes/game.tscn", "as_name": "Level"},
         "a scene instanced into the edited one", effect=prop("Level", "name", "Level"), undone=no_node("Level")),
    # scene_inheritance
    Call("scene_create_inherited", {"file_path": "res://e2e/hero.tscn", "base_scene": "res://scenes/game.tscn",
                                    "root_name": "Hero"}, "an inherited scene",
         file=FileHas("res://e2e/hero.tscn", "res://scenes/game.tscn")),
    # shaders
    *SHADER_CALLS,
    # signals
    Call("signal_emit", {"node_path": "Hud", "signal_name": "resized"}, "a signal emitted in the editor",
         effect=prop("Player", "resizes", 1)),
    # spriteframes
    Call("spriteframes_create", {"file_path": "res://e2e/hero_frames.tres",
                                 "animations": [{"name": "walk", "fps": 8, "frames": [{"texture_path": SHEET}]}]},
         "sprite frames", file=FileHas("res://e2e/hero_frames.tres", "walk")),
    Call("spriteframes_edit", {"file_path": "res://e2e/hero_frames.tres", "action": "set_fps",
                               "animation_name": "walk", "fps": 12}, "change their speed",
         effect=Read("spriteframes_edit", {"file_path": "res://e2e/hero_frames.tres", "action": "list"},
                     {"animations": [{"name": "walk", "fps": 12.0}]})),
    Call("spriteframes_from_spritesheet", {"file_path": "res://e2e/grid.tres", "texture_path": SHEET,
                                           "frame_size": {"x": 16, "y": 16},
                                           "animations": [{"name": "idle", "row": 0, "start_col": 0,
                                                           "frame_count": 2}]},
         "frames cut from a sheet", file=FileHas("res://e2e/grid.tres", "idle")),
    # testing
    Call("test_list", {}, "the project's test frameworks (none installed)",
         result={"frameworks": [], "suites": [], "total_suites": 0}),
    Call("test_run", {}, "run the project's tests (no framework installed)", code="NOT_FOUND"),
    # checkpoints (the byte-for-byte round trip is tests/engine/e2e/test_checkpoints.py)
    Call("checkpoint_create", {"label": "before the theme"}, "mark a checkpoint", result={"label": "before the theme"}),
    Call("checkpoint_list", {}, "the checkpoints", result={"checkpoints": [{"label": "before the theme"}]}),
    # theme
    Call("theme_edit", {"file_path": "res://e2e/ui.tres",
                        "edits": [{"type_name": "Label", "property_type": "font_size", "property": "font_size",
                                   "value": 24}]},
         "a theme", file=FileHas("res://e2e/ui.tres", "Label/font_sizes/font_size = 24")),
    Call("checkpoint_diff", {}, "what changed since", bind={"id": ("checkpoint_create:mark a checkpoint", "id")},
         result={"files": [{"path": "res://e2e/ui.tres", "status": "created"}]}),
    Call("checkpoint_restore", {}, "roll it back", bind={"id": ("checkpoint_create:mark a checkpoint", "id")},
         file=FileHas("res://e2e/ui.tres", gone=True)),
    Call("theme_edit", {"file_path": "res://e2e/ui.tres",
                        "edits": [{"type_name": "Label", "property_type": "font_size", "property": "font_size",
                                   "value": 24}]},
         "the theme again", file=FileHas("res://e2e/ui.tres", "Label/font_sizes/font_size = 24")),
    # tileset, tileset_edit, tilemap
    Call("tileset_create", {"file_path": TILESET, "texture_path": SHEET, "tile_size": {"x": 16, "y": 16},
                            "physics": True}, "a tile set from a texture", file=FileHas(TILESET, "TileSet")),
    Call("tileset_add_source", {"file_path": TILESET, "texture_path": SHEET, "tile_size": {"x": 32, "y": 32}},
         "a second source", result={"sources": [0, 1]}, file=FileHas(TILESET, "TileSetAtlasSource")),
    Call("tileset_remove_source", {"file_path": TILESET, "source_id": 1}, "remove it", result={"sources": [0]}),
    Call("tileset_add_alternative", {"file_path": TILESET, "atlas_x": 1, "atlas_y": 0, "flip_h": True},
         "an alternative tile", result={"alternative_id": 1}),
    Call("tileset_remove_alternative", {"file_path": TILESET, "atlas_x": 1, "atlas_y": 0, "alternative_id": 1},
         "remove it", result={"alternatives_left": 0}),
    Call("tileset_setup_layers", {"file_path": TILESET, "custom_data": [{"name": "damage", "type": "int"}],
                                  "navigation_layers": 1, "occlusion_layers": 1,
                                  "terrain_sets": [{"mode": "match_sides", "terrains": ["grass", "water"]}]},
         "custom data, navigation, occlusion and terrain layers",
         file=FileHas(TILESET, 'custom_data_layer_0/name = "damage"')),
    Call("tileset_edit_physics", {"file_path": TILESET, "tiles": [{"atlas_x": 0, "atlas_y": 0,
                                                                   "physics_polygon": "full"}]}, "a solid tile",
         file=FileHas(TILESET, "0:0/0/physics_layer_0/polygon_0/points")),
    Call("tileset_edit_custom_data", {"file_path": TILESET, "tiles": [{"atlas_x": 1, "atlas_y": 0,
                                                                       "custom_data": {"damage": 5}}]},
         "custom data on a tile", file=FileHas(TILESET, "1:0/0/custom_data_0 = 5")),
    Call("tileset_edit_navigation", {"file_path": TILESET, "tiles": [{"atlas_x": 0, "atlas_y": 0,
                                                                      "navigation_polygon": "full"}]},
         "a walkable tile", file=FileHas(TILESET, "0:0/0/navigation_layer_0/polygon")),
    Call("tileset_edit_terrain", {"file_path": TILESET, "tiles": [{"atlas_x": 0, "atlas_y": 0, "terrain_set": 0,
                                                                   "terrain": 0,
                                                                   "terrain_peering": {"right_side": 1}}]},
         "a terrain tile", file=FileHas(TILESET, "0:0/0/terrain = 0")),
    Call("tileset_edit_visuals", {"file_path": TILESET, "tiles": [{"atlas_x": 1, "atlas_y": 0, "probability": 0.25,
                                                                   "z_index": 2}]},
         "a rarer tile drawn on top", file=FileHas(TILESET, "1:0/0/z_index = 2")),
    Call("scene_create_node", {"class_name": "TileMapLayer", "parent_path": ".", "node_name": "Ground",
                               "properties": {"tile_set": res(TILESET)}}, "a tile map layer",
         effect=expr("get_node(\"Ground\").tile_set.resource_path", TILESET)),
    Call("tilemap_set_cells", {"node_path": "Ground", "cells": [{"x": 1, "y": 2, "source_id": 0, "atlas_x": 1,
                                                                 "atlas_y": 0}]},
         "paint a cell",
         effect=Read("tilemap_read_cells", {"node_path": "Ground"}, {"cells": [{"x": 1, "y": 2, "atlas_x": 1}]})),
    Call("tilemap_read_cells", {"node_path": "Ground"}, "read the cells", result={"total": 1}),
    # user_data
    Call("save_write", {"path": "user://e2e/slot1.json", "content": "{\"level\": 3}\n"}, "a save file",
         file=FileHas("user://e2e/slot1.json", '{"level": 3}')),
    Call("save_read", {"path": "user://e2e/slot1.json"}, "read it", result={"content": Has('{"level": 3}')}),
    Call("save_list", {"path": "user://e2e"}, "the save folder", result={"files": [{"name": "slot1.json"}]}),
    Call("save_delete", {"path": "user://e2e/slot1.json"}, "delete it", file=FileHas("user://e2e/slot1.json", gone=True)),
    # extensions: a tool of the project's own extension (res://mcp_extensions/)
    Call("wordtools_count", {"text": "one two three"}, "an extension's command", result={"words": 3}),
    # cleanup last: it removes what the calls above made
    Call("file_delete", {"file_path": "res://e2e/dot.png"}, "delete a file", file=FileHas("res://e2e/dot.png", gone=True)),
    Call("resource_delete", {"file_path": "res://e2e/caves.tres"}, "delete a resource",
         file=FileHas("res://e2e/caves.tres", gone=True)),
    Call("script_delete", {"file_path": "res://e2e/globals.gd"}, "delete a script",
         file=FileHas("res://e2e/globals.gd", gone=True)),
    Call("scene_close", {"file_path": "res://e2e/level.tscn"}, "close a scene that is open but not edited",
         result={"open_scenes": ["res://scenes/main.tscn"]}),
    Call("scene_delete", {"file_path": "res://e2e/hero.tscn"}, "delete a scene",
         file=FileHas("res://e2e/hero.tscn", gone=True)),
    Call("folder_create", {"path": "res://e2e/junk/deep"}, "a folder tree to delete",
         file=FileHas("res://e2e/junk/deep", dir=True)),
    Call("folder_delete", {"path": "res://e2e/junk", "recursive": True}, "delete it",
         file=FileHas("res://e2e/junk", gone=True)),
]

GAME_SCENE = "res://scenes/game.tscn"
PLAYER = "/root/Game/Player"


def game_var(name: str, value: object) -> Read:
    return Read("runtime_get_script_vars", {"node_path": PLAYER}, {"variables": [{"name": name, "value": value}]})


# The game: the user presses Play (the editor runs game.tscn, whose runtime server the bridge finds
# through the registry), then the runtime tools, then the game is stopped through the bridge.
GAME: list[Call] = [
    Call("runtime_get_script_vars", {"node_path": PLAYER}, "a game node's script variables", host="play",
         result={"script": "res://scripts/player.gd", "variables": [{"name": "speed", "value": 60.0}]}),
    Call("game_start", {"scene_path": GAME_SCENE}, "while a game runs", code="ALREADY_PLAYING"),
    Call("game_start", {"scene_path": GAME_SCENE, "if_running": "return"}, "keep the running game",
         result={"status": "already_running"}),
    Call("runtime_get_node_state", {"node_path": PLAYER}, "a game node's state",
         result={"class": "Node2D", "properties": {"speed": 60.0}}),
    Call("runtime_set_property", {"node_path": PLAYER, "property": "speed", "value": 0}, "stop the player",
         effect=game_var("speed", 0)),
    Call("runtime_set_property", {"node_path": PLAYER, "property": "position", "value": vec2(5, 6)},
         "move it", effect=Read("runtime_get_node_state", {"node_path": PLAYER},
                                {"properties": {"position": vec2(5, 6)}})),
    Call("input_simulate", {"events": {"event_type": "action", "event_data": {"action": "jump", "pressed": True}}},
         "press jump", effect=game_var("jumps", 1)),
    Call("input_simulate", {"events": {"event_type": "action", "event_data": {"action": "jump", "pressed": False}}},
         "release it", result={"events_sent": 1}),
    Call("execute_code", {"code": "scene.get_node(\"Player\").jumps", "channel": "runtime"},
         "an expression in the game", result={"value": 1}),
    Call("debugger_get_log", {"limit": 5}, "the running game's log", result={"source": "buffer"}),
    Call("runtime_screenshot", {}, "the game's viewport", image=True, result={"mime_type": "image/png"}),
    Call("animation_player_control", {"node_path": "/root/Game/Anim", "operation": "play",
                                      "animation_name": "blink"}, "play an animation",
         result={"playing": True, "animation": "blink"},
         effect=Read("runtime_get_node_state", {"node_path": "/root/Game/Anim"},
                     {"properties": {"current_animation": "blink"}})),
    Call("game_performance", {}, "the game's monitors", result={"monitors": {"fps": Kind("number"), "nodes": Kind("number")}}),
    Call("game_performance_sample", {"frames": 5}, "five frames sampled", result={"frames_sampled": 5}),
    Call("game_pause", {}, "hold the game", result={"paused_by_assistant": True, "tree_paused": True}),
    Call("runtime_set_property", {"node_path": PLAYER, "property": "speed", "value": 60}, "let it move again",
         effect=game_var("speed", 60.0)),
    # The player moved exactly speed x the game time the step reports (a real frame's length varies
    # with the machine's load), and not at all while held.
    Call("game_step", {"frames": 10}, "ten frames", result={"process_frames": 10, "game_time_s": Near(1 / 6)},
         effect=Read("runtime_get_node_state", {"node_path": PLAYER},
                     {"properties": {"position": {"x": Derived(lambda step: 5 + 60 * step["game_time_s"]),
                                                  "y": 6.0}}})),
    Call("game_step_until", {"node_path": PLAYER, "property": "position:x", "operator": "ge", "value": 20,
                             "max_frames": 120}, "until the player passes x = 20",
         result={"met": True, "stopped": "condition"}),
    Call("game_set_time_scale", {"time_scale": 0.5}, "half speed", result={"time_scale": 0.5}),
    Call("game_set_time_scale", {"time_scale": 1}, "normal speed", result={"time_scale": 1.0}),
    Call("game_resume", {}, "hand the clock back", result={"paused_by_assistant": False, "tree_paused": False}),
    Call("game_stop", {}, "stop the game", result={"status": "stopped"}),
    Call("runtime_get_script_vars", {"node_path": PLAYER}, "no game any more", code="GAME_NOT_RUNNING"),
    Call("game_stop", {}, "with no game", result={"status": "not_running"}),
    Call("debugger_get_log", {"limit": 5}, "the stopped game's log, from the editor", result={"source": "file"}),
]

# The editor's own launch: game_start runs its pre-launch compile check over the whole project
# (the toolkit included), asks the context to play, and waits for the game's runtime server.
STARTED: list[Call] = [
    Call("game_start", {"scene_path": GAME_SCENE}, "start the game from the editor",
         result={"status": "started", "runtime_connected": True}, effect=game_var("speed", 60.0)),
    Call("game_stop", {}, "stop the started game", result={"status": "stopped"}),
]

CALLS: list[Call] = [*EDITOR, *GROUPS, *GAME, *STARTED]
# The toolkit's groups no call here reaches, and why: Godot's GDScript language server is part of
# the editor, which the engine host (an export template) does not have.
NOT_HERE = {"lsp_code_analysis": "needs the editor's GDScript language server",
            "lsp_code_navigation": "needs the editor's GDScript language server"}

# The same kinds of calls through `godot-bridge --http` (tests/engine/e2e/test_http.py): reads, an undoable
# mutation, a file, an error path, a group, the game. Independent of CALLS (either may run first).
HTTP_CALLS: list[Call] = [
    Call("scene_get_tree", {"max_depth": 1}, "the tree over HTTP", result={"scene_path": "res://scenes/main.tscn"}),
    Call("node_set_property", {"node_path": "Hud/Score", "property": "text", "value": "Score: 7"},
         "a label's text over HTTP", effect=prop("Hud/Score", "text", "Score: 7"),
         undone=prop("Hud/Score", "text", "Score: 0")),
    Call("scene_create_node", {"class_name": "Timer", "parent_path": ".", "node_name": "HttpTimer",
                               "properties": {"wait_time": 2.5}},
         "a node over HTTP", effect=prop("HttpTimer", "wait_time", 2.5), undone=no_node("HttpTimer")),
    Call("script_write", {"file_path": "res://scripts/http.gd", "content": "extends Timer\n"}, "a file over HTTP",
         file=FileHas("res://scripts/http.gd", "extends Timer\n")),
    Call("node_get_property", {"node_path": "Nobody", "property": "name"}, "a missing node over HTTP",
         code="NOT_FOUND"),
    Call("save_write", {"path": "user://e2e/http.json", "content": "{}"}, "a group's tool over HTTP",
         file=FileHas("user://e2e/http.json", "{}")),
    Call("runtime_get_script_vars", {"node_path": PLAYER}, "the game over HTTP", host="play",
         result={"variables": [{"name": "speed", "value": 60.0}]}),
    Call("game_stop", {}, "stop it over HTTP", result={"status": "stopped"}),
]
