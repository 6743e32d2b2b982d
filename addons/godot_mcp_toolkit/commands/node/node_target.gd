@tool
extends RefCounted
## The node a node command acts on: the context's scene root plus scene_tree/node_lookup.gd, with the
## path type-checked first (lookup takes a String) and the canonical path kept for the result.
## Runtime-safe: names no Editor* class.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const NodeLookup := preload("res://addons/godot_mcp_toolkit/scene_tree/node_lookup.gd")


## {"ok": true, "node", "root", "path"} or {"ok": false, "error": envelope}. `code` is what a
## missing node is reported as (PARENT_NOT_FOUND for a destination parent).
static func find(context: RefCounted, path: Variant, code: String = "NOT_FOUND",
		param: String = "node_path") -> Dictionary:
	var root: Node = context.scenes.scene_root()
	if root == null:
		return {"ok": false, "error": no_scene()}
	if not path is String:
		return {"ok": false, "error": ToolkitError.fail("INVALID_PARAMS", "%s must be a string" % param)}
	var found := NodeLookup.find(root, path, code)
	if not found["ok"]:
		return found
	var node: Node = found["node"]
	return {"ok": true, "node": node, "root": root, "path": NodeLookup.path_of(root, node)}


static func no_scene() -> Dictionary:
	return NodeLookup.find(null, "")["error"]
