@tool
extends "res://addons/godot_mcp_toolkit/context/viewport_role.gd"
## The runtime context's viewport: the game window's own frame (there is no editor viewport
## outside the editor), and a window a test can make unable to draw. Runtime-safe.

## False simulates a minimized window; `can_restore` whether force brings it back.
var viewport_can_draw := true
var viewport_can_restore := true


func capture_viewport(_focus: Node) -> Image:
	var tree := Engine.get_main_loop() as SceneTree
	return tree.root.get_texture().get_image() if tree != null else null


func prepare_viewport(force: bool) -> Dictionary:
	if viewport_can_draw:
		return {"ok": true, "remediation": PackedStringArray()}
	if force and viewport_can_restore:
		viewport_can_draw = true
		return {"ok": true, "remediation": PackedStringArray(["foregrounded_editor"])}
	return {"ok": false, "remediation": PackedStringArray()}
