@tool
extends RefCounted
## The assistant's edits, one entry per tool call that changed something: which undo history each
## of its actions went to (each open scene has its own, plus the global one) and the history's
## version after it, the method and arguments of the call, the time, a short label, and the files
## it changed (their bytes before and after, told by checkpoints/project_writes.gd). This is what
## lets history.undo step back exactly the assistant's own work and never the user's.
##
## Recorded in one place: the dispatch lane brackets every mutation (call_started/call_finished),
## the undo builder (edits/undo_action.gd) asks for the action's name (tag) and reports the commit
## (committed), and ProjectWrites tells the ledger of file changes while a call is open. One tool
## call is one entry however many actions it commits (a batch of 500 nodes too).
##
## Action names are tagged "MCP #<entry id>: <label>", so the editor's History dock shows which
## entries came from the assistant and the ledger finds its actions in a history by name (a
## version alone is not unique: an undo then a new action reuses it). Entry ids are unique for the
## whole engine process (kept on the Engine object), since the editor's histories outlive a
## toolkit restart. Entries live in memory, as the editor's histories do. Runtime-safe.

const JournalStore := preload("res://addons/godot_mcp_toolkit/checkpoints/journal_store.gd")
const ProjectWrites := preload("res://addons/godot_mcp_toolkit/checkpoints/project_writes.gd")
const FileJournal := preload("res://addons/godot_mcp_toolkit/checkpoints/file_journal.gd")

const TAG := "MCP #"
## The prefix many commands already give their action names; the tag replaces it.
const PLAIN_PREFIX := "MCP: "
const GLOBAL_HISTORY := 0
const STATE_DONE := "done"
const STATE_UNDONE := "undone"
## Bounds: the oldest entries go first (history.list says how many went).
const MAX_ENTRIES := 200
const MAX_BYTES := 64 * 1024 * 1024
const ARG_TEXT_MAX := 80
const ARG_ITEMS_MAX := 8
const NEXT_ID_META := &"mcp_toolkit_next_edit_id"

## Oldest first. Each: {"id", "method", "args", "label", "time", "seq" (when last done: undo goes
## newest seq first), "state" (STATE_*, as the ledger left it), "actions": [{"history", "scene",
## "root" (WeakRef, scene histories), "name", "version", "label"}], "files": {path: {"before",
## "after" (sha256, "" = no file), "before_bytes", "after_bytes" (null = no file), "companions":
## {path: existed before}}}, "lost" (an action went to a history the ledger could not find)}.
var entries: Array[Dictionary] = []
## Ids of the entries history.undo stepped back, most recent last (what history.redo replays).
var redo_stack: Array[int] = []
var dropped := 0
## id -> entry, for find().
var _by_id: Dictionary = {}
## Calls in progress, innermost last: {"token", "method", "params", "id", "actions", "files"}.
var _calls: Array[Dictionary] = []
var _replaying := 0
var _seq := 0
var _next_token := 0
var _bytes := 0
## The context whose histories the entries' actions are in (weak: the context owns the ledger).
var _context_ref: WeakRef = null


func _init(context: RefCounted) -> void:
	_context_ref = weakref(context)


# --- the call bracket (transport/dispatch/dispatch_lane.gd) -----------------------------------------

## A mutation starts; returns the token call_finished takes.
func call_started(method: String, params: Dictionary) -> int:
	_next_token += 1
	_calls.append({"token": _next_token, "method": method, "params": params, "id": 0, "actions": [],
		"files": {}})
	ProjectWrites.listen(self)
	return _next_token


## The mutation `token` finished: what it changed becomes one entry (nothing changed: none).
func call_finished(token: int) -> void:
	for index: int in range(_calls.size() - 1, -1, -1):
		if int(_calls[index]["token"]) == token:
			var call: Dictionary = _calls[index]
			_calls.remove_at(index)
			_settle(call)
			break
	if _calls.is_empty():
		ProjectWrites.unlisten(self)


# --- what the undo builder and ProjectWrites report ------------------------------------------------

