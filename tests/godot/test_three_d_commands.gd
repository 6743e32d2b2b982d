extends RefCounted
## The 3d_tools domain (commands/3d/3d_commands.gd) over a runtime context and a throwaway Node3D
## scene: the nodes and resources built, undo/redo, C6 on an existing name, refusals that add
## nothing, and the scene saved to a .tscn and reloaded with what was configured.
##
## Not covered here (only an editor shows it): the 3D viewport drawing the meshes, sky and lights,
## the editor's camera preview, and Ctrl+Z in the editor's own history.

const Assert := preload("assert.gd")
const DomainFixture := preload("domain_fixture.gd")

const DOMAIN := "3d"
const SCRATCH := "res://tmp_tests/three_d"
const DOMAIN_PATH := "res://addons/godot_mcp_toolkit/commands/3d/3d_commands.gd"

var _root: Node3D = null
var _fx: DomainFixture = null


func _init() -> void:
	_root = Node3D.new()
	_root.name = "World"
	var domains: Array[String] = [DOMAIN_PATH]
	_fx = DomainFixture.new(domains, DOMAIN, _root, SCRATCH)


func cleanup() -> void:
	_fx.cleanup()


## The scene packed to a .tscn and instanced back, as the user reopens it.
func _saved_and_reloaded() -> Node:
	DirAccess.make_dir_recursive_absolute(SCRATCH)
	var packed := PackedScene.new()
	Assert.eq(packed.pack(_root), OK, "scene packs")
	var path := SCRATCH.path_join("world.tscn")
	Assert.eq(ResourceSaver.save(packed, path), OK, "scene saves")
	var loaded := ResourceLoader.load(path, "", ResourceLoader.CACHE_MODE_IGNORE) as PackedScene
	return loaded.instantiate()


func test_primitive_with_material_undo_redo_and_reload() -> void:
	_fx.example("3d.create_primitive")
	var crate := _root.get_node("Crate") as MeshInstance3D
	Assert.eq((crate.mesh as BoxMesh).size, Vector3(2, 1, 2), "box size")
	Assert.eq(crate.position, Vector3(0, 0.5, 0), "position")
	var material := crate.material_override as StandardMaterial3D
	Assert.eq(material.albedo_color, Color.RED, "albedo")
	Assert.is_true(absf(material.metallic - 0.8) < 0.001, "metallic")
	Assert.eq(_fx.context.runtime_scenes.modified_count, 1, "scene marked modified")
	var copy := _saved_and_reloaded()
	var saved := copy.get_node("Crate") as MeshInstance3D
	Assert.eq((saved.mesh as BoxMesh).size, Vector3(2, 1, 2), "mesh saved with the scene")
	Assert.eq((saved.material_override as StandardMaterial3D).albedo_color, Color.RED, "material saved")
	copy.free()
	_fx.example("3d.create_primitive", 1)
	Assert.eq((crate.mesh as BoxMesh).size, Vector3(2, 1, 2), "returned node untouched")
	Assert.is_true(_fx.context.edits.undo(), "undo")
	Assert.is_true(_root.get_node_or_null("Crate") == null, "node removed")
	Assert.is_true(_fx.context.edits.redo(), "redo")
	Assert.eq(_root.get_node_or_null("Crate"), crate, "same node back")


func test_each_primitive_gets_its_mesh() -> void:
	var expected := {"sphere": "SphereMesh", "cylinder": "CylinderMesh", "capsule": "CapsuleMesh",
		"plane": "PlaneMesh", "prism": "PrismMesh"}
	for primitive: String in expected:
		var result := _fx.invoke("3d.create_primitive", {"parent_path": ".", "primitive": primitive,
			"size": {"x": 2, "y": 3, "z": 4}})
		Assert.eq(result["mesh"], expected[primitive], primitive)
	var sphere := (_root.get_node("Sphere") as MeshInstance3D).mesh as SphereMesh
	Assert.eq([sphere.radius, sphere.height], [1.0, 3.0], "sphere radius from size.x, height from size.y")
	Assert.eq(((_root.get_node("Plane") as MeshInstance3D).mesh as PlaneMesh).size, Vector2(2, 4), "plane x/z")


