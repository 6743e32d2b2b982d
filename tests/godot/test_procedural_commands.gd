extends RefCounted
## The procedural domain (commands/procedural/procedural_commands.gd): Gradient, Curve and FastNoiseLite .tres
## files created and edited through the registry, reloaded from disk (what a user gets), edits of an
## existing file undone and redone (resource and file), and refusals that leave the file as it was.
##
## Not covered here (only an editor shows it): the inspector refreshing an open resource and the
## FileSystem dock picking up a new .tres after context.project.refresh_files.

const Assert := preload("assert.gd")
const DomainFixture := preload("domain_fixture.gd")

const DOMAIN := "procedural"
const SCRATCH := "res://tmp_tests/procedural"
const DOMAIN_PATH := "res://addons/godot_mcp_toolkit/commands/procedural/procedural_commands.gd"

var _fx: DomainFixture = null


func _init() -> void:
	var domains: Array[String] = [DOMAIN_PATH]
	_fx = DomainFixture.new(domains, DOMAIN, null, SCRATCH)


func cleanup() -> void:
	_fx.cleanup()


## The file as a fresh load would read it (bypassing the cache the commands edit).
func _from_disk(path: String) -> Resource:
	return ResourceLoader.load(path, "", ResourceLoader.CACHE_MODE_IGNORE)


func test_gradient_created_then_edited_with_undo() -> void:
	var path := SCRATCH.path_join("fire.tres")
	_fx.example("procedural.edit_gradient")
	var disk := _from_disk(path) as Gradient
	Assert.eq(disk.get_point_count(), 2, "two points saved")
	Assert.eq(disk.get_color(1), Color(1, 1, 0), "second color saved")
	Assert.eq(disk.interpolation_mode, Gradient.GRADIENT_INTERPOLATE_CONSTANT, "mode saved")
	Assert.is_true(path in _fx.context.runtime_project.refreshed_files, "editor told")
	var added := _fx.invoke("procedural.edit_gradient", {"file_path": path, "action": "add_point",
		"points": [{"offset": 0.5, "color": "white"}]})
	Assert.eq(added["points"].size(), 3, "point added")
	Assert.eq((_from_disk(path) as Gradient).get_point_count(), 3, "file has it")
	Assert.is_true(_fx.context.edits.undo(), "undo")
	Assert.eq((_from_disk(path) as Gradient).get_point_count(), 2, "undo restored the file")
	Assert.eq((ResourceLoader.load(path) as Gradient).get_point_count(), 2, "and the loaded resource")
	Assert.is_true(_fx.context.edits.redo(), "redo")
	Assert.eq((_from_disk(path) as Gradient).get_point_count(), 3, "redo re-applied")
	var removed := _fx.invoke("procedural.edit_gradient", {"file_path": path, "action": "remove_point", "index": 0})
	Assert.eq(removed["points"][0]["offset"], 0.5, "first point gone")


func test_gradient_refusals_leave_the_file() -> void:
	var path := SCRATCH.path_join("fire.tres")
	_fx.example("procedural.edit_gradient")
	var before := FileAccess.get_file_as_string(path)
	_fx.example("procedural.edit_gradient", 1)
	var bad := [
		{"file_path": path, "action": "add_point"},
		{"file_path": path, "action": "set", "points": [{"offset": 2, "color": "red"}]},
		{"file_path": path, "action": "set", "points": [{"offset": 0, "color": "nope"}]},
		{"file_path": path, "action": "tweak"},
		{"file_path": path, "interpolation_mode": "smooth"},
	]
	for params: Dictionary in bad:
		Assert.eq(_fx.invoke("procedural.edit_gradient", params)["code"], "INVALID_PARAMS", str(params))
	Assert.eq(FileAccess.get_file_as_string(path), before, "file untouched")
	var bad_ext := _fx.invoke("procedural.edit_gradient", {"file_path": SCRATCH.path_join("g.png")})
	Assert.eq(bad_ext["code"], "UNSUPPORTED_FILE_TYPE", "ext")
	Assert.eq(_fx.invoke("procedural.edit_gradient", {"file_path": "res://nowhere/g.tres"})["code"], "PARENT_NOT_FOUND",
		"folder")
	Assert.eq(_fx.invoke("procedural.edit_gradient", {"file_path": "user://g.tres"})["code"], "PATH_DENIED", "res only")


