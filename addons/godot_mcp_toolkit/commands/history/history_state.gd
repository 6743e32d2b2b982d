@tool
extends RefCounted
## What the assistant's history is now, read from the undo histories themselves (never assumed
## from what the ledger last did): which of each history's actions are the assistant's (by their
## "MCP #<id>:" tag) and which are the user's, how far each history is stepped, which scenes are
## still open, and what each journalled file holds. From that, each entry's state and whether a
## sequence of entries can be stepped back (or forward) without touching anything the assistant
## did not make: the one planner history.list, history.undo and history.redo share.
## Runtime-safe.

const EditLedger := preload("res://addons/godot_mcp_toolkit/edits/edit_ledger.gd")
const JournalStore := preload("res://addons/godot_mcp_toolkit/checkpoints/journal_store.gd")

const GLOBAL := 0
const UNDO := "undo"
const REDO := "redo"

## Why an entry cannot be stepped: the reason codes history.list and the refusals carry.
const USER_EDIT_ON_TOP := "user_edit_on_top"
const FILE_CHANGED := "file_changed"
const SCENE_CLOSED := "scene_closed"
const HISTORY_CLEARED := "history_cleared"
const HISTORY_UNKNOWN := "history_unknown"
const PARTLY_UNDONE := "partly_undone"
const UNDONE := "undone"
const UNDONE_IN_EDITOR := "undone_in_editor"
const REDONE_IN_EDITOR := "redone_in_editor"
const NOT_UNDONE := "not_undone"
const REPLACED := "replaced"
const BLOCKED_BEHIND := "blocked_behind"

## Live states of an entry.
const LIVE_DONE := "done"
const LIVE_UNDONE := "undone"
const LIVE_MIXED := "mixed"
const LIVE_GONE := "gone"

## What each reason means to the model: [why, hint], with {scene} (the entry's history), {detail}
## (the file, scene or entry concerned) and {count} filled in.
const EXPLANATIONS := {
	USER_EDIT_ON_TOP: ["{count} edit(s) the assistant did not make sit on top of it in {detail}'s undo history;"
		+ " stepping it back would take them too",
		"Leave it, or have the user undo those edits in the editor first; history shows what is on top."],
	FILE_CHANGED: ["{detail} was changed since this entry wrote it (by hand or by another tool); putting it back"
		+ " would lose that change",
		"Keep the file as it is, or change it yourself; checkpoint_diff or script_read shows what it holds."],
	SCENE_CLOSED: ["{scene} was closed, and Godot drops a scene's undo history with its tab",
		"scene_open {scene} opens it again to change it by hand; this entry cannot be stepped any more"
		+ " (undo with until skips it to reach older ones)."],
	HISTORY_CLEARED: ["its actions are no longer in {scene}'s undo history (the scene was reloaded or its history"
		+ " cleared)", "Change it by hand; undo with until skips this entry to reach older ones."],
	HISTORY_UNKNOWN: ["one of its actions went to an undo history the toolkit could not find",
		"Use the editor's own Undo for it."],
	PARTLY_UNDONE: ["part of it was undone in the editor",
		"Finish that in the editor (Ctrl+Z or Ctrl+Shift+Z), then try again."],
	UNDONE: ["it is undone already", "redo brings it back."],
	UNDONE_IN_EDITOR: ["it was undone in the editor, not by undo",
		"Redo it in the editor (Ctrl+Shift+Z) if it should come back."],
	REDONE_IN_EDITOR: ["it was redone in the editor already", "Nothing to redo; history shows its state."],
	NOT_UNDONE: ["it is not undone", "Only entries stepped back by undo can be redone."],
	REPLACED: ["something newer was done in {scene}'s undo history since, and Godot drops what could be redone then",
		"Make the change again with the tool that made it."],
	BLOCKED_BEHIND: ["entry {detail} sits above it and is not part of this step",
		"Step entry {detail} first (history shows it)."],
}


## Every history the ledger's entries went to, as it is now: id -> {"alive", "scene", "current",
## "count", "version", "owners" (the entry id of each action, 0 for one the assistant did not
## make), "by_owner" (entry id -> the indices of its actions)}. A scene history is alive while its
## scene root exists and its scene is open.
static func read(ledger: EditLedger, context: RefCounted) -> Dictionary:
	var histories := {}
	var open_scenes: PackedStringArray = context.scenes.open_scene_paths()
	for entry: Dictionary in ledger.entries:
		for action: Dictionary in entry["actions"]:
			var id := int(action["history"])
			if histories.has(id) and histories[id]["alive"]:
				continue
			histories[id] = read_one(context, id, action, open_scenes)
	return histories


