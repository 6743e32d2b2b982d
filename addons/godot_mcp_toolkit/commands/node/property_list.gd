@tool
extends RefCounted
## node.get_property_list's selection: which of a node's properties a mask shows, each with its
## type and JSON-safe value. Also the property set runtime.get_node_state reports. Runtime-safe.

const Coerce := preload("res://addons/godot_mcp_toolkit/contract/coerce.gd")

const MASKS := ["common", "all", "groups", "script"]
const VISIBILITIES := ["public", "private", "all"]
const MARKERS := PROPERTY_USAGE_CATEGORY | PROPERTY_USAGE_GROUP | PROPERTY_USAGE_SUBGROUP
## What every node has and nobody edits per node: left out of "common" (still in "all").
const BASE_CLASSES := ["Object", "Node"]


## The entries `mask` selects, filtered by `visibility`: {name, type, value[, class]} per
## property, or {name, kind} per inspector section for "groups".
static func select(node: Node, mask: String, visibility: String) -> Array:
	var out: Array = []
	var category := ""
	for property: Dictionary in node.get_property_list():
		var name: String = property["name"]
		var usage: int = property["usage"]
		if usage & PROPERTY_USAGE_CATEGORY:
			category = name
		if not _visible(name, visibility):
			continue
		if mask == "groups":
			if usage & MARKERS:
				out.append({"name": name, "kind": _marker_kind(usage)})
			continue
		if usage & MARKERS or not _wanted(mask, usage, category):
			continue
		out.append(entry(node, property))
	return out


## One property as {name, type, value[, class]}; `class` names the resource/node class an Object
## property expects.
static func entry(node: Object, property: Dictionary) -> Dictionary:
	var name: String = property["name"]
	var item := {"name": name, "type": type_string(property["type"]),
		"value": Coerce.serialize_value(node.get(name), node as Node)}
	if property["type"] == TYPE_OBJECT and not str(property.get("class_name", "")).is_empty():
		item["class"] = str(property["class_name"])
	return item


## The inspector-visible properties and script variables of `node`, as {name: value}: what a
## running game's node looks like now.
static func state(node: Node) -> Dictionary:
	var values := {}
	var category := ""
	for property: Dictionary in node.get_property_list():
		var usage: int = property["usage"]
		if usage & PROPERTY_USAGE_CATEGORY:
			category = property["name"]
		if usage & MARKERS or not _wanted("common", usage, category):
			continue
		values[property["name"]] = Coerce.serialize_value(node.get(property["name"]), node)
	return values


static func _wanted(mask: String, usage: int, category: String) -> bool:
	var script_variable := usage & PROPERTY_USAGE_SCRIPT_VARIABLE != 0
	match mask:
		"script":
			return script_variable
		"common":
			return script_variable or (usage & PROPERTY_USAGE_EDITOR != 0 and not category in BASE_CLASSES)
	return true


static func _visible(name: String, visibility: String) -> bool:
	if visibility == "public":
		return not name.begins_with("_")
	if visibility == "private":
		return name.begins_with("_")
	return true


static func _marker_kind(usage: int) -> String:
	if usage & PROPERTY_USAGE_CATEGORY:
		return "category"
	if usage & PROPERTY_USAGE_SUBGROUP:
		return "subgroup"
	return "group"
