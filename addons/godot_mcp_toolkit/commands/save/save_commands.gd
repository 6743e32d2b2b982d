@tool
extends RefCounted
## Save data under user:// (group user_data): save.read (pages of one answer's size at most,
## scrubbed of secrets, untrusted-wrapped), save.write (the script tools' text write path, so it
## is undoable), save.delete (undoable: the bytes come back) and save.list.
## Everything else than user:// is refused: these tools exist so a model can inspect and reset a
## game's saves, not reach the project. Runtime-safe.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const ToolkitSuccess := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_success.gd")
const Params := preload("res://addons/godot_mcp_toolkit/contract/params.gd")
const Pagination := preload("res://addons/godot_mcp_toolkit/contract/pagination.gd")
const FileGuard := preload("res://addons/godot_mcp_toolkit/security/file_guard.gd")
const Scrubber := preload("res://addons/godot_mcp_toolkit/security/scrubber.gd")
const Untrusted := preload("res://addons/godot_mcp_toolkit/security/untrusted.gd")
const Settings := preload("res://addons/godot_mcp_toolkit/settings/settings_registration.gd")
const ScriptFiles := preload("res://addons/godot_mcp_toolkit/commands/script/script_files.gd")
const FileBytes := preload("res://addons/godot_mcp_toolkit/files/file_bytes.gd")
const ProjectWrites := preload("res://addons/godot_mcp_toolkit/checkpoints/project_writes.gd")
const Folders := preload("res://addons/godot_mcp_toolkit/base/folders.gd")
const FilePages := preload("res://addons/godot_mcp_toolkit/commands/script/file_pages.gd")
const AnswerBudget := preload("res://addons/godot_mcp_toolkit/contract/answer_budget.gd")

const SELF_PATH := "res://addons/godot_mcp_toolkit/commands/save/save_commands.gd"
const PAGE_HINT := "Bytes up to %d of %d fit one answer; pass offset next_offset for the rest."
const USER_ONLY_HINT := "Save tools work under user:// only; use script_read / script_write for res:// files."


static func register(registry: RefCounted, context: RefCounted) -> void:
	var script: Script = load(SELF_PATH)
	registry.register_command("save.read", Callable(script, "_cmd_read").bind(context),
		registry.create_options()
		.read_only().scene_independent())
	registry.register_command("save.write", Callable(script, "_cmd_write").bind(context),
		registry.create_options()
		.scene_independent())
	registry.register_command("save.delete", Callable(script, "_cmd_delete").bind(context),
		registry.create_options()
		.scene_independent())
	registry.register_command("save.list", Callable(script, "_cmd_list").bind(context),
		registry.create_options()
		.read_only().scene_independent())


## {"ok": true, "path"} for a user:// path the guard allows, else {"ok": false, "error"}.
static func _user_path(params: Dictionary) -> Dictionary:
	var missing := Params.require(params, ["path"])
	if not missing.is_empty():
		return {"ok": false, "error": missing}
	var checked := FileGuard.check(params["path"], true)
	if not checked["ok"]:
		return checked
	if not (checked["path"] as String).begins_with(FileGuard.USER_PREFIX):
		return {"ok": false, "error": ToolkitError.fail("INVALID_PARAMS",
			"Only user:// paths are allowed here: %s" % params["path"], USER_ONLY_HINT)}
	return checked


## {"ok": true, "path"} for an existing file (not a folder) under user://.
static func _user_file(params: Dictionary, missing_code: String) -> Dictionary:
	var checked := _user_path(params)
	if not checked["ok"]:
		return checked
	var path: String = checked["path"]
	if Folders.exists(path):
		return {"ok": false, "error": ToolkitError.fail("INVALID_PARAMS", "%s is a folder, not a file" % path,
			"List it with save_list.")}
	if not FileAccess.file_exists(path):
		return {"ok": false, "error": ToolkitError.fail(missing_code, "No file at %s" % path,
			"List the folder with save_list to see what is there.")}
	return checked