## History `id` as it is now, `action` one of the ledger's that went there (its scene and root).
static func read_one(context: RefCounted, id: int, action: Dictionary, open_scenes: PackedStringArray) -> Dictionary:
	var scene: String = action["scene"]
	var state := {"alive": false, "scene": scene, "current": -1, "count": 0, "version": 0, "owners": [],
		"by_owner": {}}
	if id != GLOBAL:
		var root: Node = (action["root"] as WeakRef).get_ref() if action["root"] != null else null
		if root == null or not (scene.is_empty() or scene in open_scenes):
			return state
	var history: UndoRedo = context.edits.history(id)
	if history == null:
		return state
	state["alive"] = true
	state["current"] = history.get_current_action()
	state["count"] = history.get_history_count()
	state["version"] = history.get_version()
	var owners: Array = []
	var by_owner := {}
	for index: int in history.get_history_count():
		var owner := EditLedger.owner_of(history.get_action_name(index))
		owners.append(owner)
		if owner > 0:
			if not by_owner.has(owner):
				by_owner[owner] = []
			by_owner[owner].append(index)
	state["owners"] = owners
	state["by_owner"] = by_owner
	return state


## The entry's state in the histories: {"live": LIVE_*, "reason", "indices": {history id: [the
## indices of its actions, ascending]}}.
static func live(entry: Dictionary, histories: Dictionary) -> Dictionary:
	var indices := {}
	var expected := {}
	for action: Dictionary in entry["actions"]:
		var id := int(action["history"])
		expected[id] = int(expected.get(id, 0)) + 1
	if entry.get("lost", false):
		return {"live": LIVE_GONE, "reason": HISTORY_UNKNOWN, "indices": indices}
	var done := 0
	var total := 0
	for id: int in expected:
		var history: Dictionary = histories[id]
		if not history["alive"]:
			return {"live": LIVE_GONE, "reason": SCENE_CLOSED, "indices": indices}
		var found: Array = history["by_owner"].get(int(entry["id"]), [])
		if found.size() != int(expected[id]):
			# Undone by undo and now missing: a newer action dropped what could be redone.
			var reason := REPLACED if entry["state"] == EditLedger.STATE_UNDONE else HISTORY_CLEARED
			return {"live": LIVE_GONE, "reason": reason, "indices": indices}
		indices[id] = found
		for index: int in found:
			total += 1
			if index <= int(history["current"]):
				done += 1
	var state := LIVE_DONE if done == total else (LIVE_UNDONE if done == 0 else LIVE_MIXED)
	if total == 0:
		state = LIVE_DONE if entry["state"] == EditLedger.STATE_DONE else LIVE_UNDONE
	return {"live": state, "reason": "", "indices": indices}


## Steps `direction` through `targets` (in the order given) as if done: {} when all of them can be
## stepped, else {"entry", "reason", "detail"} for the first that cannot. Undo: each entry's
## actions must be the top of their histories (the ones above it being earlier targets') and each
## file must hold what the entry left there; redo: the entry's actions must be next to redo and
## each file as undo left it. `file_hashes` caches the files' current hashes across calls.
static func blocker(direction: String, targets: Array, histories: Dictionary, ledger: EditLedger,
		file_hashes: Dictionary) -> Dictionary:
	var walk := _walk(histories, file_hashes)
	for entry: Dictionary in targets:
		var refusal := _walk_step(walk, direction, entry, histories, ledger)
		if not refusal.is_empty():
			return refusal
	return {}


## For each of `candidates` (in stepping order: what undo or redo would take first comes first),
## what would stop `direction` with until: that entry: entry id -> a refusal, or {} when it would
## go through. One walk serves them all: an entry whose history is gone is skipped (as until
## skips it), and once one refuses, every later one is blocked behind it.
static func verdicts(direction: String, candidates: Array, histories: Dictionary, ledger: EditLedger,
		file_hashes: Dictionary) -> Dictionary:
	var walk := _walk(histories, file_hashes)
	var found := {}
	var blocked := {}
	for entry: Dictionary in candidates:
		var state := live(entry, histories)
		if not blocked.is_empty():
			found[int(entry["id"])] = blocked
		elif state["live"] == LIVE_GONE:
			found[int(entry["id"])] = {"entry": entry, "reason": state["reason"], "detail": ""}
		else:
			blocked = _walk_step(walk, direction, entry, histories, ledger)
			found[int(entry["id"])] = blocked
	return found


## A dry stepping, started from the histories as they are now.
static func _walk(histories: Dictionary, file_hashes: Dictionary) -> Dictionary:
	var current := {}
	for id: int in histories:
		current[id] = int(histories[id]["current"])
	return {"current": current, "files": {}, "hashes": file_hashes}


