@tool
extends RefCounted
## Nodes of the running game (Mode B): read a node's current state, set a property on it. The
## context's scene root is the game's current scene; "/root/..." paths reach any node of the tree.
## Not undoable and never saved: the game is not the edited scene. Every result carries success.
## RUNTIME-REACHABLE: loaded by the game (runtime/runtime_domains.gd); names no Editor* class.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const ToolkitSuccess := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_success.gd")
const Params := preload("res://addons/godot_mcp_toolkit/contract/params.gd")
const NodeLookup := preload("res://addons/godot_mcp_toolkit/scene_tree/node_lookup.gd")
const PropertyWrite := preload("res://addons/godot_mcp_toolkit/commands/node/property_write.gd")
const PropertyList := preload("res://addons/godot_mcp_toolkit/commands/node/property_list.gd")

## See meta_commands.gd for why handlers are reached through the script path.
const SELF_PATH := "res://addons/godot_mcp_toolkit/commands/runtime/runtime_node_commands.gd"


static func register(registry: RefCounted, context: RefCounted) -> void:
	var script: Script = load(SELF_PATH)
	registry.register_command("runtime.get_node_state", Callable(script, "_cmd_get_node_state").bind(context),
		registry.create_options().read_only())
	registry.register_command("runtime.set_property", Callable(script, "_cmd_set_property").bind(context),
		registry.create_options())


static func _cmd_get_node_state(params: Dictionary, context: RefCounted) -> Dictionary:
	var missing := Params.require(params, ["node_path"])
	if not missing.is_empty():
		return missing
	var found := _find(context, params["node_path"])
	if not found["ok"]:
		return found["error"]
	var node: Node = found["node"]
	var script: Script = node.get_script()
	var properties := PropertyList.state(node)
	return ToolkitSuccess.ok({
		"node_path": found["path"], "name": String(node.name), "class": node.get_class(),
		"script_path": script.resource_path if script != null else "",
		"child_count": node.get_child_count(), "properties": properties,
	})


static func _cmd_set_property(params: Dictionary, context: RefCounted) -> Dictionary:
	var missing := Params.require(params, ["node_path", "property"])
	if not missing.is_empty():
		return missing
	if not params.has("value"):
		return ToolkitError.fail("INVALID_PARAMS", "Missing required parameter(s): value")
	var property: Variant = params["property"]
	if not property is String or (property as String).is_empty():
		return ToolkitError.fail("INVALID_PARAMS", "property must be a non-empty string")
	var found := _find(context, params["node_path"])
	if not found["ok"]:
		return found["error"]
	var written := PropertyWrite.write(found["node"], property, params["value"], null, false)
	if not written["ok"]:
		return written["error"]
	var result := {"node_path": found["path"], "property": property, "value": written["value"],
		"previous": written["previous"]}
	if written.has("warning"):
		result["warnings"] = [written["warning"]]
	if written.get("kept", false):
		result["kept"] = [property]
	return ToolkitSuccess.ok(result)


## The node at `path`: "/root/..." anywhere in the game's tree (autoloads included), else relative
## to the current scene. {"ok": true, "node", "path" (absolute)} or {"ok": false, "error"}.
static func _find(context: RefCounted, path: Variant) -> Dictionary:
	if not path is String:
		return {"ok": false, "error": ToolkitError.fail("INVALID_PARAMS", "node_path must be a string")}
	var root: Node = context.scenes.scene_root()
	var tree := Engine.get_main_loop() as SceneTree
	if root == null and tree != null:
		# The scene the context was made for is gone (the game changed scenes): use the new one.
		root = tree.current_scene
	var node: Node = null
	if (path as String).begins_with("/") and tree != null:
		node = tree.root.get_node_or_null(NodePath(path))
	if node == null:
		if root == null:
			return {"ok": false, "error": ToolkitError.fail("NOT_FOUND",
				"No node at '%s' and the game has no current scene" % path,
				"Use an absolute path like /root/Main/Player.")}
		var found := NodeLookup.find(root, path)
		if not found["ok"]:
			return found
		node = found["node"]
	return {"ok": true, "node": node, "path": String(node.get_path()) if node.is_inside_tree() else str(path)}
