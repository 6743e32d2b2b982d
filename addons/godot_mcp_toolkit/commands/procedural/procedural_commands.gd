@tool
extends RefCounted
## The procedural domain: create or edit Gradient, Curve and FastNoiseLite resources saved as
## .tres files (files/resource_working_copy.gd opens, saves and records undo for an existing
## file). Every param is checked on a working copy first, so a refused edit changes nothing.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const ToolkitSuccess := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_success.gd")
const Coerce := preload("res://addons/godot_mcp_toolkit/contract/coerce.gd")
const Args := preload("res://addons/godot_mcp_toolkit/contract/build_args.gd")
const FileParams := preload("res://addons/godot_mcp_toolkit/files/file_params.gd")
const ResourceFile := preload("res://addons/godot_mcp_toolkit/files/resource_working_copy.gd")

const SELF_PATH := "res://addons/godot_mcp_toolkit/commands/procedural/procedural_commands.gd"
const RESOURCE_EXTENSIONS := ["tres", "res"]
const GRADIENT_ACTIONS := ["set", "add_point", "remove_point"]
const CURVE_ACTIONS := ["set", "add_point", "remove_point", "clear"]
const INTERPOLATION := {"linear": Gradient.GRADIENT_INTERPOLATE_LINEAR,
	"constant": Gradient.GRADIENT_INTERPOLATE_CONSTANT, "cubic": Gradient.GRADIENT_INTERPOLATE_CUBIC}
const TANGENT_MODES := {"free": Curve.TANGENT_FREE, "linear": Curve.TANGENT_LINEAR}
const NOISE_TYPES := {"simplex": FastNoiseLite.TYPE_SIMPLEX, "simplex_smooth": FastNoiseLite.TYPE_SIMPLEX_SMOOTH,
	"cellular": FastNoiseLite.TYPE_CELLULAR, "perlin": FastNoiseLite.TYPE_PERLIN,
	"value": FastNoiseLite.TYPE_VALUE, "value_cubic": FastNoiseLite.TYPE_VALUE_CUBIC}
const FRACTAL_TYPES := {"none": FastNoiseLite.FRACTAL_NONE, "fbm": FastNoiseLite.FRACTAL_FBM,
	"ridged": FastNoiseLite.FRACTAL_RIDGED, "ping_pong": FastNoiseLite.FRACTAL_PING_PONG}
const DISTANCES := {"euclidean": FastNoiseLite.DISTANCE_EUCLIDEAN,
	"euclidean_squared": FastNoiseLite.DISTANCE_EUCLIDEAN_SQUARED, "manhattan": FastNoiseLite.DISTANCE_MANHATTAN,
	"hybrid": FastNoiseLite.DISTANCE_HYBRID}
const RETURN_TYPES := {"cell_value": FastNoiseLite.RETURN_CELL_VALUE, "distance": FastNoiseLite.RETURN_DISTANCE,
	"distance2": FastNoiseLite.RETURN_DISTANCE2, "distance2_add": FastNoiseLite.RETURN_DISTANCE2_ADD,
	"distance2_sub": FastNoiseLite.RETURN_DISTANCE2_SUB, "distance2_mul": FastNoiseLite.RETURN_DISTANCE2_MUL,
	"distance2_div": FastNoiseLite.RETURN_DISTANCE2_DIV}


