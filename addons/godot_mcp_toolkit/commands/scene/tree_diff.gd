@tool
extends RefCounted
## scene.diff's comparison: two scene-tree snapshots in scene.get_tree's shape (a `tree` of
## {name, class, path, children, script?, instance?, properties?}, or that node itself) flattened
## by node path and compared node by node. Pure (no scene, no filesystem), so runtime-safe.
##
## A snapshot cut by max_depth or a node cap marks the cut node with child_count: nodes below a
## cut are unknown, not removed, so they are left out of the comparison (and the result says so).

const ValueCompare := preload("res://addons/godot_mcp_toolkit/contract/value_compare.gd")

const LIST_LIMIT := 200
const FIELDS := ["class", "script", "instance"]


## {"nodes": {path: entry}, "cut": [paths with unlisted children]} or {"error": message}.
static func flatten(snapshot: Variant, label: String) -> Dictionary:
	if not snapshot is Dictionary:
		return {"error": "%s must be a scene tree object (what scene_get_tree returns)" % label}
	var top: Dictionary = snapshot
	if top.has("tree"):
		if not top["tree"] is Dictionary:
			return {"error": "%s.tree must be an object" % label}
		top = top["tree"]
	if not top.get("name") is String:
		return {"error": "%s has no root node: expected {name, class, children} or {tree: {...}}" % label}
	var nodes := {}
	var cut: Array = []
	var stack: Array = [[top, "."]]
	while not stack.is_empty():
		var item: Array = stack.pop_back()
		var entry: Variant = item[0]
		if not entry is Dictionary or not (entry as Dictionary).get("name") is String:
			return {"error": "%s: a node under '%s' is not an object with a name" % [label, item[1]]}
		var path: String = entry.get("path", item[1]) if entry.get("path") is String else item[1]
		nodes[path] = entry
		var children: Variant = entry.get("children", [])
		if not children is Array:
			return {"error": "%s: children of '%s' must be a list" % [label, path]}
		if entry.has("child_count") and (children as Array).size() < int(entry["child_count"]):
			cut.append(path)
		for child: Variant in children:
			var child_name: String = (child as Dictionary).get("name", "") if child is Dictionary else ""
			stack.append([child, child_name if path == "." else "%s/%s" % [path, child_name]])
	return {"nodes": nodes, "cut": cut}


## Whether any node of the flattened snapshot carries properties (then the live side reads them too).
static func has_properties(nodes: Dictionary) -> bool:
	for entry: Dictionary in nodes.values():
		if entry.has("properties"):
			return true
	return false


## The diff of two flattened snapshots.
static func compare(before: Dictionary, after: Dictionary) -> Dictionary:
	var added: Array = []
	var removed: Array = []
	var changed: Array = []
	var unknown := 0
	var old_nodes: Dictionary = before["nodes"]
	var new_nodes: Dictionary = after["nodes"]
	for path: String in new_nodes:
		if old_nodes.has(path):
			var changes := _changes(old_nodes[path], new_nodes[path])
			if not changes.is_empty():
				changed.append({"path": path, "changes": changes})
		elif _below_cut(path, before["cut"]):
			unknown += 1
		else:
			added.append({"path": path, "class": new_nodes[path].get("class", "")})
	for path: String in old_nodes:
		if new_nodes.has(path):
			continue
		if _below_cut(path, after["cut"]):
			unknown += 1
		else:
			removed.append({"path": path, "class": old_nodes[path].get("class", "")})
	var result := {
		"identical": added.is_empty() and removed.is_empty() and changed.is_empty(),
		"summary": {"added": added.size(), "removed": removed.size(), "changed": changed.size()},
		"added": added.slice(0, LIST_LIMIT), "removed": removed.slice(0, LIST_LIMIT),
		"changed": changed.slice(0, LIST_LIMIT),
	}
	if maxi(added.size(), maxi(removed.size(), changed.size())) > LIST_LIMIT:
		result["truncated"] = true
		result["hint"] = "Each list holds at most %d entries (summary has the totals); diff a branch at a time." % LIST_LIMIT
	if unknown > 0:
		result["not_compared"] = unknown
		result["warnings"] = ["%d node(s) lie below a cut (child_count) in one snapshot and were not compared; " % unknown
			+ "take the snapshot without max_depth to compare them."]
	return result


static func _below_cut(path: String, cut: Array) -> bool:
	for cut_path: String in cut:
		if cut_path == "." or path.begins_with(cut_path + "/"):
			return true
	return false


## {field: {before, after}} for class/script/instance, and {properties: {name: {before, after}}}
## when both sides carry properties (a property absent on one side is at its default: null).
static func _changes(old: Dictionary, new: Dictionary) -> Dictionary:
	var changes := {}
	for field: String in FIELDS:
		if str(old.get(field, "")) != str(new.get(field, "")):
			changes[field] = {"before": old.get(field), "after": new.get(field)}
	if old.get("properties") is Dictionary and new.get("properties") is Dictionary:
		var property_changes := {}
		var old_values: Dictionary = old["properties"]
		var new_values: Dictionary = new["properties"]
		var names: Array = old_values.keys()
		for name: Variant in new_values:
			if not name in names:
				names.append(name)
		for name: Variant in names:
			var was: Variant = old_values.get(name)
			var now: Variant = new_values.get(name)
			if not same_value(was, now):
				property_changes[name] = {"before": was, "after": now}
		if not property_changes.is_empty():
			changes["properties"] = property_changes
	return changes


## JSON-level equality where 100 and 100.0 are the same number (a snapshot that went over the
## wire holds floats; a live read may hold ints): contract/value_compare.gd.
static func same_value(a: Variant, b: Variant) -> bool:
	return ValueCompare.same(a, b)
