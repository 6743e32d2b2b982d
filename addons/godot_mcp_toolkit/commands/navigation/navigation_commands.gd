@tool
extends RefCounted
## The navigation domain: navigation.edit_polygon edits the NavigationPolygon of a
## NavigationRegion2D (set the outlines, add or remove one, clear, or bake the outlines into
## walkable polygons). The edit runs on a copy, then one undo step swaps the stored data of the
## region's own polygon resource (a region without one gets a new polygon, undone by removing it).

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const ToolkitSuccess := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_success.gd")
const NodeLookup := preload("res://addons/godot_mcp_toolkit/scene_tree/node_lookup.gd")
const Args := preload("res://addons/godot_mcp_toolkit/contract/build_args.gd")
const ResourceFile := preload("res://addons/godot_mcp_toolkit/files/resource_working_copy.gd")

const SELF_PATH := "res://addons/godot_mcp_toolkit/commands/navigation/navigation_commands.gd"
const ACTIONS := ["set", "add_outline", "remove_outline", "clear", "bake"]
const MAX_OUTLINES := 256
const MAX_OUTLINE_POINTS := 4096
## Outlines echoed back in full; beyond this the result says it was cut.
const ECHO_LIMIT := 20
const XY := {"type": "object", "required": ["x", "y"], "properties": {"x": {"type": "number"}, "y": {"type": "number"}}}


static func register(registry: RefCounted, context: RefCounted) -> void:
	var script: Script = load(SELF_PATH)
	registry.register_command("navigation.edit_polygon", Callable(script, "_cmd_edit_polygon").bind(context),
		registry.create_options()
		.with_input_schema({"type": "object", "required": ["node_path", "action"], "properties": {
			"node_path": {"type": "string"}, "action": {"type": "string", "enum": ACTIONS},
			"outlines": {"type": "array", "items": {"type": "array", "items": XY}},
			"outline": {"type": "array", "items": XY}, "index": {"type": "integer"}}}))


static func _cmd_edit_polygon(params: Dictionary, context: RefCounted) -> Dictionary:
	var root: Node = context.scenes.scene_root()
	if root == null:
		return ToolkitError.fail("NO_SCENE", "No scene is open in the editor", "Open one with scene_open first.")
	if not params.get("node_path") is String:
		return _bad("node_path must be a string")["error"]
	var found := NodeLookup.find(root, params["node_path"])
	if not found["ok"]:
		return found["error"]
	var region: Node = found["node"]
	if not region is NavigationRegion2D:
		return ToolkitError.fail("INVALID_CLASS", "'%s' is a %s, not a NavigationRegion2D" % [
			params["node_path"], region.get_class()], "Pass the path of a NavigationRegion2D.")
	var action := Args.choice(params, "action", "", ACTIONS)
	if action.has("error"):
		return action["error"]
	var polygon: NavigationPolygon = (region as NavigationRegion2D).navigation_polygon
	var work: NavigationPolygon = polygon.duplicate() if polygon != null else NavigationPolygon.new()
	var edited := _edit(work, action["value"], params)
	if not edited.is_empty():
		return edited
	var step: RefCounted = context.edits.create_undo_action("Edit navigation polygon of %s" % region.name, root)
	if polygon == null:
		step.add_do_property(region, &"navigation_polygon", work)
		step.add_undo_property(region, &"navigation_polygon", null)
	else:
		var script: Script = load(SELF_PATH)
		step.add_do_method(script, &"_apply", [polygon, ResourceFile.snapshot(work)])
		step.add_undo_method(script, &"_apply", [polygon, ResourceFile.snapshot(polygon)])
	step.commit()
	context.scenes.mark_modified()
	return ToolkitSuccess.ok(_describe(root, region as NavigationRegion2D, action["value"]))


