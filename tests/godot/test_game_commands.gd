extends RefCounted
## game.start / game.stop (commands/game/game_commands.gd) under the runtime context: the scene choice
## (main, current, a res:// path), if_running, the compile check before launch (COMPILATION_FAILED
## with file, line and message; addon scripts the project does not reach listed apart, not
## blocking), and the refusals. The context records what would have been
## played. Not covered here (needs a real editor and a second process): the launch itself, and the
## game's runtime server authenticating and answering the bridge's ping (the bridge waits for that,
## tests/bridge/test_editor_runtime.py).

const Assert := preload("assert.gd")
const ResultExamples := preload("result_examples.gd")
const RuntimeContext := preload("res://addons/godot_mcp_toolkit/context/runtime_context.gd")
const CommandRegistry := preload("res://addons/godot_mcp_toolkit/transport/mcp_toolkit_command_registry.gd")
const GameCommands := preload("res://addons/godot_mcp_toolkit/commands/game/game_commands.gd")
const ScriptCheck := preload("res://addons/godot_mcp_toolkit/commands/game/script_check.gd")
const ScriptReach := preload("res://addons/godot_mcp_toolkit/commands/game/script_reach.gd")
const GDScriptCheck := preload("res://addons/godot_mcp_toolkit/commands/script/gdscript_check.gd")

const DIR := "res://tmp_tests/game"
const SCENE := "res://tmp_tests/game/main.tscn"
const MAIN_SETTING := "application/run/main_scene"
const TEMPLATES_SETTING := "editor/script/templates_search_path"
## Relative preloads, class_name returns, an inner class, a tool script, a broken addon editor
## plugin (clean/), one real error (broken/broken.gd line 6), and broken addon scripts the project
## reaches in each way or not at all (reach/, see the README there).
const FIXTURE := "res://tests/fixtures/script_check"
const REACH := FIXTURE + "/reach"
const TOOLKIT := "res://addons/godot_mcp_toolkit"
## The autoload the toolkit's plugin adds to the project (plugin.gd's AUTOLOAD_NAME and _PATH).
const TOOLKIT_AUTOLOAD := [
	"autoload/MCPToolkitRuntime", "*res://addons/godot_mcp_toolkit/runtime/mcp_runtime_autoload.gd",
]
const REACH_AUTOLOAD := ["autoload/ScriptCheckReachLib", "*" + REACH + "/addons/by_autoload/broken.gd"]

var _root: Node = null
var _context: RuntimeContext = null
var _registry := CommandRegistry.new()


func _init() -> void:
	DirAccess.make_dir_recursive_absolute(DIR + "/scripts")
	_write(DIR + "/scripts/ok.gd", "class_name TmpGameOk extends Node\n\nvar speed := 3\n")
	_root = Node2D.new()
	_root.name = "Main"
	var packed := PackedScene.new()
	packed.pack(_root)
	ResourceSaver.save(packed, SCENE)
	Engine.get_main_loop().root.add_child(_root)
	_context = RuntimeContext.new(_root)
	_registry.configure("4.6.0", _context)
	GameCommands.register(_registry, _context, DIR)


func cleanup() -> void:
	_root.free()
	ProjectSettings.set_setting(MAIN_SETTING, "")
	for file_name: String in DirAccess.get_files_at(DIR + "/scripts"):
		DirAccess.remove_absolute(DIR + "/scripts/" + file_name)
	DirAccess.remove_absolute(DIR + "/scripts")
	for file_name: String in DirAccess.get_files_at(DIR):
		DirAccess.remove_absolute(DIR + "/" + file_name)
	DirAccess.remove_absolute(DIR)
	DirAccess.remove_absolute("res://tmp_tests")


func test_lanes_match_the_reference() -> void:
	var start := _registry.dispatch_info("game.start")
	Assert.eq([start["read_only"], start["exclusive"], start["scene_independent"]], [false, true, false], "game.start")
	Assert.eq(start["timeout_ms"], 60000, "the catalogue's 60 s")
	var stop := _registry.dispatch_info("game.stop")
	Assert.eq([stop["read_only"], stop["exclusive"], stop["scene_independent"]], [false, true, true], "game.stop")