static func _cmd_read(params: Dictionary, _context: RefCounted) -> Dictionary:
	var window := _byte_window(params)
	if not window["ok"]:
		return window["error"]
	var target := _user_file(params, "SAVE_READ_FAILED")
	if not target["ok"]:
		return target["error"]
	var path: String = target["path"]
	var bytes := FileAccess.get_file_as_bytes(path)
	if FileAccess.get_open_error() != OK:
		return ToolkitError.fail("SAVE_READ_FAILED", "Could not read %s: %s" % [
			path, error_string(FileAccess.get_open_error())])
	if bytes.has(0):
		return ToolkitError.fail("SAVE_READ_FAILED", "%s is binary (store_var or a compressed file), not text" % path,
			"save_read returns text files (JSON, ConfigFile, plain text).")
	return _read_page(path, bytes, window, Settings.get_int(Settings.SAVE_READ_CAP_KB) * 1024)


## {"ok", "offset", "max_bytes" (0 = as much as one answer holds)} or the INVALID_PARAMS error.
static func _byte_window(params: Dictionary) -> Dictionary:
	for key: String in ["offset", "max_bytes"]:
		var value: Variant = params.get(key)
		if value != null and (not Params.is_whole_number(value) or int(value) < (0 if key == "offset" else 1)):
			return {"ok": false, "error": ToolkitError.fail("INVALID_PARAMS",
				"%s must be a whole number >= %d" % [key, 0 if key == "offset" else 1])}
	var offset: Variant = params.get("offset")
	var max_bytes: Variant = params.get("max_bytes")
	return {"ok": true, "offset": int(offset) if offset != null else 0,
		"max_bytes": int(max_bytes) if max_bytes != null else 0}


## The bytes from offset, up to max_bytes, the read cap and one answer's size (then ending after
## the last whole line that fits, FilePages.page_end), ended on a UTF-8 character boundary.
static func _read_page(path: String, bytes: PackedByteArray, window: Dictionary, cap: int) -> Dictionary:
	var total := bytes.size()
	var offset: int = window["offset"]
	if offset > total:
		return ToolkitError.fail("INVALID_PARAMS", "offset %d is past the end of %s (%d bytes)" % [offset, path, total])
	var wanted: int = window["max_bytes"] if window["max_bytes"] > 0 else cap
	var limit := mini(total, offset + mini(wanted, cap))
	var result := {"path": path, "content": Untrusted.wrap("", "save_data", path), "offset": offset, "redacted": false,
		"hint": PAGE_HINT % [total, total]}
	result.merge(Pagination.fields(0, total, "bytes", offset))
	var room := AnswerBudget.room_beside(result)
	var end := _page_end(bytes, offset, limit, room)
	var text := bytes.slice(offset, end).get_string_from_utf8()
	var scrubbed := Scrubber.scrub(text)
	# A redaction can be longer than the secret it hides: the page then ends sooner.
	while AnswerBudget.size_of(scrubbed) > room and end > offset + 1:
		end = _page_end(bytes, offset, end, room - (AnswerBudget.size_of(scrubbed) - room))
		text = bytes.slice(offset, end).get_string_from_utf8()
		scrubbed = Scrubber.scrub(text)
	result["content"] = Untrusted.wrap(scrubbed, "save_data", path)
	result["redacted"] = scrubbed != text
	result.erase("hint")
	result.merge(Pagination.fields(end - offset, total, "bytes", offset), true)
	if not result["has_more"]:
		result.erase("next_offset")
		return ToolkitSuccess.ok(result)
	if end < limit or window["max_bytes"] == 0:
		result["hint"] = PAGE_HINT % [end, total]
	elif window["max_bytes"] > cap:
		result["hint"] = "max_bytes was lowered to the %d KiB read cap (save_read_cap_kb)." % (cap / 1024)
	return ToolkitSuccess.ok(result)


