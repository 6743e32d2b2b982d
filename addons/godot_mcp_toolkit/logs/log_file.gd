@tool
extends RefCounted
## The project's log file (debug/file_logging/log_path, default user://logs/godot.log; the game
## writes it, the editor logs elsewhere, so from the editor it is the last game's output) as entries
## {id, level, message, source}: one per printed line, the "   at: ..." line that follows an
## error folded into it as its source. Ids are entry positions in the file, so they are stable
## while the file grows (and start over when the engine rotates it). RUNTIME-REACHABLE.

const LOG_PATH_SETTING := "debug/file_logging/log_path"
const ENABLED_SETTING := "debug/file_logging/enable_file_logging"
const DEFAULT_PATH := "user://logs/godot.log"
## Read at most this much of the end of a large file.
const MAX_READ_BYTES := 4 * 1024 * 1024

const ERROR_PREFIXES := ["ERROR:", "SCRIPT ERROR:", "USER ERROR:", "SHADER ERROR:"]
const WARNING_PREFIXES := ["WARNING:", "USER WARNING:", "SCRIPT WARNING:"]
const SOURCE_PREFIX := "at:"


## The configured log file path ("" when file logging is off).
static func path() -> String:
	if not bool(ProjectSettings.get_setting(ENABLED_SETTING, true)):
		return ""
	var configured := str(ProjectSettings.get_setting(LOG_PATH_SETTING, DEFAULT_PATH))
	return configured if not configured.is_empty() else DEFAULT_PATH


## {"ok": true, "entries": [...], "path": ...} or {"ok": false, "reason": ...}.
static func read(file_path: String) -> Dictionary:
	if file_path.is_empty():
		return {"ok": false, "reason": "file logging is disabled (%s)" % ENABLED_SETTING}
	if not FileAccess.file_exists(file_path):
		return {"ok": false, "reason": "no log file at %s" % file_path}
	var file := FileAccess.open(file_path, FileAccess.READ)
	if file == null:
		return {"ok": false, "reason": "cannot open %s (%s)" % [file_path, error_string(FileAccess.get_open_error())]}
	var length := file.get_length()
	var skipped := length > MAX_READ_BYTES
	if skipped:
		file.seek(length - MAX_READ_BYTES)
	var text := file.get_buffer(mini(length, MAX_READ_BYTES)).get_string_from_utf8()
	file.close()
	var lines := text.split("\n")
	if skipped and lines.size() > 0:
		lines.remove_at(0)  # a partial first line
	return {"ok": true, "entries": parse(lines), "path": file_path, "truncated_start": skipped}


## Log lines to entries: errors and warnings by their engine prefix, everything else info.
static func parse(lines: PackedStringArray) -> Array[Dictionary]:
	var entries: Array[Dictionary] = []
	for raw: String in lines:
		var line := raw.strip_edges(false, true)
		if line.is_empty():
			continue
		var stripped := line.strip_edges()
		if stripped.begins_with(SOURCE_PREFIX) and not entries.is_empty() and entries[-1]["level"] != "info" \
				and not entries[-1].has("source"):
			entries[-1]["source"] = stripped.trim_prefix(SOURCE_PREFIX).strip_edges()
			continue
		entries.append({"id": entries.size() + 1, "level": _level(stripped), "message": line})
	return entries


static func _level(line: String) -> String:
	for prefix: String in ERROR_PREFIXES:
		if line.begins_with(prefix):
			return "error"
	for prefix: String in WARNING_PREFIXES:
		if line.begins_with(prefix):
			return "warning"
	return "info"
