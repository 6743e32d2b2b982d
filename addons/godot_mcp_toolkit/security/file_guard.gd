@tool
extends RefCounted
## Decides which project paths a command may touch. String rules only (no filesystem), so every
## rule is testable headless; a uid is looked up in the engine's ResourceUID table. Runtime-safe.
##
## Rules, in order: a non-empty string; `\` read as `/`; a `uid://` (Godot 4.4+ projects name
## files by uid) is the res:// path ResourceUID has for it, then guarded as that path (an unknown
## uid is NOT_FOUND naming it); no `..` segment anywhere (refused rather than resolved, so nothing
## can climb out of the project); res:// always, user:// only when the caller allows it (save
## tools); never the toolkit's own folder, in res:// (its code) or user:// (the auth token),
## compared case-insensitively because Windows and macOS fold case. These rules and the bridge's
## (godot_bridge/safety/pathguard.py) are one table: tests/fixtures/toolkit/path_guard_cases.json.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")

const RES_PREFIX := "res://"
const USER_PREFIX := "user://"
const UID_PREFIX := "uid://"
const TOOLKIT_FOLDERS := ["res://addons/godot_mcp_toolkit", "user://addons/godot_mcp_toolkit"]


## {"ok": true, "path": normalized} (with "uid" when `path` was one) or {"ok": false, "error":
## envelope}. `protected` adds exact files to refuse (an operator's GODOT_MCP_TOKEN_PATH, say).
static func check(path: Variant, allow_user: bool = false,
		protected: PackedStringArray = PackedStringArray()) -> Dictionary:
	if not path is String or (path as String).strip_edges().is_empty():
		return _refuse("INVALID_PATH", "path must be a non-empty string")
	var normalized := normalize(path)
	var uid := ""
	if normalized.begins_with(UID_PREFIX):
		var found := resolve_uid(normalized)
		if found.has("error"):
			return {"ok": false, "error": found["error"]}
		uid = normalized
		normalized = normalize(found["path"])
	var verdict := _check_normalized(path, normalized, allow_user, protected)
	if verdict["ok"] and not uid.is_empty():
		verdict["uid"] = uid
	return verdict


## {"path": the res:// path ResourceUID has for `uid`} or {"error": envelope}: INVALID_PATH for a
## malformed uid, NOT_FOUND for one no file of the project has (as far as the editor has scanned).
static func resolve_uid(uid: String) -> Dictionary:
	var id := ResourceUID.text_to_id(uid)
	if id == ResourceUID.INVALID_ID or uid.length() <= UID_PREFIX.length():
		return {"error": ToolkitError.fail("INVALID_PATH", "%s is not a uid (uid:// then letters and digits)" % uid,
			"Pass a res:// path, or a uid as Godot writes it (uid://c3lq1qv7l2k7s).")}
	if not ResourceUID.has_id(id):
		return {"error": ToolkitError.fail("NOT_FOUND", "No file of the project has the uid %s" % uid,
			"Pass the file's res:// path; a file saved since the editor last scanned the project gets its uid "
			+ "on the next scan (editor_refresh).")}
	return {"path": ResourceUID.get_id_path(id)}


static func _check_normalized(path: String, normalized: String, allow_user: bool,
		protected: PackedStringArray) -> Dictionary:
	if ".." in normalized.split("/"):
		return _refuse("PATH_DENIED", "'..' is not allowed in paths: %s" % path)
	var in_res := normalized.begins_with(RES_PREFIX)
	var in_user := normalized.begins_with(USER_PREFIX)
	if not in_res and not (allow_user and in_user):
		var allowed := "res:// (or uid://) or user://" if allow_user else "res:// (or uid://)"
		return _refuse("PATH_DENIED", "Only %s paths are allowed here: %s" % [allowed, path])
	if _is_protected(normalized, protected):
		return _refuse("PATH_DENIED", "The MCP toolkit's own files are off-limits: %s" % path)
	return {"ok": true, "path": normalized}


## check() for a command parameter: {"path": normalized} or {"error": envelope} naming `key` when
## it is missing, not a string, refused, or (with `extensions`, lower case) of another kind.
static func param(value: Variant, key: String, extensions: Array = []) -> Dictionary:
	if value == null:
		return {"error": ToolkitError.fail("INVALID_PARAMS", "Missing required parameter(s): %s" % key)}
	if not value is String:
		return {"error": ToolkitError.fail("INVALID_PARAMS", "%s must be a string" % key)}
	var verdict := check(value)
	if not verdict["ok"]:
		return {"error": verdict["error"]}
	var path: String = verdict["path"]
	if not extensions.is_empty() and not path.get_extension().to_lower() in extensions:
		return {"error": wrong_extension(key, path, extensions)}
	var out := {"path": path}
	if verdict.has("uid"):
		out["uid"] = verdict["uid"]
	return out


## The one refusal for a file of the wrong kind (UNSUPPORTED_FILE_TYPE, the contract's code for it;
## INVALID_PATH is for a malformed path), wherever a tool checks an extension: names what `key`
## takes and suggests the same name with the first of `extensions`.
static func wrong_extension(key: String, path: String, extensions: Array) -> Dictionary:
	var kinds := " or ".join(PackedStringArray(extensions.map(func(ext: String) -> String: return "." + ext)))
	var stem := path.get_basename() if not path.get_extension().is_empty() else path
	return ToolkitError.fail("UNSUPPORTED_FILE_TYPE", "%s must end in %s: %s" % [key, kinds, path],
		"Pass a %s path, e.g. %s." % [kinds, stem + "." + str(extensions[0])])


## `\` -> `/`, surrounding whitespace trimmed, `./` segments and doubled slashes after the scheme
## collapsed. Does not touch `..` (check() refuses it instead).
static func normalize(path: String) -> String:
	var text := path.strip_edges().replace("\\", "/")
	var scheme_end := text.find("://")
	var scheme := text.substr(0, scheme_end + 3) if scheme_end >= 0 else ""
	var rest := text.substr(scheme.length())
	var parts := PackedStringArray()
	for part: String in rest.split("/"):
		if part.is_empty() or part == ".":
			continue
		parts.append(part)
	var joined := "/".join(parts)
	if scheme.is_empty() and rest.begins_with("/"):
		joined = "/" + joined
	return scheme + joined


static func _is_protected(normalized: String, protected: PackedStringArray) -> bool:
	var folded := normalized.to_lower()
	for folder: String in TOOLKIT_FOLDERS:
		if folded == folder or folded.begins_with(folder + "/"):
			return true
	for extra: String in protected:
		if not extra.is_empty() and folded == normalize(extra).to_lower():
			return true
	return false


static func _refuse(code: String, message: String) -> Dictionary:
	return {"ok": false, "error": ToolkitError.fail(code, message)}
