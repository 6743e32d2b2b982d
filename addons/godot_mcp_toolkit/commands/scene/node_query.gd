@tool
extends RefCounted
## Reads of the scene's nodes for the scene domain: the nested tree (scene.get_tree) and the
## filtered, paged node search (scene.query). Never mutates. Runtime-safe.
##
## Which nodes count as the scene's: the root and every node it owns, plus nodes with no owner
## (added at runtime); the insides of an instanced sub-scene (owned by that instance) are left
## out, as the editor's Scene dock does, and the instance node carries "instance": its file.
## The bridge reads a .tscn by the same rule (tests/fixtures/toolkit/scene_listing_cases.json).
## Free text read back (String property values) is wrapped in the untrusted envelope (C21).

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const ToolkitSuccess := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_success.gd")
const Params := preload("res://addons/godot_mcp_toolkit/contract/params.gd")
const Pagination := preload("res://addons/godot_mcp_toolkit/contract/pagination.gd")
const AnswerBudget := preload("res://addons/godot_mcp_toolkit/contract/answer_budget.gd")
const Coerce := preload("res://addons/godot_mcp_toolkit/contract/coerce.gd")
const Untrusted := preload("res://addons/godot_mcp_toolkit/security/untrusted.gd")
const NodeLookup := preload("res://addons/godot_mcp_toolkit/scene_tree/node_lookup.gd")
const PropertyAccess := preload("res://addons/godot_mcp_toolkit/scene_tree/property_access.gd")
const ClassFactory := preload("res://addons/godot_mcp_toolkit/commands/scene/class_factory.gd")
const ClassNames := preload("res://addons/godot_mcp_toolkit/commands/classdb/class_names.gd")

## Room kept for the child_count of a node whose children are cut (`,"child_count":99999`); the
## bridge cuts a tree read from its file by this figure too.
const CHILD_COUNT_BYTES := 20
const QUERY_HINT := "More matches than one answer holds: continue with offset next_offset."
const TREE_HINT := "Cut at %s: nodes with child_count have more below. Read one's branch with scene_get_tree " \
	+ "root_path (its path): the same tree from there."
const DEFAULT_LIMIT := 100
const MAX_LIMIT := 1000
const OPERATORS := ["eq", "ne", "gt", "lt"]
const QUERY_SCHEMA := {
	"type": "object",
	"properties": {
		"class_filter": {"type": "string"}, "group_filter": {"type": "string"}, "name_pattern": {"type": "string"},
		"property_filters": {"type": "array", "items": {"type": "object", "properties": {
			"property": {"type": "string"}, "operator": {"type": "string", "enum": OPERATORS}, "value": {},
		}, "required": ["property", "value"]}},
		"root_path": {"type": "string"}, "max_depth": {"type": "integer"},
		"include_properties": {"type": "array", "items": {"type": "string"}},
		"offset": {"type": "integer", "minimum": 0}, "limit": {"type": "integer", "exclusiveMinimum": 0},
	},
}


## The success payload of scene.get_tree: the tree from `start` (the root when null; its nodes'
## paths are still from the root), `max_depth` levels below it (-1 = no limit). A tree larger than
## one answer is cut breadth-first (the levels nearest `start` kept) and says so.
static func tree(root: Node, max_depth: int, include_properties: bool, scene_path: String,
		start: Node = null) -> Dictionary:
	var first := root if start == null else start
	var defaults := {}
	var top := _entry(root, first, include_properties, defaults)
	var result := {"scene_path": scene_path, "tree": {}, "truncated": true, "hint": TREE_HINT % "max_depth 000"}
	result.merge(Pagination.fields(0, 0, "nodes"))
	var room := AnswerBudget.room_beside(result) - AnswerBudget.size_of(top)
	var returned := 1
	var depth_cut := false
	var size_cut := false
	# Breadth-first so a cut keeps the levels nearest the root.
	var queue: Array = [[first, top, 0]]
	while not queue.is_empty():
		var item: Array = queue.pop_front()
		var node: Node = item[0]
		var children := scene_children(root, node)
		if children.is_empty():
			continue
		if max_depth >= 0 and item[2] >= max_depth:
			item[1]["child_count"] = children.size()
			depth_cut = true
			continue
		for child: Node in children:
			var entry := _entry(root, child, include_properties, defaults)
			# Room for the child_count it gets if its own children are cut.
			var size := AnswerBudget.size_of(entry) + 1 + (CHILD_COUNT_BYTES if child.get_child_count() > 0 else 0)
			if size_cut or size > room:
				size_cut = true
				item[1]["child_count"] = children.size()
				break
			room -= size
			(item[1]["children"] as Array).append(entry)
			returned += 1
			queue.append([child, entry, item[2] + 1])
	_free_defaults(defaults)
	var total := count_nodes(root, first)
	result = {"scene_path": scene_path, "tree": top}
	result.merge(Pagination.fields(returned, total, "nodes"))
	result.erase("next_offset")
	if returned < total:
		result["truncated"] = true
		result["hint"] = TREE_HINT % ("one answer's size" if size_cut else "max_depth %d" % max_depth)
	return result