static func _edit(polygon: NavigationPolygon, action: String, params: Dictionary) -> Dictionary:
	match action:
		"clear":
			polygon.clear_outlines()
			polygon.clear_polygons()
			polygon.vertices = PackedVector2Array()
		"bake":
			if polygon.get_outline_count() == 0:
				return _bad("There are no outlines to bake; add some with action 'set' or 'add_outline'")["error"]
			polygon.clear_polygons()
			polygon.make_polygons_from_outlines()
			if polygon.get_polygon_count() == 0:
				return _bad("The outlines bake into no walkable polygon (crossing or inside-out outlines?)")["error"]
		"remove_outline":
			var index := Args.integer(params, "index", -1)
			var count := polygon.get_outline_count()
			if not params.has("index") or index.has("error") or int(index["value"]) < 0 or int(index["value"]) >= count:
				return ToolkitError.fail("INVALID_PARAMS", "index must be 0..%d (there are %d outlines)" % [count - 1, count],
					"Read outline_count from the last result.")
			polygon.remove_outline(index["value"])
		"add_outline":
			var outline := _outline(params.get("outline"), "outline")
			if outline.has("error"):
				return outline["error"]
			polygon.add_outline(outline["value"])
		_:
			var raw: Variant = params.get("outlines")
			if not raw is Array or (raw as Array).is_empty() or (raw as Array).size() > MAX_OUTLINES:
				return _bad("outlines must be an array of 1..%d outlines, each [{x, y}, ...]" % MAX_OUTLINES)["error"]
			var outlines: Array = []
			for i: int in (raw as Array).size():
				var outline := _outline(raw[i], "outlines[%d]" % i)
				if outline.has("error"):
					return outline["error"]
				outlines.append(outline["value"])
			polygon.clear_outlines()
			for outline: PackedVector2Array in outlines:
				polygon.add_outline(outline)
	return {}


## A closed outline of 3..MAX_OUTLINE_POINTS {x, y} points.
static func _outline(raw: Variant, where: String) -> Dictionary:
	if not raw is Array or (raw as Array).size() < 3 or (raw as Array).size() > MAX_OUTLINE_POINTS:
		return _bad("%s must be an array of 3..%d {x, y} points" % [where, MAX_OUTLINE_POINTS])
	var points := PackedVector2Array()
	for i: int in (raw as Array).size():
		var unknown := Args.keys(raw[i], ["x", "y", Args.TAG_KEY], "%s[%d]" % [where, i])
		if not unknown.is_empty():
			return unknown
		var read := Args.vector2({"p": raw[i]}, "p", Vector2.ZERO)
		if read.has("error"):
			return _bad("%s[%d] must be {x, y} numbers" % [where, i])
		points.append(read["value"])
	return {"value": points}


## The undo/redo step: puts a snapshot's stored data back on the region's polygon.
static func _apply(polygon: NavigationPolygon, values: Dictionary) -> void:
	for name: String in values:
		polygon.set(name, values[name])
	polygon.emit_changed()


static func _describe(root: Node, region: NavigationRegion2D, action: String) -> Dictionary:
	var polygon := region.navigation_polygon
	var outlines: Array = []
	for i: int in mini(polygon.get_outline_count(), ECHO_LIMIT):
		var points: Array = []
		for point: Vector2 in polygon.get_outline(i):
			points.append({"x": point.x, "y": point.y})
		outlines.append(points)
	var result := {"node_path": NodeLookup.path_of(root, region), "action": action,
		"outline_count": polygon.get_outline_count(), "outlines": outlines,
		"polygon_count": polygon.get_polygon_count(), "vertex_count": polygon.vertices.size(),
		"truncated": polygon.get_outline_count() > ECHO_LIMIT}
	if result["truncated"]:
		result["hint"] = "Only the first %d outlines are listed." % ECHO_LIMIT
	elif action != "bake" and polygon.get_outline_count() > 0:
		result["hint"] = "Outlines changed; run action 'bake' to rebuild the walkable polygons."
	return result


static func _bad(message: String) -> Dictionary:
	return {"error": ToolkitError.fail("INVALID_PARAMS", message)}
