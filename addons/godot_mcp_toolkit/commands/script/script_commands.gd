@tool
extends RefCounted
## Script files: script.read (byte-exact pages of one answer's size, commands/script/file_pages.gd,
## untrusted-wrapped), script.write and script.edit (one shared write path,
## commands/script/script_files.gd; a .gd or shader answers whether it compiles), script.check (parse only) and
## script.delete (undoable, commands/filesystem/file_removal.gd).
## Runtime-safe: reaches the editor only through the context.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const ToolkitSuccess := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_success.gd")
const Params := preload("res://addons/godot_mcp_toolkit/contract/params.gd")
const Untrusted := preload("res://addons/godot_mcp_toolkit/security/untrusted.gd")
const FileGuard := preload("res://addons/godot_mcp_toolkit/security/file_guard.gd")
const Settings := preload("res://addons/godot_mcp_toolkit/settings/settings_registration.gd")
const ScriptFiles := preload("res://addons/godot_mcp_toolkit/commands/script/script_files.gd")
const GDScriptCheck := preload("res://addons/godot_mcp_toolkit/commands/script/gdscript_check.gd")
const FileRemoval := preload("res://addons/godot_mcp_toolkit/commands/filesystem/file_removal.gd")
const Folders := preload("res://addons/godot_mcp_toolkit/base/folders.gd")
const FilePages := preload("res://addons/godot_mcp_toolkit/commands/script/file_pages.gd")
const AnswerBudget := preload("res://addons/godot_mcp_toolkit/contract/answer_budget.gd")

const SELF_PATH := "res://addons/godot_mcp_toolkit/commands/script/script_commands.gd"
const INVALID_HINT := "Fix the first reported error (line numbers are 1-based), then check again: " \
	+ "the parser stops at the first error."
const SHADER_EXTENSIONS := ["gdshader", "gdshaderinc"]
## A shader's answer speaks for itself: the success hint of a script (attach it to a node) is no
## advice for one.
const SHADER_OK_HINT := "The engine compiles it; shader_get_uniforms lists a shader's parameters."


static func register(registry: RefCounted, context: RefCounted) -> void:
	var script: Script = load(SELF_PATH)
	registry.register_command("script.read", Callable(script, "_cmd_read").bind(context),
		registry.create_options()
		.read_only().scene_independent())
	registry.register_command("script.write", Callable(script, "_cmd_write").bind(context),
		registry.create_options()
		.scene_independent())
	registry.register_command("script.edit", Callable(script, "_cmd_edit").bind(context),
		registry.create_options()
		.scene_independent())
	registry.register_command("script.check", Callable(script, "_cmd_check").bind(context),
		registry.create_options()
		.read_only().scene_independent())
	registry.register_command("script.delete", Callable(script, "_cmd_delete").bind(context),
		registry.create_options()
		.with_input_schema(FileRemoval.file_schema()).scene_independent())


static func _cmd_read(params: Dictionary, _context: RefCounted) -> Dictionary:
	var window := _line_window(params)
	if not window["ok"]:
		return window["error"]
	var read := _readable(params)
	if not read["ok"]:
		return read["error"]
	var path: String = read["path"]
	var bytes: PackedByteArray = read["bytes"]
	var starts := FilePages.line_starts(bytes)
	var result := {"file_path": path, "content": "", "start_line": window["start"], "end_line": 0, "returned": 0,
		"total_lines": starts.size(), "has_more": false, "next_start_line": 0, "next_line_offset": 0,
		"line_offset": 0, "partial_line": false, "hint": ""}
	var cap := Settings.get_int(Settings.SCRIPT_READ_CAP_KB) * 1024
	var room := mini(AnswerBudget.room_beside(result) - _envelope_size(path), cap)
	var page := FilePages.page(bytes, starts, window["start"], window["offset"], window["end"], room)
	if not page["ok"]:
		return ToolkitError.fail("INVALID_PARAMS", "%s of %s" % [page["problem"], path], page["hint"])
	return ToolkitSuccess.ok(_page_result(path, page, window, starts.size()))


## {"ok": true, "path", "bytes"} for the existing text file `file_path`, else {"ok": false, "error"}.
static func _readable(params: Dictionary) -> Dictionary:
	var missing := Params.require(params, ["file_path"])
	if not missing.is_empty():
		return {"ok": false, "error": missing}
	var target := ScriptFiles.check_path(params["file_path"], false)
	if not target["ok"]:
		return target
	var read := ScriptFiles.read_bytes(target["path"])
	if read["ok"]:
		read["path"] = target["path"]
	return read


