@tool
extends "res://addons/godot_mcp_toolkit/context/role.gd"
## The open scenes: which one is edited (its root), opening, reloading, closing and saving them,
## opening a script, and whether a scene has unsaved changes (what this role saw of saves, opens
## and "unsaved" marks, read by the edit role's history_unsaved). Runtime-safe.

const SavedVersions := preload("res://addons/godot_mcp_toolkit/context/saved_versions.gd")
## The file layer every file change goes through (checkpoint journal hook); saving a scene uses it.
const ProjectWrites := preload("res://addons/godot_mcp_toolkit/checkpoints/project_writes.gd")

## What this role saw of saves, opens and "unsaved" marks, by history id.
var saved_versions := SavedVersions.new()
## The undo histories (context/undo_histories.gd or context/manager_histories.gd), shared with the
## edit role: a scene's save state is kept per history. Null records nothing.
var _histories: RefCounted = null


func _init(histories: RefCounted = null) -> void:
	_histories = histories


## The edited scene's root (editor) or the test/game scene (runtime); null when none is open.
func scene_root() -> Node:
	return null


## res:// path of the edited scene; "" when none is open or it was never saved.
func edited_scene_path() -> String:
	var root := scene_root()
	return root.scene_file_path if root != null else ""


func open_scene(_path: String) -> Error:
	_unavailable("open_scene")
	return ERR_UNAVAILABLE


func reload_scene(_path: String) -> void:
	_unavailable("reload_scene")


func open_script(_path: String, _line: int = -1) -> void:
	_unavailable("open_script")


func open_scene_paths() -> PackedStringArray:
	return PackedStringArray()


## Closes the open scene at `path` ("" = the edited scene), discarding its unsaved changes.
## ERR_DOES_NOT_EXIST when no open scene has that path; ERR_UNAVAILABLE before Godot 4.5 (the
## editor has no way to close a scene tab before EditorInterface.close_scene).
func close_scene(_path: String) -> Error:
	_unavailable("close_scene")
	return ERR_UNAVAILABLE


## Saves exactly the open scene at `path` ("" = the edited scene). ERR_DOES_NOT_EXIST when no
## open scene has that path; otherwise the save's own error.
func save_scene(_path: String) -> Error:
	_unavailable("save_scene")
	return ERR_UNAVAILABLE


## Marks the edited scene as having unsaved changes (at runtime only noted).
func mark_modified() -> void:
	note_edited_scene(false)


## The editor saved `resource` (EditorPlugin.resource_saved, and scene_saved from 4.3): a save of
## the edited scene is noted for history_unsaved.
func note_saved(resource: Resource = null) -> void:
	if resource == null or (resource is PackedScene and resource.resource_path == edited_scene_path()):
		note_edited_scene(true)


## The edited scene was saved (or, `saved` false, marked as having unsaved changes, as
## EditorInterface.mark_scene_as_unsaved does): see context/saved_versions.gd.
func note_edited_scene(saved: bool) -> void:
	var root := scene_root()
	if root == null or _histories == null:
		return
	var id := int(_histories.call("id_for", root, root))
	var history := _histories.call("undo_redo", id) as UndoRedo
	if not saved:
		saved_versions.marked(id)
	elif history != null:
		saved_versions.saved(id, history.get_version())
