@tool
extends RefCounted
## The journal's files under the project's .godot/ (ignored by version control): index.json, the
## whole state, replaced atomically on every change so an editor restart finds it as it was; and
## blobs/<sha256>, each original file's bytes, stored once however many checkpoints refer to it.
## Runtime-safe.

const ProjectWrites := preload("res://addons/godot_mcp_toolkit/checkpoints/project_writes.gd")
const Folders := preload("res://addons/godot_mcp_toolkit/base/folders.gd")

const INDEX_FILE := "index.json"
const BLOB_DIR := "blobs"
const FORMAT := 1

var root := ""


func _init(root_dir: String) -> void:
	root = root_dir


## The stored state, or a fresh one (with "warning" set when a file was there but unreadable: the
## bad file is kept aside as index.json.bad rather than lost).
func load_index() -> Dictionary:
	var path := root.path_join(INDEX_FILE)
	var fresh := {"format": FORMAT, "next_id": 1, "checkpoints": [], "written": {}, "edited_over": {}, "dropped": []}
	if not FileAccess.file_exists(path):
		return fresh
	var parsed: Variant = JSON.parse_string(FileAccess.get_file_as_string(path))
	if parsed is Dictionary and int(parsed.get("format", 0)) == FORMAT and parsed.get("checkpoints") is Array \
			and parsed.get("written") is Dictionary:
		var index: Dictionary = parsed
		if not index.get("dropped") is Array:
			index["dropped"] = []
		if not index.get("edited_over") is Dictionary:
			index["edited_over"] = {}
		index["next_id"] = int(index.get("next_id", 1))
		return index
	DirAccess.rename_absolute(path, path + ".bad")
	fresh["warning"] = "The checkpoint index was unreadable; it was set aside as %s.bad and a new one started" % path
	return fresh


func save_index(index: Dictionary) -> Error:
	var stored := index.duplicate()
	stored.erase("warning")
	return ProjectWrites.raw_write(root.path_join(INDEX_FILE), JSON.stringify(stored, " ", false).to_utf8_buffer())


## The sha256 of the file at `path`, or "" when there is none.
static func hash_of(path: String) -> String:
	if not FileAccess.file_exists(path):
		return ""
	return FileAccess.get_sha256(path)


## Keeps a copy of the file at `path` under its hash (once). OK or the error.
func put_blob(path: String, file_hash: String) -> Error:
	var blob := blob_path(file_hash)
	if FileAccess.file_exists(blob):
		return OK
	var data := FileAccess.get_file_as_bytes(path)
	var read_error := FileAccess.get_open_error()
	if read_error != OK:
		return read_error
	return ProjectWrites.raw_write(blob, data)


## The stored bytes for `file_hash`, or null when the blob is missing or damaged (its hash differs).
func get_blob(file_hash: String) -> Variant:
	var blob := blob_path(file_hash)
	if hash_of(blob) != file_hash:
		return null
	return FileAccess.get_file_as_bytes(blob)


func blob_path(file_hash: String) -> String:
	return root.path_join(BLOB_DIR).path_join(file_hash)


## Deletes every blob no checkpoint refers to any more.
func collect_garbage(referenced: Dictionary) -> void:
	var folder := root.path_join(BLOB_DIR)
	if not Folders.exists(folder):
		return
	for name: String in DirAccess.get_files_at(folder):
		if not referenced.has(name):
			DirAccess.remove_absolute(folder.path_join(name))
