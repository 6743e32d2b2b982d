@tool
extends RefCounted
## Compiles every GDScript under a folder before the game is launched, so a script error is
## reported to the caller (COMPILATION_FAILED with file, line and message) instead of surfacing
## as a game that dies on start. Each file is compiled at its own path, as the game loads it, by
## a copy that never replaces the loaded script (commands/script/gdscript_check.gd), so nothing
## live in the editor is reloaded. The messages come from the engine's error stream on Godot
## 4.5+; older engines name the file only.
##
## Not compiled, because the game never loads them: script templates, folders holding a
## .gdignore, hidden folders, and editor-only scripts (one extending an Editor* class, or an
## addon's @tool script naming one), which need classes only the editor has.

const GDScriptCheck := preload("res://addons/godot_mcp_toolkit/commands/script/gdscript_check.gd")

## Past this many scripts the check stops and says so rather than stall the editor.
const MAX_SCRIPTS := 2000
const MAX_ERRORS := 50
## Script templates hold placeholders (_BASE_, _CLASS_) and never compile; the game never loads them.
const TEMPLATES_SETTING := "editor/script/templates_search_path"
const TEMPLATES_DEFAULT := "res://script_templates"
## A folder holding this file is invisible to the engine's import and the game.
const IGNORE_MARKER := ".gdignore"
## Where editor-only tools live: the project's addons/ folder (any folder of that name counts).
const ADDONS := "/addons/"
const EXTENDS_EDITOR := "(?m)^\\s*extends\\s+Editor[A-Z]\\w*"
const TOOL_ANNOTATION := "(?m)^\\s*@tool\\b"
const EDITOR_CLASS := "\\bEditor[A-Z]\\w*"
## A string literal or a comment, so class names are only matched in code.
const NOT_CODE := "\"(?:[^\"\\\\\\n]|\\\\.)*\"|'(?:[^'\\\\\\n]|\\\\.)*'|#[^\\n]*"


## {"checked": int, "errors": [{path, line, message}], "truncated": bool}
static func check_folder(root: String) -> Dictionary:
	var paths := PackedStringArray()
	var templates := str(ProjectSettings.get_setting(TEMPLATES_SETTING, TEMPLATES_DEFAULT)).trim_suffix("/")
	_collect(root, paths, templates)
	var truncated := paths.size() > MAX_SCRIPTS
	if truncated:
		paths = paths.slice(0, MAX_SCRIPTS)
	var checked := 0
	var errors: Array[Dictionary] = []
	for path: String in paths:
		if errors.size() >= MAX_ERRORS:
			truncated = true
			break
		var source := FileAccess.get_file_as_string(path)
		if is_editor_only(source, path.contains(ADDONS)):
			continue
		checked += 1
		for found: Dictionary in GDScriptCheck.check_source(source, path)["errors"]:
			errors.append({"path": path, "line": found["line"], "message": found["message"]})
	return {"checked": checked, "errors": errors, "truncated": truncated}


## True for a script only the editor runs: it extends an Editor* class (a plugin, an export or
## import plugin, an EditorScript), or it is an addon's @tool script whose code names one.
static func is_editor_only(source: String, in_addon: bool) -> bool:
	var code := RegEx.create_from_string(NOT_CODE).sub(source, "\"\"", true)
	if RegEx.create_from_string(EXTENDS_EDITOR).search(code) != null:
		return true
	return in_addon and RegEx.create_from_string(TOOL_ANNOTATION).search(code) != null \
		and RegEx.create_from_string(EDITOR_CLASS).search(code) != null


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