func test_start_a_scene_then_if_running() -> void:
	var started := _call("game.start", ResultExamples.params("game", "game.start", 0))
	ResultExamples.check("game", "game.start", started, 0)
	Assert.eq(_context.runtime_game.played_scenes, PackedStringArray([SCENE]), "that scene was played")
	Assert.is_true(_context.game.is_playing(), "playing")
	var again := _call("game.start", {"scene_path": SCENE})
	ResultExamples.check("game", "game.start", again, 1)
	var kept := _call("game.start", ResultExamples.params("game", "game.start", 2))
	ResultExamples.check("game", "game.start", kept, 2)
	Assert.eq(_context.runtime_game.played_scenes.size(), 1, "nothing launched twice")


func test_main_and_current() -> void:
	var none := _call("game.start", {})
	Assert.eq([none["code"], none["error"]], ["NO_SCENE", "The project has no main scene"], "no main scene set")
	ProjectSettings.set_setting(MAIN_SETTING, SCENE)
	var main := _call("game.start", {"scene_path": "main", "wait_for_runtime": false})
	Assert.eq([main["status"], main["scene_path"], main["wait_for_runtime"]], ["started", SCENE, false], "main")
	Assert.contains(main["hint"], "GAME_NOT_RUNNING", "not waiting is disclosed")
	Assert.eq(_context.runtime_game.played_scenes, PackedStringArray([SCENE]), "play_scene('') played the main scene")
	_call("game.stop", {})
	Assert.eq(_call("game.start", {"scene_path": "current"})["code"], "NO_SCENE", "the test root was never saved")
	_context.scenes.open_scene(SCENE)
	Assert.eq(_call("game.start", {"scene_path": "current"})["scene_path"], SCENE, "the edited scene")


func test_a_headless_editor_starts_its_game_headless() -> void:
	var windowed := _call("game.start", {"scene_path": SCENE})
	Assert.eq(windowed["headless"], false, "a windowed editor says so")
	Assert.eq(_context.runtime_game.played_args.back(), PackedStringArray(), "and adds nothing to the game's command line")
	_call("game.stop", {})
	_context.runtime_host.headless = true
	var started := _call("game.start", {"scene_path": SCENE, "wait_for_runtime": false})
	_context.runtime_host.headless = false
	Assert.eq([started["status"], started["headless"]], ["started", true], "how it was started")
	Assert.eq(_context.runtime_game.played_args.back(), PackedStringArray(["--headless"]), "the game gets --headless")
	Assert.contains(started["hint"], "started with --headless", "the answer says so")
	Assert.contains(started["hint"], "GAME_NOT_RUNNING", "and keeps the not-waiting note")
	_call("game.stop", {})


func test_compile_errors_block_the_launch() -> void:
	_write(DIR + "/scripts/broken.gd", "extends Node\n\nfunc _ready() -> void:\n\tvar x: int = \"text\"\n")
	var failed := _call("game.start", ResultExamples.params("game", "game.start", 3))
	ResultExamples.check("game", "game.start", failed, 3)
	Assert.eq(_context.runtime_game.played_scenes, PackedStringArray(), "nothing was launched")
	Assert.is_false(_context.game.is_playing(), "not playing")


func test_templates_and_ignored_folders_are_not_compiled() -> void:
	var templates: Variant = ProjectSettings.get_setting(TEMPLATES_SETTING)
	ProjectSettings.set_setting(TEMPLATES_SETTING, DIR + "/scripts/templates")
	for folder: String in ["templates", "ignored"]:
		DirAccess.make_dir_recursive_absolute(DIR + "/scripts/" + folder)
		_write(DIR + "/scripts/%s/broken.gd" % folder, "extends _BASE_\n")
	_write(DIR + "/scripts/ignored/.gdignore", "")
	var started := _call("game.start", {"scene_path": SCENE})
	Assert.eq([started.get("status"), started.get("scripts_checked")], ["started", 1], "only ok.gd was compiled")
	ProjectSettings.set_setting(TEMPLATES_SETTING, templates)
	for folder: String in ["templates", "ignored"]:
		for file_name: String in DirAccess.get_files_at(DIR + "/scripts/" + folder):
			DirAccess.remove_absolute(DIR + "/scripts/%s/%s" % [folder, file_name])
		DirAccess.remove_absolute(DIR + "/scripts/" + folder)


