@tool
extends RefCounted
## The scene domain against the editor seam (context/toolkit_context.gd): read the edited scene's
## tree, create and open scene files, add and delete nodes (undoable, scene marked modified),
## find nodes and map where they sit. Runtime-safe: every editor effect goes through the
## context, so the same code runs in the editor plugin and in the GDScript tests.
##
## Helpers: commands/scene/scene_files.gd (scene.create, scene.open; editor.save_scene uses it too),
## commands/scene/node_query.gd (scene.get_tree, scene.query), commands/scene/spatial_map.gd,
## scene_tree/node_lookup.gd (paths), scene_tree/property_access.gd (verified writes).

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const ToolkitSuccess := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_success.gd")
const Params := preload("res://addons/godot_mcp_toolkit/contract/params.gd")
const Idempotency := preload("res://addons/godot_mcp_toolkit/contract/idempotency.gd")
const NodeLookup := preload("res://addons/godot_mcp_toolkit/scene_tree/node_lookup.gd")
const PropertyAccess := preload("res://addons/godot_mcp_toolkit/scene_tree/property_access.gd")
const ClassFactory := preload("res://addons/godot_mcp_toolkit/commands/scene/class_factory.gd")
const SceneFiles := preload("res://addons/godot_mcp_toolkit/commands/scene/scene_files.gd")
const NodeQuery := preload("res://addons/godot_mcp_toolkit/commands/scene/node_query.gd")
const SpatialMap := preload("res://addons/godot_mcp_toolkit/commands/scene/spatial_map.gd")

const SELF_PATH := "res://addons/godot_mcp_toolkit/commands/scene/scene_commands.gd"
## What a returned (already existing) node did not apply, by request key (C6 disclosure).
const CREATE_EXTRAS := ["properties", "layout_mode", "unique_name"]


static func register(registry: RefCounted, context: RefCounted) -> void:
	var script: Script = load(SELF_PATH)
	registry.register_command("scene.get_tree", Callable(script, "_cmd_get_tree").bind(context),
		registry.create_options()
		.with_input_schema(_schema({"max_depth": {"type": "number"}, "include_properties": {"type": "boolean"},
			"root_path": {"type": "string"}}))
		.read_only())
	registry.register_command("scene.create", Callable(script, "_cmd_create").bind(context),
		registry.create_options()
		.with_input_schema(_schema({
			"file_path": {"type": "string"}, "root_type": {"type": "string"}, "root_name": {"type": "string"},
			"if_exists": {"type": "string", "enum": Idempotency.IF_EXISTS_MODES},
		}, ["file_path"]))
		.scene_independent())
	registry.register_command("scene.open", Callable(script, "_cmd_open").bind(context),
		registry.create_options()
		.with_input_schema(_schema({"file_path": {"type": "string"}}, ["file_path"]))
		.scene_independent().leases_scene())
	registry.register_command("scene.create_node", Callable(script, "_cmd_create_node").bind(context),
		registry.create_options()
		.with_input_schema(_schema({
			"class_name": {"type": "string"}, "parent_path": {"type": "string"}, "node_name": {"type": "string"},
			"properties": {"type": "object"}, "layout_mode": {"type": "number"}, "unique_name": {"type": "boolean"},
		}, ["class_name", "parent_path"])))
	registry.register_command("scene.delete_node", Callable(script, "_cmd_delete_node").bind(context),
		registry.create_options()
		.with_input_schema(_schema({"node_path": {"type": "string"}}, ["node_path"])))
	registry.register_command("scene.query", Callable(script, "_cmd_query").bind(context),
		registry.create_options()
		.with_input_schema(NodeQuery.QUERY_SCHEMA).read_only())
	registry.register_command("scene.spatial_map", Callable(script, "_cmd_spatial_map").bind(context),
		registry.create_options()
		.with_input_schema(SpatialMap.SCHEMA).read_only())