## The name an action committed now gets: tagged with its call's entry id while a call is open.
func tag(description: String) -> String:
	var call := _open_call()
	if call.is_empty():
		return description
	if int(call["id"]) == 0:
		call["id"] = _take_id()
	return "%s%d: %s" % [TAG, call["id"], plain_label(description)]


## An action named `name` was just committed into history `history_id`.
func committed(history_id: int, name: String) -> void:
	var call := _open_call()
	var context := _context()
	if call.is_empty() or context == null or not name.begins_with(TAG):
		return
	var history: UndoRedo = context.call("history", history_id)
	var record := {"history": history_id, "scene": "", "root": null, "name": name,
		"label": name.substr(name.find(": ") + 2), "version": -1, "index": -1}
	if history == null or history.get_current_action_name() != name:
		record["lost"] = true
	else:
		record["version"] = history.get_version()
		record["index"] = history.get_current_action()
	if history_id != GLOBAL_HISTORY:
		var root: Node = context.call("scene_root")
		if root != null:
			record["root"] = weakref(root)
			record["scene"] = root.scene_file_path
	(call["actions"] as Array).append(record)


## ProjectWrites: `path` is about to change.
func file_changing(path: String) -> void:
	var call := _open_call()
	if call.is_empty() or not tracks(path) or (call["files"] as Dictionary).has(path):
		return
	var companions := {}
	for suffix: String in FileJournal.COMPANIONS:
		companions[path + suffix] = FileAccess.file_exists(path + suffix)
	call["files"][path] = {"before": JournalStore.hash_of(path), "before_bytes": _bytes_of(path),
		"companions": companions}


## ProjectWrites: `path` changed. Nothing to do yet: what a call left is read when it ends, since
## one call may write a file several times.
func file_changed(_path: String) -> void:
	pass


## True for a file the ledger keeps: a project or user file outside the engine's .godot/.
static func tracks(path: String) -> bool:
	return FileJournal.is_journalled_path(path) or (path.begins_with("user://") and not path.ends_with(".mcp_tmp"))


## `description` without the "MCP: " prefix the tag replaces.
static func plain_label(description: String) -> String:
	return description.substr(PLAIN_PREFIX.length()) if description.begins_with(PLAIN_PREFIX) else description


## The entry id an action name was tagged with; 0 for a name without the tag (the user's).
static func owner_of(name: String) -> int:
	if not name.begins_with(TAG):
		return 0
	var id_text := name.substr(TAG.length(), name.find(":") - TAG.length())
	return id_text.to_int() if id_text.is_valid_int() else 0


# --- what history.undo / history.redo do with it --------------------------------------------------

## While replaying (undo/redo stepping histories and putting files back) nothing is recorded.
func begin_replay() -> void:
	_replaying += 1


func end_replay() -> void:
	_replaying -= 1


func find(id: int) -> Dictionary:
	return _by_id.get(id, {})


func mark_undone(entry: Dictionary) -> void:
	entry["state"] = STATE_UNDONE
	redo_stack.erase(int(entry["id"]))
	redo_stack.append(int(entry["id"]))


func mark_redone(entry: Dictionary) -> void:
	entry["state"] = STATE_DONE
	_seq += 1
	entry["seq"] = _seq
	redo_stack.erase(int(entry["id"]))


## The entries still done by the ledger's account, the most recently done first.
func done_newest_first() -> Array[Dictionary]:
	var done: Array[Dictionary] = []
	for entry: Dictionary in entries:
		if entry["state"] == STATE_DONE:
			done.append(entry)
	done.sort_custom(func(a: Dictionary, b: Dictionary) -> bool: return int(a["seq"]) > int(b["seq"]))
	return done


## The entries history.redo can replay, the most recently undone first.
func undone_newest_first() -> Array[Dictionary]:
	var undone: Array[Dictionary] = []
	for index: int in range(redo_stack.size() - 1, -1, -1):
		var entry := find(redo_stack[index])
		if not entry.is_empty():
			undone.append(entry)
	return undone


# --- internals ----------------------------------------------------------------------------------

func _context() -> RefCounted:
	return _context_ref.get_ref() as RefCounted if _context_ref != null else null


