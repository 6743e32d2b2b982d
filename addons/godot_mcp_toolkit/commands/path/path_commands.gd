@tool
extends RefCounted
## The path_editing domain: path2d.edit_curve sets, adds, removes or clears the points of a Path2D's
## Curve2D (one undo step over the curve's stored data, so the same curve resource is kept), and
## node.collision_from_sprite traces a Sprite2D's opaque pixels into a CollisionPolygon2D placed in
## the chosen parent's space (one undo step). Missing nodes are NOT_FOUND, as everywhere.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const ToolkitSuccess := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_success.gd")
const Coerce := preload("res://addons/godot_mcp_toolkit/contract/coerce.gd")
const NodeLookup := preload("res://addons/godot_mcp_toolkit/scene_tree/node_lookup.gd")
const Args := preload("res://addons/godot_mcp_toolkit/contract/build_args.gd")
const NodeAdder := preload("res://addons/godot_mcp_toolkit/scene_tree/node_adder.gd")

const SELF_PATH := "res://addons/godot_mcp_toolkit/commands/path/path_commands.gd"
const ACTIONS := ["set", "add", "remove", "clear"]
const MAX_POINTS := 10000
## Points echoed back in a result; beyond this the result says it was cut.
const ECHO_LIMIT := 100
const XY := {"type": "object", "properties": {"x": {"type": "number"}, "y": {"type": "number"}}}


static func register(registry: RefCounted, context: RefCounted) -> void:
	var script: Script = load(SELF_PATH)
	registry.register_command("path2d.edit_curve", Callable(script, "_cmd_edit_curve").bind(context),
		registry.create_options()
		.with_input_schema({"type": "object", "required": ["node_path", "action"], "properties": {
			"node_path": {"type": "string"}, "action": {"type": "string", "enum": ACTIONS},
			"points": {"type": "array", "items": {"type": "object", "required": ["position"], "properties": {
				"position": XY, "in_handle": XY, "out_handle": XY}}}, "index": {"type": "integer"}}}))
	registry.register_command("node.collision_from_sprite", Callable(script, "_cmd_collision").bind(context),
		registry.create_options()
		.with_input_schema({"type": "object", "required": ["sprite_path"], "properties": {
			"sprite_path": {"type": "string"}, "parent_path": {"type": "string"}, "target_name": {"type": "string"},
			"simplification": {"type": "number"}}}))


# --- path2d.edit_curve -----------------------------------------------------------------------------

static func _cmd_edit_curve(params: Dictionary, context: RefCounted) -> Dictionary:
	var found := _node_of(context, params.get("node_path"), "node_path", "Path2D")
	if found.has("error"):
		return found["error"]
	var path: Path2D = found["node"]
	var action := Args.choice(params, "action", "", ACTIONS)
	if action.has("error"):
		return action["error"]
	var curve: Curve2D = path.curve
	var work: Curve2D = curve.duplicate() if curve != null else Curve2D.new()
	var edited := _edit(work, action["value"], params)
	if not edited.is_empty():
		return edited
	var action_step: RefCounted = context.edits.create_undo_action("Edit curve of %s" % path.name, found["root"])
	if curve == null:
		action_step.add_do_property(path, &"curve", work)
		action_step.add_undo_property(path, &"curve", null)
	else:
		action_step.add_do_property(curve, &"_data", work.get("_data"))
		action_step.add_undo_property(curve, &"_data", curve.get("_data"))
	action_step.commit()
	context.scenes.mark_modified()
	var live: Curve2D = path.curve
	var points: Array = []
	for i: int in mini(live.point_count, ECHO_LIMIT):
		points.append({"position": Coerce.serialize_value(live.get_point_position(i)),
			"in_handle": Coerce.serialize_value(live.get_point_in(i)),
			"out_handle": Coerce.serialize_value(live.get_point_out(i))})
	var result := {"node_path": NodeLookup.path_of(found["root"], path), "action": action["value"],
		"point_count": live.point_count, "points": points, "length": live.get_baked_length(),
		"truncated": live.point_count > ECHO_LIMIT}
	if result["truncated"]:
		result["hint"] = "Only the first %d points are listed." % ECHO_LIMIT
	return ToolkitSuccess.ok(result)


