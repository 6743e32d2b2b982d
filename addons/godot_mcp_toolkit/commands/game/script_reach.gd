@tool
extends RefCounted
## Which files the game can load, as far as the project's files say statically: the pre-launch
## compile check blocks the launch on an addon script only when the game can load it.
##
## The roots are what the game loads by itself: every res:// or uid:// path a project setting names
## (the autoloads, the main scene, a custom theme; the editor's own settings and the enabled editor
## plugins are not the game's) and every scene and resource outside an addons/ folder (a game may
## load any of them by a path it builds, e.g. change_scene_to_file with a level number). Scripts
## are not roots: a project script nothing loads (a test suite of a test framework, a script not
## attached yet) does not make the addon code it uses part of the game. From a reached file:
## - a scene or resource (.tscn .scn .tres .res) reaches its external resources, as the engine
##   lists them (ResourceLoader.get_dependencies);
## - a script reaches the path of each preload() and extends "path" (relative to its folder),
##   every "res://..." or "uid://..." string literal in its code (load(), change_scene_to_file, a
##   path constant), and the script of every global class_name its code names.
## Not seen: a path built at run time (joined strings, a folder listed with DirAccess). Bounded:
## past MAX_FILES reached files the walk stops and says it is incomplete.

const GDScriptCheck := preload("res://addons/godot_mcp_toolkit/commands/script/gdscript_check.gd")

const MAX_FILES := 10000
const ADDONS := "/addons/"
const SCRIPT := "gd"
## Scenes and resources (text or binary): what can lead to a script besides scripts themselves.
const RESOURCES := ["tscn", "scn", "tres", "res"]
const RES := "res://"
const UID := "uid://"
## Settings the game never reads: the editor's own and the list of enabled editor plugins.
const EDITOR_SETTINGS := ["editor/", "editor_plugins/"]
## A string literal (its text in group 1 or 2) or a comment.
const LITERAL_OR_COMMENT := "\"((?:[^\"\\\\\\n]|\\\\.)*)\"|'((?:[^'\\\\\\n]|\\\\.)*)'|#[^\\n]*"


## True for a file inside an addons/ folder (at any depth: every folder of that name counts).
static func in_addon(path: String) -> bool:
	return path.contains(ADDONS)


## True for a scene or resource file, which the game may load by itself when outside addons/.
static func is_resource(path: String) -> bool:
	return path.get_extension() in RESOURCES


## The res:// files the project settings name (an autoload's "*res://..." counted), as roots.
static func setting_paths() -> PackedStringArray:
	var found := PackedStringArray()
	for property: Dictionary in ProjectSettings.get_property_list():
		var name := str(property["name"])
		if EDITOR_SETTINGS.any(func(prefix: String) -> bool: return name.begins_with(prefix)):
			continue
		var value: Variant = ProjectSettings.get_setting(name)
		if value is String or value is StringName:
			var path := _file_path(str(value).trim_prefix("*"))
			if not path.is_empty():
				found.append(path)
	return found


## {"reached": {res:// path: true}, "complete": bool}: every file reached from `roots`.
static func reached_from(roots: PackedStringArray) -> Dictionary:
	var classes := _global_classes()
	var named: RegEx = null
	if not classes.is_empty():
		named = RegEx.create_from_string("\\b(?:%s)\\b" % "|".join(PackedStringArray(classes.keys())))
	var reached := {}
	var pending: Array[String] = []
	pending.assign(roots)
	while not pending.is_empty():
		var path: String = pending.pop_back()
		var script := path.get_extension() == SCRIPT
		if reached.has(path) or not (script or is_resource(path)) or not FileAccess.file_exists(path):
			continue
		if reached.size() >= MAX_FILES:
			return {"reached": reached, "complete": false}
		reached[path] = true
		if script:
			pending.append_array(_script_dependencies(path, classes, named))
		else:
			pending.append_array(_resource_dependencies(path))
	return {"reached": reached, "complete": true}


## Global class_name -> its script's path.
static func _global_classes() -> Dictionary:
	var classes := {}
	for entry: Dictionary in ProjectSettings.get_global_class_list():
		var name := str(entry.get("class", ""))
		if not name.is_empty():
			classes[name] = str(entry.get("path", ""))
	return classes


static func _script_dependencies(path: String, classes: Dictionary, named: RegEx) -> PackedStringArray:
	var source := FileAccess.get_file_as_string(path)
	var found := GDScriptCheck.preloaded_paths(source, path)
	var literals := RegEx.create_from_string(LITERAL_OR_COMMENT)
	# The cheap tests first: many scripts name no path or no global class at all.
	if source.contains("://"):
		for literal: RegExMatch in literals.search_all(source):
			var target := _file_path(literal.get_string(1) + literal.get_string(2))
			if not target.is_empty():
				found.append(target)
	if named != null and named.search(source) != null:
		var names := {}
		for name: RegExMatch in named.search_all(literals.sub(source, "\"\"", true)):
			names[name.get_string()] = true
		for name: String in names:
			found.append(classes[name])
	return found


## The files a scene or resource loads: each dependency line holds its path (and, depending on
## the Godot version, its uid and type), separated by "::".
static func _resource_dependencies(path: String) -> PackedStringArray:
	var found := PackedStringArray()
	for dependency: String in ResourceLoader.get_dependencies(path):
		var parts := dependency.split("::")
		var target := _file_path(parts[0])
		for part: String in parts:
			if part.begins_with(RES):
				target = part
		if not target.is_empty():
			found.append(target)
	return found


## `text` as a res:// path when it is one or a known uid://, else "".
static func _file_path(text: String) -> String:
	if text.begins_with(RES):
		return text
	if not text.begins_with(UID):
		return ""
	var id := ResourceUID.text_to_id(text)
	return ResourceUID.get_id_path(id) if id != ResourceUID.INVALID_ID and ResourceUID.has_id(id) else ""