func _open_call() -> Dictionary:
	if _replaying > 0 or _calls.is_empty():
		return {}
	return _calls[_calls.size() - 1]


## Process-wide, so a restarted toolkit never reuses the tag of an action still in a history.
static func _take_id() -> int:
	var id := int(Engine.get_meta(NEXT_ID_META, 1))
	Engine.set_meta(NEXT_ID_META, id + 1)
	return id


## Makes the finished `call` an entry: its actions that are still done (a command that rolled its
## own action back leaves none) and the files whose bytes differ from before the call.
func _settle(call: Dictionary) -> void:
	var context := _context()
	var actions: Array = []
	for record: Dictionary in call["actions"]:
		if record.has("lost") or (context != null and _still_done(record, context)):
			actions.append(record)
	var files := {}
	for path: String in call["files"]:
		var change: Dictionary = call["files"][path]
		change["after"] = JournalStore.hash_of(path)
		if change["after"] == change["before"]:
			continue
		change["after_bytes"] = _bytes_of(path)
		files[path] = change
	if actions.is_empty() and files.is_empty():
		return
	if int(call["id"]) == 0:
		call["id"] = _take_id()
	_seq += 1
	var entry := {"id": call["id"], "method": call["method"], "args": clip(call["params"]),
		"time": Time.get_unix_time_from_system(), "seq": _seq, "state": STATE_DONE, "actions": actions,
		"files": files, "label": _label(call["method"], actions, files)}
	for record: Dictionary in actions:
		if record.has("lost"):
			entry["lost"] = true
	entries.append(entry)
	_by_id[int(entry["id"])] = entry
	_bytes += _size(entry)
	while entries.size() > 1 and (entries.size() > MAX_ENTRIES or _bytes > MAX_BYTES):
		var gone: Dictionary = entries.pop_front()
		_by_id.erase(int(gone["id"]))
		_bytes -= _size(gone)
		redo_stack.erase(int(gone["id"]))
		dropped += 1


func _still_done(record: Dictionary, context: RefCounted) -> bool:
	var history: UndoRedo = context.call("history", int(record["history"]))
	var index := int(record["index"])
	return history != null and index >= 0 and index <= history.get_current_action() \
		and index < history.get_history_count() and history.get_action_name(index) == record["name"]


static func _label(method: String, actions: Array, files: Dictionary) -> String:
	if not actions.is_empty():
		var first: String = actions[0]["label"]
		return first if actions.size() == 1 else "%s (+%d more)" % [first, actions.size() - 1]
	var paths := files.keys()
	if paths.size() > 1:
		return "%s: %d files" % [method, paths.size()]
	var change: Dictionary = files[paths[0]]
	var verb := "change"
	if (change["before"] as String).is_empty():
		verb = "create"
	elif (change["after"] as String).is_empty():
		verb = "delete"
	return "%s: %s %s" % [method, verb, paths[0]]


## The call's arguments as the history shows them: long texts and lists shortened.
static func clip(value: Variant) -> Variant:
	if value is String and (value as String).length() > ARG_TEXT_MAX:
		return "%s... (%d characters)" % [(value as String).left(ARG_TEXT_MAX), (value as String).length()]
	if value is Dictionary:
		var shown := {}
		for key: Variant in value:
			shown[key] = clip(value[key])
		return shown
	if value is Array:
		var items: Array = []
		for item: Variant in (value as Array).slice(0, ARG_ITEMS_MAX):
			items.append(clip(item))
		if (value as Array).size() > ARG_ITEMS_MAX:
			items.append("... %d more" % ((value as Array).size() - ARG_ITEMS_MAX))
		return items
	return value


static func _bytes_of(path: String) -> Variant:
	return FileAccess.get_file_as_bytes(path) if FileAccess.file_exists(path) else null


static func _size(entry: Dictionary) -> int:
	var total := 0
	for change: Dictionary in entry["files"].values():
		for key: String in ["before_bytes", "after_bytes"]:
			if change.get(key) != null:
				total += (change[key] as PackedByteArray).size()
	return total
