extends RefCounted
## The particles domain (commands/particles/particles_commands.gd): GPU and CPU emitters in 2D and 3D from
## presets and overrides, built through the registry over a runtime context; the node, its process
## material or CPU settings, undo/redo, what a target cannot take (not_applied), refusals that add
## nothing, and the scene saved to .tscn and reloaded.
##
## Not covered here (only an editor or a running game shows it): particles actually emitting and
## being drawn (the web engine runs no GPU particle process here), the editor's particle preview.

const Assert := preload("assert.gd")
const DomainFixture := preload("domain_fixture.gd")

const DOMAIN := "particles"
const SCRATCH := "res://tmp_tests/particles"
const DOMAIN_PATH := "res://addons/godot_mcp_toolkit/commands/particles/particles_commands.gd"

var _root: Node2D = null
var _fx: DomainFixture = null


func _init() -> void:
	_root = Node2D.new()
	_root.name = "Main"
	var domains: Array[String] = [DOMAIN_PATH]
	_fx = DomainFixture.new(domains, DOMAIN, _root, SCRATCH)


func cleanup() -> void:
	_fx.cleanup()


## Runs particles.create with `params`.
func _call(params: Dictionary) -> Dictionary:
	return _fx.invoke("particles.create", params)


## Example `index` of particles.create.
func _example(index: int = 0) -> Dictionary:
	return _fx.example("particles.create", index)


func _reloaded() -> Node:
	var packed := PackedScene.new()
	Assert.eq(packed.pack(_root), OK, "scene packs")
	var path := SCRATCH.path_join("main.tscn")
	Assert.eq(ResourceSaver.save(packed, path), OK, "scene saves")
	return (ResourceLoader.load(path, "", ResourceLoader.CACHE_MODE_IGNORE) as PackedScene).instantiate()


func test_gpu_2d_fire_preset_in_pixels_with_undo() -> void:
	_example()
	var fire := _root.get_node("FireParticles") as GPUParticles2D
	Assert.eq(fire.amount, 64, "override wins over the preset's 40")
	Assert.eq(fire.position, Vector2(100, 200), "position")
	var material := fire.process_material as ParticleProcessMaterial
	Assert.eq(material.direction, Vector3(0, -1, 0), "up is -y in 2D")
	Assert.eq(material.initial_velocity_min, 50.0, "metres turned into pixels")
	Assert.eq(material.emission_shape, ParticleProcessMaterial.EMISSION_SHAPE_SPHERE, "emission shape")
	Assert.is_true(material.color_ramp is GradientTexture1D, "ramp as a texture on GPU")
	var ramp := (material.color_ramp as GradientTexture1D).gradient
	Assert.eq(ramp.get_point_count(), 3, "the preset's three stops")
	Assert.eq(ramp.get_color(2).a, 0.0, "fading out")
	var copy := _reloaded()
	var saved := copy.get_node("FireParticles") as GPUParticles2D
	Assert.eq(saved.amount, 64, "amount saved")
	Assert.eq((saved.process_material as ParticleProcessMaterial).initial_velocity_max, 100.0, "material saved")
	copy.free()
	Assert.is_true(_fx.context.edits.undo(), "undo")
	Assert.is_true(_root.get_node_or_null("FireParticles") == null, "removed")
	Assert.is_true(_fx.context.edits.redo(), "redo")
	Assert.eq(_root.get_node_or_null("FireParticles"), fire, "back")


func test_cpu_2d_reports_what_it_cannot_take() -> void:
	_example(1)
	var dust := _root.get_node("Dust") as CPUParticles2D
	Assert.eq([dust.scale_amount_min, dust.scale_amount_max], [2.0, 4.0], "scale range on the node")
	Assert.eq(dust.amount, 10, "amount")
	var rain := _call({"parent_path": ".", "type": "cpu_2d", "preset": "rain"})
	var node := _root.get_node(rain["node_path"]) as CPUParticles2D
	Assert.eq(node.emission_shape, CPUParticles2D.EMISSION_SHAPE_RECTANGLE, "box becomes a rectangle in 2D")
	Assert.eq(node.emission_rect_extents, Vector2(500, 5), "extents in pixels")
	Assert.eq(node.gravity, Vector2(0, 490), "gravity points down in 2D")


func test_gpu_and_cpu_3d_with_meshes_and_curves() -> void:
	var gradient_path := SCRATCH.path_join("ramp.tres")
	var gradient := Gradient.new()
	gradient.colors = PackedColorArray([Color.RED, Color.BLUE])
	ResourceSaver.save(gradient, gradient_path)
	var gpu := _call({"parent_path": ".", "type": "3d", "preset": "magic", "mesh": "sphere",
		"color_ramp": gradient_path, "scale_curve": {"points": [{"x": 0, "y": 0}, {"x": 1, "y": 2}]},
		"position": {"x": 1, "y": 2, "z": 3}, "turbulence_enabled": true})
	Assert.eq(gpu["class"], "GPUParticles3D", "GPU 3D")
	var node := _root.get_node(gpu["node_path"]) as GPUParticles3D
	Assert.eq(node.position, Vector3(1, 2, 3), "3D position")
	Assert.is_true(node.draw_pass_1 is SphereMesh, "sphere draw pass")
	var material := node.process_material as ParticleProcessMaterial
	Assert.eq((material.color_ramp as GradientTexture1D).gradient.get_color(1), Color.BLUE, "ramp from the file")
	Assert.eq((material.scale_curve as CurveTexture).curve.max_value, 2.0, "curve range widened for y=2")
	Assert.is_true(material.turbulence_enabled, "turbulence")
	var cpu := _call({"parent_path": ".", "type": "cpu_3d", "preset": "explosion", "name": "Boom", "mesh": "box"})
	var boom := _root.get_node("Boom") as CPUParticles3D
	Assert.is_true(boom.one_shot, "preset one_shot")
	Assert.is_true(boom.mesh is BoxMesh, "box mesh")
	Assert.eq(boom.damping_min, 2.0, "damping range")
	Assert.eq(cpu["not_applied"], [], "everything applied on CPU 3D")
	var copy := _reloaded()
	Assert.is_true((copy.get_node("Boom") as CPUParticles3D).color_ramp is Gradient, "CPU ramp saved")
	copy.free()


func test_refusals_add_nothing() -> void:
	_example(2)
	var bad := [
		{"parent_path": ".", "type": "4d"},
		{"parent_path": ".", "type": "2d", "preset": "lava"},
		{"parent_path": ".", "type": "2d", "amount": 0},
		{"parent_path": ".", "type": "2d", "mesh": "box"},
		{"parent_path": ".", "type": "2d", "spread": 270},
		{"parent_path": ".", "type": "2d", "color_ramp": {"points": []}},
		{"parent_path": ".", "type": "2d", "color_ramp": "res://nothing_here.tres"},
		{"parent_path": ".", "type": "3d", "position": {"x": 1, "y": 2}},
		{"parent_path": ".", "type": "3d", "emission_shape": "cone"},
	]
	for params: Dictionary in bad:
		Assert.eq(_call(params)["code"], "INVALID_PARAMS", str(params))
	Assert.eq(_call({"parent_path": "Missing", "type": "2d"})["code"], "NOT_FOUND", "parent")
	Assert.eq(_root.get_child_count(), 0, "nothing added")
	_example()
	var again := _call({"parent_path": ".", "type": "2d", "preset": "fire", "amount": 3})
	Assert.eq(again["status"], "returned", "same name returned")
	Assert.eq((_root.get_node("FireParticles") as GPUParticles2D).amount, 64, "not changed")
