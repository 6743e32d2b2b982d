@tool
extends "res://addons/godot_mcp_toolkit/context/role.gd"
## Where the context runs: in the editor or not, with a display or not, and how one frame passes.
## This base answers for any process; the editor's context says it is the editor, the runtime
## context lets a test stand in for a headless process and for the frame loop. Runtime-safe.

const VersionUtils := preload("res://addons/godot_mcp_toolkit/base/version_utils.gd")


func is_editor() -> bool:
	return false


## True when this process has no display (`godot --headless`): nothing is drawn, so there is
## nothing to capture, and a game it starts must run headless too.
func is_headless() -> bool:
	return VersionUtils.is_headless()


## Lets one frame pass (awaitable); waits that poll the editor go through here so a test context
## can stand in without a frame loop.
func wait_frame() -> void:
	var tree := Engine.get_main_loop() as SceneTree
	if tree != null:
		await tree.process_frame
