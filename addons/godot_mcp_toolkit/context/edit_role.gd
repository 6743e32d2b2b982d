@tool
extends "res://addons/godot_mcp_toolkit/context/role.gd"
## Undo and the record of the assistant's edits: the undo builder, stepping back and forth, the
## undo histories (one per open scene plus the global one), and the edit ledger over them.
## The editor keeps each history as a plain UndoRedo behind its EditorUndoRedoManager
## (context/manager_histories.gd); the runtime context keeps the same set
## (context/undo_histories.gd). Both answer the same calls, so the assistant's history reads and
## steps them without knowing which it has. Runtime-safe.

const UndoAction := preload("res://addons/godot_mcp_toolkit/edits/undo_action.gd")
const EditLedger := preload("res://addons/godot_mcp_toolkit/edits/edit_ledger.gd")
const SceneRole := preload("res://addons/godot_mcp_toolkit/context/scene_role.gd")

## The id of the global undo history (EditorUndoRedoManager.GLOBAL_HISTORY): files, project
## settings, saved resources. Every open scene has a history of its own besides.
const GLOBAL_HISTORY := 0

## Null (this base) records no history.
var _histories: RefCounted = null
## The open scenes: an action on the edited scene goes to its history, and its save state
## answers history_unsaved.
var _scenes: SceneRole = null
var _edit_ledger: EditLedger = null


func _init(histories: RefCounted, scenes: SceneRole) -> void:
	_histories = histories
	_scenes = scenes


## A builder for one undoable action (edits/undo_action.gd) recorded in this role's histories.
func create_undo_action(description: String, context_object: Object = null) -> UndoAction:
	return UndoAction.new(self, description, context_object)


## Steps the history back one action; false when there is nothing to undo.
func undo() -> bool:
	return _unavailable("undo")


## Steps the history forward one action; false when there is nothing to redo.
func redo() -> bool:
	return _unavailable("redo")


## The edited scene's root, which routes an action on it to its scene's history.
func scene_root() -> Node:
	return _scenes.scene_root() if _scenes != null else null


## The undo manager an action routed by `routing` (its context or first object) records into:
## the editor's EditorUndoRedoManager (which routes it itself) or the UndoRedo of its history;
## null applies actions without history.
func undo_manager_for(routing: Object) -> Object:
	return _histories.call("manager_for", routing, scene_root()) if _histories != null else null


## The history an action routed by `object` goes to (GLOBAL_HISTORY or a scene's).
func history_id_for(object: Object) -> int:
	return int(_histories.call("id_for", object, scene_root())) if _histories != null else GLOBAL_HISTORY


## The UndoRedo of history `id`; null when there is none. Only asked for histories an action was
## committed to, and for a scene history only while its scene is open.
func history(id: int) -> UndoRedo:
	return _histories.call("undo_redo", id) as UndoRedo if _histories != null else null


## The toolkit just stepped history `id` itself (history.undo / history.redo): whatever shows the
## history (the editor's History dock, scene tabs, Undo menu) is told.
func history_stepped(id: int) -> void:
	if _histories != null:
		_histories.call("stepped", id)


## Whether the scene of history `id` has unsaved changes (at its current version, or at
## `at_version`): true/false when the scene role knows (it saw the scene opened, saved or
## marked), null otherwise.
func history_unsaved(id: int, at_version: int = -1) -> Variant:
	var undo_redo := history(id) if id != GLOBAL_HISTORY else null
	if undo_redo == null or _scenes == null:
		return null
	return _scenes.saved_versions.unsaved(id, at_version if at_version >= 0 else undo_redo.get_version())


## The assistant's edits in these histories, made on first use.
func edit_ledger() -> EditLedger:
	if _edit_ledger == null:
		_edit_ledger = EditLedger.new(self)
	return _edit_ledger
