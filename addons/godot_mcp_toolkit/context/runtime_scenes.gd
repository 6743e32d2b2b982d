@tool
extends "res://addons/godot_mcp_toolkit/context/scene_role.gd"
## The runtime context's scenes: a given scene root (or, in the game, whatever the game shows),
## and the editor-only requests (open, reload, save, close, open a script, mark unsaved) recorded
## so a test can assert what was asked. They succeed or fail as the editor would for the same
## input (a missing file is ERR_FILE_NOT_FOUND, saving a scene that is not open
## ERR_DOES_NOT_EXIST). Runtime-safe.

## What a host (the end-to-end engine host) reacts to instead of polling: `path` was opened as
## the edited scene (the host shows it and calls set_scene_root).
signal scene_opened(path: String)

const UndoHistories := preload("res://addons/godot_mcp_toolkit/context/undo_histories.gd")

## What was asked, in order, for tests to assert on.
var opened_scripts: Array[Dictionary] = []
var reloaded_scenes := PackedStringArray()
var saved_scenes := PackedStringArray()
var closed_scenes := PackedStringArray()
var modified_count := 0
## The game's tree: when set, the scene root is whatever the game shows now
## (SceneTree.current_scene), looked up on every call, so a change_scene_to_file() in the game is
## followed without re-registering anything.
var game_tree: SceneTree = null

var _root: Node = null
var _open_scenes := PackedStringArray()
var _edited_path := ""


func _init(histories: UndoHistories, root: Node = null) -> void:
	super(histories)
	set_scene_root(root)


## Makes `node` the edited scene (as opening or switching to its tab does); a root seen for the
## first time starts its own history, saved at its first version.
func set_scene_root(node: Node) -> void:
	_root = node
	_edited_path = node.scene_file_path if node != null else ""
	if not _edited_path.is_empty() and not _edited_path in _open_scenes:
		_open_scenes.append(_edited_path)
	if node != null:
		var id := int(_histories.call("id_for", node, node))
		if not saved_versions.knows(id):
			saved_versions.saved(id, (_histories.call("undo_redo", id) as UndoRedo).get_version())


func scene_root() -> Node:
	if game_tree != null:
		return game_tree.current_scene if is_instance_valid(game_tree.current_scene) else null
	return _root if is_instance_valid(_root) else null


func edited_scene_path() -> String:
	if game_tree != null:
		return super()
	return _edited_path


## As EditorInterface.mark_scene_as_unsaved: the edited scene stays unsaved until saved.
func mark_modified() -> void:
	modified_count += 1
	note_edited_scene(false)


## Records `path` as open and edited (the scene root stays the one given; tests set it).
func open_scene(path: String) -> Error:
	if not ResourceLoader.exists(path):
		return ERR_FILE_NOT_FOUND
	if not path in _open_scenes:
		_open_scenes.append(path)
	_edited_path = path
	scene_opened.emit(path)
	return OK


func reload_scene(path: String) -> void:
	reloaded_scenes.append(path)


func open_script(path: String, line: int = -1) -> void:
	opened_scripts.append({"path": path, "line": line})


func open_scene_paths() -> PackedStringArray:
	return _open_scenes.duplicate()


## Forgets `path` as open (as the editor would, 4.5+); closing the edited scene leaves none edited.
func close_scene(path: String) -> Error:
	var target := _edited_path if path.is_empty() else path
	if Engine.get_version_info().hex < 0x040500:
		return ERR_UNAVAILABLE
	if target.is_empty() or not target in _open_scenes:
		return ERR_DOES_NOT_EXIST
	_open_scenes.remove_at(_open_scenes.find(target))
	if target == _edited_path:
		_edited_path = ""
	# The editor drops a closed scene's undo history with its tab.
	(_histories as UndoHistories).discard_scene(target)
	closed_scenes.append(target)
	return OK


## The scene root's own file is really written (packed from the tree); another open scene is only
## recorded, since this context holds no tree for it.
func save_scene(path: String) -> Error:
	var target := _edited_path if path.is_empty() else path
	if target.is_empty() or not target in _open_scenes:
		return ERR_DOES_NOT_EXIST
	var root := scene_root()
	if root != null and root.scene_file_path == target:
		var packed := PackedScene.new()
		var error := packed.pack(root)
		if error != OK:
			return error
		error = ProjectWrites.save_scene_resource(packed, target)
		if error != OK:
			return error
	var histories := _histories as UndoHistories
	var id := histories.scene_id_of(target)
	if id > 0:
		saved_versions.saved(id, histories.undo_redo(id).get_version())
	saved_scenes.append(target)
	return OK