## Steps `entry` in `walk`: {} (and the walk moves on), or why it cannot.
static func _walk_step(walk: Dictionary, direction: String, entry: Dictionary, histories: Dictionary,
		ledger: EditLedger) -> Dictionary:
	var current: Dictionary = walk["current"]
	var files: Dictionary = walk["files"]
	var hashes: Dictionary = walk["hashes"]
	var state := live(entry, histories)
	var refusal := _state_refusal(direction, entry, state)
	if not refusal.is_empty():
		return refusal
	for id: int in state["indices"]:
		var found: Array = state["indices"][id]
		var refused := _history_refusal(direction, entry, id, found, current, histories[id], ledger)
		if not refused.is_empty():
			return refused
	for path: String in entry["files"]:
		var change: Dictionary = entry["files"][path]
		if not files.has(path):
			if not hashes.has(path):
				hashes[path] = JournalStore.hash_of(path)
			files[path] = hashes[path]
		if files[path] != (change["after"] if direction == UNDO else change["before"]):
			return {"entry": entry, "reason": FILE_CHANGED, "detail": path}
	for id: int in state["indices"]:
		var found: Array = state["indices"][id]
		current[id] = int(found[0]) - 1 if direction == UNDO else int(found[found.size() - 1])
	for path: String in entry["files"]:
		files[path] = entry["files"][path]["before" if direction == UNDO else "after"]
	return {}


static func _state_refusal(direction: String, entry: Dictionary, state: Dictionary) -> Dictionary:
	var refusal := {"entry": entry, "reason": state["reason"], "detail": ""}
	match state["live"]:
		LIVE_GONE:
			return refusal
		LIVE_MIXED:
			refusal["reason"] = PARTLY_UNDONE
			return refusal
		LIVE_UNDONE:
			if direction == UNDO:
				refusal["reason"] = UNDONE if entry["state"] == EditLedger.STATE_UNDONE else UNDONE_IN_EDITOR
				return refusal
		LIVE_DONE:
			if direction == REDO:
				refusal["reason"] = REDONE_IN_EDITOR if entry["state"] == EditLedger.STATE_UNDONE else NOT_UNDONE
				return refusal
	if direction == REDO and entry["state"] != EditLedger.STATE_UNDONE:
		refusal["reason"] = UNDONE_IN_EDITOR
		return refusal
	return {}


## Undo: the entry's actions sit together at the top of history `id` (as stepped so far). Redo:
## they are the next ones to redo there.
static func _history_refusal(direction: String, entry: Dictionary, id: int, found: Array, current: Dictionary,
		history: Dictionary, ledger: EditLedger) -> Dictionary:
	var first := int(found[0])
	var last := int(found[found.size() - 1])
	var owners: Array = history["owners"]
	if direction == UNDO:
		if last < int(current[id]):
			var above := owners.slice(last + 1, int(current[id]) + 1)
			var theirs := above.filter(func(owner: int) -> bool: return ledger.find(owner).is_empty())
			if not theirs.is_empty():
				return {"entry": entry, "reason": USER_EDIT_ON_TOP, "detail": history["scene"], "count": theirs.size()}
			return {"entry": entry, "reason": BLOCKED_BEHIND, "detail": "#%d" % int(above[above.size() - 1])}
	elif first != int(current[id]) + 1:
		return {"entry": entry, "reason": REPLACED, "detail": history["scene"]}
	if last - first + 1 != found.size():
		# Another's action sits between this entry's own: stepping it would step that one too.
		return {"entry": entry, "reason": USER_EDIT_ON_TOP, "detail": history["scene"], "count": 1}
	return {}


## How many done actions the assistant did not make sit above `entry`'s last action in each of its
## histories (the user is not alone in there).
static func others_above(entry: Dictionary, histories: Dictionary, ledger: EditLedger) -> int:
	var state := live(entry, histories)
	var count := 0
	for id: int in state["indices"]:
		var found: Array = state["indices"][id]
		var owners: Array = histories[id]["owners"]
		for index: int in range(int(found[found.size() - 1]) + 1, int(histories[id]["current"]) + 1):
			if ledger.find(int(owners[index])).is_empty():
				count += 1
	return count


## The name a history goes by in answers: its scene's path, "global", or the unsaved scene's root.
static func history_name(entry: Dictionary) -> String:
	for action: Dictionary in entry["actions"]:
		if int(action["history"]) != GLOBAL:
			return action_history_name(action)
	return "global"


## The name of the history one action went to.
static func action_history_name(action: Dictionary) -> String:
	if int(action["history"]) == GLOBAL:
		return "global"
	return action["scene"] if not (action["scene"] as String).is_empty() else "(unsaved scene)"


## Every history name `entry` touched, in the order first touched.
static func history_names(entry: Dictionary) -> Array:
	var names: Array = []
	for action: Dictionary in entry["actions"]:
		var name := action_history_name(action)
		if not name in names:
			names.append(name)
	if names.is_empty():
		names.append("global")
	return names


## {"why", "hint"} for a refusal (or a not-undoable entry) as the model reads it.
static func explain(refusal: Dictionary) -> Dictionary:
	var pair: Array = EXPLANATIONS.get(refusal["reason"], [str(refusal["reason"]), "history shows the entry's state."])
	var values := {"scene": history_name(refusal["entry"]), "detail": str(refusal.get("detail", "")),
		"count": int(refusal.get("count", 1))}
	return {"why": (pair[0] as String).format(values), "hint": (pair[1] as String).format(values)}
