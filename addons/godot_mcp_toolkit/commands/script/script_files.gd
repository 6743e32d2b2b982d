@tool
extends RefCounted
## Text files for the script commands: the path rules, reading, and the ONE write path that
## script.write and script.edit share (write, undo entry, editor reindex, reload of the loaded
## resource, .gd and shader diagnostics), so an edit and a whole-file write behave identically.
## Runtime-safe.
##
## The file is written before the undo entry is recorded (commit without executing), so a write
## that fails leaves no history entry and the old file intact (the write replaces it whole).

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const FileGuard := preload("res://addons/godot_mcp_toolkit/security/file_guard.gd")
const GDScriptCheck := preload("res://addons/godot_mcp_toolkit/commands/script/gdscript_check.gd")
const ShaderCompile := preload("res://addons/godot_mcp_toolkit/commands/shader/shader_compile.gd")
const ShaderIncludes := preload("res://addons/godot_mcp_toolkit/commands/shader/shader_includes.gd")
const ProjectWrites := preload("res://addons/godot_mcp_toolkit/checkpoints/project_writes.gd")
const Folders := preload("res://addons/godot_mcp_toolkit/base/folders.gd")

## Undo/redo steps call this file's static functions through its script resource.
const SELF_PATH := "res://addons/godot_mcp_toolkit/commands/script/script_files.gd"
## Written only by the engine or by project.set_setting (which refuses the toolkit's keys).
const ENGINE_OWNED := ["res://project.godot", "res://.godot"]

const STATUS_CREATED := "created"
const STATUS_REPLACED := "replaced"
const STATUS_UNCHANGED := "unchanged"


## The file guard's verdict on `path`, plus: not a folder, not an engine-owned file.
## {"ok": true, "path"} or {"ok": false, "error"}.
static func check_path(path: Variant, for_write: bool) -> Dictionary:
	var checked := FileGuard.check(path)
	if not checked["ok"]:
		return checked
	var normalized: String = checked["path"]
	var refusal := {}
	if normalized.get_file().is_empty() or Folders.exists(normalized):
		refusal = ToolkitError.fail("INVALID_PATH", "%s is a folder, not a file" % normalized)
	elif for_write and _is_engine_owned(normalized):
		refusal = ToolkitError.fail("PATH_DENIED", "%s is written by the engine, not by script tools" % normalized,
			"Use project_set_setting for project.godot; .godot/ is the engine's cache.")
	return checked if refusal.is_empty() else {"ok": false, "error": refusal}


## {"ok": true, "text"} for a readable UTF-8 text file, else {"ok": false, "error"} (NOT_FOUND or
## READ_FAILED).
static func read_text(path: String) -> Dictionary:
	var read := read_bytes(path)
	if read["ok"]:
		read["text"] = (read["bytes"] as PackedByteArray).get_string_from_utf8()
	return read


## {"ok": true, "bytes"} for a readable text file, else {"ok": false, "error"} (NOT_FOUND or
## READ_FAILED). A NUL byte marks a binary file, which these tools would corrupt.
static func read_bytes(path: String) -> Dictionary:
	if not FileAccess.file_exists(path):
		return {"ok": false, "error": ToolkitError.fail("NOT_FOUND", "No file at %s" % path,
			"Check the path (res://...); script_write creates new files.")}
	var bytes := FileAccess.get_file_as_bytes(path)
	var open_error := FileAccess.get_open_error()
	if open_error != OK:
		return {"ok": false, "error": ToolkitError.fail("READ_FAILED",
			"Could not read %s: %s" % [path, error_string(open_error)])}
	if bytes.has(0):
		return {"ok": false, "error": ToolkitError.fail("READ_FAILED", "%s is a binary file, not text" % path,
			"These tools read and write text files (.gd, .gdshader, .json, ...).")}
	return {"ok": true, "bytes": bytes}


## The file's lines as an editor numbers them: a final newline does not start another line.
static func split_lines(text: String) -> PackedStringArray:
	if text.is_empty():
		return PackedStringArray()
	var lines := text.split("\n")
	if text.ends_with("\n"):
		lines.remove_at(lines.size() - 1)
	return lines