func test_the_toolkit_itself_compiles_clean() -> void:
	ProjectSettings.set_setting(TOOLKIT_AUTOLOAD[0], TOOLKIT_AUTOLOAD[1])
	var checked := ScriptCheck.check_folder(TOOLKIT)
	ProjectSettings.clear(TOOLKIT_AUTOLOAD[0])
	Assert.eq(checked["errors"], [], "the engine loads every toolkit script the game can load")
	Assert.is_false(checked["truncated"], "nothing cut")
	var on_disk := _count_scripts(TOOLKIT)
	Assert.eq(checked["checked"], on_disk - 2, "all but plugin.gd and the export plugin (they extend Editor*)")
	# The editor's context names editor classes, which this engine may lack (the web build has
	# none); the game never loads it, so at most it is listed apart.
	for error: Dictionary in checked["unreachable_errors"]:
		Assert.eq(error["path"], TOOLKIT + "/editor/editor_context.gd", "only the editor glue: %s" % error["message"])


func test_a_project_holding_the_toolkit_and_the_fixture_launches() -> void:
	var registry := CommandRegistry.new()
	registry.configure("4.6.0", _context)
	GameCommands.register(registry, _context, "res://addons")
	var handler: Callable = registry.dispatch_info("game.start")["handler"]
	var started: Dictionary = handler.call({"scene_path": SCENE})
	Assert.eq(started.get("status"), "started", "the toolkit does not block the launch: %s" % JSON.stringify(started))
	_context.game.stop_playing()
	var clean := ScriptCheck.check_folder(FIXTURE + "/clean")
	Assert.eq(clean["errors"], [], "relative preloads, own class_name returns, inner and tool scripts compile")
	Assert.eq(clean["checked"], 5, "all but the addon's editor plugin")
	var listed: Array = clean["unreachable_errors"]
	Assert.is_false(listed.is_empty(), "the addon's broken editor helper is reported")
	for error: Dictionary in listed:
		Assert.eq([error["path"], error["reason"]], [FIXTURE + "/clean/addons/broken_tool/dock.gd", ScriptCheck.UNREACHABLE],
			"as not loaded by the game")


func test_a_broken_addon_script_nothing_reaches_does_not_block() -> void:
	DirAccess.make_dir_recursive_absolute(DIR + "/addons/tool")
	_write(DIR + "/addons/tool/broken.gd", "extends Node\n\nfunc _ready() -> void:\n\tvar x: int = \"text\"\n")
	var started := _call("game.start", ResultExamples.params("game", "game.start", 4))
	DirAccess.remove_absolute(DIR + "/addons/tool/broken.gd")
	DirAccess.remove_absolute(DIR + "/addons/tool")
	DirAccess.remove_absolute(DIR + "/addons")
	ResultExamples.check("game", "game.start", started, 4)
	Assert.eq(_context.runtime_game.played_scenes, PackedStringArray([SCENE]), "the game was launched")


func test_addon_scripts_the_project_reaches_block() -> void:
	var checked := ScriptCheck.check_folder(REACH)
	Assert.eq(_paths(checked["errors"]), [
		REACH + "/addons/by_class/broken.gd", REACH + "/addons/by_path/broken.gd",
		REACH + "/addons/by_preload/broken.gd", REACH + "/addons/by_scene/broken.gd",
	], "reached from the main scene's scripts (a class_name, a res:// path string, a relative preload) "
		+ "and from a project scene through the addon's own scene")
	Assert.eq(_paths(checked["unreachable_errors"]), [
		REACH + "/addons/by_autoload/broken.gd", REACH + "/addons/framework/files.gd",
		REACH + "/addons/unreached/broken.gd",
	], "not reached: no autoload yet; used only by a test suite; named only in a comment and a string")
	ProjectSettings.set_setting(REACH_AUTOLOAD[0], REACH_AUTOLOAD[1])
	var with_autoload := ScriptCheck.check_folder(REACH)
	ProjectSettings.clear(REACH_AUTOLOAD[0])
	Assert.is_true(_paths(with_autoload["errors"]).has(REACH + "/addons/by_autoload/broken.gd"), "an autoload reaches it")
	Assert.is_false(_paths(with_autoload["unreachable_errors"]).has(REACH + "/addons/by_autoload/broken.gd"), "moved")


