@tool
extends RefCounted
## Compiles every GDScript under a folder before the game is launched, so a script error is
## reported to the caller (COMPILATION_FAILED with file, line and message) instead of surfacing
## as a game that dies on start. Each file is compiled as a fresh copy, never the loaded script,
## so nothing live in the editor is reloaded; its class_name line is blanked (line numbers kept)
## because a copy may not re-declare a registered global class. The messages come from the
## engine's error stream (logs/log_capture.gd) on Godot 4.5+; older engines name the file only.

const LogBuffer := preload("res://addons/godot_mcp_toolkit/logs/log_buffer.gd")
const LogCapture := preload("res://addons/godot_mcp_toolkit/logs/log_capture.gd")

## Past this many scripts the check stops and says so rather than stall the editor.
const MAX_SCRIPTS := 2000
const MAX_ERRORS := 50
const CLASS_NAME_PREFIX := "class_name "
## Script templates hold placeholders (_BASE_, _CLASS_) and never compile; the game never loads them.
const TEMPLATES_SETTING := "editor/script/templates_search_path"
const TEMPLATES_DEFAULT := "res://script_templates"
## A folder holding this file is invisible to the engine's import and the game.
const IGNORE_MARKER := ".gdignore"


## {"checked": int, "errors": [{path, line, message}], "truncated": bool}
static func check_folder(root: String) -> Dictionary:
	var paths := PackedStringArray()
	var templates := str(ProjectSettings.get_setting(TEMPLATES_SETTING, TEMPLATES_DEFAULT)).trim_suffix("/")
	_collect(root, paths, templates)
	var truncated := paths.size() > MAX_SCRIPTS
	if truncated:
		paths = paths.slice(0, MAX_SCRIPTS)
	var errors: Array[Dictionary] = []
	# One capture for the whole run: each file's messages are those logged while it compiled.
	var buffer := LogBuffer.new(MAX_ERRORS * 4)
	var capture := LogCapture.new()
	var captured := capture.attach(buffer)
	for path: String in paths:
		if errors.size() >= MAX_ERRORS:
			truncated = true
			break
		errors.append_array(_check_file(path, buffer if captured else null))
	capture.detach()
	return {"checked": paths.size(), "errors": errors, "truncated": truncated}


## The compile errors of one script file ([] when it compiles). `buffer` receives the engine's
## messages (null on engines without a Logger).
static func _check_file(path: String, buffer: LogBuffer) -> Array[Dictionary]:
	var source := FileAccess.get_file_as_string(path)
	var script := GDScript.new()
	script.source_code = _without_class_name(source)
	var before := buffer.latest_id() if buffer != null else 0
	var error := script.reload()
	if error == OK:
		return []
	var found: Array[Dictionary] = []
	if buffer != null:
		for entry: Dictionary in buffer.entries():
			if int(entry["id"]) > before and entry["level"] == LogBuffer.LEVEL_ERROR:
				found.append({"path": path, "line": _line_of(str(entry.get("source", ""))),
					"message": str(entry["message"]).trim_prefix("Parse Error: ")})
	if found.is_empty():
		found.append({"path": path, "line": 0, "message": "does not compile (%s); open it in the script editor "
			% error_string(error) + "for the details"})
	return found


static func _collect(folder: String, into: PackedStringArray, skipped: String) -> void:
	if into.size() > MAX_SCRIPTS or folder.trim_suffix("/") == skipped \
			or FileAccess.file_exists(folder.path_join(IGNORE_MARKER)):
		return
	for file_name: String in DirAccess.get_files_at(folder):
		if file_name.get_extension() == "gd":
			into.append(folder.path_join(file_name))
	for sub: String in DirAccess.get_directories_at(folder):
		# .godot (the import cache) and other hidden folders hold no project scripts.
		if not sub.begins_with("."):
			_collect(folder.path_join(sub), into, skipped)


static func _without_class_name(source: String) -> String:
	var lines := source.split("\n")
	for i in lines.size():
		if lines[i].begins_with(CLASS_NAME_PREFIX):
			# `class_name X extends Y` keeps its extends.
			var extends_at := lines[i].find(" extends ")
			lines[i] = lines[i].substr(extends_at + 1) if extends_at >= 0 else "#" + lines[i]
	return "\n".join(lines)


## "gdscript://123.gd:7 @ GDScript::reload()" -> 7
static func _line_of(source: String) -> int:
	var location := source.get_slice(" @ ", 0)
	var colon := location.rfind(":")
	var number := location.substr(colon + 1) if colon >= 0 else ""
	return int(number) if number.is_valid_int() else 0
