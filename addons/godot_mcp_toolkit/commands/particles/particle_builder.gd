@tool
extends RefCounted
## Builds a particles node (GPUParticles2D/3D with a ParticleProcessMaterial, or CPUParticles2D/3D
## with the same settings on the node) from normalized settings. Every write is by property name
## and checked: a setting the target lacks in this Godot version (seed before 4.4, alpha_curve or
## turbulence on CPU particles, a ring on CPUParticles2D before 4.6) is reported as not applied,
## never silently dropped. Runtime-safe.

const Coerce := preload("res://addons/godot_mcp_toolkit/contract/coerce.gd")

const NODE_CLASSES := {"2d": "GPUParticles2D", "3d": "GPUParticles3D", "cpu_2d": "CPUParticles2D",
	"cpu_3d": "CPUParticles3D"}
## 3D preset units to 2D: metres to pixels, and particle scale for untextured 1 px quads.
const PIXELS_PER_METRE := 50.0
const SCALE_2D := 8.0
const NODE_SETTINGS := ["amount", "lifetime", "one_shot", "explosiveness", "speed_scale", "local_coords",
	"use_fixed_seed", "seed"]
const RANGES := ["initial_velocity", "damping", "orbit_velocity", "angle", "angular_velocity", "hue_variation", "scale"]
const PLAIN := ["spread", "color", "emission_sphere_radius", "emission_ring_cone_angle", "turbulence_enabled",
	"turbulence_noise_strength", "particle_flag_align_y"]


## A preset's 3D settings in the units of a 2D emitter when `is_2d` (y flipped, metres to pixels).
static func preset_for(preset: Dictionary, is_2d: bool) -> Dictionary:
	var settings := preset.duplicate(true)
	if settings.has("color_ramp"):
		settings["color_ramp"] = _ramp(settings["color_ramp"])
	if not is_2d:
		return settings
	var flip := Vector3(1, -1, 1)
	for key: String in ["direction", "gravity"]:
		if settings.has(key):
			settings[key] = (settings[key] as Vector3) * flip * (PIXELS_PER_METRE if key == "gravity" else 1.0)
	for key: String in ["initial_velocity", "damping"]:
		if settings.has(key):
			settings[key] = [settings[key][0] * PIXELS_PER_METRE, settings[key][1] * PIXELS_PER_METRE]
	if settings.has("scale"):
		settings["scale"] = [settings["scale"][0] * SCALE_2D, settings["scale"][1] * SCALE_2D]
	if settings.has("emission_sphere_radius"):
		settings["emission_sphere_radius"] *= PIXELS_PER_METRE
	if settings.has("emission_box_extents"):
		settings["emission_box_extents"] *= PIXELS_PER_METRE
	return settings


## A Gradient from a preset's [offset, Color] stops.
static func _ramp(stops: Array) -> Gradient:
	var gradient := Gradient.new()
	var offsets := PackedFloat32Array()
	var colors := PackedColorArray()
	for stop: Array in stops:
		offsets.append(stop[0])
		colors.append(stop[1])
	gradient.offsets = offsets
	gradient.colors = colors
	return gradient


## The node for `kind` with `settings` applied: {"node", "applied": [names], "not_applied": [{name, reason}]}.
static func build(kind: String, settings: Dictionary) -> Dictionary:
	var node: Node = ClassDB.instantiate(NODE_CLASSES[kind])
	var gpu := kind in ["2d", "3d"]
	var is_2d := kind in ["2d", "cpu_2d"]
	var target: Object = node
	if gpu:
		var material := ParticleProcessMaterial.new()
		node.set("process_material", material)
		target = material
	var report := {"node": node, "applied": [], "not_applied": []}
	for key: String in settings:
		var value: Variant = settings[key]
		if key in NODE_SETTINGS:
			_put(node, key, key, value, report)
		elif key in RANGES:
			var base: String = "scale_amount" if key == "scale" and not gpu else key
			_put(target, key, base + "_min", value[0], report)
			_put(target, key, base + "_max", value[1], report)
		elif key in PLAIN:
			_put(target, key, key, value, report)
		else:
			_special(target, key, value, gpu, is_2d, report)
	return report