static func _schema(properties: Dictionary, required: Array = []) -> Dictionary:
	var schema := {"type": "object", "properties": properties}
	if not required.is_empty():
		schema["required"] = required
	return schema


# --- reads -----------------------------------------------------------------------------------------

static func _cmd_get_tree(params: Dictionary, context: RefCounted) -> Dictionary:
	var root: Node = context.scenes.scene_root()
	if root == null:
		return _no_scene()
	var depth := _optional_depth(params.get("max_depth"), "max_depth")
	if depth.has("error"):
		return depth["error"]
	var include_properties: Variant = params.get("include_properties", false)
	if not include_properties is bool:
		return ToolkitError.fail("INVALID_PARAMS", "include_properties must be true or false")
	var root_path: Variant = "." if params.get("root_path") == null else params["root_path"]
	if not root_path is String:
		return ToolkitError.fail("INVALID_PARAMS", "root_path must be a node path string (\".\" is the root)")
	# A branch a cut tree left out (child_count), read on in the same shape.
	var start := NodeLookup.find(root, root_path)
	if not start["ok"]:
		return start["error"]
	var result := NodeQuery.tree(root, int(depth["value"]), include_properties, context.scenes.edited_scene_path(),
		start["node"])
	return ToolkitSuccess.ok(result)


static func _cmd_query(params: Dictionary, context: RefCounted) -> Dictionary:
	var root: Node = context.scenes.scene_root()
	if root == null:
		return _no_scene()
	var request := {
		"class_filter": params.get("class_filter", ""), "group_filter": params.get("group_filter", ""),
		"name_pattern": params.get("name_pattern", ""), "property_filters": params.get("property_filters", []),
		"root_path": params.get("root_path", "."), "include_properties": params.get("include_properties", []),
		"offset": params.get("offset", 0), "limit": params.get("limit", NodeQuery.DEFAULT_LIMIT),
	}
	var depth := _optional_depth(params.get("max_depth"), "max_depth")
	if depth.has("error"):
		return depth["error"]
	request["max_depth"] = depth["value"]
	return NodeQuery.query(root, request, context.scenes.edited_scene_path())


static func _cmd_spatial_map(params: Dictionary, context: RefCounted) -> Dictionary:
	var root: Node = context.scenes.scene_root()
	if root == null:
		return _no_scene()
	var request := {
		"detail": params.get("detail", "normal"), "class": params.get("class", ""),
		"subtree": params.get("subtree", "."), "max_nodes": params.get("max_nodes", SpatialMap.DEFAULT_MAX_NODES),
		"region": params.get("region"), "radius": params.get("radius"), "center": params.get("center"),
	}
	return SpatialMap.build(root, request)


# --- files -----------------------------------------------------------------------------------------

static func _cmd_create(params: Dictionary, context: RefCounted) -> Dictionary:
	var request := {
		"file_path": params.get("file_path"), "root_type": params.get("root_type", "Node"),
		"root_name": params.get("root_name", ""), "if_exists": params.get("if_exists", Idempotency.IF_EXISTS_RETURN),
		"passed": params.keys(),
	}
	return SceneFiles.create(request, context)


static func _cmd_open(params: Dictionary, context: RefCounted) -> Dictionary:
	return SceneFiles.open(params.get("file_path"), context)


# --- nodes -----------------------------------------------------------------------------------------

