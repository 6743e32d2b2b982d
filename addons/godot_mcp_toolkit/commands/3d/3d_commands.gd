@tool
extends RefCounted
## The 3d_tools domain: add a primitive mesh (with an optional StandardMaterial3D), a
## WorldEnvironment (procedural sky, ambient light, tonemap, fog), a light or a camera to the edited
## scene, each in one undo step (scene_tree/node_adder.gd). Every param is checked before the
## node is built; rotations are in degrees, as the inspector shows them.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const Args := preload("res://addons/godot_mcp_toolkit/contract/build_args.gd")
const NodeAdder := preload("res://addons/godot_mcp_toolkit/scene_tree/node_adder.gd")

const SELF_PATH := "res://addons/godot_mcp_toolkit/commands/3d/3d_commands.gd"
const PRIMITIVES := ["box", "sphere", "cylinder", "capsule", "plane", "prism"]
const LIGHTS := {"directional": "DirectionalLight3D", "omni": "OmniLight3D", "spot": "SpotLight3D"}
const TONEMAPS := {"linear": Environment.TONE_MAPPER_LINEAR, "reinhardt": Environment.TONE_MAPPER_REINHARDT,
	"filmic": Environment.TONE_MAPPER_FILMIC, "aces": Environment.TONE_MAPPER_ACES}
const PROJECTIONS := {"perspective": Camera3D.PROJECTION_PERSPECTIVE, "orthogonal": Camera3D.PROJECTION_ORTHOGONAL}
const XYZ := {"type": "object", "properties": {
	"x": {"type": "number"}, "y": {"type": "number"}, "z": {"type": "number"}}}
const RGBA := {"type": "object", "properties": {
	"r": {"type": "number"}, "g": {"type": "number"}, "b": {"type": "number"}, "a": {"type": "number"}}}
## Params that pick what to create rather than configure it (not "unapplied" when returning).
const STRUCTURAL := ["parent_path", "name", "primitive", "light_type"]


static func register(registry: RefCounted, context: RefCounted) -> void:
	var script: Script = load(SELF_PATH)
	var parent := {"type": "string"}
	var text := {"type": "string"}
	registry.register_command("3d.create_primitive", Callable(script, "_cmd_primitive").bind(context),
		registry.create_options()
		.with_input_schema({"type": "object", "required": ["parent_path", "primitive"], "properties": {
			"parent_path": parent, "primitive": {"type": "string", "enum": PRIMITIVES}, "name": text, "size": XYZ,
			"position": XYZ, "material": {"type": "object", "properties": {"type": text, "albedo_color": RGBA,
				"metallic": {"type": "number"}, "roughness": {"type": "number"}}}}}))
	registry.register_command("3d.setup_environment", Callable(script, "_cmd_environment").bind(context),
		registry.create_options()
		.with_input_schema({"type": "object", "required": ["parent_path"], "properties": {
			"parent_path": parent, "name": text, "tonemap": {"type": "string", "enum": TONEMAPS.keys()},
			"sky": {"type": "object", "properties": {"type": text, "sky_top_color": RGBA, "sky_horizon_color": RGBA,
				"ground_bottom_color": RGBA}},
			"ambient_light": {"type": "object", "properties": {"color": RGBA, "energy": {"type": "number"}}},
			"fog": {"type": "object", "properties": {"enabled": {"type": "boolean"}, "color": RGBA,
				"density": {"type": "number"}}}}}))
	registry.register_command("3d.create_light", Callable(script, "_cmd_light").bind(context),
		registry.create_options()
		.with_input_schema({"type": "object", "required": ["parent_path", "light_type"], "properties": {
			"parent_path": parent, "light_type": {"type": "string", "enum": LIGHTS.keys()}, "name": text,
			"color": RGBA, "energy": {"type": "number"}, "shadow": {"type": "boolean"}, "position": XYZ,
			"rotation": XYZ}}))
	registry.register_command("3d.create_camera", Callable(script, "_cmd_camera").bind(context),
		registry.create_options()
		.with_input_schema({"type": "object", "required": ["parent_path"], "properties": {
			"parent_path": parent, "name": text, "projection": {"type": "string", "enum": PROJECTIONS.keys()},
			"fov": {"type": "number"}, "size": {"type": "number"}, "position": XYZ, "rotation": XYZ,
			"current": {"type": "boolean"}}}))


# --- primitive -------------------------------------------------------------------------------------

static func _cmd_primitive(params: Dictionary, context: RefCounted) -> Dictionary:
	var read := Args.collect([
		["primitive", Args.choice(params, "primitive", "", PRIMITIVES)],
		["size", Args.vector3(params, "size", Vector3.ONE)],
		["position", Args.vector3(params, "position", Vector3.ZERO)],
	])
	if read.has("error"):
		return read["error"]
	var values: Dictionary = read["values"]
	var size: Vector3 = values["size"]
	if size.x <= 0.0 or size.y <= 0.0 or size.z <= 0.0:
		return ToolkitError.fail("INVALID_PARAMS", "size must be positive on x, y and z (got %s)" % size)
	var material := _material(params.get("material"))
	if material.has("error"):
		return material["error"]
	var primitive: String = values["primitive"]
	var start := _start(params, context, primitive.capitalize(), "MeshInstance3D")
	if start.has("done"):
		return start["done"]
	var instance := MeshInstance3D.new()
	instance.name = start["name"]
	instance.mesh = _mesh(primitive, size)
	instance.position = values["position"]
	if material["value"] != null:
		instance.material_override = material["value"]
	return NodeAdder.add(context, start["root"], start["parent"], instance, {
		"mesh": instance.mesh.get_class(), "has_material": material["value"] != null})


