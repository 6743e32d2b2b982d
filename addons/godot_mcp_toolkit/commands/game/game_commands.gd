@tool
extends RefCounted
## Playtest control from the editor: game.start, game.stop. The toolkit launches and reports; the
## bridge then waits for the game's runtime server to authenticate and answer a ping (it owns the
## runtime link), so wait_for_runtime and runtime_poll shape what this reply promises, not a wait
## here. Scripts are compiled before launch so a broken one is COMPILATION_FAILED, not a dead game.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const ToolkitSuccess := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_success.gd")
const FileGuard := preload("res://addons/godot_mcp_toolkit/security/file_guard.gd")
const ScriptCheck := preload("res://addons/godot_mcp_toolkit/commands/game/script_check.gd")

const SELF_PATH := "res://addons/godot_mcp_toolkit/commands/game/game_commands.gd"
const MAIN := "main"
const CURRENT := "current"
const IF_RUNNING := ["return", "fail"]
const SCENE_EXTENSIONS := ["tscn", "scn"]
const MAIN_SCENE_SETTING := "application/run/main_scene"
const START_TIMEOUT_MS := 60000
const HEADLESS_ARG := "--headless"


## `scripts_root` is the folder compiled before launch (tests point it at a scratch folder).
static func register(registry: RefCounted, context: RefCounted, scripts_root: String = "res://") -> void:
	var script: Script = load(SELF_PATH)
	registry.register_command("game.start", Callable(script, "_cmd_start").bind(context, scripts_root),
		registry.create_options()
		.with_input_schema({"type": "object", "properties": {
			"scene_path": {"type": "string"}, "wait_for_runtime": {"type": "boolean"},
			"runtime_poll": {"type": "boolean"}, "if_running": {"type": "string", "enum": IF_RUNNING},
		}, "additionalProperties": false})
		.with_timeout_ms(START_TIMEOUT_MS).exclusive())
	registry.register_command("game.stop", Callable(script, "_cmd_stop").bind(context),
		registry.create_options()
		.with_input_schema({"type": "object", "properties": {}, "additionalProperties": false})
		.exclusive().scene_independent())


static func _cmd_start(params: Dictionary, context: RefCounted, scripts_root: String) -> Dictionary:
	var checked := _checked_flags(params)
	if checked.has("error"):
		return checked["error"]
	if context.game.is_playing():
		if checked["if_running"] == "fail":
			return ToolkitError.fail("ALREADY_PLAYING", "A game is already running",
				"Pass if_running='return' to keep it, or call game_stop first.")
		var running := {"status": "already_running", "runtime_poll": checked["runtime_poll"]}
		return ToolkitSuccess.ok(running)
	var target := _target_scene(params.get("scene_path", MAIN), context)
	if target.has("error"):
		return target["error"]
	var compiled := ScriptCheck.check_folder(scripts_root)
	if not (compiled["errors"] as Array).is_empty():
		var failure := ToolkitError.fail("COMPILATION_FAILED", "%d script error(s); the game was not started" % [
			(compiled["errors"] as Array).size()])
		failure["errors"] = compiled["errors"]
		failure["truncated"] = compiled["truncated"]
		return _with_unreachable(failure, compiled)
	# An editor without a display starts its game without one too: it could not open a window either.
	var headless: bool = context.host.is_headless()
	var extra := PackedStringArray([HEADLESS_ARG]) if headless else PackedStringArray()
	var error: Error = await context.game.play_scene(target["play"], extra)
	if error != OK:
		return ToolkitError.fail("INVALID_STATE", "The editor did not start %s (%s)" % [target["path"], error_string(error)])
	var result := {"status": "started", "scene_path": target["path"], "scripts_checked": compiled["checked"],
		"wait_for_runtime": checked["wait_for_runtime"], "headless": headless}
	_with_unreachable(result, compiled)
	if compiled["truncated"]:
		result["truncated"] = true
	var hints := PackedStringArray()
	if headless:
		hints.append(("The editor runs headless, so the game was started with %s: no window, so no "
			+ "runtime_screenshot; everything else works.") % HEADLESS_ARG)
	if not checked["wait_for_runtime"]:
		hints.append("Not waiting for the game: runtime tools answer GAME_NOT_RUNNING until it has connected.")
	if not hints.is_empty():
		result["hint"] = " ".join(hints)
	return ToolkitSuccess.ok(result)


## Adds the errors that did not block (scripts the game does not load) when there are any.
static func _with_unreachable(answer: Dictionary, compiled: Dictionary) -> Dictionary:
	if not (compiled["unreachable_errors"] as Array).is_empty():
		answer["unreachable_errors"] = compiled["unreachable_errors"]
	return answer


static func _cmd_stop(_params: Dictionary, context: RefCounted) -> Dictionary:
	if not context.game.is_playing():
		return ToolkitSuccess.ok({"status": "not_running"})
	context.game.stop_playing()
	return ToolkitSuccess.ok({"status": "stopped"})


## {"if_running", "wait_for_runtime", "runtime_poll"} with defaults, or {"error": envelope}.
static func _checked_flags(params: Dictionary) -> Dictionary:
	var if_running: Variant = params.get("if_running", "fail")
	if not (if_running is String and if_running in IF_RUNNING):
		return {"error": ToolkitError.fail("INVALID_PARAMS", "if_running must be 'return' or 'fail'")}
	var flags := {"if_running": if_running}
	for key: String in ["wait_for_runtime", "runtime_poll"]:
		var value: Variant = params.get(key, key == "wait_for_runtime")
		if not value is bool:
			return {"error": ToolkitError.fail("INVALID_PARAMS", "%s must be true or false" % key)}
		flags[key] = value
	return flags


## {"path": res:// scene, "play": what play_scene takes ("" = the main scene)} or {"error"}.
static func _target_scene(raw: Variant, context: RefCounted) -> Dictionary:
	if not raw is String:
		return {"error": ToolkitError.fail("INVALID_PARAMS", "scene_path must be a string: main, current or res://...")}
	var wanted := (raw as String).strip_edges()
	if wanted.is_empty() or wanted == MAIN:
		var main := str(ProjectSettings.get_setting(MAIN_SCENE_SETTING, ""))
		if main.is_empty():
			return {"error": ToolkitError.fail("NO_SCENE", "The project has no main scene",
				"Set one with project_set_setting (%s), or pass scene_path='current' or a res:// scene." % MAIN_SCENE_SETTING)}
		return _existing(main, "")
	if wanted == CURRENT:
		var current: String = context.scenes.edited_scene_path()
		if current.is_empty():
			return {"error": ToolkitError.fail("NO_SCENE", "No saved scene is open in the editor",
				"Open or save a scene first, or pass scene_path='main' or a res:// scene.")}
		return _existing(current, current)
	var guarded := FileGuard.check(wanted)
	if not guarded["ok"]:
		return {"error": guarded["error"]}
	if not (guarded["path"] as String).get_extension().to_lower() in SCENE_EXTENSIONS:
		return {"error": FileGuard.wrong_extension("scene_path", guarded["path"], SCENE_EXTENSIONS)}
	return _existing(guarded["path"], guarded["path"])


static func _existing(path: String, play: String) -> Dictionary:
	if not ResourceLoader.exists(path):
		return {"error": ToolkitError.fail("NOT_FOUND", "No scene at %s" % path,
			"Check the path with scene_get_tree or create the scene first.")}
	return {"path": path, "play": play}
