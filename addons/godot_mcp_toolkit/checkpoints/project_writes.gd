@tool
extends RefCounted
## The one door through which the toolkit changes files: every write, create, delete, resource
## save, project-settings save and folder change goes through a function here (scripts/gd_writes.py
## fails the build on a raw write anywhere else). Each change is announced to the checkpoint
## journal before it happens (so the original bytes are kept) and after (so the journal knows what
## the toolkit left there, and can tell a later hand edit apart). Without an installed journal, or
## without a checkpoint, the announcements cost nothing. Runtime-safe.
##
## A journal that cannot keep the original refuses the change: the caller gets the error and the
## file is untouched, so a restore can never miss a file the toolkit changed.
##
## Listeners (the edit ledger, edits/edit_ledger.gd, while a tool call runs) hear the same two
## announcements, so the assistant's history knows which files each call changed. A scene saved
## from memory (save_scene_file) is not an edit of its own and is not told to them.

const Folders := preload("res://addons/godot_mcp_toolkit/base/folders.gd")

const TMP_SUFFIX := ".mcp_tmp"
const PROJECT_FILE := "res://project.godot"

## The active journal (checkpoints/file_journal.gd), or null. Static because the undo/redo steps
## that write files are static functions with no context at hand; one editor has one journal.
static var _journal: RefCounted = null
## Objects with file_changing(path) / file_changed(path), told of every change (see above).
static var _listeners: Array[Object] = []
## > 0 while an open scene is written from memory (save_scene_file): listeners are not told.
static var _scene_saves := 0


static func install(journal: RefCounted) -> void:
	_journal = journal


## Removes `journal` if it is the active one (a test leaving must not remove a newer one).
static func uninstall(journal: RefCounted) -> void:
	if _journal == journal:
		_journal = null


static func journal() -> RefCounted:
	return _journal


## Tells `listener` of every file change from now on (until unlisten).
static func listen(listener: Object) -> void:
	if not listener in _listeners:
		_listeners.append(listener)


static func unlisten(listener: Object) -> void:
	_listeners.erase(listener)


## Announces that `paths` are about to change. An error means: do not change them.
static func before(paths: PackedStringArray) -> Error:
	_tell("file_changing", paths)
	if _journal == null:
		return OK
	for path: String in paths:
		var error: Error = _journal.call("before_change", ProjectSettings.localize_path(path))
		if error != OK:
			push_error("MCP toolkit: could not journal %s before changing it (%s); it was left as it was"
				% [path, error_string(error)])
			return error
	return OK


## Announces that `paths` changed (or a change failed: the journal reads what is there now).
static func after(paths: PackedStringArray) -> void:
	_tell("file_changed", paths)
	if _journal == null:
		return
	for path: String in paths:
		_journal.call("after_change", ProjectSettings.localize_path(path))


## Replaces `path` with `data` through a sibling temp file renamed over it: a failed write leaves
## the old file whole. Makes missing parent folders; refuses a folder at `path`.
static func write_bytes(path: String, data: PackedByteArray) -> Error:
	var error := before(PackedStringArray([path]))
	if error == OK:
		error = raw_write(path, data)
		after(PackedStringArray([path]))
	return error


static func write_text(path: String, text: String) -> Error:
	return write_bytes(path, text.to_utf8_buffer())


## Deletes the file at `path` (OK when there is none).
static func remove_file(path: String) -> Error:
	if not FileAccess.file_exists(path):
		return OK
	var error := before(PackedStringArray([path]))
	if error == OK:
		error = DirAccess.remove_absolute(path)
		after(PackedStringArray([path]))
	return error


## ResourceSaver.save, journalled (with the sidecars the engine may write next to it).
static func save_resource(resource: Resource, path: String, flags: int = 0) -> Error:
	var error := before(PackedStringArray([path]))
	if error == OK:
		error = ResourceSaver.save(resource, path, flags)
		after(PackedStringArray([path]))
	return error


## ProjectSettings.save: project.godot is journalled like any other file.
static func save_project_settings() -> Error:
	var error := before(PackedStringArray([PROJECT_FILE]))
	if error == OK:
		error = ProjectSettings.save()
		after(PackedStringArray([PROJECT_FILE]))
	return error


static func write_png(image: Image, path: String) -> Error:
	var error := before(PackedStringArray([path]))
	if error == OK:
		error = image.save_png(path)
		after(PackedStringArray([path]))
	return error


## An open scene written from memory by `write` (a Callable returning an Error: the editor's own
## save): journalled as any change, but not told to listeners, since a save writes what the scene's
## undo history already holds rather than making an edit of its own.
static func save_scene_file(path: String, write: Callable) -> Error:
	_scene_saves += 1
	var error := before(PackedStringArray([path]))
	if error == OK:
		error = write.call()
		after(PackedStringArray([path]))
	_scene_saves -= 1
	return error


## An open scene packed from its tree and saved (the runtime context's save): as save_scene_file.
static func save_scene_resource(packed: PackedScene, path: String) -> Error:
	_scene_saves += 1
	var error := save_resource(packed, path)
	_scene_saves -= 1
	return error


## Folders are not journalled (a restore recreates the parents of the files it puts back and
## leaves folders alone); they come through here so the static check sees every change.
static func make_dir(path: String) -> Error:
	return DirAccess.make_dir_recursive_absolute(path)


static func remove_dir(path: String) -> Error:
	return DirAccess.remove_absolute(path)


## A folder and everything in it, each file through remove_file (journalled like any other).
static func remove_tree(path: String) -> void:
	if not Folders.exists(path):
		return
	for folder: String in DirAccess.get_directories_at(path):
		remove_tree(path.path_join(folder))
	for file_name: String in DirAccess.get_files_at(path):
		remove_file(path.path_join(file_name))
	remove_dir(path)


static func _tell(method: StringName, paths: PackedStringArray) -> void:
	if _scene_saves > 0 or _listeners.is_empty():
		return
	for path: String in paths:
		var local := ProjectSettings.localize_path(path)
		for listener: Object in _listeners.duplicate():
			listener.call(method, local)


## The write itself, unjournalled: for the journal's own files and restores (which record what
## they did themselves) and for write_bytes above. A change this file cannot wrap (the editor
## saving a scene) calls before() and after() around it instead.
static func raw_write(path: String, data: PackedByteArray) -> Error:
	if Folders.exists(path):
		return ERR_ALREADY_EXISTS
	var parent := path.get_base_dir()
	if not parent.is_empty() and not Folders.exists(parent):
		var made := DirAccess.make_dir_recursive_absolute(parent)
		if made != OK:
			return made
	var temp := path + TMP_SUFFIX
	var file := FileAccess.open(temp, FileAccess.WRITE)
	if file == null:
		return FileAccess.get_open_error()
	file.store_buffer(data)
	file.flush()
	var error := file.get_error()
	file.close()
	if error == OK:
		error = DirAccess.rename_absolute(temp, path)
	if error != OK:
		DirAccess.remove_absolute(temp)
	return error
