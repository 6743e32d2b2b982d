@tool
extends RefCounted
## Compiles every GDScript under a folder before the game is launched, so a script error is
## reported to the caller (COMPILATION_FAILED with file, line and message) instead of surfacing
## as a game that dies on start. Each file is compiled at its own path, as the game loads it, by
## a copy that never replaces the loaded script (commands/script/gdscript_check.gd), so nothing
## live in the editor is reloaded. The messages come from the engine's error stream on Godot
## 4.5+; older engines name the file only.
##
## Which errors block the launch: those of scripts the game can load. Every script outside an
## addons/ folder counts (the project's own code: the game may load any of it by path). A script
## inside addons/ counts only when the game reaches it (commands/game/script_reach.gd: from the
## autoloads and other project settings and from the scenes and resources outside addons/, through
## external resources, preload/extends paths, res:// string paths and global class_names). The
## errors of the other addon scripts (an editor plugin's helpers, a test framework that does not
## compile on this Godot, even one the project's test suites use) are reported under
## "unreachable_errors" and do not block. A project too large to follow to the end (script_reach.gd's
## MAX_FILES) makes every addon script count.
##
## Not compiled, because no game loads them: script templates, folders holding a .gdignore,
## hidden folders, and scripts extending an Editor* class (a plugin, an export or import plugin,
## an EditorScript).

const GDScriptCheck := preload("res://addons/godot_mcp_toolkit/commands/script/gdscript_check.gd")
const ScriptReach := preload("res://addons/godot_mcp_toolkit/commands/game/script_reach.gd")

## Past this many scripts (or scenes and resources outside addons/) the check stops and says so
## rather than stall the editor.
const MAX_SCRIPTS := 2000
const MAX_RESOURCES := 5000
## Per list: the blocking errors and the unreachable ones are capped apart.
const MAX_ERRORS := 50
const UNREACHABLE := "not loaded by the game: no autoload, setting, scene or resource of the project reaches it"
## Script templates hold placeholders (_BASE_, _CLASS_) and never compile; the game never loads them.
const TEMPLATES_SETTING := "editor/script/templates_search_path"
const TEMPLATES_DEFAULT := "res://script_templates"
## A folder holding this file is invisible to the engine's import and the game.
const IGNORE_MARKER := ".gdignore"
const EXTENDS_EDITOR := "(?m)^\\s*extends\\s+Editor[A-Z]\\w*"


## {"checked": int, "errors": [{path, line, message}] (blocking),
##  "unreachable_errors": [{path, line, message, reason}] (not blocking), "truncated": bool}
static func check_folder(root: String) -> Dictionary:
	var found := {"scripts": PackedStringArray(), "roots": PackedStringArray()}
	var templates := str(ProjectSettings.get_setting(TEMPLATES_SETTING, TEMPLATES_DEFAULT)).trim_suffix("/")
	_collect(root, found, templates)
	var scripts: PackedStringArray = found["scripts"]
	var roots: PackedStringArray = found["roots"]
	var all_roots := roots.size() <= MAX_RESOURCES
	var truncated := scripts.size() > MAX_SCRIPTS or not all_roots
	scripts = scripts.slice(0, MAX_SCRIPTS)
	roots.append_array(ScriptReach.setting_paths())
	var reach := ScriptReach.reached_from(roots)
	# Without every root or the whole walk, no addon script can be shown unreachable.
	var known: bool = all_roots and reach["complete"]
	var loaded: Dictionary = reach["reached"]
	var blocking := PackedStringArray()
	var unreachable := PackedStringArray()
	for path: String in scripts:
		if not known or not ScriptReach.in_addon(path) or loaded.has(path):
			blocking.append(path)
		else:
			unreachable.append(path)
	var result := {"checked": 0, "errors": [], "unreachable_errors": [], "truncated": truncated}
	_compile(blocking, result, "errors", "")
	if (result["errors"] as Array).size() < MAX_ERRORS:
		_compile(unreachable, result, "unreachable_errors", UNREACHABLE)
	return result


## Compiles `paths` in turn, appending each error to result[key] (with `reason` when not empty).
static func _compile(paths: PackedStringArray, result: Dictionary, key: String, reason: String) -> void:
	var errors: Array = result[key]
	for path: String in paths:
		if errors.size() >= MAX_ERRORS:
			result["truncated"] = true
			return
		var source := FileAccess.get_file_as_string(path)
		if is_editor_only(source):
			continue
		result["checked"] += 1
		for found: Dictionary in GDScriptCheck.check_source(source, path)["errors"]:
			var error := {"path": path, "line": found["line"], "message": found["message"]}
			if not reason.is_empty():
				error["reason"] = reason
			errors.append(error)


## True for a script only the editor runs: it extends an Editor* class.
static func is_editor_only(source: String) -> bool:
	# Strings and comments blanked, so only code is matched.
	var code := RegEx.create_from_string(ScriptReach.LITERAL_OR_COMMENT).sub(source, "\"\"", true)
	return RegEx.create_from_string(EXTENDS_EDITOR).search(code) != null


## Gathers the scripts under `folder` (into found.scripts) and the scenes and resources outside
## addons/, which the game may load by itself (found.roots).
static func _collect(folder: String, found: Dictionary, skipped: String) -> void:
	var scripts: PackedStringArray = found["scripts"]
	var roots: PackedStringArray = found["roots"]
	if scripts.size() > MAX_SCRIPTS or roots.size() > MAX_RESOURCES or folder.trim_suffix("/") == skipped \
			or FileAccess.file_exists(folder.path_join(IGNORE_MARKER)):
		return
	for file_name: String in DirAccess.get_files_at(folder):
		var path := folder.path_join(file_name)
		if file_name.get_extension() == ScriptReach.SCRIPT:
			scripts.append(path)
		elif ScriptReach.is_resource(path) and not ScriptReach.in_addon(path):
			roots.append(path)
	found["scripts"] = scripts
	found["roots"] = roots
	for sub: String in DirAccess.get_directories_at(folder):
		# .godot (the import cache) and other hidden folders hold no project scripts.
		if not sub.begins_with("."):
			_collect(folder.path_join(sub), found, skipped)
