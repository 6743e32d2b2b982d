extends RefCounted
## The procedural domain (commands/procedural_commands.gd): Gradient, Curve and FastNoiseLite .tres
## files created and edited through the registry, reloaded from disk (what a user gets), edits of an
## existing file undone and redone (resource and file), and refusals that leave the file as it was.
##
## Not covered here (only an editor shows it): the inspector refreshing an open resource and the
## FileSystem dock picking up a new .tres after context.refresh_files.

const Assert := preload("assert.gd")
const ResultExamples := preload("result_examples.gd")
const CommandRegistry := preload("res://addons/godot_mcp_toolkit/transport/mcp_toolkit_command_registry.gd")
const RuntimeContext := preload("res://addons/godot_mcp_toolkit/context/runtime_context.gd")

const DOMAIN := "procedural"
const SCRATCH := "res://tmp_tests/procedural"
const DOMAIN_PATH := "res://addons/godot_mcp_toolkit/commands/procedural_commands.gd"

var _registry: CommandRegistry = null
var _context: RuntimeContext = null


func _init() -> void:
	_context = RuntimeContext.new(null)
	_registry = CommandRegistry.new()
	load(DOMAIN_PATH).call("register", _registry, _context)
	DirAccess.make_dir_recursive_absolute(SCRATCH)


func cleanup() -> void:
	for file_name: String in DirAccess.get_files_at(SCRATCH):
		DirAccess.remove_absolute(SCRATCH.path_join(file_name))
	DirAccess.remove_absolute(SCRATCH)
	if DirAccess.dir_exists_absolute("res://tmp_tests") and DirAccess.get_directories_at("res://tmp_tests").is_empty():
		DirAccess.remove_absolute("res://tmp_tests")


func _call(method: String, params: Dictionary) -> Dictionary:
	var handler: Callable = _registry.dispatch_info(method)["handler"]
	return handler.callv([params])


func _example(method: String, index: int = 0) -> Dictionary:
	var result := _call(method, ResultExamples.params(DOMAIN, method, index))
	ResultExamples.check(DOMAIN, method, result, index)
	return result


## The file as a fresh load would read it (bypassing the cache the commands edit).
func _from_disk(path: String) -> Resource:
	return ResourceLoader.load(path, "", ResourceLoader.CACHE_MODE_IGNORE)


func test_gradient_created_then_edited_with_undo() -> void:
	var path := SCRATCH.path_join("fire.tres")
	_example("procedural.edit_gradient")
	var disk := _from_disk(path) as Gradient
	Assert.eq(disk.get_point_count(), 2, "two points saved")
	Assert.eq(disk.get_color(1), Color(1, 1, 0), "second color saved")
	Assert.eq(disk.interpolation_mode, Gradient.GRADIENT_INTERPOLATE_CONSTANT, "mode saved")
	Assert.is_true(path in _context.refreshed_files, "editor told")
	var added := _call("procedural.edit_gradient", {"file_path": path, "action": "add_point",
		"points": [{"offset": 0.5, "color": "white"}]})
	Assert.eq(added["points"].size(), 3, "point added")
	Assert.eq((_from_disk(path) as Gradient).get_point_count(), 3, "file has it")
	Assert.is_true(_context.undo(), "undo")
	Assert.eq((_from_disk(path) as Gradient).get_point_count(), 2, "undo restored the file")
	Assert.eq((ResourceLoader.load(path) as Gradient).get_point_count(), 2, "and the loaded resource")
	Assert.is_true(_context.redo(), "redo")
	Assert.eq((_from_disk(path) as Gradient).get_point_count(), 3, "redo re-applied")
	var removed := _call("procedural.edit_gradient", {"file_path": path, "action": "remove_point", "index": 0})
	Assert.eq(removed["points"][0]["offset"], 0.5, "first point gone")