func test_primitive_refusals_add_nothing() -> void:
	_fx.example("3d.create_primitive", 2)
	var bad := [
		{"parent_path": ".", "primitive": "torus"},
		{"parent_path": ".", "primitive": "box", "size": {"x": 0, "y": 1, "z": 1}},
		{"parent_path": ".", "primitive": "box", "size": [1, 2]},
		{"parent_path": ".", "primitive": "box", "material": {"type": "ShaderMaterial"}},
		{"parent_path": ".", "primitive": "box", "material": {"metallic": 2}},
		{"parent_path": ".", "primitive": "box", "name": "a/b"},
	]
	for params: Dictionary in bad:
		Assert.eq(_fx.invoke("3d.create_primitive", params)["code"], "INVALID_PARAMS", str(params))
	Assert.eq(_root.get_child_count(), 0, "nothing added")
	Assert.eq(_fx.context.runtime_scenes.modified_count, 0, "nothing marked")
	_fx.invoke("3d.create_light", {"parent_path": ".", "light_type": "omni", "name": "Thing"})
	Assert.eq(_fx.invoke("3d.create_primitive", {"parent_path": ".", "primitive": "box", "name": "Thing"})["code"],
		"CLASS_MISMATCH", "a light by that name is not a mesh")
	_fx.context.runtime_scenes.set_scene_root(null)
	Assert.eq(_fx.invoke("3d.create_camera", {"parent_path": "."})["code"], "NO_SCENE", "no scene")


func test_environment_sky_ambient_fog_tonemap() -> void:
	_fx.example("3d.setup_environment")
	var environment := (_root.get_node("WorldEnvironment") as WorldEnvironment).environment
	Assert.eq(environment.background_mode, Environment.BG_SKY, "sky background")
	var sky := environment.sky.sky_material as ProceduralSkyMaterial
	Assert.eq(sky.sky_top_color, Color(0.2, 0.4, 0.9), "sky top color")
	Assert.eq(environment.ambient_light_source, Environment.AMBIENT_SOURCE_COLOR, "ambient from a color")
	Assert.eq(environment.ambient_light_energy, 0.5, "ambient energy")
	Assert.eq(environment.tonemap_mode, Environment.TONE_MAPPER_ACES, "tonemap")
	Assert.is_true(environment.fog_enabled, "fog on")
	var copy := _saved_and_reloaded()
	var saved := (copy.get_node("WorldEnvironment") as WorldEnvironment).environment
	Assert.eq((saved.sky.sky_material as ProceduralSkyMaterial).sky_top_color, Color(0.2, 0.4, 0.9), "sky saved")
	Assert.is_true(absf(saved.fog_density - 0.02) < 0.0001, "fog saved")
	copy.free()
	for params: Dictionary in [{"sky": {"type": "panorama"}}, {"tonemap": "agx_custom"}, {"fog": {"density": 5}},
			{"ambient_light": {"color": "nope"}}, {"fog": true}]:
		params["parent_path"] = "."
		params["name"] = "Env2"
		Assert.eq(_fx.invoke("3d.setup_environment", params)["code"], "INVALID_PARAMS", str(params))
	Assert.is_true(_root.get_node_or_null("Env2") == null, "refusals add nothing")
	Assert.is_true(_fx.context.edits.undo(), "undo")
	Assert.is_true(_root.get_node_or_null("WorldEnvironment") == null, "environment removed")


func test_light_and_camera() -> void:
	_fx.example("3d.create_light")
	var lamp := _root.get_node("Lamp") as SpotLight3D
	Assert.is_true(lamp.shadow_enabled, "shadow")
	Assert.eq(lamp.light_energy, 2.0, "energy")
	Assert.is_true(lamp.rotation_degrees.distance_to(Vector3(-45, 0, 0)) < 0.001, "rotation in degrees")
	_fx.example("3d.create_light", 1)
	_fx.example("3d.create_camera")
	var camera := _root.get_node("TopDown") as Camera3D
	Assert.eq(camera.projection, Camera3D.PROJECTION_ORTHOGONAL, "orthogonal")
	Assert.eq(camera.size, 10.0, "size")
	Assert.is_true(camera.current, "current")
	Assert.eq(_fx.invoke("3d.create_camera", {"parent_path": ".", "fov": 200})["code"], "INVALID_PARAMS", "fov range")
	var copy := _saved_and_reloaded()
	Assert.eq((copy.get_node("TopDown") as Camera3D).size, 10.0, "camera saved")
	Assert.is_true((copy.get_node("Lamp") as SpotLight3D).shadow_enabled, "light saved")
	copy.free()
	Assert.is_true(_fx.context.edits.undo(), "undo camera")
	Assert.is_true(_root.get_node_or_null("TopDown") == null, "camera removed")
	Assert.is_true(_root.get_node_or_null("Lamp") != null, "light stays")
