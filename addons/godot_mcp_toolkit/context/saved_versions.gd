@tool
extends RefCounted
## Whether a scene has unsaved changes, told the way the editor tells it: a scene history is
## unsaved when its UndoRedo version differs from the version it had when the scene was last
## saved or opened, and always unsaved once marked (EditorInterface.mark_scene_as_unsaved sets the
## saved version to -1, so stepping back to the saved version does not clear the marker).
## Scripts cannot read the editor's own saved versions before Godot 4.7, so both contexts note
## here what they see (opens, saves, marks); a history never seen saved or opened is unknown.
## Runtime-safe.

const MARKED := -1

## history id -> the version it had when saved or opened (MARKED: marked unsaved)
var _saved: Dictionary = {}


## The scene of history `id` was saved or opened at `version`.
func saved(id: int, version: int) -> void:
	_saved[id] = version


## The scene of history `id` was marked as having unsaved changes.
func marked(id: int) -> void:
	_saved[id] = MARKED


func knows(id: int) -> bool:
	return _saved.has(id)


## True/false for a history whose save state is known, null otherwise.
func unsaved(id: int, version: int) -> Variant:
	if not _saved.has(id):
		return null
	return int(_saved[id]) != version
