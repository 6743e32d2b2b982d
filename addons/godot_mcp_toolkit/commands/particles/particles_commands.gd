@tool
extends RefCounted
## The particles domain: particles.create adds a GPU (type "2d"/"3d") or CPU ("cpu_2d"/"cpu_3d")
## particles node from a preset (commands/particles/particle_presets.gd) with the request's
## overrides, in one undo step. All params are checked before the node is built; what the target
## cannot take in this Godot version is listed in not_applied (commands/particles/particle_builder.gd).

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const FileGuard := preload("res://addons/godot_mcp_toolkit/security/file_guard.gd")
const Args := preload("res://addons/godot_mcp_toolkit/contract/build_args.gd")
const NodeAdder := preload("res://addons/godot_mcp_toolkit/scene_tree/node_adder.gd")
const Presets := preload("res://addons/godot_mcp_toolkit/commands/particles/particle_presets.gd")
const Builder := preload("res://addons/godot_mcp_toolkit/commands/particles/particle_builder.gd")

const SELF_PATH := "res://addons/godot_mcp_toolkit/commands/particles/particles_commands.gd"
const TYPES := ["2d", "3d", "cpu_2d", "cpu_3d"]
const MESHES := ["quad", "box", "sphere"]
const SHAPES := ["point", "sphere", "sphere_surface", "box", "ring"]
const INTERPOLATION := {"linear": Gradient.GRADIENT_INTERPOLATE_LINEAR,
	"constant": Gradient.GRADIENT_INTERPOLATE_CONSTANT, "cubic": Gradient.GRADIENT_INTERPOLATE_CUBIC}
## Params that pick what to create (not "unapplied" when an existing node is returned).
const STRUCTURAL := ["parent_path", "name", "type"]
const RANGE_SCHEMA := {"anyOf": [{"type": "number"}, {"type": "object", "properties": {
	"min": {"type": "number"}, "max": {"type": "number"}}, "required": ["min", "max"]}]}


static func register(registry: RefCounted, context: RefCounted) -> void:
	var script: Script = load(SELF_PATH)
	var number := {"type": "number"}
	var flag := {"type": "boolean"}
	var vector := {"type": "object", "properties": {"x": number, "y": number, "z": number}}
	var resource := {"anyOf": [{"type": "string"}, {"type": "object"}]}
	registry.register_command("particles.create", Callable(script, "_cmd_create").bind(context),
		registry.create_options()
		.with_input_schema({"type": "object", "required": ["parent_path", "type"], "properties": {
			"parent_path": {"type": "string"}, "name": {"type": "string"}, "type": {"type": "string", "enum": TYPES},
			"preset": {"type": "string", "enum": Presets.PRESETS.keys()}, "amount": {"type": "integer"},
			"lifetime": number, "one_shot": flag, "explosiveness": number, "speed_scale": number, "local_coords": flag,
			"use_fixed_seed": flag, "seed": {"type": "integer"}, "texture_path": {"type": "string"},
			"mesh": {"type": "string", "enum": MESHES}, "emission_shape": {"type": "string", "enum": SHAPES},
			"emission_sphere_radius": number, "emission_box_extents": vector, "emission_ring_cone_angle": number,
			"direction": vector, "spread": number, "gravity": vector, "initial_velocity": RANGE_SCHEMA,
			"damping": RANGE_SCHEMA, "orbit_velocity": RANGE_SCHEMA, "scale_range": RANGE_SCHEMA, "angle": RANGE_SCHEMA,
			"angular_velocity": RANGE_SCHEMA, "hue_variation": RANGE_SCHEMA, "color": vector, "color_ramp": resource,
			"alpha_curve": resource, "scale_curve": resource, "turbulence_enabled": flag,
			"turbulence_noise_strength": number, "particle_flag_align_y": flag, "position": vector}}))