## The scene's own children of `node` (see the file comment for which ones count).
static func scene_children(root: Node, node: Node) -> Array[Node]:
	var children: Array[Node] = []
	for child: Node in node.get_children():
		var owner := child.owner
		if owner == null or owner == root or (root.is_ancestor_of(owner) and root.is_editable_instance(owner)):
			children.append(child)
	return children


static func count_nodes(root: Node, node: Node) -> int:
	var total := 1
	for child: Node in scene_children(root, node):
		total += count_nodes(root, child)
	return total


static func _entry(root: Node, node: Node, include_properties: bool, defaults: Dictionary) -> Dictionary:
	var entry := {
		"name": String(node.name), "class": ClassFactory.class_label(node), "path": NodeLookup.path_of(root, node),
		"children": [],
	}
	if node != root and not node.scene_file_path.is_empty():
		entry["instance"] = node.scene_file_path
	var script: Variant = node.get_script()
	if script is Script and not (script as Script).resource_path.is_empty():
		entry["script"] = (script as Script).resource_path
	if include_properties:
		entry["properties"] = changed_properties(node, NodeLookup.path_of(root, node), _fresh(node.get_class(), defaults))
	return entry


## One default instance per engine class, cached in `defaults` and freed by _free_defaults.
static func _fresh(type_name: String, defaults: Dictionary) -> Object:
	if not defaults.has(type_name):
		defaults[type_name] = ClassDB.instantiate(type_name) if ClassDB.can_instantiate(type_name) else null
	return defaults[type_name]


static func _free_defaults(defaults: Dictionary) -> void:
	for instance: Variant in defaults.values():
		if instance is Object and is_instance_valid(instance) and not instance is RefCounted:
			(instance as Object).free()


## The stored properties whose values differ from their class (or script) default, JSON-safe.
## `fresh` is a new instance of the node's engine class (ClassDB's own default lookup is 4.3+).
static func changed_properties(node: Node, source: String, fresh: Object) -> Dictionary:
	var out := {}
	var script: Variant = node.get_script()
	for entry: Dictionary in node.get_property_list():
		var usage: int = entry["usage"]
		var name: String = entry["name"]
		if not usage & PROPERTY_USAGE_STORAGE or name == "script" or name.begins_with("metadata/"):
			continue
		var value: Variant = node.get(name)
		var default: Variant = null
		if usage & PROPERTY_USAGE_SCRIPT_VARIABLE and script is Script:
			default = (script as Script).get_property_default_value(name)
		elif fresh != null:
			default = fresh.get(name)
		if typeof(default) != TYPE_NIL and PropertyAccess.same_value(value, default):
			continue
		if typeof(default) == TYPE_NIL and typeof(value) == TYPE_NIL:
			continue
		out[name] = json_value(value, source)
	return out


## Coerce's JSON form, with free text wrapped as untrusted project content.
static func json_value(value: Variant, source: String) -> Variant:
	if value is String and not (value as String).is_empty():
		return Untrusted.wrap(value, "scene_tree", source)
	return Coerce.serialize_value(value)


# --- scene.query -------------------------------------------------------------------------------------

## `request` holds the query params (defaults filled in by the handler).
static func query(root: Node, request: Dictionary, scene_path: String) -> Dictionary:
	var checked := _check_query(request)
	if checked.has("error"):
		return checked["error"]
	var wanted_class: String = request["class_filter"]
	if not wanted_class.is_empty() and not ClassNames.exists(wanted_class):
		# Matching nothing would read as "no such nodes"; the class itself does not exist.
		return ClassNames.unknown(wanted_class, "Node")
	var start_found := NodeLookup.find(root, request["root_path"])
	if not start_found["ok"]:
		return start_found["error"]
	var window := Pagination.window(request, DEFAULT_LIMIT, MAX_LIMIT)
	if not window["ok"]:
		return window["error"]
	var matches: Array[Node] = []
	_collect(root, start_found["node"], 0, request, checked["filters"], matches)
	var paged := Pagination.page(matches, window["offset"], window["limit"], "matches")
	var nodes: Array = []
	for node: Node in paged["items"]:
		nodes.append(_match_entry(root, node, request["include_properties"]))
	paged.erase("items")
	var result := {"scene_path": scene_path, "root_path": NodeLookup.path_of(root, start_found["node"]), "nodes": []}
	result.merge(paged)
	result["hint"] = QUERY_HINT
	var fits := AnswerBudget.fitting(nodes, AnswerBudget.room_beside(result))
	result.erase("hint")
	result["nodes"] = nodes.slice(0, fits)
	if fits < nodes.size():
		result.merge(Pagination.fields(fits, matches.size(), "matches", clampi(window["offset"], 0, matches.size())),
			true)
		result["hint"] = QUERY_HINT
	return ToolkitSuccess.ok(result)


