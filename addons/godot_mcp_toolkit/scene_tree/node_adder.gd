@tool
extends RefCounted
## Adding one configured node to the edited scene for the world-building domains: find the parent,
## answer an existing same-named node the C6 way (same class: returned, naming what was not
## applied; another class: CLASS_MISMATCH), and add the new node in one undo step owned by the
## scene root, so it is saved with the scene. Runtime-safe.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const ToolkitSuccess := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_success.gd")
const Idempotency := preload("res://addons/godot_mcp_toolkit/contract/idempotency.gd")
const NodeLookup := preload("res://addons/godot_mcp_toolkit/scene_tree/node_lookup.gd")


## {"root", "parent"} or {"error"}: NO_SCENE without a scene, NOT_FOUND for a missing parent.
static func parent_of(context: RefCounted, parent_path: Variant) -> Dictionary:
	var root: Node = context.scenes.scene_root()
	if root == null:
		return {"error": ToolkitError.fail("NO_SCENE", "No scene is open in the editor",
			"Open one with scene_open, or create one with scene_create and then open it.")}
	if not parent_path is String:
		return {"error": ToolkitError.fail("INVALID_PARAMS", "parent_path must be a string (\".\" is the scene root)")}
	var found := NodeLookup.find(root, parent_path)
	if not found["ok"]:
		return {"error": found["error"]}
	return {"root": root, "parent": found["node"]}


## A valid node name from params[key] (default `fallback`): {"value"} or {"error"}.
static func node_name(params: Dictionary, key: String, fallback: String) -> Dictionary:
	var raw: Variant = params.get(key, fallback)
	if not raw is String or (raw as String).is_empty():
		return {"error": ToolkitError.fail("INVALID_PARAMS", "%s must be a non-empty string" % key)}
	if raw != (raw as String).validate_node_name():
		return {"error": ToolkitError.fail("INVALID_PARAMS", "%s '%s' has characters a node name cannot hold" % [
			key, raw], "Use '%s' instead." % (raw as String).validate_node_name())}
	return {"value": raw}


## The answer when `parent` already has a child `name`; {} when it does not.
static func existing(root: Node, parent: Node, name: String, type_name: String, params: Dictionary,
		structural: Array) -> Dictionary:
	var found := parent.get_node_or_null(NodePath(name))
	if found == null:
		return {}
	var where := NodeLookup.path_of(root, found)
	if not found.is_class(type_name):
		return ToolkitError.fail("CLASS_MISMATCH", "'%s' already exists as a %s, not a %s" % [
			where, found.get_class(), type_name], "Pass another name, or delete the node first.")
	var result := Idempotency.with_status({"node_path": where, "name": name, "class": found.get_class()},
		Idempotency.STATUS_RETURNED)
	var ignored := PackedStringArray()
	for key: String in params:
		if not key in structural:
			ignored.append(key)
	if not ignored.is_empty():
		result["warnings"] = ["Not applied, the node already exists: %s. Change it with node_set_property." %
			", ".join(ignored)]
	return ToolkitSuccess.ok(result)


## Adds `node` under `parent` as one undo step and marks the scene modified; the created result.
static func add(context: RefCounted, root: Node, parent: Node, node: Node, details: Dictionary) -> Dictionary:
	add_all(context, root, parent, [node], "Create %s" % node.name)
	var result := Idempotency.with_status({"node_path": NodeLookup.path_of(root, node), "name": String(node.name),
		"class": node.get_class(), "parent_path": NodeLookup.path_of(root, parent)}, Idempotency.STATUS_CREATED)
	result.merge(details)
	return ToolkitSuccess.ok(result)


## Adds `nodes` under `parent`, owned by the scene `root`, as one undo step named `description`, and
## marks the scene modified.
static func add_all(context: RefCounted, root: Node, parent: Node, nodes: Array, description: String) -> void:
	var action: RefCounted = context.edits.create_undo_action(description, root)
	for node: Node in nodes:
		action.add_do_method(parent, &"add_child", [node, true])
		action.add_do_method(node, &"set_owner", [root])
		action.add_do_reference(node)
		action.add_undo_method(parent, &"remove_child", [node])
	action.commit()
	context.scenes.mark_modified()