static func _cmd_create(params: Dictionary, context: RefCounted) -> Dictionary:
	var kind_read := Args.choice(params, "type", "", TYPES)
	if kind_read.has("error"):
		return kind_read["error"]
	var kind: String = kind_read["value"]
	var is_2d := kind in ["2d", "cpu_2d"]
	var settings := {}
	var preset_name := ""
	if params.has("preset"):
		var preset := Args.choice(params, "preset", "", Presets.PRESETS.keys())
		if preset.has("error"):
			return preset["error"]
		preset_name = preset["value"]
		settings = Builder.preset_for(Presets.PRESETS[preset_name], is_2d)
	var overrides := _overrides(params)
	if overrides.has("error"):
		return overrides["error"]
	settings.merge(overrides["values"], true)
	var look := _look(params, is_2d)
	if look.has("error"):
		return look["error"]
	var position := Args.vector2(params, "position", Vector2.ZERO) if is_2d else Args.vector3(params, "position",
		Vector3.ZERO)
	if position.has("error"):
		return position["error"]
	var default_name := (preset_name.capitalize() + "Particles") if not preset_name.is_empty() else (
		Builder.NODE_CLASSES[kind] as String)
	var target := NodeAdder.parent_of(context, params.get("parent_path", "."))
	if target.has("error"):
		return target["error"]
	var name := NodeAdder.node_name(params, "name", default_name)
	if name.has("error"):
		return name["error"]
	var existing := NodeAdder.existing(target["root"], target["parent"], name["value"], Builder.NODE_CLASSES[kind],
		params, STRUCTURAL)
	if not existing.is_empty():
		return existing
	var built := Builder.build(kind, settings)
	var node: Node = built["node"]
	node.name = name["value"]
	node.set("position", position["value"])
	_dress(node, look["value"], is_2d, kind in ["2d", "3d"])
	var applied: Array = built["applied"]
	applied.sort()
	return NodeAdder.add(context, target["root"], target["parent"], node, {"type": kind, "preset": preset_name,
		"applied": applied, "not_applied": built["not_applied"]})


## The request's overrides, checked, in builder settings form: {"values"} or {"error"}.
static func _overrides(params: Dictionary) -> Dictionary:
	var readers: Array = []
	var numbers := {"lifetime": [0.01, 600.0], "explosiveness": [0.0, 1.0], "speed_scale": [0.0, 64.0],
		"spread": [0.0, 180.0], "emission_sphere_radius": [0.0, 100000.0], "emission_ring_cone_angle": [0.0, 90.0],
		"turbulence_noise_strength": [0.0, 20.0]}
	for key: String in numbers:
		if params.has(key):
			readers.append([key, Args.number(params, key, 0.0, numbers[key][0], numbers[key][1])])
	for key: String in ["one_shot", "local_coords", "use_fixed_seed", "turbulence_enabled", "particle_flag_align_y"]:
		if params.has(key):
			readers.append([key, Args.boolean(params, key, false)])
	if params.has("amount"):
		readers.append(["amount", Args.integer(params, "amount", 8, 1, 100000)])
	if params.has("seed"):
		readers.append(["seed", Args.integer(params, "seed", 0, 0)])
	for key: String in ["direction", "gravity", "emission_box_extents"]:
		if params.has(key):
			readers.append([key, Args.vector3(params, key, Vector3.ZERO)])
	for key: String in ["initial_velocity", "damping", "orbit_velocity", "angle", "angular_velocity", "hue_variation"]:
		if params.has(key):
			readers.append([key, _range(params, key)])
	if params.has("scale_range"):
		readers.append(["scale", _range(params, "scale_range")])
	if params.has("color"):
		readers.append(["color", Args.color(params, "color", Color.WHITE)])
	if params.has("emission_shape"):
		readers.append(["emission_shape", Args.choice(params, "emission_shape", "point", SHAPES)])
	if params.has("color_ramp"):
		readers.append(["color_ramp", _gradient(params["color_ramp"])])
	for key: String in ["alpha_curve", "scale_curve"]:
		if params.has(key):
			readers.append([key, _curve(params[key], key)])
	return Args.collect(readers)


## A number (min = max) or {min, max} with min <= max: {"value": [min, max]} or {"error"}.
static func _range(params: Dictionary, key: String) -> Dictionary:
	var raw: Variant = params[key]
	if raw is int or raw is float:
		return {"value": [float(raw), float(raw)]}
	var unknown := Args.keys(raw, ["min", "max"], key)
	if not unknown.is_empty():
		return unknown
	var read := Args.collect([["min", Args.number(raw if raw is Dictionary else {}, "min", NAN)],
		["max", Args.number(raw if raw is Dictionary else {}, "max", NAN)]])
	if read.has("error") or is_nan(read["values"]["min"]) or is_nan(read["values"]["max"]) or (
			read["values"]["min"] > read["values"]["max"]):
		return _bad("%s must be a number or {min, max} with min <= max" % key)
	return {"value": [read["values"]["min"], read["values"]["max"]]}


