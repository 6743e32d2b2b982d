@tool
extends "res://addons/godot_mcp_toolkit/context/edit_role.gd"
## The runtime context's undo: plain UndoRedo histories kept as the editor keeps them
## (context/undo_histories.gd), one per scene root it was given plus the global one; undo()/redo()
## step the newest of the edited scene's and the global one, as the editor's Undo does.
## Runtime-safe.

const UndoHistories := preload("res://addons/godot_mcp_toolkit/context/undo_histories.gd")


func undo() -> bool:
	var id := (_histories as UndoHistories).newest_undo(_stepped_histories())
	return id >= 0 and history(id).undo()


func redo() -> bool:
	var id := (_histories as UndoHistories).oldest_redo(_stepped_histories())
	return id >= 0 and history(id).redo()


## What the editor's Undo chooses between: the edited scene's history and the global one.
func _stepped_histories() -> Array:
	var ids: Array = [GLOBAL_HISTORY]
	if scene_root() != null:
		ids.append(history_id_for(scene_root()))
	return ids