static func register(registry: RefCounted, context: RefCounted) -> void:
	var script: Script = load(SELF_PATH)
	var file := {"type": "string"}
	var index := {"type": "integer"}
	registry.register_command("procedural.edit_gradient", Callable(script, "_cmd_gradient").bind(context),
		registry.create_options()
		.with_input_schema({"type": "object", "required": ["file_path"], "properties": {"file_path": file,
			"action": {"type": "string", "enum": GRADIENT_ACTIONS}, "points": {"type": "array"}, "index": index,
			"interpolation_mode": {"type": "string", "enum": INTERPOLATION.keys()}}}).scene_independent())
	registry.register_command("procedural.edit_curve", Callable(script, "_cmd_curve").bind(context),
		registry.create_options()
		.with_input_schema({"type": "object", "required": ["file_path"], "properties": {"file_path": file,
			"action": {"type": "string", "enum": CURVE_ACTIONS}, "points": {"type": "array"}, "index": index,
			"min_value": {"type": "number"}, "max_value": {"type": "number"}}}).scene_independent())
	var noise_properties := {"file_path": file}
	var fields := _noise_fields()
	for key: String in fields:
		var kind: Variant = fields[key][1]
		noise_properties[key] = {"type": "string", "enum": kind.keys()} if kind is Dictionary else {
			"type": {"int": "integer", "number": "number", "bool": "boolean"}[kind]}
	registry.register_command("procedural.edit_noise", Callable(script, "_cmd_noise").bind(context),
		registry.create_options()
		.with_input_schema({"type": "object", "required": ["file_path"], "properties": noise_properties})
		.scene_independent())


# --- gradient --------------------------------------------------------------------------------------

static func _cmd_gradient(params: Dictionary, context: RefCounted) -> Dictionary:
	var read := Args.collect([
		["path", FileParams.res_file(params, "file_path", RESOURCE_EXTENSIONS)],
		["action", Args.choice(params, "action", "set", GRADIENT_ACTIONS)],
	])
	if read.has("error"):
		return read["error"]
	var path: String = read["values"]["path"]
	var opened := ResourceFile.open(path, "Gradient")
	if opened.has("error"):
		return opened["error"]
	var gradient: Gradient = opened["work"]
	var edited := _edit_gradient(gradient, read["values"]["action"], params)
	if not edited.is_empty():
		return edited
	var saved := ResourceFile.commit(opened, path, context, "Edit gradient %s" % path.get_file())
	if not saved.is_empty():
		return saved
	var points: Array = []
	for i: int in gradient.get_point_count():
		points.append({"offset": gradient.get_offset(i), "color": Coerce.serialize_value(gradient.get_color(i))})
	var mode: int = gradient.interpolation_mode
	return ToolkitSuccess.ok({"path": path, "created": opened["created"], "points": points,
		"interpolation_mode": INTERPOLATION.find_key(mode)})


static func _edit_gradient(gradient: Gradient, action: String, params: Dictionary) -> Dictionary:
	if params.has("interpolation_mode"):
		var mode := Args.choice(params, "interpolation_mode", "linear", INTERPOLATION.keys())
		if mode.has("error"):
			return mode["error"]
		gradient.interpolation_mode = INTERPOLATION[mode["value"]]
	if action == "remove_point":
		var index := _index(params, gradient.get_point_count())
		if index.has("error"):
			return index["error"]
		if gradient.get_point_count() <= 1:
			return ToolkitError.fail("INVALID_PARAMS", "A gradient keeps at least one point",
				"Use action 'set' to replace the points instead.")
		gradient.remove_point(index["value"])
		return {}
	var points := _gradient_points(params, action == "add_point")
	if points.has("error"):
		return points["error"]
	var list: Array = points["value"]
	if action == "set" and not list.is_empty():
		var offsets := PackedFloat32Array()
		var colors := PackedColorArray()
		for point: Array in list:
			offsets.append(point[0])
			colors.append(point[1])
		gradient.offsets = offsets
		gradient.colors = colors
	elif action == "add_point":
		for point: Array in list:
			gradient.add_point(point[0], point[1])
	return {}