static func _edit(curve: Curve2D, action: String, params: Dictionary) -> Dictionary:
	if action == "clear":
		curve.clear_points()
		return {}
	if action == "remove":
		var index := _index(params, curve.point_count, true)
		if index.has("error"):
			return index["error"]
		curve.remove_point(index["value"])
		return {}
	var points := _points(params)
	if points.has("error"):
		return points["error"]
	if action == "set":
		curve.clear_points()
		for point: Array in points["value"]:
			curve.add_point(point[0], point[1], point[2])
		return {}
	var at := _index(params, curve.point_count + 1, false)
	if at.has("error"):
		return at["error"]
	var position: int = at["value"]
	for point: Array in points["value"]:
		curve.add_point(point[0], point[1], point[2], position)
		if position >= 0:
			position += 1
	return {}


## [[position, in, out], ...] from params.points (non-empty).
static func _points(params: Dictionary) -> Dictionary:
	var raw: Variant = params.get("points")
	if not raw is Array or (raw as Array).is_empty() or (raw as Array).size() > MAX_POINTS:
		return _bad("points must be an array of 1..%d {position: {x, y}, in_handle, out_handle}" % MAX_POINTS)
	var list: Array = []
	for i: int in (raw as Array).size():
		var point: Variant = raw[i]
		if not point is Dictionary or not (point as Dictionary).has("position"):
			return _bad("points[%d] must be an object with position {x, y}" % i)
		var unknown := Args.keys(point, ["position", "in_handle", "out_handle"], "points[%d]" % i)
		if not unknown.is_empty():
			return unknown
		var read := Args.collect([
			["position", Args.vector2(point, "position", Vector2.ZERO)],
			["in", Args.vector2(point, "in_handle", Vector2.ZERO)],
			["out", Args.vector2(point, "out_handle", Vector2.ZERO)],
		])
		if read.has("error"):
			return Args.nested("points[%d]" % i, read)
		list.append([read["values"]["position"], read["values"]["in"], read["values"]["out"]])
	return {"value": list}


## params.index within 0..count-1; when not `required`, absent means -1 (append).
static func _index(params: Dictionary, count: int, required: bool) -> Dictionary:
	if not params.has("index"):
		return _bad("index is required for remove") if required else {"value": -1}
	var read := Args.integer(params, "index", 0)
	if read.has("error") or int(read["value"]) < 0 or int(read["value"]) >= count:
		return {"error": ToolkitError.fail("INVALID_PARAMS", "index must be 0..%d (the curve has %d points)" % [
			count - 1, count if required else count - 1], "Read point_count from the last result.")}
	return read


# --- node.collision_from_sprite --------------------------------------------------------------------

static func _cmd_collision(params: Dictionary, context: RefCounted) -> Dictionary:
	var found := _node_of(context, params.get("sprite_path"), "sprite_path", "Sprite2D")
	if found.has("error"):
		return found["error"]
	var root: Node = found["root"]
	var sprite: Sprite2D = found["node"]
	var epsilon := Args.number(params, "simplification", 2.0, 0.0, 100.0)
	if epsilon.has("error"):
		return epsilon["error"]
	var parent: Node = sprite.get_parent() if sprite != root else sprite
	if params.has("parent_path"):
		var target := NodeAdder.parent_of(context, params["parent_path"])
		if target.has("error"):
			return target["error"]
		parent = target["parent"]
	if not parent is Node2D:
		return ToolkitError.fail("INVALID_CLASS", "parent '%s' is a %s; a CollisionPolygon2D needs a Node2D parent" % [
			NodeLookup.path_of(root, parent), parent.get_class()], "Pass parent_path of a body or area node.")
	var name := NodeAdder.node_name(params, "target_name", "CollisionPolygon2D")
	if name.has("error"):
		return name["error"]
	var traced := _trace(sprite, epsilon["value"])
	if traced.has("error"):
		return traced["error"]
	var existing := NodeAdder.existing(root, parent, name["value"], "CollisionPolygon2D", params,
		["sprite_path", "parent_path", "target_name"])
	if not existing.is_empty():
		return existing
	# Sprite-local pixels into the parent's space, wherever the parent sits.
	var to_parent: Transform2D = (parent as Node2D).global_transform.affine_inverse() * sprite.global_transform
	var polygon := to_parent * (traced["polygon"] as PackedVector2Array)
	var node := CollisionPolygon2D.new()
	node.name = name["value"]
	node.polygon = polygon
	var details := {"sprite_path": NodeLookup.path_of(root, sprite), "point_count": polygon.size(),
		"polygons_found": traced["found"]}
	if traced["found"] > 1:
		details["warnings"] = ["The texture has %d separate opaque areas; the largest was used." % traced["found"]]
	return NodeAdder.add(context, root, parent, node, details)


