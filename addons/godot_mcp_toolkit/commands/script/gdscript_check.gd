@tool
extends RefCounted
## GDScript parse/compile diagnostics: compiling source returns only an Error code, so the
## messages are caught on their way to the engine's log (logs/error_capture.gd). Runtime-safe.
##
## The parser reports its first error through the engine's error print ("Parse Error: ..." with
## the line). Godot 4.5+ lets a Logger see those prints; on 4.2-4.4 only the code is known, and
## the result says so.

const ErrorCapture := preload("res://addons/godot_mcp_toolkit/logs/error_capture.gd")
const ResPaths := preload("res://addons/godot_mcp_toolkit/base/res_paths.gd")

const RELOAD_FUNCTION := "GDScript::reload"
## A preload("path") or extends "path": a path the compiler resolves against the script's folder.
const PATH_LITERAL := "(\\b(?:preload\\s*\\(|extends)\\s*)([\"'])([^\"'\\n]+)\\2"
const MESSAGE_PREFIXES := ["Parse Error: ", "Compile Error: "]
const NO_DETAIL := "The script does not compile (%s); this Godot version does not report the message. " \
	+ "Open it in the script editor to see the error."


## Compiles `text` as if it were the file at `path`, without touching that file or reloading its
## loaded script: {"valid": bool, "errors": [{"line", "message"}]}. When the file exists the copy
## is compiled under its real path, as the game loads it (relative paths, a method typed to return
## the script's own class_name); a file not yet written is compiled as a portable copy.
static func check_source(text: String, path: String) -> Dictionary:
	var copy := GDScript.new()
	var live := _loaded(path)
	if live == null:
		copy.source_code = portable_copy(text, path)
		return _diagnose(func() -> int: return copy.reload(), path)
	copy.source_code = text
	return _diagnose(func() -> int: return _compile_in_place_of(live, copy, path), path)


## Sets `text` as the source of a loaded script and recompiles it in place (instances keep their
## state, as on an editor save): the same result shape as check_source().
static func reload_live(script: GDScript, text: String) -> Dictionary:
	script.source_code = text
	return _diagnose(func() -> int: return script.reload(true), script.resource_path)


## The script the engine holds for the file at `path`, loaded now if nothing has loaded it yet
## (as opening a scene that uses it would); null when there is no such GDScript file.
static func _loaded(path: String) -> GDScript:
	if not path.begins_with("res://") or not FileAccess.file_exists(path):
		return null
	return ResourceLoader.load(path, "GDScript") as GDScript


## Compiles `copy` as the script at `path` while `live` keeps that path in the resource cache: the
## copy takes the path over (which sets its script path, so the compiler resolves relative paths
## and the own class_name against the file) and `live` takes it straight back. The compile then
## finds `live` cached for the path, so the copy never enters a cache and `live` is not reloaded.
static func _compile_in_place_of(live: GDScript, copy: GDScript, path: String) -> int:
	copy.take_over_path(path)
	live.take_over_path(path)
	return copy.reload()


## `text` made compilable without a path: relative preload/extends paths become res:// paths
## (they resolve against the script's folder), and a `class_name` the project already registers
## for this very file is blanked (a pathless copy would otherwise "hide" the real class). Only
## characters on a line change, never the line count, so reported lines match the file.
static func portable_copy(text: String, path: String) -> String:
	var out := _absolute_paths(text, path.get_base_dir())
	var declared := RegEx.create_from_string("\\bclass_name\\s+([A-Za-z_]\\w*)").search(out)
	if declared != null and _registered_path(declared.get_string(1)) == path:
		var blank := " ".repeat(declared.get_end() - declared.get_start())
		out = out.substr(0, declared.get_start()) + blank + out.substr(declared.get_end())
	return out


static func _absolute_paths(text: String, folder: String) -> String:
	var out := ""
	var cursor := 0
	for found: RegExMatch in RegEx.create_from_string(PATH_LITERAL).search_all(text):
		var quote := found.get_string(2)
		out += text.substr(cursor, found.get_start() - cursor) + found.get_string(1) + quote \
			+ ResPaths.resolved(found.get_string(3), folder) + quote
		cursor = found.get_end()
	return out + text.substr(cursor)


## The files a script's preload() and extends "path" name, as res:// paths (`path` is the script's).
static func preloaded_paths(text: String, path: String) -> PackedStringArray:
	var found := PackedStringArray()
	for literal: RegExMatch in RegEx.create_from_string(PATH_LITERAL).search_all(text):
		found.append(ResPaths.resolved(literal.get_string(3), path.get_base_dir()))
	return found


static func _registered_path(class_name_text: String) -> String:
	for entry: Dictionary in ProjectSettings.get_global_class_list():
		if String(entry.get("class", "")) == class_name_text:
			return str(entry.get("path", ""))
	return ""


## Runs `compile` (returns an Error) while listening for the compiler's messages. An error met
## in another project file (a script this one preloads) names that file.
static func _diagnose(compile: Callable, path: String) -> Dictionary:
	var logger: Object = ErrorCapture.start()
	var error: int = compile.call()
	var entries: Array = ErrorCapture.stop(logger).filter(
		func(entry: Dictionary) -> bool: return entry["function"] == RELOAD_FUNCTION)
	if error == OK:
		return {"valid": true, "errors": []}
	var errors: Array[Dictionary] = []
	for entry: Dictionary in entries:
		var message := _message(str(entry["code"]))
		var file := str(entry["file"])
		if file.begins_with("res://") and file != path:
			message = "in %s: %s" % [file, message]
		errors.append({"line": int(entry["line"]), "message": message})
	if errors.is_empty():
		errors.append({"line": 0, "message": NO_DETAIL % error_string(error)})
	return {"valid": false, "errors": errors}


static func _message(text: String) -> String:
	for prefix: String in MESSAGE_PREFIXES:
		if text.begins_with(prefix):
			return text.substr(prefix.length())
	return text