## points as [[offset, Color], ...]; `required` when the action needs at least one.
static func _gradient_points(params: Dictionary, required: bool) -> Dictionary:
	var raw: Variant = params.get("points", [])
	if not raw is Array or (required and (raw as Array).is_empty()):
		return _bad("points must be a non-empty array of {offset, color}")
	var list: Array = []
	for i: int in (raw as Array).size():
		var point: Variant = raw[i]
		if not point is Dictionary or not (point as Dictionary).has_all(["offset", "color"]):
			return _bad("points[%d] must be {offset, color}" % i)
		var unknown := Args.keys(point, ["offset", "color"], "points[%d]" % i)
		if not unknown.is_empty():
			return unknown
		var offset := Args.number(point, "offset", 0.0, 0.0, 1.0)
		if offset.has("error"):
			return _bad("points[%d].offset must be a number from 0 to 1" % i)
		var color := Args.color_value(point["color"], "points[%d].color" % i)
		if color.has("error"):
			return color
		list.append([offset["value"], color["value"]])
	return {"value": list}


# --- curve -----------------------------------------------------------------------------------------

static func _cmd_curve(params: Dictionary, context: RefCounted) -> Dictionary:
	var read := Args.collect([
		["path", FileParams.res_file(params, "file_path", RESOURCE_EXTENSIONS)],
		["action", Args.choice(params, "action", "set", CURVE_ACTIONS)],
	])
	if read.has("error"):
		return read["error"]
	var path: String = read["values"]["path"]
	var opened := ResourceFile.open(path, "Curve")
	if opened.has("error"):
		return opened["error"]
	var curve: Curve = opened["work"]
	var edited := _edit_curve(curve, read["values"]["action"], params)
	if not edited.is_empty():
		return edited
	var saved := ResourceFile.commit(opened, path, context, "Edit curve %s" % path.get_file())
	if not saved.is_empty():
		return saved
	var points: Array = []
	for i: int in curve.point_count:
		points.append({"position": Coerce.serialize_value(curve.get_point_position(i)),
			"left_tangent": curve.get_point_left_tangent(i), "right_tangent": curve.get_point_right_tangent(i),
			"left_mode": TANGENT_MODES.find_key(curve.get_point_left_mode(i)),
			"right_mode": TANGENT_MODES.find_key(curve.get_point_right_mode(i))})
	return ToolkitSuccess.ok({"path": path, "created": opened["created"], "points": points,
		"min_value": curve.min_value, "max_value": curve.max_value})


static func _edit_curve(curve: Curve, action: String, params: Dictionary) -> Dictionary:
	var range_read := Args.collect([
		["min", Args.number(params, "min_value", curve.min_value)],
		["max", Args.number(params, "max_value", curve.max_value)],
	])
	if range_read.has("error"):
		return range_read["error"]
	var low: float = range_read["values"]["min"]
	var high: float = range_read["values"]["max"]
	if low >= high:
		return _bad("min_value (%s) must be below max_value (%s)" % [low, high])["error"]
	curve.min_value = low
	curve.max_value = high
	match action:
		"clear":
			curve.clear_points()
		"remove_point":
			var index := _index(params, curve.point_count)
			if index.has("error"):
				return index["error"]
			curve.remove_point(index["value"])
		_:
			var points := _curve_points(params, low, high, action == "add_point")
			if points.has("error"):
				return points["error"]
			if action == "set" and params.has("points"):
				curve.clear_points()
			for point: Array in points["value"]:
				curve.add_point(point[0], point[1], point[2], point[3], point[4])
	return {}


## points as [[Vector2, left, right, left_mode, right_mode], ...], y inside [low, high].
static func _curve_points(params: Dictionary, low: float, high: float, required: bool) -> Dictionary:
	var raw: Variant = params.get("points", [])
	if not raw is Array or (required and (raw as Array).is_empty()):
		return _bad("points must be a non-empty array of {position: {x, y}, ...}")
	var list: Array = []
	for i: int in (raw as Array).size():
		var point: Variant = raw[i]
		if not point is Dictionary:
			return _bad("points[%d] must be an object with position {x, y}" % i)
		var unknown := Args.keys(point, ["position", "left_tangent", "right_tangent", "left_mode", "right_mode"],
			"points[%d]" % i)
		if not unknown.is_empty():
			return unknown
		var read := Args.collect([
			["position", Args.vector2(point, "position", Vector2(NAN, NAN))],
			["left", Args.number(point, "left_tangent", 0.0)], ["right", Args.number(point, "right_tangent", 0.0)],
			["left_mode", Args.choice(point, "left_mode", "free", TANGENT_MODES.keys())],
			["right_mode", Args.choice(point, "right_mode", "free", TANGENT_MODES.keys())],
		])
		if read.has("error"):
			return Args.nested("points[%d]" % i, read)
		var values: Dictionary = read["values"]
		var position: Vector2 = values["position"]
		if is_nan(position.x) or position.x < 0.0 or position.x > 1.0 or position.y < low or position.y > high:
			return _bad("points[%d].position needs x in 0..1 and y in %s..%s" % [i, low, high])
		list.append([position, values["left"], values["right"], TANGENT_MODES[values["left_mode"]],
			TANGENT_MODES[values["right_mode"]]])
	return {"value": list}


