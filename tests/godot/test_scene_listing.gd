extends RefCounted
## commands/scene/node_query.gd's tree against tests/fixtures/toolkit/scene_listing_cases.json, the
## table the bridge's .tscn reader (godot_bridge/godot_files/scenes.py) runs too: the same scenes,
## the same nodes listed, each read the same way.

const Assert := preload("assert.gd")
const EditableInstances := preload("e2e/host/editable_instances.gd")
const NodeQuery := preload("res://addons/godot_mcp_toolkit/commands/scene/node_query.gd")
const CASES := "res://tests/fixtures/toolkit/scene_listing_cases.json"
const FIELDS := ["name", "class", "path", "instance", "script"]


func test_a_scene_lists_what_its_file_lists() -> void:
	var parsed: Variant = JSON.parse_string(FileAccess.get_file_as_string(CASES))
	Assert.is_true(parsed is Dictionary, "%s parses" % CASES)
	if not parsed is Dictionary:
		return
	for case: Dictionary in parsed["cases"]:
		var path := String(case["scene"])
		var packed := load(path) as PackedScene
		Assert.is_true(packed != null, "%s loads" % path)
		if packed == null:
			continue
		var root := packed.instantiate()
		EditableInstances.mark(root, path)  # as the editor's edit state has them
		var listed: Dictionary = NodeQuery.tree(root, -1, false, path)
		Assert.eq(_fields(listed["tree"]), case["tree"], "%s: %s" % [path, case["what"]])
		Assert.eq(listed["total_nodes"], _count(case["tree"]), path + ": total_nodes")
		root.free()


## The fields both halves give a node (an uncut tree has no child_count).
static func _fields(node: Dictionary) -> Dictionary:
	var out := {}
	for key: String in FIELDS:
		if node.has(key):
			out[key] = node[key]
	out["children"] = (node["children"] as Array).map(func(child: Dictionary) -> Dictionary: return _fields(child))
	return out


static func _count(node: Dictionary) -> int:
	var total := 1
	for child: Dictionary in node["children"]:
		total += _count(child)
	return total
