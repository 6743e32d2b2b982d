@tool
extends RefCounted
## Stepping the assistant's entries back and forward once history_state.gd's planner has said it
## is safe: each action through its own history's UndoRedo (newest first on undo, in order on
## redo), then every file the entry changed put in the state it had before it (undo) or after it
## (redo) where the action's own steps did not already do so: a created file is removed, a
## deleted or overwritten one comes back byte for byte, a moved one moves back (its two paths).
## File writes go through checkpoints/project_writes.gd like any toolkit change, with the ledger
## told not to record them. Then scenes and files are read again for the answer. Runtime-safe.

const EditLedger := preload("res://addons/godot_mcp_toolkit/edits/edit_ledger.gd")
const HistoryState := preload("res://addons/godot_mcp_toolkit/commands/history/history_state.gd")
const JournalStore := preload("res://addons/godot_mcp_toolkit/checkpoints/journal_store.gd")
const ProjectWrites := preload("res://addons/godot_mcp_toolkit/checkpoints/project_writes.gd")
const CheckpointRestore := preload("res://addons/godot_mcp_toolkit/checkpoints/checkpoint_restore.gd")
const SettingsSync := preload("res://addons/godot_mcp_toolkit/checkpoints/settings_sync.gd")


## Steps `entries` (in order) `direction`: {"stepped": [entries done], "failed": [{"id", "error"}],
## "histories": {id: true}, "paths": [files written or removed]}. Stops at the first entry that
## fails, leaving the rest as they were.
static func run(direction: String, entries: Array, ledger: EditLedger, context: RefCounted) -> Dictionary:
	var report := {"stepped": [], "failed": [], "histories": {}, "paths": []}
	ledger.begin_replay()
	for entry: Dictionary in entries:
		var error := _step_actions(direction, entry, context, report["histories"])
		if error.is_empty():
			error = _step_files(direction, entry, report["paths"])
		if not error.is_empty():
			report["failed"].append({"id": entry["id"], "error": error})
			break
		if direction == HistoryState.UNDO:
			ledger.mark_undone(entry)
		else:
			ledger.mark_redone(entry)
		report["stepped"].append(entry)
	for id: int in report["histories"]:
		context.edits.history_stepped(id)
	var followed := {}
	CheckpointRestore.follow(report["paths"], context, followed)
	ledger.end_replay()
	report["reloaded"] = followed.get("reloaded", [])
	report["closed"] = followed.get("closed", [])
	return report


## "" or why an action could not be stepped (the history changed under the planner).
static func _step_actions(direction: String, entry: Dictionary, context: RefCounted, touched: Dictionary) -> String:
	var actions: Array = entry["actions"]
	var order: Array = range(actions.size())
	if direction == HistoryState.UNDO:
		order.reverse()
	for index: int in order:
		var action: Dictionary = actions[index]
		var history: UndoRedo = context.edits.history(int(action["history"]))
		if history == null:
			return "its undo history is gone"
		touched[int(action["history"])] = true
		if direction == HistoryState.UNDO:
			if history.get_current_action_name() != action["name"] or not history.undo():
				return "'%s' is not on top of its undo history any more" % action["label"]
		elif not history.redo() or history.get_current_action_name() != action["name"]:
			return "'%s' was not the next step to redo in its history" % action["label"]
	return ""


## Puts each file in its state before (undo) or after (redo) the entry; "" or the first error.
static func _step_files(direction: String, entry: Dictionary, paths: Array) -> String:
	for path: String in entry["files"]:
		var change: Dictionary = entry["files"][path]
		var wanted: String = change["before"] if direction == HistoryState.UNDO else change["after"]
		if JournalStore.hash_of(path) != wanted:
			var data: Variant = change["before_bytes"] if direction == HistoryState.UNDO else change["after_bytes"]
			var error := _put(path, data)
			if error != OK:
				return "could not put back %s: %s" % [path, error_string(error)]
			paths.append(path)
		if direction == HistoryState.UNDO:
			# Engine sidecars (.import, .uid) that appeared with a file the entry made go with it.
			for companion: String in change["companions"]:
				if not change["companions"][companion] and FileAccess.file_exists(companion):
					ProjectWrites.remove_file(companion)
	return ""


static func _put(path: String, data: Variant) -> Error:
	if data == null:
		return ProjectWrites.remove_file(path)
	var settings_before := FileAccess.get_file_as_string(path) if path == ProjectWrites.PROJECT_FILE else ""
	var error := ProjectWrites.write_bytes(path, data)
	if error == OK and path == ProjectWrites.PROJECT_FILE:
		SettingsSync.apply(settings_before, (data as PackedByteArray).get_string_from_utf8())
	return error


# --- the answer: what each touched scene and file is now, read again --------------------------------

## Each history `entries` touched: {"scene", "open", "version", "unsaved", "top"} as it is now (or,
## with `predicted` (history id -> steps), as it would be after stepping that many back (> 0) or
## forward (< 0)).
static func scenes(entries: Array, context: RefCounted, predicted: Dictionary = {}) -> Array:
	var listed := {}
	var out: Array = []
	for entry: Dictionary in entries:
		for action: Dictionary in entry["actions"]:
			var id := int(action["history"])
			if listed.has(id):
				continue
			listed[id] = true
			out.append(_scene_state(id, action, context, int(predicted.get(id, 0))))
	return out


static func _scene_state(id: int, action: Dictionary, context: RefCounted, back: int) -> Dictionary:
	var state := HistoryState.read_one(context, id, action, context.scenes.open_scene_paths())
	var answer := {"scene": HistoryState.action_history_name(action), "open": state["alive"]}
	if not state["alive"]:
		return answer
	var history: UndoRedo = context.edits.history(id)
	var version := int(state["version"]) - back
	answer["version"] = version
	var top := int(state["current"]) - back
	answer["top"] = history.get_action_name(top) if top >= 0 and top < history.get_history_count() else ""
	answer["unsaved"] = null if id == HistoryState.GLOBAL else context.edits.history_unsaved(id, version)
	return answer


## Each file `entries` changed: {"path", "exists", "bytes", "sha256"} read from disk now, or (with
## `predicted_side` "before"/"after") the state the entries' records say it will be left in (the
## last entry stepped decides).
static func files(entries: Array, predicted_side: String = "") -> Array:
	var states := {}
	for entry: Dictionary in entries:
		for path: String in entry["files"]:
			if predicted_side.is_empty():
				if not states.has(path):
					states[path] = _file_now(path)
				continue
			var change: Dictionary = entry["files"][path]
			var data: Variant = change[predicted_side + "_bytes"]
			states[path] = {"path": path, "exists": data != null,
				"bytes": (data as PackedByteArray).size() if data != null else 0, "sha256": change[predicted_side]}
	return states.values()


static func _file_now(path: String) -> Dictionary:
	if not FileAccess.file_exists(path):
		return {"path": path, "exists": false, "bytes": 0, "sha256": ""}
	return {"path": path, "exists": true, "bytes": FileAccess.get_file_as_bytes(path).size(),
		"sha256": JournalStore.hash_of(path)}