## The largest opaque outline of the sprite's visible frame, in sprite-local coordinates.
static func _trace(sprite: Sprite2D, epsilon: float) -> Dictionary:
	if sprite.texture == null:
		return _bad("The sprite has no texture to trace")
	var image := sprite.texture.get_image()
	if image == null:
		return _bad("The sprite's texture has no readable image")
	if image.is_compressed():
		image = image.duplicate()
		image.decompress()
	var frame := _frame_rect(sprite, image.get_size())
	var bitmap := BitMap.new()
	bitmap.create_from_image_alpha(image.get_region(frame), 0.1)
	var outlines := bitmap.opaque_to_polygons(Rect2i(Vector2i.ZERO, frame.size), epsilon)
	if outlines.is_empty():
		return _bad("The sprite's visible frame has no opaque pixels to trace")
	var best: PackedVector2Array = outlines[0]
	for outline: PackedVector2Array in outlines:
		if _area(outline) > _area(best):
			best = outline
	var origin := sprite.offset - (Vector2(frame.size) / 2.0 if sprite.centered else Vector2.ZERO)
	var shifted := PackedVector2Array()
	for point: Vector2 in best:
		shifted.append(point + origin)
	return {"polygon": shifted, "found": outlines.size()}


static func _frame_rect(sprite: Sprite2D, image_size: Vector2i) -> Rect2i:
	if sprite.region_enabled:
		return Rect2i(sprite.region_rect)
	var cell := Vector2i(image_size.x / maxi(sprite.hframes, 1), image_size.y / maxi(sprite.vframes, 1))
	return Rect2i(sprite.frame_coords * cell, cell)


static func _area(outline: PackedVector2Array) -> float:
	var twice := 0.0
	for i: int in outline.size():
		var a := outline[i]
		var b := outline[(i + 1) % outline.size()]
		twice += a.x * b.y - b.x * a.y
	return absf(twice) / 2.0


# --- shared ----------------------------------------------------------------------------------------

## {"root", "node"} of class `type_name` at params[key], or {"error"} (NO_SCENE, NOT_FOUND, INVALID_CLASS).
static func _node_of(context: RefCounted, raw: Variant, key: String, type_name: String) -> Dictionary:
	var root: Node = context.scenes.scene_root()
	if root == null:
		return {"error": ToolkitError.fail("NO_SCENE", "No scene is open in the editor",
			"Open one with scene_open first.")}
	if not raw is String:
		return _bad("%s must be a string" % key)
	var found := NodeLookup.find(root, raw)
	if not found["ok"]:
		return {"error": found["error"]}
	var node: Node = found["node"]
	if not node.is_class(type_name):
		return {"error": ToolkitError.fail("INVALID_CLASS", "'%s' is a %s, not a %s" % [raw, node.get_class(), type_name],
			"Pass the path of a %s." % type_name)}
	return {"root": root, "node": node}


static func _bad(message: String) -> Dictionary:
	return {"error": ToolkitError.fail("INVALID_PARAMS", message)}