func test_gradient_refusals_leave_the_file() -> void:
	var path := SCRATCH.path_join("fire.tres")
	_example("procedural.edit_gradient")
	var before := FileAccess.get_file_as_string(path)
	_example("procedural.edit_gradient", 1)
	var bad := [
		{"file_path": path, "action": "add_point"},
		{"file_path": path, "action": "set", "points": [{"offset": 2, "color": "red"}]},
		{"file_path": path, "action": "set", "points": [{"offset": 0, "color": "nope"}]},
		{"file_path": path, "action": "tweak"},
		{"file_path": path, "interpolation_mode": "smooth"},
	]
	for params: Dictionary in bad:
		Assert.eq(_call("procedural.edit_gradient", params)["code"], "INVALID_PARAMS", str(params))
	Assert.eq(FileAccess.get_file_as_string(path), before, "file untouched")
	Assert.eq(_call("procedural.edit_gradient", {"file_path": SCRATCH.path_join("g.png")})["code"], "INVALID_PATH", "ext")
	Assert.eq(_call("procedural.edit_gradient", {"file_path": "res://nowhere/g.tres"})["code"], "PARENT_NOT_FOUND",
		"folder")
	Assert.eq(_call("procedural.edit_gradient", {"file_path": "user://g.tres"})["code"], "PATH_DENIED", "res only")


func test_curve_points_and_range() -> void:
	var path := SCRATCH.path_join("ease.tres")
	var result := _example("procedural.edit_curve")
	Assert.eq(result["points"][0]["right_mode"], "linear", "mode kept")
	Assert.eq(result["points"][1]["left_tangent"], 2.0, "tangent kept")
	var disk := _from_disk(path) as Curve
	Assert.eq(disk.point_count, 2, "saved points")
	Assert.eq(disk.get_point_position(1), Vector2(1, 1), "saved position")
	var ranged := _call("procedural.edit_curve", {"file_path": path, "action": "add_point", "max_value": 5,
		"points": [{"position": {"x": 0.5, "y": 4}}]})
	Assert.eq([ranged["max_value"], ranged["points"].size()], [5.0, 3], "range widened and point added")
	Assert.eq(_call("procedural.edit_curve", {"file_path": path, "action": "add_point",
		"points": [{"position": {"x": 0.5, "y": 9}}]})["code"], "INVALID_PARAMS", "y above max_value")
	Assert.eq(_call("procedural.edit_curve", {"file_path": path, "min_value": 3, "max_value": 1})["code"],
		"INVALID_PARAMS", "inverted range")
	Assert.is_true(_context.undo(), "undo the add")
	Assert.eq((_from_disk(path) as Curve).point_count, 2, "file back to two points")
	Assert.eq((_from_disk(path) as Curve).max_value, 1.0, "and the old range")
	var cleared := _call("procedural.edit_curve", {"file_path": path, "action": "clear"})
	Assert.eq(cleared["points"], [], "clear empties it")
	Assert.eq((_from_disk(path) as Curve).point_count, 0, "saved empty")


func test_noise_settings_saved_and_checked() -> void:
	var path := SCRATCH.path_join("caves.tres")
	_example("procedural.edit_noise")
	var disk := _from_disk(path) as FastNoiseLite
	Assert.eq(disk.noise_type, FastNoiseLite.TYPE_CELLULAR, "type saved")
	Assert.eq([disk.seed, disk.fractal_octaves], [42, 3], "seed and octaves saved")
	Assert.eq(disk.cellular_return_type, FastNoiseLite.RETURN_DISTANCE, "return type saved")
	Assert.is_true(absf(disk.frequency - 0.05) < 0.0001, "frequency saved")
	var warped := _call("procedural.edit_noise", {"file_path": path, "domain_warp_enabled": true,
		"domain_warp_amplitude": 12.5})
	Assert.eq(warped["settings"]["seed"], 42, "earlier settings kept")
	Assert.is_true((_from_disk(path) as FastNoiseLite).domain_warp_enabled, "warp saved")
	Assert.is_true(_context.undo(), "undo")
	Assert.is_false((_from_disk(path) as FastNoiseLite).domain_warp_enabled, "warp undone in the file")
	for params: Dictionary in [{"noise_type": "worley"}, {"seed": 1.5}, {"octaves": "3"}, {"domain_warp_enabled": 1}]:
		params["file_path"] = path
		Assert.eq(_call("procedural.edit_noise", params)["code"], "INVALID_PARAMS", str(params))
	Assert.eq((_from_disk(path) as FastNoiseLite).noise_type, FastNoiseLite.TYPE_CELLULAR, "untouched by refusals")


func test_wrong_class_is_refused() -> void:
	_example("procedural.edit_gradient")
	_example("procedural.edit_noise", 1)
	Assert.eq(_call("procedural.edit_curve", {"file_path": SCRATCH.path_join("fire.tres")})["code"], "INVALID_CLASS",
		"a gradient is not a curve")