func test_a_test_suite_outside_addons_is_checked_but_reaches_nothing() -> void:
	var suite := REACH + "/test/game_test.gd"
	var roots := PackedStringArray([REACH + "/main.tscn", REACH + "/levels/level.tscn"])
	var reached: Dictionary = ScriptReach.reached_from(roots)["reached"]
	Assert.is_false(reached.has(suite) or reached.has(REACH + "/addons/framework/suite.gd"), "the game loads no test")
	Assert.is_true(reached.has(REACH + "/levels/uses_class.gd"), "but the main scene's scripts")
	Assert.eq(GDScriptCheck.check_source(FileAccess.get_file_as_string(suite), suite)["errors"], [],
		"the suite itself compiles, so it does not block (its own error would: it is outside addons/)")


func test_a_reached_addon_error_refuses_the_launch_naming_it() -> void:
	var registry := CommandRegistry.new()
	registry.configure("4.6.0", _context)
	GameCommands.register(registry, _context, REACH)
	var handler: Callable = registry.dispatch_info("game.start")["handler"]
	var failed: Dictionary = handler.call({"scene_path": SCENE})
	Assert.eq(failed.get("code"), "COMPILATION_FAILED", "refused")
	Assert.is_true(_paths(failed.get("errors", [])).has(REACH + "/addons/by_scene/broken.gd"), "named")
	Assert.eq(_paths(failed.get("unreachable_errors", [])).size(), 3, "the others still listed apart")
	Assert.eq(_context.runtime_game.played_scenes, PackedStringArray(), "nothing was launched")


func test_reach_follows_uids_and_settings_but_not_the_editors() -> void:
	DirAccess.make_dir_recursive_absolute(DIR + "/addons/lib")
	var target := DIR + "/addons/lib/target.gd"
	_write(target, "extends RefCounted\n")
	var id := ResourceUID.create_id()
	ResourceUID.add_id(id, target)
	_write(DIR + "/scripts/by_uid.gd", "extends Node\n\nconst TARGET := \"%s\"\n" % ResourceUID.id_to_text(id))
	var reached: Dictionary = ScriptReach.reached_from(PackedStringArray([DIR + "/scripts/by_uid.gd"]))["reached"]
	Assert.is_true(reached.has(target), "a uid:// string reaches its file: %s" % str(reached.keys()))
	var templates: Variant = ProjectSettings.get_setting(TEMPLATES_SETTING)
	ProjectSettings.set_setting(TEMPLATES_SETTING, target)
	ProjectSettings.set_setting(MAIN_SETTING, SCENE)
	ProjectSettings.set_setting(REACH_AUTOLOAD[0], REACH_AUTOLOAD[1])
	var roots := ScriptReach.setting_paths()
	ProjectSettings.clear(REACH_AUTOLOAD[0])
	ProjectSettings.set_setting(TEMPLATES_SETTING, templates)
	Assert.is_true(roots.has(SCENE), "the main scene")
	Assert.is_true(roots.has(REACH_AUTOLOAD[1].trim_prefix("*")), "an autoload, without its singleton mark")
	Assert.is_false(roots.has(target), "not a path in the editor's own settings")
	ResourceUID.remove_id(id)
	DirAccess.remove_absolute(target)
	DirAccess.remove_absolute(DIR + "/addons/lib")
	DirAccess.remove_absolute(DIR + "/addons")


func test_a_real_error_is_named_with_file_and_line() -> void:
	var registry := CommandRegistry.new()
	registry.configure("4.6.0", _context)
	GameCommands.register(registry, _context, FIXTURE + "/broken")
	var handler: Callable = registry.dispatch_info("game.start")["handler"]
	var failed: Dictionary = handler.call({"scene_path": SCENE})
	Assert.eq(failed.get("code"), "COMPILATION_FAILED", "refused")
	var errors: Array = failed.get("errors", [])
	# The engine's analyzer reports this one mistake twice (the return's type check and the
	# function's); the check passes on exactly what the engine says.
	Assert.eq(errors.size(), 2, "the engine's errors, nothing else: %s" % JSON.stringify(errors))
	for error: Dictionary in errors:
		Assert.eq([error["path"], error["line"]], [FIXTURE + "/broken/broken.gd", 6], "its file and line")
		Assert.contains(str(error["message"]), "\"String\"", "the engine's own message")
	Assert.eq(_context.runtime_game.played_scenes, PackedStringArray(), "nothing was launched")