func test_curve_points_and_range() -> void:
	var path := SCRATCH.path_join("ease.tres")
	var result := _fx.example("procedural.edit_curve")
	Assert.eq(result["points"][0]["right_mode"], "linear", "mode kept")
	Assert.eq(result["points"][1]["left_tangent"], 2.0, "tangent kept")
	var disk := _from_disk(path) as Curve
	Assert.eq(disk.point_count, 2, "saved points")
	Assert.eq(disk.get_point_position(1), Vector2(1, 1), "saved position")
	var ranged := _fx.invoke("procedural.edit_curve", {"file_path": path, "action": "add_point", "max_value": 5,
		"points": [{"position": {"x": 0.5, "y": 4}}]})
	Assert.eq([ranged["max_value"], ranged["points"].size()], [5.0, 3], "range widened and point added")
	Assert.eq(_fx.invoke("procedural.edit_curve", {"file_path": path, "action": "add_point",
		"points": [{"position": {"x": 0.5, "y": 9}}]})["code"], "INVALID_PARAMS", "y above max_value")
	Assert.eq(_fx.invoke("procedural.edit_curve", {"file_path": path, "min_value": 3, "max_value": 1})["code"],
		"INVALID_PARAMS", "inverted range")
	Assert.is_true(_fx.context.edits.undo(), "undo the add")
	Assert.eq((_from_disk(path) as Curve).point_count, 2, "file back to two points")
	Assert.eq((_from_disk(path) as Curve).max_value, 1.0, "and the old range")
	var cleared := _fx.invoke("procedural.edit_curve", {"file_path": path, "action": "clear"})
	Assert.eq(cleared["points"], [], "clear empties it")
	Assert.eq((_from_disk(path) as Curve).point_count, 0, "saved empty")


func test_noise_settings_saved_and_checked() -> void:
	var path := SCRATCH.path_join("caves.tres")
	_fx.example("procedural.edit_noise")
	var disk := _from_disk(path) as FastNoiseLite
	Assert.eq(disk.noise_type, FastNoiseLite.TYPE_CELLULAR, "type saved")
	Assert.eq([disk.seed, disk.fractal_octaves], [42, 3], "seed and octaves saved")
	Assert.eq(disk.cellular_return_type, FastNoiseLite.RETURN_DISTANCE, "return type saved")
	Assert.is_true(absf(disk.frequency - 0.05) < 0.0001, "frequency saved")
	var warped := _fx.invoke("procedural.edit_noise", {"file_path": path, "domain_warp_enabled": true,
		"domain_warp_amplitude": 12.5})
	Assert.eq(warped["settings"]["seed"], 42, "earlier settings kept")
	Assert.is_true((_from_disk(path) as FastNoiseLite).domain_warp_enabled, "warp saved")
	Assert.is_true(_fx.context.edits.undo(), "undo")
	Assert.is_false((_from_disk(path) as FastNoiseLite).domain_warp_enabled, "warp undone in the file")
	for params: Dictionary in [{"noise_type": "worley"}, {"seed": 1.5}, {"octaves": "3"}, {"domain_warp_enabled": 1}]:
		params["file_path"] = path
		Assert.eq(_fx.invoke("procedural.edit_noise", params)["code"], "INVALID_PARAMS", str(params))
	Assert.eq((_from_disk(path) as FastNoiseLite).noise_type, FastNoiseLite.TYPE_CELLULAR, "untouched by refusals")


func test_wrong_class_is_refused() -> void:
	_fx.example("procedural.edit_gradient")
	_fx.example("procedural.edit_noise", 1)
	Assert.eq(_fx.invoke("procedural.edit_curve", {"file_path": SCRATCH.path_join("fire.tres")})["code"], "INVALID_CLASS",
		"a gradient is not a curve")