# --- noise -----------------------------------------------------------------------------------------

static func _cmd_noise(params: Dictionary, context: RefCounted) -> Dictionary:
	var read := FileParams.res_file(params, "file_path", RESOURCE_EXTENSIONS)
	if read.has("error"):
		return read["error"]
	var path: String = read["value"]
	var opened := ResourceFile.open(path, "FastNoiseLite")
	if opened.has("error"):
		return opened["error"]
	var noise: FastNoiseLite = opened["work"]
	var settings := {}
	var fields := _noise_fields()
	for key: String in fields:
		var field: Array = fields[key]
		var value := _noise_value(params, key, field[1])
		if value.has("error"):
			return value["error"]
		if params.has(key):
			noise.set(field[0], value["value"])
	var saved := ResourceFile.commit(opened, path, context, "Edit noise %s" % path.get_file())
	if not saved.is_empty():
		return saved
	for key: String in fields:
		var field: Array = fields[key]
		var stored: Variant = noise.get(field[0])
		settings[key] = (field[1] as Dictionary).find_key(stored) if field[1] is Dictionary else stored
	return ToolkitSuccess.ok({"path": path, "created": opened["created"], "settings": settings})


static func _noise_value(params: Dictionary, key: String, kind: Variant) -> Dictionary:
	if kind is Dictionary:
		var picked := Args.choice(params, key, (kind as Dictionary).keys()[0], (kind as Dictionary).keys())
		return picked if picked.has("error") else {"value": kind[picked["value"]]}
	match kind:
		"int":
			return Args.integer(params, key, 0)
		"bool":
			return Args.boolean(params, key, false)
	return Args.number(params, key, 0.0)


## FastNoiseLite param -> [property, kind]; kind is a choice table, "int", "number" or "bool".
static func _noise_fields() -> Dictionary:
	return {
		"noise_type": ["noise_type", NOISE_TYPES], "seed": ["seed", "int"], "frequency": ["frequency", "number"],
		"octaves": ["fractal_octaves", "int"], "lacunarity": ["fractal_lacunarity", "number"],
		"gain": ["fractal_gain", "number"], "fractal_type": ["fractal_type", FRACTAL_TYPES],
		"cellular_distance_function": ["cellular_distance_function", DISTANCES],
		"cellular_return_type": ["cellular_return_type", RETURN_TYPES],
		"domain_warp_enabled": ["domain_warp_enabled", "bool"],
		"domain_warp_amplitude": ["domain_warp_amplitude", "number"],
	}


# --- shared ----------------------------------------------------------------------------------------

static func _index(params: Dictionary, count: int) -> Dictionary:
	if not params.has("index"):
		return _bad("index is required for remove_point")
	var index := Args.integer(params, "index", 0)
	if index.has("error") or int(index["value"]) < 0 or int(index["value"]) >= count:
		return {"error": ToolkitError.fail("INVALID_PARAMS", "index must be 0..%d (there are %d points)" % [
			count - 1, count], "Read the points from the last result and pass one of their indexes.")}
	return index


static func _bad(message: String) -> Dictionary:
	return {"error": ToolkitError.fail("INVALID_PARAMS", message)}