## {"filters": [[property, operator, engine value]]} or {"error": envelope}.
static func _check_query(request: Dictionary) -> Dictionary:
	for key: String in ["class_filter", "group_filter", "name_pattern", "root_path"]:
		if not request[key] is String:
			return _bad("%s must be a string" % key)
	if not request["include_properties"] is Array:
		return _bad("include_properties must be a list of property names")
	for name: Variant in request["include_properties"]:
		if not name is String:
			return _bad("include_properties must be a list of property names")
	if not request["property_filters"] is Array:
		return _bad("property_filters must be a list of {property, operator, value}")
	var filters: Array = []
	for raw: Variant in request["property_filters"]:
		if not raw is Dictionary or not (raw as Dictionary).get("property") is String or not (raw as Dictionary).has("value"):
			return _bad("each property filter needs property (a string) and value")
		var unknown := Params.reject_unknown_keys(raw, ["property", "operator", "value"],
			"property filter %s" % raw["property"])
		if not unknown.is_empty():
			return {"error": unknown}
		var operator: Variant = raw.get("operator", "eq")
		if not operator in OPERATORS:
			return _bad("operator must be one of %s, got %s" % [", ".join(PackedStringArray(OPERATORS)), str(operator)])
		var value: Variant = Coerce.coerce_value(raw["value"])
		if not Coerce.error_of(value).is_empty():
			return _bad("property filter %s: %s" % [raw["property"], Coerce.error_of(value)])
		if operator in ["gt", "lt"] and not Params.is_number(value):
			return _bad("operator %s compares numbers; %s's value is not a number" % [operator, raw["property"]])
		filters.append([raw["property"], operator, value])
	return {"filters": filters}


static func _collect(root: Node, node: Node, depth: int, request: Dictionary, filters: Array, out: Array[Node]) -> void:
	if _matches(node, request, filters):
		out.append(node)
	var max_depth: int = request["max_depth"]
	if max_depth >= 0 and depth >= max_depth:
		return
	for child: Node in scene_children(root, node):
		_collect(root, child, depth + 1, request, filters, out)


static func _matches(node: Node, request: Dictionary, filters: Array) -> bool:
	var wanted_class: String = request["class_filter"]
	if not wanted_class.is_empty() and not (node.is_class(wanted_class) or ClassFactory.class_label(node) == wanted_class):
		return false
	var group: String = request["group_filter"]
	if not group.is_empty() and not node.is_in_group(group):
		return false
	var pattern: String = request["name_pattern"]
	if not pattern.is_empty() and not String(node.name).matchn(pattern):
		return false
	for filter: Array in filters:
		if PropertyAccess.find_property(node, filter[0]).is_empty():
			return false
		var value: Variant = node.get_indexed(NodePath(filter[0]))
		if not _compare(value, filter[1], filter[2]):
			return false
	return true


static func _compare(value: Variant, operator: String, wanted: Variant) -> bool:
	match operator:
		"eq":
			return PropertyAccess.same_value(value, wanted)
		"ne":
			return not PropertyAccess.same_value(value, wanted)
		"gt":
			return Params.is_number(value) and float(value) > float(wanted)
		"lt":
			return Params.is_number(value) and float(value) < float(wanted)
	return false


static func _match_entry(root: Node, node: Node, include: Array) -> Dictionary:
	var entry := {
		"name": String(node.name), "class": ClassFactory.class_label(node), "path": NodeLookup.path_of(root, node),
	}
	if include.is_empty():
		return entry
	var values := {}
	for name: String in include:
		if not PropertyAccess.find_property(node, name).is_empty():
			values[name] = json_value(node.get_indexed(NodePath(name)), entry["path"])
	entry["properties"] = values
	return entry


static func _bad(message: String) -> Dictionary:
	return {"error": ToolkitError.fail("INVALID_PARAMS", message)}