static func _mesh(primitive: String, size: Vector3) -> PrimitiveMesh:
	match primitive:
		"sphere":
			var sphere := SphereMesh.new()
			sphere.radius = size.x / 2.0
			sphere.height = size.y
			return sphere
		"cylinder":
			var cylinder := CylinderMesh.new()
			cylinder.top_radius = size.x / 2.0
			cylinder.bottom_radius = size.x / 2.0
			cylinder.height = size.y
			return cylinder
		"capsule":
			var capsule := CapsuleMesh.new()
			capsule.radius = size.x / 2.0
			capsule.height = maxf(size.y, size.x)
			return capsule
		"plane":
			var plane := PlaneMesh.new()
			plane.size = Vector2(size.x, size.z)
			return plane
		"prism":
			var prism := PrismMesh.new()
			prism.size = size
			return prism
	var box := BoxMesh.new()
	box.size = size
	return box


## {"value": StandardMaterial3D or null} or {"error"}.
static func _material(raw: Variant) -> Dictionary:
	if raw == null:
		return {"value": null}
	if not raw is Dictionary:
		return _bad("material must be an object {type, albedo_color, metallic, roughness}")
	var spec: Dictionary = raw
	var unknown := Args.keys(spec, ["type", "albedo_color", "metallic", "roughness"], "material")
	if not unknown.is_empty():
		return unknown
	if spec.get("type", "StandardMaterial3D") != "StandardMaterial3D":
		return _bad("material.type must be StandardMaterial3D (the only kind made here)")
	var read := Args.collect([
		["albedo", Args.color(spec, "albedo_color", Color.WHITE)],
		["metallic", Args.number(spec, "metallic", 0.0, 0.0, 1.0)],
		["roughness", Args.number(spec, "roughness", 1.0, 0.0, 1.0)],
	])
	if read.has("error"):
		return Args.nested("material", read)
	var material := StandardMaterial3D.new()
	material.albedo_color = read["values"]["albedo"]
	material.metallic = read["values"]["metallic"]
	material.roughness = read["values"]["roughness"]
	return {"value": material}


# --- environment -----------------------------------------------------------------------------------

static func _cmd_environment(params: Dictionary, context: RefCounted) -> Dictionary:
	var environment := Environment.new()
	var steps := [_sky(environment, params.get("sky")), _ambient(environment, params.get("ambient_light")),
		_fog(environment, params.get("fog"))]
	if params.has("tonemap"):
		var tonemap := Args.choice(params, "tonemap", "linear", TONEMAPS.keys())
		steps.append(tonemap if tonemap.has("error") else {})
		if not tonemap.has("error"):
			environment.tonemap_mode = TONEMAPS[tonemap["value"]]
	for step: Dictionary in steps:
		if step.has("error"):
			return step["error"]
	var start := _start(params, context, "WorldEnvironment", "WorldEnvironment")
	if start.has("done"):
		return start["done"]
	var node := WorldEnvironment.new()
	node.name = start["name"]
	node.environment = environment
	return NodeAdder.add(context, start["root"], start["parent"], node, {
		"background": "sky" if environment.background_mode == Environment.BG_SKY else "default",
		"tonemap": TONEMAPS.find_key(environment.tonemap_mode), "fog_enabled": environment.fog_enabled})


static func _sky(environment: Environment, raw: Variant) -> Dictionary:
	if raw == null:
		return {}
	if not raw is Dictionary:
		return _bad("sky must be an object {type, sky_top_color, sky_horizon_color, ground_bottom_color}")
	var spec: Dictionary = raw
	var unknown := Args.keys(spec, ["type", "sky_top_color", "sky_horizon_color", "ground_bottom_color"], "sky")
	if not unknown.is_empty():
		return unknown
	if spec.get("type", "procedural") != "procedural":
		return _bad("sky.type must be 'procedural' (a ProceduralSkyMaterial; the only kind made here)")
	var sky_material := ProceduralSkyMaterial.new()
	var read := Args.collect([
		["top", Args.color(spec, "sky_top_color", sky_material.sky_top_color)],
		["horizon", Args.color(spec, "sky_horizon_color", sky_material.sky_horizon_color)],
		["ground", Args.color(spec, "ground_bottom_color", sky_material.ground_bottom_color)],
	])
	if read.has("error"):
		return Args.nested("sky", read)
	sky_material.sky_top_color = read["values"]["top"]
	sky_material.sky_horizon_color = read["values"]["horizon"]
	sky_material.ground_bottom_color = read["values"]["ground"]
	var sky := Sky.new()
	sky.sky_material = sky_material
	environment.sky = sky
	environment.background_mode = Environment.BG_SKY
	return {}


