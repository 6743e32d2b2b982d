@tool
extends "res://addons/godot_mcp_toolkit/context/runtime_context.gd"
## The context the running game's commands see: the scene root is whatever the game shows now
## (SceneTree.current_scene), looked up on every call, so a change_scene_to_file() in the game is
## followed without re-registering anything. RUNTIME-REACHABLE.


func _init(tree: SceneTree) -> void:
	super(null)
	runtime_scenes.game_tree = tree