static func _special(target: Object, key: String, value: Variant, gpu: bool, is_2d: bool, report: Dictionary) -> void:
	var cpu_2d := is_2d and not gpu
	match key:
		"direction", "gravity":
			var vector: Vector3 = value
			_put(target, key, key, Vector2(vector.x, vector.y) if cpu_2d else vector, report)
		"emission_box_extents":
			var extents: Vector3 = value
			if cpu_2d:
				_put(target, key, "emission_rect_extents", Vector2(extents.x, extents.y), report)
			else:
				_put(target, key, key, extents, report)
		"emission_shape":
			_emission_shape(target, value, gpu, is_2d, report)
		"color_ramp":
			var gradient: Gradient = value
			var ramp: Variant = gradient
			if gpu:
				var texture := GradientTexture1D.new()
				texture.gradient = gradient
				ramp = texture
			_put(target, key, key, ramp, report)
		"scale_curve", "alpha_curve":
			var curve: Curve = value
			if gpu:
				var texture := CurveTexture.new()
				texture.curve = curve
				_put(target, key, key, texture, report)
			elif key == "scale_curve":
				_put(target, key, "scale_amount_curve", curve, report)
			else:
				_not_applied(report, key, "CPU particles have no alpha curve; use color_ramp alpha instead")


static func _emission_shape(target: Object, shape: String, gpu: bool, is_2d: bool, report: Dictionary) -> void:
	var shapes := {}
	if gpu:
		shapes = {"point": ParticleProcessMaterial.EMISSION_SHAPE_POINT,
			"sphere": ParticleProcessMaterial.EMISSION_SHAPE_SPHERE,
			"sphere_surface": ParticleProcessMaterial.EMISSION_SHAPE_SPHERE_SURFACE,
			"box": ParticleProcessMaterial.EMISSION_SHAPE_BOX, "ring": ParticleProcessMaterial.EMISSION_SHAPE_RING}
	elif is_2d:
		shapes = {"point": CPUParticles2D.EMISSION_SHAPE_POINT, "sphere": CPUParticles2D.EMISSION_SHAPE_SPHERE,
			"sphere_surface": CPUParticles2D.EMISSION_SHAPE_SPHERE_SURFACE,
			"box": CPUParticles2D.EMISSION_SHAPE_RECTANGLE}
	else:
		shapes = {"point": CPUParticles3D.EMISSION_SHAPE_POINT, "sphere": CPUParticles3D.EMISSION_SHAPE_SPHERE,
			"sphere_surface": CPUParticles3D.EMISSION_SHAPE_SPHERE_SURFACE, "box": CPUParticles3D.EMISSION_SHAPE_BOX,
			"ring": CPUParticles3D.EMISSION_SHAPE_RING}
	if not shapes.has(shape):
		_not_applied(report, "emission_shape", "'%s' is not an emission shape of %s" % [shape, target.get_class()])
		return
	_put(target, "emission_shape", "emission_shape", shapes[shape], report)


## Sets `property` on `target` when it has it and reads it back; records the outcome under `key`.
static func _put(target: Object, key: String, property: String, value: Variant, report: Dictionary) -> void:
	if not _has_property(target, property):
		_not_applied(report, key, "%s has no %s in this Godot version" % [target.get_class(), property])
		return
	target.set(property, value)
	var stored: Variant = target.get(property)
	var same: bool = is_equal_approx(float(stored), float(value)) if (stored is float or value is float) else (
		stored == value)
	if not same:
		_not_applied(report, key, "%s kept %s" % [property, JSON.stringify(Coerce.serialize_value(stored))])
	elif not key in report["applied"]:
		(report["applied"] as Array).append(key)


static func _has_property(target: Object, property: String) -> bool:
	for entry: Dictionary in target.get_property_list():
		if entry["name"] == property:
			return true
	return false


static func _not_applied(report: Dictionary, key: String, reason: String) -> void:
	(report["not_applied"] as Array).append({"name": key, "reason": reason})
