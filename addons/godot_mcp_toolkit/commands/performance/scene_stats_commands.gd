@tool
extends RefCounted
## perf.scene_counts in the editor: what the edited scene (or one subtree) is made of, through
## the seam's scene_root() (context/toolkit_context.gd); the counting is commands/performance/
## scene_counter.gd. Read-only. Runtime-safe.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const ToolkitSuccess := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_success.gd")
const NodeLookup := preload("res://addons/godot_mcp_toolkit/scene_tree/node_lookup.gd")
const SceneCounter := preload("res://addons/godot_mcp_toolkit/commands/performance/scene_counter.gd")

const SELF_PATH := "res://addons/godot_mcp_toolkit/commands/performance/scene_stats_commands.gd"


static func register(registry: RefCounted, context: RefCounted) -> void:
	var script: Script = load(SELF_PATH)
	registry.register_command("perf.scene_counts", Callable(script, "_cmd_scene_counts").bind(context),
		registry.create_options()
		.read_only())


static func _cmd_scene_counts(params: Dictionary, context: RefCounted) -> Dictionary:
	var root: Node = context.scenes.scene_root()
	if root == null:
		return ToolkitError.fail("NO_SCENE", "No scene is open in the editor", "Open a scene with scene_open first.")
	var path: Variant = params.get("node_path", ".")
	if not path is String or (path as String).strip_edges().is_empty():
		return ToolkitError.fail("INVALID_PARAMS",
			"node_path must be a node path relative to the scene root, e.g. \"Level/Enemies\"")
	var found := NodeLookup.find(root, path)
	if not found["ok"]:
		return found["error"]
	var top: Node = found["node"]
	var result := SceneCounter.count(top)
	result["scene_path"] = context.scenes.edited_scene_path()
	result["node_path"] = NodeLookup.path_of(root, top)
	return ToolkitSuccess.ok(result)