static func _cmd_create_node(params: Dictionary, context: RefCounted) -> Dictionary:
	var missing := Params.require(params, ["class_name"])
	if not missing.is_empty():
		return missing
	var root: Node = context.scenes.scene_root()
	if root == null:
		return _no_scene()
	var checked := _check_create_node(params)
	if checked.has("error"):
		return checked["error"]
	var type_name: String = params["class_name"]
	var parent_path: String = params.get("parent_path", ".")
	var parent_found := NodeLookup.find(root, parent_path, "PARENT_NOT_FOUND")
	if not parent_found["ok"]:
		return parent_found["error"]
	var parent: Node = parent_found["node"]
	var node_name: String = params.get("node_name", "")
	if node_name.is_empty():
		node_name = type_name
	var existing := parent.get_node_or_null(NodePath(node_name))
	if existing != null:
		return _existing_node(root, existing, type_name, params)
	var made := ClassFactory.instantiate_node(type_name)
	if made.has("error"):
		return made["error"]
	var node: Node = made["node"]
	node.name = node_name
	_add_node(context, root, parent, node, "Create %s" % node_name)
	var outcome := _apply_initial(root, node, params)
	context.scenes.mark_modified()
	var result := {
		"status": Idempotency.STATUS_CREATED, "node_path": NodeLookup.path_of(root, node), "name": String(node.name),
		"class": ClassFactory.class_label(node), "parent_path": NodeLookup.path_of(root, parent),
	}
	result.merge(outcome)
	return ToolkitSuccess.ok(result)


## Type checks of every create_node param before anything is touched.
static func _check_create_node(params: Dictionary) -> Dictionary:
	for key: String in ["class_name", "parent_path", "node_name"]:
		if params.has(key) and not params[key] is String:
			return {"error": ToolkitError.fail("INVALID_PARAMS", "%s must be a string" % key)}
	var node_name: String = params.get("node_name", "")
	if node_name != node_name.validate_node_name():
		return {"error": ToolkitError.fail("INVALID_PARAMS",
			"node_name '%s' has characters a node name cannot hold (. : @ / \" %%)" % node_name,
			"Use '%s' instead." % node_name.validate_node_name())}
	if params.has("properties") and not params["properties"] is Dictionary:
		return {"error": ToolkitError.fail("INVALID_PARAMS", "properties must be an object of property: value")}
	if params.has("layout_mode") and not Params.is_whole_number(params["layout_mode"]):
		return {"error": ToolkitError.fail("INVALID_PARAMS", "layout_mode must be a whole number")}
	if params.has("unique_name") and not params["unique_name"] is bool:
		return {"error": ToolkitError.fail("INVALID_PARAMS", "unique_name must be true or false")}
	return {}


## C6: same name and class → returned (naming what it did not apply); another class → CLASS_MISMATCH.
static func _existing_node(root: Node, existing: Node, type_name: String, params: Dictionary) -> Dictionary:
	if not ClassFactory.is_of_class(existing, type_name):
		var message := "'%s' already exists as a %s, not a %s" % [
			NodeLookup.path_of(root, existing), ClassFactory.class_label(existing), type_name]
		return ToolkitError.fail("CLASS_MISMATCH", message,
			"Pick another node_name, or delete the existing node first.")
	var result := {
		"status": Idempotency.STATUS_RETURNED, "node_path": NodeLookup.path_of(root, existing),
		"name": String(existing.name), "class": ClassFactory.class_label(existing),
		"parent_path": NodeLookup.path_of(root, existing.get_parent()),
	}
	var ignored := PackedStringArray()
	for key: String in CREATE_EXTRAS:
		if params.has(key):
			ignored.append(key)
	if not ignored.is_empty():
		result["warnings"] = ["Not applied, the node already exists: %s. Change it with node_set_property."
			% ", ".join(ignored)]
	return ToolkitSuccess.ok(result)


## One undo step: add under `parent` and own it by the scene root (so it is saved with the scene).
static func _add_node(context: RefCounted, root: Node, parent: Node, node: Node, description: String) -> void:
	var action: RefCounted = context.edits.create_undo_action(description, root)
	action.add_do_method(parent, &"add_child", [node, true])
	action.add_do_method(node, &"set_owner", [root])
	action.add_do_reference(node)
	action.add_undo_method(parent, &"remove_child", [node])
	action.commit()