## {"ok", "start", "end" (0 = to the end), "offset" (bytes into the start line)} from
## start_line / end_line / line_offset, or the error.
static func _line_window(params: Dictionary) -> Dictionary:
	var offset: Variant = params.get("line_offset", 0)
	if offset == null:
		offset = 0
	if not Params.is_whole_number(offset) or int(offset) < 0:
		return {"ok": false, "error": ToolkitError.fail("INVALID_PARAMS", "line_offset must be a whole number >= 0")}
	var bounds := {"start_line": 1, "end_line": 0}
	for key: String in bounds:
		if not params.has(key) or params[key] == null:
			continue
		if not Params.is_whole_number(params[key]) or int(params[key]) < 1:
			return {"ok": false, "error": ToolkitError.fail("INVALID_PARAMS", "%s must be a whole number >= 1" % key)}
		bounds[key] = int(params[key])
	var start: int = bounds["start_line"]
	var end: int = bounds["end_line"]
	if end != 0 and end < start:
		return {"ok": false, "error": ToolkitError.fail("INVALID_PARAMS",
			"end_line (%d) is before start_line (%d)" % [end, start])}
	return {"ok": true, "start": start, "end": end, "offset": int(offset)}


## The answer for one page: the text (its bytes are the file's, line ends included), the lines it
## spans, and where to go on while the file does; a page that stopped short of what was asked
## says so in its hint.
static func _page_result(path: String, page: Dictionary, window: Dictionary, total: int) -> Dictionary:
	var start: int = window["start"]
	var end_line: int = page["end_line"]
	var result := {"file_path": path, "content": Untrusted.wrap(page["text"], "script", path),
		"start_line": start, "end_line": end_line, "returned": end_line - start + 1 if total > 0 else 0,
		"total_lines": total, "has_more": page.has("next_start_line")}
	if window["offset"] > 0:
		result["line_offset"] = window["offset"]
	if page["partial_line"]:
		result["partial_line"] = true
	if not page.has("next_start_line"):
		return result
	var next_line: int = page["next_start_line"]
	result["next_start_line"] = next_line
	var go_on := "start_line %d" % next_line
	if page.has("next_line_offset"):
		result["next_line_offset"] = page["next_line_offset"]
		go_on += " and line_offset %d" % page["next_line_offset"]
	var asked_end: int = window["end"]
	if asked_end == 0 or next_line <= asked_end:
		result["hint"] = "One answer holds about %d KB; continue with %s." % [AnswerBudget.BYTES / 1000, go_on]
	return result


## What the untrusted envelope adds around a page's text, as JSON.
static func _envelope_size(path: String) -> int:
	return AnswerBudget.size_of(Untrusted.wrap("", "script", path))


static func _cmd_write(params: Dictionary, context: RefCounted) -> Dictionary:
	var missing := Params.require(params, ["file_path", "content"])
	if not missing.is_empty():
		return missing
	if not params["content"] is String:
		return ToolkitError.fail("INVALID_PARAMS", "content must be a string")
	var target := ScriptFiles.check_path(params["file_path"], true)
	if not target["ok"]:
		return target["error"]
	var path: String = target["path"]
	if not Folders.exists(path.get_base_dir()):
		return ToolkitError.fail("PARENT_NOT_FOUND", "The folder %s does not exist" % path.get_base_dir(),
			"Create it first with folder_create, then write the file.")
	var previous: Variant = null
	if FileAccess.file_exists(path):
		var read := ScriptFiles.read_text(path)
		if not read["ok"]:
			return read["error"]
		previous = read["text"]
	return _committed(context, path, params["content"], previous, {})


