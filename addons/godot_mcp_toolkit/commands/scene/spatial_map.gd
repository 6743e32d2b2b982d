@tool
extends RefCounted
## scene.spatial_map: where the scene's 2D and 3D nodes sit in world space, so an assistant can
## place things without overlaps. Never mutates. Runtime-safe.
##
## Per node, by `detail`: brief = path, class, position; normal (default) adds size and bounds
## (axis-aligned, world space) when the node has an extent (Sprite2D, Control, CollisionShape2D,
## VisualInstance3D, CollisionShape3D); full adds rotation (degrees), scale and the paths of the
## listed nodes whose bounds overlap it. Vectors are plain arrays ([x, y] / [x, y, z]), the same
## form `center` and `region` take. Nodes with no position (plain Node) are not listed.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const ToolkitSuccess := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_success.gd")
const Params := preload("res://addons/godot_mcp_toolkit/contract/params.gd")
const Pagination := preload("res://addons/godot_mcp_toolkit/contract/pagination.gd")
const AnswerBudget := preload("res://addons/godot_mcp_toolkit/contract/answer_budget.gd")
const NodeLookup := preload("res://addons/godot_mcp_toolkit/scene_tree/node_lookup.gd")
const ClassFactory := preload("res://addons/godot_mcp_toolkit/commands/scene/class_factory.gd")
const NodeQuery := preload("res://addons/godot_mcp_toolkit/commands/scene/node_query.gd")

const DETAILS := ["brief", "normal", "full"]
const CUT_HINT := "Listed the first %d of %d nodes in tree order (cut at %s); narrow with subtree, class, " \
	+ "region or center+radius, or pass detail brief."
const DEFAULT_MAX_NODES := 200
const MAX_NODES_CAP := 1000
const SCHEMA := {
	"type": "object",
	"properties": {
		"detail": {"type": "string", "enum": DETAILS}, "class": {"type": "string"}, "subtree": {"type": "string"},
		"region": {"type": "array", "items": {"type": "number"}}, "radius": {"type": "number"},
		"center": {"type": "array", "items": {"type": "number"}}, "max_nodes": {"type": "number"},
	},
}


static func build(root: Node, request: Dictionary) -> Dictionary:
	var checked := _check(request)
	if not checked.is_empty():
		return checked
	var start := NodeLookup.find(root, request["subtree"])
	if not start["ok"]:
		return start["error"]
	var placed: Array = []
	_collect(root, start["node"], request, placed)
	var limit := mini(int(request["max_nodes"]), MAX_NODES_CAP)
	var listed := placed.slice(0, limit)
	var detail: String = request["detail"]
	if detail == "full":
		_add_overlaps(listed)
	var nodes: Array = []
	var dimensions := {}
	for item: Dictionary in listed:
		dimensions[item["dimension"]] = true
		nodes.append(_shape(item, detail))
	var result := {"nodes": [], "detail": detail, "dimension": _dimension_label(dimensions), "truncated": true,
		"hint": CUT_HINT % [placed.size(), placed.size(), "one answer's size"]}
	result.merge(Pagination.fields(0, placed.size(), "nodes"))
	var fits := AnswerBudget.fitting(nodes, AnswerBudget.room_beside(result))
	nodes = nodes.slice(0, fits)
	result["nodes"] = nodes
	result.merge(Pagination.fields(nodes.size(), placed.size(), "nodes"), true)
	result.erase("next_offset")
	if nodes.size() < placed.size():
		result["hint"] = CUT_HINT % [nodes.size(), placed.size(), "max_nodes" if fits == listed.size() else
			"one answer's size"]
	else:
		result.erase("truncated")
		result.erase("hint")
	return ToolkitSuccess.ok(result)


## {} when valid, else the INVALID_PARAMS envelope.
static func _check(request: Dictionary) -> Dictionary:
	if not request["detail"] in DETAILS:
		return _bad("detail must be one of %s" % ", ".join(PackedStringArray(DETAILS)))
	for key: String in ["class", "subtree"]:
		if not request[key] is String:
			return _bad("%s must be a string" % key)
	if not Params.is_whole_number(request["max_nodes"]) or int(request["max_nodes"]) < 1:
		return _bad("max_nodes must be a whole number >= 1")
	if request["region"] != null and not _numbers(request["region"], [4, 6]):
		return _bad("region must be [x, y, w, h] (2D) or [x, y, z, w, h, d] (3D)")
	var has_center: bool = request["center"] != null
	var has_radius: bool = request["radius"] != null
	if has_center != has_radius:
		return _bad("center and radius go together: pass both, or neither")
	if has_center and not _numbers(request["center"], [2, 3]):
		return _bad("center must be [x, y] (2D) or [x, y, z] (3D)")
	if has_radius and (not Params.is_number(request["radius"]) or float(request["radius"]) <= 0.0):
		return _bad("radius must be a number > 0")
	return {}


static func _numbers(value: Variant, sizes: Array) -> bool:
	if not value is Array or not (value as Array).size() in sizes:
		return false
	for item: Variant in value:
		if not Params.is_number(item):
			return false
	return true


static func _collect(root: Node, node: Node, request: Dictionary, out: Array) -> void:
	var item := _measure(root, node)
	if not item.is_empty() and _wanted(node, item, request):
		out.append(item)
	for child: Node in NodeQuery.scene_children(root, node):
		_collect(root, child, request, out)