## Inline properties (verified, C3), layout_mode and unique_name on the new node. The node is in
## the tree already, so Control sizes and global transforms behave as they will in the editor;
## the writes need no undo steps of their own (undoing the create removes the node with them).
static func _apply_initial(root: Node, node: Node, params: Dictionary) -> Dictionary:
	var properties: Dictionary = params.get("properties", {})
	var applied := PropertyAccess.write_many(node, properties)
	var outcome := {
		"properties_set": applied["properties_set"], "properties_failed": applied["properties_failed"],
	}
	var warnings: Array = applied["warnings"]
	if params.has("layout_mode"):
		if node is Control:
			var layout := PropertyAccess.write(node, "layout_mode", int(params["layout_mode"]))
			if layout["status"] == PropertyAccess.STATUS_FAILED:
				(outcome["properties_failed"] as Array).append({"name": "layout_mode", "error": layout["error"],
					"hint": layout["hint"]})
			elif layout.has("warning"):
				warnings.append(layout["warning"])
		else:
			warnings.append("layout_mode ignored: %s is not a Control" % node.get_class())
	if params.get("unique_name", false):
		var clash := root.get_node_or_null(NodePath("%" + String(node.name)))
		if clash != null and clash != node:
			warnings.append("unique_name not set: '%s' already uses %%%s" % [NodeLookup.path_of(root, clash), node.name])
		else:
			node.unique_name_in_owner = true
			outcome["unique_name"] = true
	if not warnings.is_empty():
		outcome["warnings"] = warnings
	return outcome


static func _cmd_delete_node(params: Dictionary, context: RefCounted) -> Dictionary:
	var missing := Params.require(params, ["node_path"])
	if not missing.is_empty():
		return missing
	if not params["node_path"] is String:
		return ToolkitError.fail("INVALID_PARAMS", "node_path must be a string")
	var root: Node = context.scenes.scene_root()
	if root == null:
		return _no_scene()
	var found := NodeLookup.find(root, params["node_path"])
	if not found["ok"]:
		return found["error"]
	var node: Node = found["node"]
	if node == root:
		return ToolkitError.fail("INVALID_PARAMS", "The scene root cannot be deleted",
			"Delete its children instead, or make another scene with scene_create.")
	var parent := node.get_parent()
	var path := NodeLookup.path_of(root, node)
	var descendants := _owned_descendants(node)
	var action: RefCounted = context.edits.create_undo_action("Delete %s" % node.name, root)
	action.add_do_method(parent, &"remove_child", [node])
	action.add_undo_method(parent, &"add_child", [node, true])
	action.add_undo_method(parent, &"move_child", [node, node.get_index()])
	# remove_child clears owners that are no longer ancestors: put each one back.
	for pair: Array in [[node, node.owner]] + descendants:
		action.add_undo_method(pair[0], &"set_owner", [pair[1]])
	action.add_undo_reference(node)
	action.commit()
	context.scenes.mark_modified()
	return ToolkitSuccess.ok({
		"deleted": path, "name": String(node.name), "class": ClassFactory.class_label(node),
		"parent_path": NodeLookup.path_of(root, parent), "descendants_deleted": descendants.size(),
	})


## [node, owner] for every descendant of `node` that has an owner, in tree order.
static func _owned_descendants(node: Node) -> Array:
	var pairs: Array = []
	for child: Node in node.get_children():
		if child.owner != null:
			pairs.append([child, child.owner])
		pairs.append_array(_owned_descendants(child))
	return pairs


# --- shared ----------------------------------------------------------------------------------------

## {"value": depth, -1 for no limit} or {"error": envelope}.
static func _optional_depth(value: Variant, key: String) -> Dictionary:
	if value == null:
		return {"value": -1}
	if not Params.is_whole_number(value):
		return {"error": ToolkitError.fail("INVALID_PARAMS", "%s must be a whole number (omit it for no limit)" % key)}
	return {"value": maxi(int(value), -1)}


static func _no_scene() -> Dictionary:
	return ToolkitError.fail("NO_SCENE", "No scene is open in the editor",
		"Open one with scene_open, or create one with scene_create and then open it.")
