@tool
extends RefCounted
## Crash-safe file replacement shared by the registry and the .mcp.json writer.
##
## Write to `<path>.tmp`, move the old file to `<path>.bak`, move tmp into place, and put the
## backup back if that last move fails. The detour through .bak exists because renaming onto an
## existing file fails on Windows; a reader therefore sees the old file or the new one, never a
## half-written one. Export-clean.

const TMP_SUFFIX := ".tmp"
const BAK_SUFFIX := ".bak"


static func write_text(path: String, text: String) -> Error:
	var dir_error := _ensure_parent(path)
	if dir_error != OK:
		return dir_error
	var tmp := path + TMP_SUFFIX
	var bak := path + BAK_SUFFIX
	var file := FileAccess.open(tmp, FileAccess.WRITE)
	if file == null:
		return FileAccess.get_open_error()
	# store_string's return type changed across versions (void before 4.4), so check the file
	# error instead of the call's result.
	file.store_string(text)
	file.flush()
	var write_error := file.get_error()
	file.close()
	if write_error != OK:
		DirAccess.remove_absolute(tmp)
		return write_error
	var had_old := FileAccess.file_exists(path)
	if had_old:
		if FileAccess.file_exists(bak):
			DirAccess.remove_absolute(bak)
		var backup_error := DirAccess.rename_absolute(path, bak)
		if backup_error != OK:
			DirAccess.remove_absolute(tmp)
			return backup_error
	var move_error := DirAccess.rename_absolute(tmp, path)
	if move_error != OK:
		if had_old:
			DirAccess.rename_absolute(bak, path)
		DirAccess.remove_absolute(tmp)
		return move_error
	if had_old:
		DirAccess.remove_absolute(bak)
	return OK


## The file's text, or "" when it is missing or unreadable (callers treat both as absent).
static func read_text(path: String) -> String:
	if not FileAccess.file_exists(path):
		return ""
	var file := FileAccess.open(path, FileAccess.READ)
	if file == null:
		return ""
	var text := file.get_as_text()
	file.close()
	return text


## A JSON object from `path`; {} when the file is missing, unreadable or not an object.
static func read_json_object(path: String) -> Dictionary:
	var text := read_text(path)
	if text.is_empty():
		return {}
	var parsed: Variant = JSON.parse_string(text)
	return parsed if parsed is Dictionary else {}


static func write_json(path: String, data: Dictionary) -> Error:
	# Sorted keys and a trailing newline keep the file diff-friendly for humans poking at it.
	return write_text(path, JSON.stringify(data, "  ", true) + "\n")


static func remove(path: String) -> Error:
	if not FileAccess.file_exists(path):
		return OK
	return DirAccess.remove_absolute(path)


static func _ensure_parent(path: String) -> Error:
	var parent := path.get_base_dir()
	if parent.is_empty() or DirAccess.dir_exists_absolute(parent):
		return OK
	return DirAccess.make_dir_recursive_absolute(parent)