func test_loaded_scripts_are_not_reloaded_or_replaced() -> void:
	var tool_path := FIXTURE + "/clean/tool_script.gd"
	var shape_path := FIXTURE + "/clean/shapes/shape.gd"
	var tool_script: GDScript = load(tool_path)
	var shape: GDScript = load(shape_path)
	tool_script.set("instances", 41)
	var before := [tool_script.source_code, shape.source_code]
	ScriptCheck.check_folder(FIXTURE)
	Assert.eq(tool_script.get("instances"), 41, "static state kept: the live script was not recompiled")
	Assert.is_true(load(tool_path) == tool_script and load(shape_path) == shape, "the cache still holds the live scripts")
	Assert.eq([tool_script.resource_path, shape.resource_path], [tool_path, shape_path], "and they keep their paths")
	Assert.eq([tool_script.source_code, shape.source_code], before, "sources untouched")
	var made: Object = shape.call("unit")
	Assert.eq(made.get_script(), shape, "a new instance is of the live script")
	Assert.eq(made.call("scaled", 3.0).get("size"), 3.0, "which still runs")


func test_editor_only_scripts() -> void:
	Assert.is_true(ScriptCheck.is_editor_only("@tool\nextends EditorPlugin\n"), "a plugin")
	Assert.is_true(ScriptCheck.is_editor_only("extends EditorScript\n"), "an EditorScript")
	var helper := "@tool\nextends Control\nfunc f() -> void:\n\tEditorInterface.get_base_control()\n"
	Assert.is_false(ScriptCheck.is_editor_only(helper), "naming an Editor class is not extending one")
	var commented := "extends Node\n## extends EditorPlugin, once.\nvar s := \"extends EditorPlugin\"\n"
	Assert.is_false(ScriptCheck.is_editor_only(commented), "a name in a comment or a string is not code")


func test_refusals_leave_nothing_played() -> void:
	var cases := [
		[{"scene_path": 3}, "INVALID_PARAMS"],
		[{"if_running": "restart"}, "INVALID_PARAMS"],
		[{"wait_for_runtime": "yes"}, "INVALID_PARAMS"],
		[{"scene_path": "res://tmp_tests/game/scripts/ok.gd"}, "UNSUPPORTED_FILE_TYPE"],
		[{"scene_path": "user://level.tscn"}, "PATH_DENIED"],
		[{"scene_path": "res://../outside.tscn"}, "PATH_DENIED"],
		[{"scene_path": "res://tmp_tests/game/missing.tscn"}, "NOT_FOUND"],
	]
	for case: Array in cases:
		Assert.eq(_call("game.start", case[0])["code"], case[1], "refused: %s" % JSON.stringify(case[0]))
	Assert.eq(_context.runtime_game.played_scenes, PackedStringArray(), "nothing was launched")


func test_stop() -> void:
	ResultExamples.check("game", "game.stop", _call("game.stop", {}), 1)
	_call("game.start", {"scene_path": SCENE})
	ResultExamples.check("game", "game.stop", _call("game.stop", {}), 0)
	Assert.is_false(_context.game.is_playing(), "stopped")


func _call(method: String, params: Dictionary) -> Dictionary:
	var handler: Callable = _registry.dispatch_info(method)["handler"]
	return handler.callv([params])


static func _write(path: String, text: String) -> void:
	var file := FileAccess.open(path, FileAccess.WRITE)
	file.store_string(text)
	file.close()


## The distinct files named by a list of errors, sorted.
static func _paths(errors: Array) -> Array:
	var found := []
	for error: Dictionary in errors:
		if not error["path"] in found:
			found.append(error["path"])
	found.sort()
	return found


static func _count_scripts(folder: String) -> int:
	var count := 0
	if FileAccess.file_exists(folder.path_join(".gdignore")):
		return 0
	for file_name: String in DirAccess.get_files_at(folder):
		count += int(file_name.get_extension() == "gd")
	for sub: String in DirAccess.get_directories_at(folder):
		count += _count_scripts(folder.path_join(sub))
	return count
