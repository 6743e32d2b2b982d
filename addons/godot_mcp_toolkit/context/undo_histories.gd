@tool
extends RefCounted
## The runtime context's undo histories, shaped as the editor's EditorUndoRedoManager keeps them:
## one plain UndoRedo per open scene plus a global one (id 0, as GLOBAL_HISTORY there), and an
## action routed by its first (or context) object the way the manager routes it: a node of the
## edited scene, or a built-in resource of it, goes to that scene's history; anything else (files,
## project settings, saved resources) to the global one. So the ledger and the history commands
## meet the same shape in the editor and in tests. Runtime-safe.
##
## Every commit is stamped, so "the newest action" across histories (what the editor's Undo picks
## between the edited scene and the global history) can be told without timestamps.

const GLOBAL := 0

## id -> UndoRedo
var _histories: Dictionary = {}
## id -> WeakRef of the scene root (scene histories only)
var _roots: Dictionary = {}
## id -> Array[int]: the commit stamp of each action, by index
var _stamps: Dictionary = {}
var _next_id := 1
var _clock := 0


## The history an action whose first (or context) object is `object` goes to, with `edited` the
## edited scene's root (null: none).
func id_for(object: Object, edited: Node) -> int:
	if edited == null:
		return GLOBAL
	var node := object as Node
	if node != null and (node == edited or edited.is_ancestor_of(node)):
		return scene_id(edited)
	var resource := object as Resource
	if resource != null:
		# A built-in resource: unsaved (no path) belongs to the edited scene, "scene.tscn::id" to its scene.
		if resource.resource_path.is_empty():
			return scene_id(edited)
		var owner_path := resource.resource_path.get_slice("::", 0)
		if resource.resource_path.contains("::") and owner_path == edited.scene_file_path:
			return scene_id(edited)
	return GLOBAL


## The UndoRedo an action routed by `routing` records into.
func manager_for(routing: Object, edited: Node) -> Object:
	return undo_redo(id_for(routing, edited))


## Nothing shows a runtime history but its own UndoRedo.
func stepped(_id: int) -> void:
	pass


## The id of `root`'s scene history, made on first use.
func scene_id(root: Node) -> int:
	for id: int in _roots:
		if _roots[id].get_ref() == root:
			return id
	var id := _next_id
	_next_id += 1
	_roots[id] = weakref(root)
	return id


## The UndoRedo of history `id` (the global one is made on first use); null for a scene history
## that was discarded or never made.
func undo_redo(id: int) -> UndoRedo:
	if _histories.has(id):
		return _histories[id]
	if id != GLOBAL and not _roots.has(id):
		return null
	var made := UndoRedo.new()
	_histories[id] = made
	_stamps[id] = []
	made.version_changed.connect(_stamp.bind(id))
	return made


## The history of the open scene saved at `path`; 0 when none.
func scene_id_of(path: String) -> int:
	for id: int in _roots:
		var root: Node = _roots[id].get_ref()
		if root != null and root.scene_file_path == path:
			return id
	return 0


## Drops the history of the scene at `path` (its tab closed, as the editor drops it).
func discard_scene(path: String) -> void:
	var id := scene_id_of(path)
	if id > 0:
		_free(id)
		_roots.erase(id)


## Of the histories `ids`, the one whose last done action is the newest; -1 when none can undo.
func newest_undo(ids: Array) -> int:
	var best := -1
	var best_stamp := -1
	for id: int in ids:
		var history: UndoRedo = _histories.get(id)
		if history == null or not history.has_undo():
			continue
		var stamp: int = _stamps[id][history.get_current_action()]
		if stamp > best_stamp:
			best = id
			best_stamp = stamp
	return best


## Of the histories `ids`, the one whose next action to redo is the oldest; -1 when none can redo.
func oldest_redo(ids: Array) -> int:
	var best := -1
	var best_stamp := -1
	for id: int in ids:
		var history: UndoRedo = _histories.get(id)
		if history == null or not history.has_redo():
			continue
		var stamp: int = _stamps[id][history.get_current_action() + 1]
		if best < 0 or stamp < best_stamp:
			best = id
			best_stamp = stamp
	return best


## Frees every UndoRedo (they are Objects, not reference-counted).
func free_all() -> void:
	for id: int in _histories.keys():
		_free(id)


## A commit (made through the builder or straight on the UndoRedo, as the editor's own actions
## are) drops the redo tail and stamps the new action; an undo or redo keeps the stamps.
func _stamp(id: int) -> void:
	var history: UndoRedo = _histories[id]
	if not history.is_committing_action():
		return
	var stamps: Array = _stamps[id]
	stamps.resize(maxi(history.get_current_action(), 0))
	_clock += 1
	stamps.append(_clock)


func _free(id: int) -> void:
	if _histories.has(id):
		var history: UndoRedo = _histories[id]
		if is_instance_valid(history):
			history.free()
		_histories.erase(id)
		_stamps.erase(id)