static func _ambient(environment: Environment, raw: Variant) -> Dictionary:
	if raw == null:
		return {}
	if not raw is Dictionary:
		return _bad("ambient_light must be an object {color, energy}")
	var unknown := Args.keys(raw, ["color", "energy"], "ambient_light")
	if not unknown.is_empty():
		return unknown
	var read := Args.collect([
		["color", Args.color(raw, "color", Color.WHITE)], ["energy", Args.number(raw, "energy", 1.0, 0.0, 16.0)],
	])
	if read.has("error"):
		return Args.nested("ambient_light", read)
	environment.ambient_light_source = Environment.AMBIENT_SOURCE_COLOR
	environment.ambient_light_color = read["values"]["color"]
	environment.ambient_light_energy = read["values"]["energy"]
	return {}


static func _fog(environment: Environment, raw: Variant) -> Dictionary:
	if raw == null:
		return {}
	if not raw is Dictionary:
		return _bad("fog must be an object {enabled, color, density}")
	var unknown := Args.keys(raw, ["enabled", "color", "density"], "fog")
	if not unknown.is_empty():
		return unknown
	var read := Args.collect([
		["enabled", Args.boolean(raw, "enabled", true)], ["color", Args.color(raw, "color", environment.fog_light_color)],
		["density", Args.number(raw, "density", environment.fog_density, 0.0, 1.0)],
	])
	if read.has("error"):
		return Args.nested("fog", read)
	environment.fog_enabled = read["values"]["enabled"]
	environment.fog_light_color = read["values"]["color"]
	environment.fog_density = read["values"]["density"]
	return {}


# --- light and camera ------------------------------------------------------------------------------

static func _cmd_light(params: Dictionary, context: RefCounted) -> Dictionary:
	var read := Args.collect([
		["type", Args.choice(params, "light_type", "", LIGHTS.keys())],
		["color", Args.color(params, "color", Color.WHITE)],
		["energy", Args.number(params, "energy", 1.0, 0.0, 16.0)],
		["shadow", Args.boolean(params, "shadow", false)],
		["position", Args.vector3(params, "position", Vector3.ZERO)],
		["rotation", Args.vector3(params, "rotation", Vector3.ZERO)],
	])
	if read.has("error"):
		return read["error"]
	var values: Dictionary = read["values"]
	var type_name: String = LIGHTS[values["type"]]
	var start := _start(params, context, type_name, type_name)
	if start.has("done"):
		return start["done"]
	var light: Light3D = ClassDB.instantiate(type_name)
	light.name = start["name"]
	light.light_color = values["color"]
	light.light_energy = values["energy"]
	light.shadow_enabled = values["shadow"]
	light.position = values["position"]
	light.rotation_degrees = values["rotation"]
	return NodeAdder.add(context, start["root"], start["parent"], light, {"shadow": light.shadow_enabled})


static func _cmd_camera(params: Dictionary, context: RefCounted) -> Dictionary:
	var read := Args.collect([
		["projection", Args.choice(params, "projection", "perspective", PROJECTIONS.keys())],
		["fov", Args.number(params, "fov", 75.0, 1.0, 179.0)],
		["size", Args.number(params, "size", 1.0, 0.001, 100000.0)],
		["position", Args.vector3(params, "position", Vector3.ZERO)],
		["rotation", Args.vector3(params, "rotation", Vector3.ZERO)],
		["current", Args.boolean(params, "current", false)],
	])
	if read.has("error"):
		return read["error"]
	var values: Dictionary = read["values"]
	var start := _start(params, context, "Camera3D", "Camera3D")
	if start.has("done"):
		return start["done"]
	var camera := Camera3D.new()
	camera.name = start["name"]
	camera.projection = PROJECTIONS[values["projection"]]
	camera.fov = values["fov"]
	camera.size = values["size"]
	camera.position = values["position"]
	camera.rotation_degrees = values["rotation"]
	camera.current = values["current"]
	return NodeAdder.add(context, start["root"], start["parent"], camera, {
		"projection": values["projection"], "current": camera.current})


# --- shared ----------------------------------------------------------------------------------------

## The parent and name for a new `type_name` node: {"root", "parent", "name"}, or {"done": envelope}
## (no scene, bad parent or name, or an existing node answered per C6).
static func _start(params: Dictionary, context: RefCounted, default_name: String, type_name: String) -> Dictionary:
	var target := NodeAdder.parent_of(context, params.get("parent_path", "."))
	if target.has("error"):
		return {"done": target["error"]}
	var name := NodeAdder.node_name(params, "name", default_name.replace(" ", ""))
	if name.has("error"):
		return {"done": name["error"]}
	var existing := NodeAdder.existing(target["root"], target["parent"], name["value"], type_name, params, STRUCTURAL)
	if not existing.is_empty():
		return {"done": existing}
	return {"root": target["root"], "parent": target["parent"], "name": name["value"]}


static func _bad(message: String) -> Dictionary:
	return {"error": ToolkitError.fail("INVALID_PARAMS", message)}