static func _cmd_edit(params: Dictionary, context: RefCounted) -> Dictionary:
	var checked := _edit_params(params)
	if not checked.is_empty():
		return checked
	var target := ScriptFiles.check_path(params["file_path"], true)
	if not target["ok"]:
		return target["error"]
	var path: String = target["path"]
	var read := ScriptFiles.read_text(path)
	if not read["ok"]:
		return read["error"]
	var text: String = read["text"]
	var old_string: String = params["old_string"]
	var new_string: String = params["new_string"]
	var positions := _positions(text, old_string)
	if positions.is_empty():
		return ToolkitError.fail("NOT_FOUND", "old_string does not occur in %s" % path,
			"Copy it exactly from script_read (same indentation: tabs vs spaces, same line breaks).")
	if positions.size() > 1 and not bool(params.get("replace_all", false)):
		return ToolkitError.fail("NOT_UNIQUE", "old_string occurs %d times in %s (lines %s)" % [
			positions.size(), path, ", ".join(_line_numbers(text, positions))],
			"Include more surrounding text so it matches once, or pass replace_all: true.")
	var edited := _replaced(text, old_string, new_string, positions)
	return _committed(context, path, edited["text"], text, {
		"replacements": positions.size(), "changed_lines": edited["lines"]})


## {} when the edit params are usable, else the INVALID_PARAMS envelope.
static func _edit_params(params: Dictionary) -> Dictionary:
	var missing := Params.require(params, ["file_path", "old_string", "new_string"])
	var problem := ""
	if not missing.is_empty():
		return missing
	if not (params["old_string"] is String and params["new_string"] is String):
		problem = "old_string and new_string must be strings"
	elif (params["old_string"] as String).is_empty():
		problem = "old_string is empty; to write a whole file use script_write"
	elif params["old_string"] == params["new_string"]:
		problem = "old_string and new_string are the same, so the edit would change nothing"
	elif params.get("replace_all") != null and not params["replace_all"] is bool:
		problem = "replace_all must be true or false"
	return {} if problem.is_empty() else ToolkitError.fail("INVALID_PARAMS", problem)


## Start offsets of the non-overlapping occurrences of `needle`.
static func _positions(text: String, needle: String) -> PackedInt32Array:
	var found := PackedInt32Array()
	var at := text.find(needle)
	while at != -1:
		found.append(at)
		at = text.find(needle, at + needle.length())
	return found


static func _line_numbers(text: String, positions: PackedInt32Array) -> PackedStringArray:
	var numbers := PackedStringArray()
	for at: int in positions:
		numbers.append(str(text.substr(0, at).count("\n") + 1))
	return numbers


## {"text": edited text, "lines": the line (in the edited text) each replacement starts on}.
static func _replaced(text: String, old_string: String, new_string: String,
		positions: PackedInt32Array) -> Dictionary:
	var out := ""
	var cursor := 0
	var lines: Array[int] = []
	for at: int in positions:
		out += text.substr(cursor, at - cursor)
		lines.append(out.count("\n") + 1)
		out += new_string
		cursor = at + old_string.length()
	return {"text": out + text.substr(cursor), "lines": lines}


## Runs the shared write path and shapes its reply (extra keys merged in, hint when invalid).
static func _committed(context: RefCounted, path: String, text: String, previous: Variant,
		extra: Dictionary) -> Dictionary:
	var result := ScriptFiles.commit(context, path, text, previous)
	if ToolkitError.is_failure(result):
		return result
	result.merge(extra)
	if result.has("compile_hint"):
		result["hint"] = "Written, but the shader does not compile. " + str(result["compile_hint"])
		result.erase("compile_hint")
	elif path.get_extension().to_lower() in SHADER_EXTENSIONS:
		result["hint"] = SHADER_OK_HINT
	elif result.has("valid") and not result["valid"]:
		result["hint"] = "Written, but the script does not compile. " + INVALID_HINT
	return ToolkitSuccess.ok(result)


static func _cmd_check(params: Dictionary, _context: RefCounted) -> Dictionary:
	var path := str(params.get("file_path", ""))
	if path.get_extension().to_lower() != "gd":
		return FileGuard.wrong_extension("file_path", path, ["gd"])
	var read := _readable(params)
	if not read["ok"]:
		return read["error"]
	path = read["path"]
	var result := {"file_path": path}
	result.merge(GDScriptCheck.check_source((read["bytes"] as PackedByteArray).get_string_from_utf8(), path))
	if not result["valid"]:
		result["hint"] = INVALID_HINT
	return ToolkitSuccess.ok(result)


## The delete every file kind shares (commands/filesystem/file_removal.gd), for scripts only.
static func _cmd_delete(params: Dictionary, context: RefCounted) -> Dictionary:
	return FileRemoval.delete_file(params.get("file_path"), "script", context)
