@tool
extends RefCounted
## The scene_advanced domain: scene.diff (compare a scene-tree snapshot with another or with the
## edited scene) and scene.instantiate (instance a saved scene under a node of the edited scene,
## once or several times, as one undo step, owned by the scene root so it is saved with it).
## Runtime-safe: the editor is reached only through the context.
##
## Helpers: commands/scene/tree_diff.gd (the comparison), commands/scene/node_query.gd (the live
## snapshot, scene.get_tree's shape), scene_tree/node_lookup.gd, scene_tree/property_access.gd.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const ToolkitSuccess := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_success.gd")
const Params := preload("res://addons/godot_mcp_toolkit/contract/params.gd")
const FileGuard := preload("res://addons/godot_mcp_toolkit/security/file_guard.gd")
const NodeLookup := preload("res://addons/godot_mcp_toolkit/scene_tree/node_lookup.gd")
const NodeAdder := preload("res://addons/godot_mcp_toolkit/scene_tree/node_adder.gd")
const PropertyAccess := preload("res://addons/godot_mcp_toolkit/scene_tree/property_access.gd")
const ClassFactory := preload("res://addons/godot_mcp_toolkit/commands/scene/class_factory.gd")
const NodeQuery := preload("res://addons/godot_mcp_toolkit/commands/scene/node_query.gd")
const TreeDiff := preload("res://addons/godot_mcp_toolkit/commands/scene/tree_diff.gd")

const SELF_PATH := "res://addons/godot_mcp_toolkit/commands/scene/scene_advanced_commands.gd"
const SCENE_EXTENSIONS := ["tscn", "scn"]
## Instances one call may add.
const MAX_INSTANCES := 100
const VECTOR_TAGS := {
	TYPE_VECTOR2: "Vector2", TYPE_VECTOR2I: "Vector2i", TYPE_VECTOR3: "Vector3", TYPE_VECTOR3I: "Vector3i",
}


static func register(registry: RefCounted, context: RefCounted) -> void:
	var script: Script = load(SELF_PATH)
	registry.register_command("scene.diff", Callable(script, "_cmd_diff").bind(context),
		registry.create_options()
		.with_input_schema({"type": "object", "required": ["before"],
			"properties": {"before": {"type": "object"}, "after": {"type": "object"}}})
		.read_only())
	registry.register_command("scene.instantiate", Callable(script, "_cmd_instantiate").bind(context),
		registry.create_options()
		.with_input_schema({"type": "object", "required": ["parent_path", "scene_path"], "properties": {
			"parent_path": {"type": "string"}, "scene_path": {"type": "string"}, "as_name": {"type": "string"},
			"transform": {"type": "object"}, "instances": {"type": "array", "items": {"type": "object"}},
		}}))


# --- scene.diff ------------------------------------------------------------------------------------

static func _cmd_diff(params: Dictionary, context: RefCounted) -> Dictionary:
	var missing := Params.require(params, ["before"])
	if not missing.is_empty():
		return missing
	var before := TreeDiff.flatten(params["before"], "before")
	if before.has("error"):
		return ToolkitError.fail("INVALID_PARAMS", before["error"], "Pass what scene_get_tree returned.")
	var after := {}
	var compared_with := "after"
	if params.get("after") != null:
		after = TreeDiff.flatten(params["after"], "after")
	else:
		var root: Node = context.scenes.scene_root()
		if root == null:
			return ToolkitError.fail("NO_SCENE", "No scene is open to compare with",
				"Open one with scene_open, or pass after.")
		var live := NodeQuery.tree(root, -1, TreeDiff.has_properties(before["nodes"]), context.scenes.edited_scene_path())
		after = TreeDiff.flatten(live, "the edited scene")
		compared_with = "edited scene"
	if after.has("error"):
		return ToolkitError.fail("INVALID_PARAMS", after["error"], "Pass what scene_get_tree returned.")
	var result := TreeDiff.compare(before, after)
	result["compared_with"] = compared_with
	return ToolkitSuccess.ok(result)


# --- scene.instantiate -----------------------------------------------------------------------------