## Where a page from `offset` ends: within `room` as JSON text and `limit`, never inside a
## character (a multi-byte character cut in two would decode as garbage).
static func _page_end(bytes: PackedByteArray, offset: int, limit: int, room: int) -> int:
	var end := FilePages.page_end(bytes, offset, limit, room)
	while end > offset and end < bytes.size() and (bytes[end] & 0xC0) == 0x80:
		end -= 1
	return end


static func _cmd_write(params: Dictionary, context: RefCounted) -> Dictionary:
	var missing := Params.require(params, ["path", "content"])
	if not missing.is_empty():
		return missing
	if not params["content"] is String:
		return ToolkitError.fail("INVALID_PARAMS", "content must be a string")
	var target := _user_path(params)
	if not target["ok"]:
		return target["error"]
	var path: String = target["path"]
	if Folders.exists(path):
		return ToolkitError.fail("INVALID_PARAMS", "%s is a folder, not a file" % path)
	# Saves live in folders the game makes; creating them here spares a round trip.
	var folder_error := ProjectWrites.make_dir(path.get_base_dir())
	if folder_error != OK:
		return ToolkitError.fail("SAVE_WRITE_FAILED", "Could not create the folder %s: %s" % [
			path.get_base_dir(), error_string(folder_error)])
	var previous: Variant = null
	if FileAccess.file_exists(path):
		var read := ScriptFiles.read_text(path)
		if not read["ok"]:
			return ToolkitError.fail("SAVE_WRITE_FAILED", "%s exists and is not a text file; it was left as it was" % path,
				"Delete it with save_delete first if it should be replaced.")
		previous = read["text"]
	var result := ScriptFiles.commit(context, path, params["content"], previous)
	if ToolkitError.is_failure(result):
		return ToolkitError.fail("SAVE_WRITE_FAILED", str(result.get("error", "")), str(result.get("hint", "")))
	result["path"] = result["file_path"]
	result.erase("file_path")
	return ToolkitSuccess.ok(result)


static func _cmd_delete(params: Dictionary, context: RefCounted) -> Dictionary:
	var target := _user_file(params, "NOT_FOUND")
	if not target["ok"]:
		return target["error"]
	var path: String = target["path"]
	var before: Variant = FileBytes.snapshot(path)
	var error := ProjectWrites.remove_file(path)
	if error != OK:
		return ToolkitError.fail("SAVE_DELETE_FAILED", "Could not delete %s: %s" % [path, error_string(error)])
	FileBytes.record(context, "MCP: delete %s" % path.get_file(), path, before, null)
	return ToolkitSuccess.ok({"path": path, "status": "deleted", "bytes": (before as PackedByteArray).size()})


static func _cmd_list(params: Dictionary, _context: RefCounted) -> Dictionary:
	var target := _user_path(params)
	if not target["ok"]:
		return target["error"]
	var path: String = target["path"]
	if FileAccess.file_exists(path):
		return ToolkitError.fail("INVALID_PATH", "%s is a file, not a folder" % path, "Read it with save_read.")
	var dir := DirAccess.open(path)
	if dir == null:
		if not Folders.exists(path):
			return ToolkitError.fail("NOT_FOUND", "No folder at %s" % path,
				"List user:// to see which folders the game has made.")
		return ToolkitError.fail("SAVE_READ_FAILED", "Could not open %s: %s" % [
			path, error_string(DirAccess.get_open_error())])
	var base := path if path.ends_with("/") else path + "/"
	var files: Array[Dictionary] = []
	for name: String in dir.get_files():
		var file_path := base + name
		files.append({"name": name, "path": file_path, "bytes": _size_of(file_path),
			"modified": FileAccess.get_modified_time(file_path)})
	var folders: Array[String] = []
	for name: String in dir.get_directories():
		folders.append(base + name)
	return ToolkitSuccess.ok({"path": path, "files": files, "folders": folders,
		"total_files": files.size(), "total_folders": folders.size()})


static func _size_of(path: String) -> int:
	var file := FileAccess.open(path, FileAccess.READ)
	return -1 if file == null else file.get_length()
