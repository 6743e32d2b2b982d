@tool
extends RefCounted
## The script debugger: debug.state, debug.list_breakpoints, debug.set_breakpoint, debug.continue.
## The checks, shapes and bookkeeping live here; the editor's debugger itself (its sessions, the
## script editor's breakpoints) is reached only through the context (editor/editor_context.gd), so
## this file is runtime-safe. Breakpoints are editor state, not scene content: the editor keeps no
## undo history for them, and neither does this.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const ToolkitSuccess := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_success.gd")
const Params := preload("res://addons/godot_mcp_toolkit/contract/params.gd")
const FileGuard := preload("res://addons/godot_mcp_toolkit/security/file_guard.gd")

const SELF_PATH := "res://addons/godot_mcp_toolkit/commands/debug/debug_commands.gd"
const EXTERNAL_EDITOR_SETTING := "text_editor/external/use_external_editor"


static func register(registry: RefCounted, context: RefCounted) -> void:
	var script: Script = load(SELF_PATH)
	registry.register_command("debug.state", Callable(script, "_cmd_state").bind(context),
		registry.create_options()
		.read_only().scene_independent())
	registry.register_command("debug.list_breakpoints", Callable(script, "_cmd_list").bind(context),
		registry.create_options()
		.read_only().scene_independent())
	registry.register_command("debug.set_breakpoint", Callable(script, "_cmd_set").bind(context),
		registry.create_options()
		.scene_independent())
	registry.register_command("debug.continue", Callable(script, "_cmd_continue").bind(context),
		registry.create_options()
		.scene_independent())


static func _cmd_state(_params: Dictionary, context: RefCounted) -> Dictionary:
	var state: Dictionary = context.debugger.debugger_state()
	var result := {"debugger_available": bool(state.get("available", false)),
		"game_running": bool(state.get("active", false)), "paused": bool(state.get("paused", false)),
		"breakpoint_count": (context.debugger.breakpoints() as PackedStringArray).size()}
	if not result["debugger_available"]:
		result["hint"] = "The script debugger is reachable only from the editor."
	return ToolkitSuccess.ok(result)


static func _cmd_list(_params: Dictionary, context: RefCounted) -> Dictionary:
	var listed := _parsed(context.debugger.breakpoints())
	return ToolkitSuccess.ok({"breakpoints": listed, "count": listed.size()})


static func _cmd_set(params: Dictionary, context: RefCounted) -> Dictionary:
	var missing := Params.require(params, ["file_path", "line"])
	if not missing.is_empty():
		return missing
	var guarded := FileGuard.check(params["file_path"])
	if not guarded["ok"]:
		return guarded["error"]
	var path: String = guarded["path"]
	if path.get_extension().to_lower() != "gd":
		return FileGuard.wrong_extension("file_path", path, ["gd"])
	var line: Variant = params["line"]
	if not Params.is_whole_number(line) or int(line) < 1:
		return ToolkitError.fail("INVALID_PARAMS", "line must be a whole number from 1")
	var enabled: Variant = params.get("enabled", true)
	if not enabled is bool:
		return ToolkitError.fail("INVALID_PARAMS", "enabled must be true or false")
	if not FileAccess.file_exists(path):
		return ToolkitError.fail("NOT_FOUND", "No script at %s" % path, "script_read lists nothing here; check the path.")
	var lines := _line_count(path)
	if lines < 0:
		return ToolkitError.fail("LOAD_FAILED", "Cannot read %s" % path)
	if int(line) > lines:
		return ToolkitError.fail("INVALID_PARAMS", "%s has %d lines; line %d is past its end" % [path, lines, int(line)])
	if bool(context.project.get_editor_setting(EXTERNAL_EDITOR_SETTING, false)):
		return ToolkitError.fail("EXTERNAL_EDITOR_ACTIVE", "Scripts open in an external editor, so Godot's script "
			+ "editor holds no breakpoints", "Set the breakpoint in your external editor, or turn off "
			+ "text_editor/external/use_external_editor.")
	var entry := "%s:%d" % [path, int(line)]
	var was_set := entry in (context.debugger.breakpoints() as PackedStringArray)
	var result := {"file_path": path, "line": int(line), "enabled": enabled}
	if was_set == enabled:
		result["status"] = "unchanged"
		return ToolkitSuccess.ok(result)
	var error: Error = context.debugger.set_breakpoint(path, int(line), enabled)
	var now_set := entry in (context.debugger.breakpoints() as PackedStringArray)
	if error != OK or now_set != enabled:
		return ToolkitError.fail("INTERNAL", "The script editor did not take the breakpoint at %s (%s)"
			% [entry, error_string(error)])
	result["status"] = "set" if enabled else "cleared"
	return ToolkitSuccess.ok(result)


static func _cmd_continue(_params: Dictionary, context: RefCounted) -> Dictionary:
	var state: Dictionary = context.debugger.debugger_state()
	if not bool(state.get("active", false)):
		return ToolkitError.fail("GAME_NOT_RUNNING", "No game runs under the debugger")
	if not bool(state.get("paused", false)):
		return ToolkitError.fail("NOT_BREAKED", "The game is running, not paused at a breakpoint",
			"debug_state says when it is paused.")
	var error: Error = context.debugger.debug_continue()
	if error != OK:
		return ToolkitError.fail("INTERNAL", "The debugger did not resume (%s)" % error_string(error))
	return ToolkitSuccess.ok({"resumed": true})


## "path:line" entries as {file_path, line}, sorted by path then line.
static func _parsed(entries: PackedStringArray) -> Array[Dictionary]:
	var listed: Array[Dictionary] = []
	for entry: String in entries:
		var cut := entry.rfind(":")
		if cut <= 0:
			continue
		listed.append({"file_path": entry.substr(0, cut), "line": entry.substr(cut + 1).to_int()})
	listed.sort_custom(func(a: Dictionary, b: Dictionary) -> bool:
		return a["file_path"] < b["file_path"] or (a["file_path"] == b["file_path"] and a["line"] < b["line"]))
	return listed


static func _line_count(path: String) -> int:
	var file := FileAccess.open(path, FileAccess.READ)
	if file == null:
		return -1
	var text := file.get_as_text()
	# A final newline ends the last line; it does not start another.
	return text.split("\n").size() - (1 if text.ends_with("\n") else 0)