static func _cmd_instantiate(params: Dictionary, context: RefCounted) -> Dictionary:
	var missing := Params.require(params, ["parent_path", "scene_path"])
	if not missing.is_empty():
		return missing
	for key: String in ["parent_path", "scene_path", "as_name"]:
		if params.has(key) and not params[key] is String:
			return ToolkitError.fail("INVALID_PARAMS", "%s must be a string" % key)
	var requests := _requests(params)
	if requests.has("error"):
		return requests["error"]
	var root: Node = context.scenes.scene_root()
	if root == null:
		return ToolkitError.fail("NO_SCENE", "No scene is open in the editor", "Open one with scene_open first.")
	var loaded := _load_scene(params["scene_path"], context)
	if loaded.has("error"):
		return loaded["error"]
	var parent_found := NodeLookup.find(root, params["parent_path"])
	if not parent_found["ok"]:
		return parent_found["error"]
	var parent: Node = parent_found["node"]
	var made := _instantiate_all(loaded["scene"], requests["list"], context)
	if made.has("error"):
		return made["error"]
	var nodes: Array = made["nodes"]
	var applied := _apply_overrides(nodes, requests["list"])
	if applied.has("error"):
		for node: Node in nodes:
			node.free()
		return applied["error"]
	NodeAdder.add_all(context, root, parent, nodes, "Instance %s" % loaded["path"].get_file())
	var warnings: Array = requests["warnings"]
	warnings.append_array(applied["warnings"])
	return ToolkitSuccess.ok(_report(root, parent, loaded["path"], nodes, applied["stored"], warnings))


## {"list": [{name, properties}], "warnings": [...]} from instances, or from as_name + transform;
## or {"error": envelope}. Everything is checked before anything is made.
static func _requests(params: Dictionary) -> Dictionary:
	var warnings: Array = []
	var items: Array = []
	if params.get("instances") != null:
		if not params["instances"] is Array or (params["instances"] as Array).is_empty():
			return {"error": ToolkitError.fail("INVALID_PARAMS", "instances must be a non-empty list of objects")}
		if (params["instances"] as Array).size() > MAX_INSTANCES:
			return {"error": ToolkitError.fail("INVALID_PARAMS", "At most %d instances per call" % MAX_INSTANCES,
				"Split the list over several calls.")}
		for key: String in ["as_name", "transform"]:
			if params.has(key):
				warnings.append("%s ignored: instances gives each instance its own name and transform" % key)
		for item: Variant in params["instances"]:
			if not item is Dictionary:
				return {"error": ToolkitError.fail("INVALID_PARAMS", "each item of instances must be an object")}
			var properties: Dictionary = (item as Dictionary).duplicate()
			properties.erase("name")
			items.append({"name": (item as Dictionary).get("name", ""), "properties": properties})
	else:
		var transform: Variant = params.get("transform", {})
		if not transform is Dictionary:
			return {"error": ToolkitError.fail("INVALID_PARAMS",
				"transform must be an object of property overrides, e.g. {\"position\": {\"x\": 1, \"y\": 2}}")}
		items.append({"name": params.get("as_name", ""), "properties": transform})
	for item: Dictionary in items:
		if not item["name"] is String:
			return {"error": ToolkitError.fail("INVALID_PARAMS", "an instance name must be a string")}
		var node_name: String = item["name"]
		if node_name != node_name.validate_node_name():
			return {"error": ToolkitError.fail("INVALID_PARAMS", "'%s' has characters a node name cannot hold" % node_name,
				"Use '%s' instead." % node_name.validate_node_name())}
	return {"list": items, "warnings": warnings}