## A Gradient from a res:// .tres path or {points: [{offset, color}], interpolation}.
static func _gradient(raw: Variant) -> Dictionary:
	if raw is String:
		return _load(raw, "Gradient", "color_ramp")
	if not raw is Dictionary or not (raw as Dictionary).get("points") is Array or (raw["points"] as Array).is_empty():
		return _bad("color_ramp must be a res:// Gradient path or {points: [{offset, color}], interpolation}")
	var unknown := Args.keys(raw, ["points", "interpolation"], "color_ramp")
	if not unknown.is_empty():
		return unknown
	var gradient := Gradient.new()
	var offsets := PackedFloat32Array()
	var colors := PackedColorArray()
	for i: int in (raw["points"] as Array).size():
		var point: Variant = raw["points"][i]
		var label := "color_ramp.points[%d]" % i
		var point_keys := Args.keys(point, ["offset", "color"], label)
		if not point_keys.is_empty():
			return point_keys
		var offset := Args.number(point if point is Dictionary else {}, "offset", NAN, 0.0, 1.0)
		var color := Args.color_value(point.get("color") if point is Dictionary else null, label + ".color")
		if color.has("error") and point is Dictionary and (point as Dictionary).has("color"):
			return color
		if offset.has("error") or is_nan(offset["value"]) or color.has("error"):
			return _bad("color_ramp.points entries must be {offset (0..1), color {r, g, b, a}}")
		offsets.append(offset["value"])
		colors.append(color["value"])
	gradient.offsets = offsets
	gradient.colors = colors
	var mode := Args.choice(raw, "interpolation", "linear", INTERPOLATION.keys())
	if mode.has("error"):
		return _bad("color_ramp.%s" % mode["error"]["error"])
	gradient.interpolation_mode = INTERPOLATION[mode["value"]]
	return {"value": gradient}


## A Curve from a res:// .tres path or {points: [{x, y}]} (x in 0..1).
static func _curve(raw: Variant, key: String) -> Dictionary:
	if raw is String:
		return _load(raw, "Curve", key)
	if not raw is Dictionary or not (raw as Dictionary).get("points") is Array or (raw["points"] as Array).is_empty():
		return _bad("%s must be a res:// Curve path or {points: [{x, y}]}" % key)
	var unknown := Args.keys(raw, ["points"], key)
	if not unknown.is_empty():
		return unknown
	var curve := Curve.new()
	for i: int in (raw["points"] as Array).size():
		var point: Variant = raw["points"][i]
		var point_keys := Args.keys(point, ["x", "y", Args.TAG_KEY], "%s.points[%d]" % [key, i])
		if not point_keys.is_empty():
			return point_keys
		var read := Args.vector2({"p": point}, "p", Vector2(NAN, NAN))
		if read.has("error") or read["value"].x < 0.0 or read["value"].x > 1.0:
			return _bad("%s.points entries must be {x (0..1), y}" % key)
		var at: Vector2 = read["value"]
		if at.y < curve.min_value or at.y > curve.max_value:
			curve.min_value = minf(curve.min_value, at.y)
			curve.max_value = maxf(curve.max_value, at.y)
		curve.add_point(at)
	return {"value": curve}


static func _load(raw: String, type_name: String, key: String) -> Dictionary:
	var checked := FileGuard.check(raw)
	if not checked["ok"]:
		return {"error": checked["error"]}
	var path: String = checked["path"]
	var loaded: Resource = load(path) if ResourceLoader.exists(path) else null
	if loaded == null or not loaded.is_class(type_name):
		return {"error": ToolkitError.fail("INVALID_PARAMS", "%s: %s is not a %s resource" % [key, path, type_name],
			"Make one with procedural_edit_%s, or pass the points inline." % type_name.to_lower())}
	return {"value": loaded}


## texture_path (a Texture2D) and mesh (3D only): {"value": {texture, mesh}} or {"error"}.
static func _look(params: Dictionary, is_2d: bool) -> Dictionary:
	var look := {"texture": null, "mesh": "quad"}
	if params.has("texture_path"):
		var texture := _load(str(params["texture_path"]) if params["texture_path"] is String else "", "Texture2D",
			"texture_path")
		if texture.has("error"):
			return texture
		look["texture"] = texture["value"]
	if params.has("mesh"):
		if is_2d:
			return _bad("mesh is for 3D particles; 2D particles draw texture_path")
		var mesh := Args.choice(params, "mesh", "quad", MESHES)
		if mesh.has("error"):
			return mesh
		look["mesh"] = mesh["value"]
	return {"value": look}


## The texture (2D) or the draw mesh with a material that shows particle colors (3D).
static func _dress(node: Node, look: Dictionary, is_2d: bool, gpu: bool) -> void:
	if is_2d:
		if look["texture"] != null:
			node.set("texture", look["texture"])
		return
	var mesh: PrimitiveMesh = {"quad": QuadMesh, "box": BoxMesh, "sphere": SphereMesh}[look["mesh"]].new()
	var material := StandardMaterial3D.new()
	material.vertex_color_use_as_albedo = true
	material.shading_mode = BaseMaterial3D.SHADING_MODE_UNSHADED
	if look["mesh"] == "quad":
		material.billboard_mode = BaseMaterial3D.BILLBOARD_PARTICLES
		material.transparency = BaseMaterial3D.TRANSPARENCY_ALPHA
	if look["texture"] != null:
		material.albedo_texture = look["texture"]
	mesh.material = material
	node.set("draw_pass_1" if gpu else "mesh", mesh)


static func _bad(message: String) -> Dictionary:
	return {"error": ToolkitError.fail("INVALID_PARAMS", message)}
