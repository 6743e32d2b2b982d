@tool
extends "res://addons/godot_mcp_toolkit/context/runtime_context.gd"
## The context the running game's commands see: the scene root is whatever the game shows now
## (SceneTree.current_scene), looked up on every call, so a change_scene_to_file() in the game is
## followed without re-registering anything. RUNTIME-REACHABLE.

var _tree: SceneTree = null


func _init(tree: SceneTree) -> void:
	super(null)
	_tree = tree


func scene_root() -> Node:
	if _tree == null or not is_instance_valid(_tree.current_scene):
		return null
	return _tree.current_scene


func edited_scene_path() -> String:
	var root := scene_root()
	return root.scene_file_path if root != null else ""
