@tool
extends RefCounted
## The editor's undo histories, through its EditorUndoRedoManager (the plugin's get_undo_redo()),
## answering what context/undo_histories.gd answers for the runtime context: which history an
## action goes to, the UndoRedo of a history, the refresh after stepping one. The manager is
## reached by method name, so this file stays runtime-safe (scripts/gd_compat.py) and the editor
## glue (editor/editor_context.gd) only hands it over.
##
## Stepping a history's UndoRedo from a script (the manager's own undo_history / redo_history are
## not exposed to scripts on any Godot 4.2-4.7) moves the scene, its version and so its unsaved
## marker exactly as the editor's Undo does, but not the manager's own per-history bookkeeping
## (the action stacks the History dock lists and Ctrl+Z picks a history by): emitting its
## history_changed and version_changed makes the dock, the scene tabs and the Undo menu read the
## histories again; the stacks keep a record of the stepped action until the history changes.

const GLOBAL := 0

var _manager: Object = null
## Histories an action was committed to: the only ones asked for (the manager prints an error
## for a history it has not made yet).
var _committed: Dictionary = {}


func _init(manager: Object) -> void:
	_manager = manager


## The manager routes each action itself (context object or first object, as it always does).
func manager_for(routing: Object, edited: Node) -> Object:
	if _manager == null:
		return null
	_committed[id_for(routing, edited)] = true
	return _manager


func id_for(object: Object, _edited: Node) -> int:
	if _manager == null or object == null:
		return GLOBAL
	return int(_manager.call("get_object_history_id", object))


func undo_redo(id: int) -> UndoRedo:
	if _manager == null or not _committed.has(id):
		return null
	return _manager.call("get_history_undo_redo", id) as UndoRedo


func stepped(_id: int) -> void:
	if _manager != null:
		_manager.emit_signal("history_changed")
		_manager.emit_signal("version_changed")