## {"scene": PackedScene, "path": res path} or {"error": envelope}.
static func _load_scene(value: String, context: RefCounted) -> Dictionary:
	var verdict := FileGuard.check(value)
	if not verdict["ok"]:
		return {"error": verdict["error"]}
	var path: String = verdict["path"]
	if not path.get_extension().to_lower() in SCENE_EXTENSIONS:
		return {"error": FileGuard.wrong_extension("scene_path", path, SCENE_EXTENSIONS)}
	if not FileAccess.file_exists(path):
		return {"error": ToolkitError.fail("NOT_FOUND", "No scene at %s" % path, "Create it with scene_create first.")}
	if path == context.scenes.edited_scene_path():
		return {"error": ToolkitError.fail("INVALID_PARAMS", "A scene cannot instance itself: %s" % path)}
	var scene := ResourceLoader.load(path, "PackedScene") as PackedScene
	if scene == null or not scene.can_instantiate():
		return {"error": ToolkitError.fail("LOAD_FAILED", "%s does not load as a scene" % path,
			"Open it in the editor to see what is broken (a missing dependency, say).")}
	return {"scene": scene, "path": path}


## {"nodes": [...]} named as asked, or {"error": envelope} (nothing made is left behind).
static func _instantiate_all(scene: PackedScene, items: Array, context: RefCounted) -> Dictionary:
	# In the editor an instance keeps its edit state (as the editor's own "Instantiate Child Scene").
	var mode := PackedScene.GEN_EDIT_STATE_INSTANCE if context.host.is_editor() else PackedScene.GEN_EDIT_STATE_DISABLED
	var nodes: Array = []
	for item: Dictionary in items:
		var node := scene.instantiate(mode)
		if node == null:
			for made: Node in nodes:
				made.free()
			return {"error": ToolkitError.fail("INVALID_CLASS", "%s did not instantiate to a node" % scene.resource_path)}
		if not (item["name"] as String).is_empty():
			node.name = item["name"]
		nodes.append(node)
	return {"nodes": nodes}


## Writes each instance's overrides (verified, C3) before it joins the scene, so a bad override
## fails the whole call with nothing added: {"stored": [[names] per instance], "warnings": [...]}
## or {"error": envelope naming the instance and property}.
static func _apply_overrides(nodes: Array, items: Array) -> Dictionary:
	var stored: Array = []
	var warnings: Array = []
	for i in nodes.size():
		var applied := PropertyAccess.write_many(nodes[i], _tag_vectors(nodes[i], items[i]["properties"]))
		for outcome: Dictionary in applied["outcomes"]:
			if outcome["status"] == PropertyAccess.STATUS_FAILED:
				var envelope := PropertyAccess.failure_envelope(outcome)
				envelope["error"] = "Instance %d ('%s'): %s; nothing was added" % [i, nodes[i].name, envelope["error"]]
				return {"error": envelope}
		stored.append(applied["stored"])
		warnings.append_array(applied["warnings"])
	return {"stored": stored, "warnings": warnings}


## The catalogue's shorthand {position: {x, y}}: a bare {x, y(, z)} for a vector property gets the
## C7 type tag it stands for; everything else passes through as given.
static func _tag_vectors(node: Node, properties: Dictionary) -> Dictionary:
	var tagged := {}
	for key: Variant in properties:
		var value: Variant = properties[key]
		var entry := PropertyAccess.find_property(node, str(key))
		if value is Dictionary and not (value as Dictionary).has("type") and VECTOR_TAGS.has(entry.get("type", -1)):
			var with_tag: Dictionary = (value as Dictionary).duplicate()
			with_tag["type"] = VECTOR_TAGS[entry["type"]]
			value = with_tag
		tagged[key] = value
	return tagged


## Per instance: where it went and which overrides it holds.
static func _report(root: Node, parent: Node, path: String, nodes: Array, stored: Array, warnings: Array) -> Dictionary:
	var instances: Array = []
	for i in nodes.size():
		var node: Node = nodes[i]
		instances.append({
			"name": String(node.name), "node_path": NodeLookup.path_of(root, node), "class": ClassFactory.class_label(node),
			"properties_set": stored[i],
		})
	var result := {"scene_path": path, "parent_path": NodeLookup.path_of(root, parent), "count": nodes.size(),
		"instances": instances}
	if nodes.size() == 1:
		result["node_path"] = instances[0]["node_path"]
	if not warnings.is_empty():
		result["warnings"] = warnings
	return result
