extends RefCounted
## game.start / game.stop (commands/game_commands.gd) under the runtime context: the scene choice
## (main, current, a res:// path), if_running, the compile check before launch (COMPILATION_FAILED
## with file, line and message), and the refusals. The context records what would have been
## played. Not covered here (needs a real editor and a second process): the launch itself, and the
## game's runtime server authenticating and answering the bridge's ping (the bridge waits for that,
## tests/integration/test_editor_runtime.py).

const Assert := preload("assert.gd")
const ResultExamples := preload("result_examples.gd")
const RuntimeContext := preload("res://addons/godot_mcp_toolkit/context/runtime_context.gd")
const CommandRegistry := preload("res://addons/godot_mcp_toolkit/transport/mcp_toolkit_command_registry.gd")
const GameCommands := preload("res://addons/godot_mcp_toolkit/commands/game_commands.gd")

const DIR := "res://tmp_tests/game"
const SCENE := "res://tmp_tests/game/main.tscn"
const MAIN_SETTING := "application/run/main_scene"

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
	Assert.eq(_context.played_scenes, PackedStringArray([SCENE]), "that scene was played")
	Assert.is_true(_context.is_playing(), "playing")
	var again := _call("game.start", {"scene_path": SCENE})
	ResultExamples.check("game", "game.start", again, 1)
	var kept := _call("game.start", ResultExamples.params("game", "game.start", 2))
	ResultExamples.check("game", "game.start", kept, 2)
	Assert.eq(_context.played_scenes.size(), 1, "nothing launched twice")


func test_main_and_current() -> void:
	var none := _call("game.start", {})
	Assert.eq([none["code"], none["error"]], ["NO_SCENE", "The project has no main scene"], "no main scene set")
	ProjectSettings.set_setting(MAIN_SETTING, SCENE)
	var main := _call("game.start", {"scene_path": "main", "wait_for_runtime": false})
	Assert.eq([main["status"], main["scene_path"], main["wait_for_runtime"]], ["started", SCENE, false], "main")
	Assert.contains(main["hint"], "GAME_NOT_RUNNING", "not waiting is disclosed")
	Assert.eq(_context.played_scenes, PackedStringArray([SCENE]), "play_scene('') played the main scene")
	_call("game.stop", {})
	Assert.eq(_call("game.start", {"scene_path": "current"})["code"], "NO_SCENE", "the test root was never saved")
	_context.open_scene(SCENE)
	Assert.eq(_call("game.start", {"scene_path": "current"})["scene_path"], SCENE, "the edited scene")


func test_a_headless_editor_starts_its_game_headless() -> void:
	var windowed := _call("game.start", {"scene_path": SCENE})
	Assert.eq(windowed["headless"], false, "a windowed editor says so")
	Assert.eq(_context.played_args.back(), PackedStringArray(), "and adds nothing to the game's command line")
	_call("game.stop", {})
	_context.headless = true
	var started := _call("game.start", {"scene_path": SCENE, "wait_for_runtime": false})
	_context.headless = false
	Assert.eq([started["status"], started["headless"]], ["started", true], "how it was started")
	Assert.eq(_context.played_args.back(), PackedStringArray(["--headless"]), "the game gets --headless")
	Assert.contains(started["hint"], "started with --headless", "the answer says so")
	Assert.contains(started["hint"], "GAME_NOT_RUNNING", "and keeps the not-waiting note")
	_call("game.stop", {})


func test_compile_errors_block_the_launch() -> void:
	_write(DIR + "/scripts/broken.gd", "extends Node\n\nfunc _ready() -> void:\n\tvar x: int = \"text\"\n")
	var failed := _call("game.start", ResultExamples.params("game", "game.start", 3))
	ResultExamples.check("game", "game.start", failed, 3)
	Assert.eq(_context.played_scenes, PackedStringArray(), "nothing was launched")
	Assert.is_false(_context.is_playing(), "not playing")


func test_templates_and_ignored_folders_are_not_compiled() -> void:
	var templates: Variant = ProjectSettings.get_setting("editor/script/templates_search_path")
	ProjectSettings.set_setting("editor/script/templates_search_path", DIR + "/scripts/templates")
	for folder: String in ["templates", "ignored"]:
		DirAccess.make_dir_recursive_absolute(DIR + "/scripts/" + folder)
		_write(DIR + "/scripts/%s/broken.gd" % folder, "extends _BASE_\n")
	_write(DIR + "/scripts/ignored/.gdignore", "")
	var started := _call("game.start", {"scene_path": SCENE})
	Assert.eq([started.get("status"), started.get("scripts_checked")], ["started", 1], "only ok.gd was compiled")
	ProjectSettings.set_setting("editor/script/templates_search_path", templates)
	for folder: String in ["templates", "ignored"]:
		for file_name: String in DirAccess.get_files_at(DIR + "/scripts/" + folder):
			DirAccess.remove_absolute(DIR + "/scripts/%s/%s" % [folder, file_name])
		DirAccess.remove_absolute(DIR + "/scripts/" + folder)


func test_refusals_leave_nothing_played() -> void:
	var cases := [
		[{"scene_path": 3}, "INVALID_PARAMS"],
		[{"if_running": "restart"}, "INVALID_PARAMS"],
		[{"wait_for_runtime": "yes"}, "INVALID_PARAMS"],
		[{"scene_path": "res://tmp_tests/game/scripts/ok.gd"}, "INVALID_PATH"],
		[{"scene_path": "user://level.tscn"}, "PATH_DENIED"],
		[{"scene_path": "res://../outside.tscn"}, "PATH_DENIED"],
		[{"scene_path": "res://tmp_tests/game/missing.tscn"}, "NOT_FOUND"],
	]
	for case: Array in cases:
		Assert.eq(_call("game.start", case[0])["code"], case[1], "refused: %s" % JSON.stringify(case[0]))
	Assert.eq(_context.played_scenes, PackedStringArray(), "nothing was launched")


func test_stop() -> void:
	ResultExamples.check("game", "game.stop", _call("game.stop", {}), 1)
	_call("game.start", {"scene_path": SCENE})
	ResultExamples.check("game", "game.stop", _call("game.stop", {}), 0)
	Assert.is_false(_context.is_playing(), "stopped")


func _call(method: String, params: Dictionary) -> Dictionary:
	var handler: Callable = _registry.dispatch_info(method)["handler"]
	return handler.callv([params])


static func _write(path: String, text: String) -> void:
	var file := FileAccess.open(path, FileAccess.WRITE)
	file.store_string(text)
	file.close()