## {node, path, class, dimension, position: Vector2|Vector3, bounds: Rect2|AABB|null}; {} when
## the node has no place in space.
static func _measure(root: Node, node: Node) -> Dictionary:
	var item := {"node": node, "path": NodeLookup.path_of(root, node), "class": ClassFactory.class_label(node)}
	if node is Node2D:
		var node_2d := node as Node2D
		var transform := node_2d.global_transform if node_2d.is_inside_tree() else node_2d.transform
		item.merge({"dimension": "2d", "position": transform.origin, "bounds": _bounds_2d(node_2d, transform),
			"rotation": rad_to_deg(transform.get_rotation()), "scale": transform.get_scale()})
	elif node is Control:
		var control := node as Control
		var rect := control.get_global_rect() if control.is_inside_tree() else control.get_rect()
		item.merge({"dimension": "2d", "position": rect.position, "bounds": rect,
			"rotation": control.rotation_degrees, "scale": control.scale})
	elif node is Node3D:
		var node_3d := node as Node3D
		var transform_3d := node_3d.global_transform if node_3d.is_inside_tree() else node_3d.transform
		item.merge({"dimension": "3d", "position": transform_3d.origin, "bounds": _bounds_3d(node_3d, transform_3d),
			"rotation": transform_3d.basis.get_euler() * (180.0 / PI), "scale": transform_3d.basis.get_scale()})
	else:
		return {}
	return item


static func _bounds_2d(node: Node2D, transform: Transform2D) -> Variant:
	var local: Variant = null
	if node is Sprite2D:
		local = (node as Sprite2D).get_rect()
	elif node is CollisionShape2D and (node as CollisionShape2D).shape != null:
		local = (node as CollisionShape2D).shape.get_rect()
	if local == null or (local as Rect2).has_area() == false:
		return null
	return transform * (local as Rect2)


static func _bounds_3d(node: Node3D, transform: Transform3D) -> Variant:
	var local: Variant = null
	if node is VisualInstance3D:
		local = (node as VisualInstance3D).get_aabb()
	elif node is CollisionShape3D and (node as CollisionShape3D).shape != null:
		var mesh := (node as CollisionShape3D).shape.get_debug_mesh()
		local = mesh.get_aabb() if mesh != null else null
	if local == null or (local as AABB).has_volume() == false:
		return null
	return transform * (local as AABB)


static func _wanted(node: Node, item: Dictionary, request: Dictionary) -> bool:
	var wanted_class: String = request["class"]
	if not wanted_class.is_empty() and not (node.is_class(wanted_class) or item["class"] == wanted_class):
		return false
	var is_3d: bool = item["dimension"] == "3d"
	var region: Variant = request["region"]
	if region != null:
		if ((region as Array).size() == 6) != is_3d:
			return false
		if not _in_region(region, item["position"], is_3d):
			return false
	var center: Variant = request["center"]
	if center != null:
		if ((center as Array).size() == 3) != is_3d:
			return false
		var point: Variant = Vector3(center[0], center[1], center[2]) if is_3d else Vector2(center[0], center[1])
		if item["position"].distance_to(point) > float(request["radius"]):
			return false
	return true


static func _in_region(region: Array, point: Variant, is_3d: bool) -> bool:
	if is_3d:
		var box := AABB(Vector3(region[0], region[1], region[2]), Vector3(region[3], region[4], region[5])).abs()
		return box.grow(0.0001).has_point(point)
	return Rect2(region[0], region[1], region[2], region[3]).abs().grow(0.0001).has_point(point)


## Pairwise among the listed nodes with bounds (the list is capped, so n² stays small).
static func _add_overlaps(items: Array) -> void:
	for item: Dictionary in items:
		item["overlaps"] = []
	for i in items.size():
		var a: Dictionary = items[i]
		if a["bounds"] == null:
			continue
		for j in range(i + 1, items.size()):
			var b: Dictionary = items[j]
			if b["bounds"] == null or a["dimension"] != b["dimension"]:
				continue
			if a["bounds"].intersects(b["bounds"]):
				(a["overlaps"] as Array).append(b["path"])
				(b["overlaps"] as Array).append(a["path"])


static func _shape(item: Dictionary, detail: String) -> Dictionary:
	var out := {"path": item["path"], "class": item["class"], "position": _list(item["position"])}
	if detail == "brief":
		return out
	var bounds: Variant = item["bounds"]
	if bounds != null:
		out["size"] = _list(bounds.size)
		out["bounds"] = _list(bounds.position) + _list(bounds.size)
	if detail == "full":
		out["rotation"] = _list(item["rotation"]) if item["rotation"] is Vector3 else snappedf(item["rotation"], 0.001)
		out["scale"] = _list(item["scale"])
		out["overlaps"] = item["overlaps"]
	return out


static func _list(vector: Variant) -> Array:
	if vector is Vector3:
		return [snappedf(vector.x, 0.001), snappedf(vector.y, 0.001), snappedf(vector.z, 0.001)]
	return [snappedf(vector.x, 0.001), snappedf(vector.y, 0.001)]


static func _dimension_label(dimensions: Dictionary) -> String:
	if dimensions.size() > 1:
		return "mixed"
	return dimensions.keys()[0] if dimensions.size() == 1 else "none"


static func _bad(message: String) -> Dictionary:
	return ToolkitError.fail("INVALID_PARAMS", message)
