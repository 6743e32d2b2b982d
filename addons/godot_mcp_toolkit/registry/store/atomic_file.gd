@tool
extends RefCounted
## Crash-safe file replacement shared by the registry and the .mcp.json writer.
##
## Write the whole text to `<path>.tmp`, then rename it over `<path>` in one step. A reader (the
## bridge watching projects.json) sees the old file or the new one, never a half-written one and
## never no file at all. On POSIX that rename is atomic (rename(2) replaces the target). Godot's
## Windows DirAccess.rename (4.2 through 4.6) deletes an existing target and then renames into
## its place inside the same call, so the gap there is two consecutive system calls rather than
## the old three-step tmp -> .bak -> target dance; a failed rename leaves the old file where it
## was on POSIX. No sibling file (such as a user's own `.bak`) is ever touched. Export-clean.

const Folders := preload("res://addons/godot_mcp_toolkit/base/folders.gd")

const TMP_SUFFIX := ".tmp"


static func write_text(path: String, text: String) -> Error:
	var dir_error := _ensure_parent(path)
	if dir_error != OK:
		return dir_error
	var tmp := path + TMP_SUFFIX
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
	if Folders.exists(path):
		# rename(2) would fail here anyway; refusing up front keeps the error the same on every OS.
		DirAccess.remove_absolute(tmp)
		return ERR_ALREADY_EXISTS
	var move_error := DirAccess.rename_absolute(tmp, path)
	if move_error != OK:
		DirAccess.remove_absolute(tmp)
	return move_error


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
	if parent.is_empty() or Folders.exists(parent):
		return OK
	return DirAccess.make_dir_recursive_absolute(parent)