## Writes `text` to `path`, records the undo entry (restore `previous`, or delete the file when
## `previous` is null: it was created), reindexes, reloads, and diagnoses a .gd or a shader. The
## success payload (without "success"): file_path, status, bytes, lines, and for .gd, .gdshader and
## .gdshaderinc valid + errors (as script.check and shader.check answer them).
static func commit(context: RefCounted, path: String, text: String, previous: Variant) -> Dictionary:
	var status := STATUS_CREATED if previous == null else STATUS_REPLACED
	if previous is String and previous == text:
		status = STATUS_UNCHANGED
	else:
		var error := ProjectWrites.write_text(path, text)
		if error != OK:
			return ToolkitError.fail("WRITE_FAILED", "Could not write %s: %s" % [path, error_string(error)],
				"The file was left as it was. Check that the folder is writable.")
		_record_undo(context, path, text, previous)
		context.project.refresh_files(PackedStringArray([path]))
	var result := {"file_path": path, "status": status, "bytes": text.to_utf8_buffer().size(),
		"lines": split_lines(text).size()}
	result.merge(_reload(path, text, true))
	return result


## Undo/redo step: `path` holds `text` again (write, reindex, reload).
static func apply_text(path: String, text: String, context_ref: WeakRef) -> void:
	if ProjectWrites.write_text(path, text) != OK:
		push_error("MCP toolkit: undo/redo could not write %s" % path)
		return
	_refresh(context_ref, path)
	_reload(path, text, false)


## Undo step of a created file: it is removed again.
static func remove_file(path: String, context_ref: WeakRef) -> void:
	if ProjectWrites.remove_file(path) != OK:
		push_error("MCP toolkit: undo could not remove %s" % path)
		return
	_refresh(context_ref, path)


## The context is held weakly: the history lives inside the context, and a strong reference
## from a step back to it would keep both alive forever.
static func _record_undo(context: RefCounted, path: String, text: String, previous: Variant) -> void:
	var steps: Script = load(SELF_PATH)
	var context_ref: WeakRef = weakref(context)
	var action: RefCounted = context.edits.create_undo_action("MCP: write %s" % path.get_file())
	action.add_do_method(steps, &"apply_text", [path, text, context_ref])
	if previous == null:
		action.add_undo_method(steps, &"remove_file", [path, context_ref])
	else:
		action.add_undo_method(steps, &"apply_text", [path, previous, context_ref])
	action.commit(false)


static func _refresh(context_ref: WeakRef, path: String) -> void:
	var context: Object = context_ref.get_ref()
	if context != null:
		context.project.refresh_files(PackedStringArray([path]))


## Brings a loaded resource up to date with the file (a loaded script recompiles in place, as
## on an editor save; a loaded shader or include takes the new code, and the shaders including it
## follow) and, when `diagnose`, returns a .gd's or a shader's diagnostics ({} for other files).
static func _reload(path: String, text: String, diagnose: bool) -> Dictionary:
	var live: Resource = load(path) if ResourceLoader.has_cached(path) else null
	if live is GDScript:
		var live_result := GDScriptCheck.reload_live(live as GDScript, text)
		return live_result if diagnose else {}
	if live is Shader:
		(live as Shader).code = text
	elif live is ShaderInclude:
		(live as ShaderInclude).code = text
	if not diagnose:
		return {}
	var extension := path.get_extension().to_lower()
	if extension in ["gdshader", "gdshaderinc"] and not ShaderCompile.renderer_compiles():
		return {}
	match extension:
		"gd":
			return GDScriptCheck.check_source(text, path)
		"gdshader":
			return _verdict(ShaderCompile.check(text, path))
		"gdshaderinc":
			return _verdict(ShaderIncludes.check(path, ""))
	return {}


## A shader check's valid + errors, with its hint as "compile_hint" (the caller words the answer's).
static func _verdict(report: Dictionary) -> Dictionary:
	var verdict := {"valid": report["valid"], "errors": report["errors"]}
	if not report["valid"]:
		verdict["compile_hint"] = report.get("hint", "")
	return verdict


static func _is_engine_owned(path: String) -> bool:
	var folded := path.to_lower()
	for owned: String in ENGINE_OWNED:
		if folded == owned or folded.begins_with(owned + "/"):
			return true
	return false
