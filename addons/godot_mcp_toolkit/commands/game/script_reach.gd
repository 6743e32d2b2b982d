@tool
extends RefCounted
## Which files the game can load, as far as the project's files say statically: the pre-launch
## compile check blocks the launch only on scripts the game can load.
##
## The roots are what the game may load by itself: every scene, resource and script outside an
## addons/ folder (a game can load any of them by path, e.g. change_scene_to_file) and every
## res:// or uid:// path a project setting names (the autoloads, the main scene, a custom theme;
## the editor's own settings and the enabled editor plugins are not the game's). From a reached
## file, these reach further:
## - a scene or resource (.tscn .scn .tres .res): its external resources, as the engine lists them
##   (ResourceLoader.get_dependencies);
## - a script: the path of each preload() and extends "path" (relative to its folder), every
##   "res://..." or "uid://..." string literal in its code (load(), change_scene_to_file, a path
##   constant), and every addon script whose global class_name its code names.
## Not seen: a path built at run time (joined strings, a folder listed with DirAccess). Bounded:
## past MAX_FILES reached files the walk stops and says it is incomplete.

const GDScriptCheck := preload("res://addons/godot_mcp_toolkit/commands/script/gdscript_check.gd")

const MAX_FILES := 10000
const ADDONS := "/addons/"
const SCRIPT := "gd"
## What can lead to a script: scenes and resources (text or binary) and scripts themselves.
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


## True for a file that can lead to a script (a script, scene or resource).
static func can_reach(path: String) -> bool:
	var extension := path.get_extension()
	return extension == SCRIPT or extension in RESOURCES


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
	var classes := _addon_classes()
	var named: RegEx = null
	if not classes.is_empty():
		named = RegEx.create_from_string("\\b(?:%s)\\b" % "|".join(PackedStringArray(classes.keys())))
	var reached := {}
	var pending: Array[String] = []
	pending.assign(roots)
	while not pending.is_empty():
		var path: String = pending.pop_back()
		if reached.has(path) or not can_reach(path) or not FileAccess.file_exists(path):
			continue
		if reached.size() >= MAX_FILES:
			return {"reached": reached, "complete": false}
		reached[path] = true
		if path.get_extension() == SCRIPT:
			pending.append_array(_script_dependencies(path, classes, named))
		else:
			pending.append_array(_resource_dependencies(path))
	return {"reached": reached, "complete": true}


## Global class_name -> script path, for the classes declared inside addons/.
static func _addon_classes() -> Dictionary:
	var classes := {}
	for entry: Dictionary in ProjectSettings.get_global_class_list():
		var path := str(entry.get("path", ""))
		if in_addon(path):
			classes[str(entry.get("class", ""))] = path
	return classes


static func _script_dependencies(path: String, classes: Dictionary, named: RegEx) -> PackedStringArray:
	var source := FileAccess.get_file_as_string(path)
	var found := GDScriptCheck.preloaded_paths(source, path)
	var literals := RegEx.create_from_string(LITERAL_OR_COMMENT)
	# The cheap tests first: most scripts name no path and no addon class at all.
	if source.contains("://"):
		for literal: RegExMatch in literals.search_all(source):
			var target := _file_path(literal.get_string(1) + literal.get_string(2))
			if not target.is_empty():
				found.append(target)
	if named != null and named.search(source) != null:
		for name: RegExMatch in named.search_all(literals.sub(source, "\"\"", true)):
			found.append(classes[name.get_string()])
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
