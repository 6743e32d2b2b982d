@tool
extends RefCounted
## The assistant steps back its own edits: history.list, history.undo and history.redo over the
## context's edit ledger (edits/edit_ledger.gd: one entry per tool call that changed something).
## Only the assistant's entries are ever stepped, newest first, and only while nothing the
## assistant did not make sits on top of them in their undo history and no file they changed was
## changed since; otherwise the call is refused, naming the entry and why, and nothing changes.
## history_state.gd reads the histories and plans, history_steps.gd steps and reads back.
## Runtime-safe.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const ToolkitSuccess := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_success.gd")
const Params := preload("res://addons/godot_mcp_toolkit/contract/params.gd")
const AnswerBudget := preload("res://addons/godot_mcp_toolkit/contract/answer_budget.gd")
const EditLedger := preload("res://addons/godot_mcp_toolkit/edits/edit_ledger.gd")
const HistoryState := preload("res://addons/godot_mcp_toolkit/commands/history/history_state.gd")
const HistorySteps := preload("res://addons/godot_mcp_toolkit/commands/history/history_steps.gd")

const SELF_PATH := "res://addons/godot_mcp_toolkit/commands/history/history_commands.gd"
const LIMIT_DEFAULT := 20
const LIMIT_MAX := 100
const STEPS_MAX := 100
const LIST_HINT := "history lists the assistant's entries with their ids and whether each can be undone."


static func register(registry: RefCounted, context: RefCounted) -> void:
	var script: Script = load(SELF_PATH)
	registry.register_command("history.list", Callable(script, "_cmd_list").bind(context),
		registry.create_options()
		.read_only().scene_independent())
	registry.register_command("history.undo", Callable(script, "_cmd_undo").bind(context),
		registry.create_options()
		.scene_independent())
	registry.register_command("history.redo", Callable(script, "_cmd_redo").bind(context),
		registry.create_options()
		.scene_independent())


# --- history.list -------------------------------------------------------------------------------

static func _cmd_list(params: Dictionary, context: RefCounted) -> Dictionary:
	var limit: Variant = params.get("limit", LIMIT_DEFAULT)
	if not Params.is_whole_number(limit) or int(limit) < 1 or int(limit) > LIMIT_MAX:
		return ToolkitError.fail("INVALID_PARAMS", "limit must be a whole number from 1 to %d" % LIMIT_MAX)
	var before: Variant = params.get("before")
	if before != null and (not Params.is_whole_number(before) or int(before) < 1):
		return ToolkitError.fail("INVALID_PARAMS", "before must be an entry id (a whole number from 1)",
			"Pass the next_before of the previous page.")
	var ledger: EditLedger = context.edits.edit_ledger()
	var histories := _synced(ledger, context)
	var older: Array[Dictionary] = []
	for index: int in range(ledger.entries.size() - 1, -1, -1):
		var entry: Dictionary = ledger.entries[index]
		if before == null or int(entry["id"]) < int(before):
			older.append(entry)
	var file_hashes := {}
	var verdicts := {
		HistoryState.UNDO: HistoryState.verdicts(HistoryState.UNDO, _undo_candidates(ledger, histories), histories,
			ledger, file_hashes),
		HistoryState.REDO: HistoryState.verdicts(HistoryState.REDO, ledger.undone_newest_first(), histories,
			ledger, file_hashes),
	}
	var described: Array = []
	for entry: Dictionary in older.slice(0, int(limit)):
		described.append(_describe(entry, ledger, histories, context, verdicts))
	var result := {"entries": [], "total": ledger.entries.size(), "dropped": ledger.dropped,
		"histories": _history_summaries(ledger, histories, context), "next_before": ledger.entries.size()}
	# Entries carry their call's arguments: a page stops where one answer is full.
	var listed := described.slice(0, AnswerBudget.fitting(described, AnswerBudget.room_beside(result)))
	result["entries"] = listed
	result.erase("next_before")
	if older.size() > listed.size():
		result["next_before"] = listed[listed.size() - 1]["id"]
	return ToolkitSuccess.ok(result)


## One entry as history.list shows it; `verdicts`: direction -> HistoryState.verdicts of the call.
static func _describe(entry: Dictionary, ledger: EditLedger, histories: Dictionary, context: RefCounted,
		verdicts: Dictionary) -> Dictionary:
	var state := HistoryState.live(entry, histories)
	var described := {"id": entry["id"], "label": entry["label"], "method": entry["method"], "args": entry["args"],
		"time": Time.get_datetime_string_from_unix_time(int(entry["time"]), false) + "Z", "unix_time": entry["time"],
		"scene": HistoryState.history_name(entry), "state": _state_name(entry, state),
		"user_edits_above": HistoryState.others_above(entry, histories, ledger), "files": _file_changes(entry)}
	var names := HistoryState.history_names(entry)
	if names.size() > 1:
		described["scenes"] = names
	var undo_refusal := _verdict(HistoryState.UNDO, entry, histories, verdicts)
	described["undoable"] = undo_refusal.is_empty()
	if not undo_refusal.is_empty():
		described.merge(_reason_of(undo_refusal, entry))
	described["redoable"] = _verdict(HistoryState.REDO, entry, histories, verdicts).is_empty()
	described["unsaved"] = _unsaved_of(entry, context)
	return described


## What would stop `direction` with until: the entry's id; {} when it would go through.
static func _verdict(direction: String, entry: Dictionary, histories: Dictionary, verdicts: Dictionary) -> Dictionary:
	var found: Dictionary = verdicts[direction]
	if found.has(int(entry["id"])):
		return found[int(entry["id"])]
	return _not_candidate(direction, entry, histories)


## The refusal as an entry's "reason"/"why": its own, or the newer entry that stands in its way.
static func _reason_of(refusal: Dictionary, entry: Dictionary) -> Dictionary:
	var why: String = HistoryState.explain(refusal)["why"]
	if int(refusal["entry"]["id"]) != int(entry["id"]):
		return {"reason": HistoryState.BLOCKED_BEHIND,
			"why": "entry #%d above it cannot be undone first: %s" % [refusal["entry"]["id"], why]}
	return {"reason": refusal["reason"], "why": why}


static func _state_name(entry: Dictionary, state: Dictionary) -> String:
	match state["live"]:
		HistoryState.LIVE_UNDONE:
			return "undone" if entry["state"] == EditLedger.STATE_UNDONE else "undone_in_editor"
		HistoryState.LIVE_MIXED:
			return "partly_undone"
		HistoryState.LIVE_GONE:
			return "gone"
	return "done"


static func _file_changes(entry: Dictionary) -> Array:
	var changes: Array = []
	for path: String in entry["files"]:
		var change: Dictionary = entry["files"][path]
		var kind := "modified"
		if (change["before"] as String).is_empty():
			kind = "created"
		elif (change["after"] as String).is_empty():
			kind = "deleted"
		changes.append({"path": path, "change": kind})
	return changes


## The unsaved state of the (first) scene the entry touched; null for the global history.
static func _unsaved_of(entry: Dictionary, context: RefCounted) -> Variant:
	for action: Dictionary in entry["actions"]:
		if int(action["history"]) != HistoryState.GLOBAL:
			return context.edits.history_unsaved(int(action["history"]))
	return null


## Every history the entries went to: its version, unsaved state, and how many of its done
## actions are the assistant's and how many are not.
static func _history_summaries(ledger: EditLedger, histories: Dictionary, context: RefCounted) -> Array:
	var out: Array = []
	var first_action := {}
	for entry: Dictionary in ledger.entries:
		for action: Dictionary in entry["actions"]:
			if not first_action.has(int(action["history"])):
				first_action[int(action["history"])] = action
	for id: int in histories:
		var history: Dictionary = histories[id]
		var summary := {"scene": HistoryState.action_history_name(first_action[id]), "open": history["alive"]}
		if history["alive"]:
			var ours := 0
			var theirs := 0
			for index: int in range(int(history["current"]) + 1):
				if ledger.find(int(history["owners"][index])).is_empty():
					theirs += 1
				else:
					ours += 1
			summary.merge({"version": history["version"], "assistant_steps": ours, "user_steps": theirs,
				"unsaved": null if id == HistoryState.GLOBAL else context.edits.history_unsaved(id)})
		out.append(summary)
	return out


# --- history.undo / history.redo ------------------------------------------------------------------

static func _cmd_undo(params: Dictionary, context: RefCounted) -> Dictionary:
	return _step(HistoryState.UNDO, params, context)


static func _cmd_redo(params: Dictionary, context: RefCounted) -> Dictionary:
	return _step(HistoryState.REDO, params, context)


static func _step(direction: String, params: Dictionary, context: RefCounted) -> Dictionary:
	var asked := _step_params(params)
	if asked.has("error"):
		return asked["error"]
	var ledger: EditLedger = context.edits.edit_ledger()
	var histories := _synced(ledger, context)
	var selection := _undo_selection(ledger, histories, asked["steps"], asked["until"]) if direction == HistoryState.UNDO \
		else _redo_selection(ledger, histories, asked["steps"], asked["until"])
	if selection.has("error"):
		return selection["error"]
	var refusal: Dictionary = selection.get("refusal", {})
	if refusal.is_empty():
		refusal = HistoryState.blocker(direction, selection["targets"], histories, ledger, {})
	if not refusal.is_empty():
		return _refuse(direction, refusal)
	var targets: Array = selection["targets"]
	var result := {"dry_run": asked["dry_run"], "skipped": selection["skipped"]}
	var undoing := direction == HistoryState.UNDO
	if asked["dry_run"]:
		result["would_" + direction] = _summaries(targets)
		result["scenes"] = HistorySteps.scenes(targets, context, _predicted_steps(direction, targets))
		result["files"] = HistorySteps.files(targets, "before" if undoing else "after")
		return ToolkitSuccess.ok(result)
	var report := HistorySteps.run(direction, targets, ledger, context)
	result["undone" if undoing else "redone"] = _summaries(report["stepped"])
	result["scenes"] = HistorySteps.scenes(targets, context)
	result["files"] = HistorySteps.files(targets)
	result["reloaded"] = report["reloaded"]
	result["closed"] = report["closed"]
	if not (report["failed"] as Array).is_empty():
		var failed: Dictionary = report["failed"][0]
		var envelope := ToolkitError.fail("FAILED", "Stopped at entry #%d: %s" % [failed["id"], failed["error"]],
			"What was stepped before it is listed; history shows where every entry stands now.")
		envelope.merge(result)
		return envelope
	return ToolkitSuccess.ok(result)


static func _summaries(entries: Array) -> Array:
	var out: Array = []
	for entry: Dictionary in entries:
		out.append({"id": entry["id"], "label": entry["label"], "method": entry["method"],
			"scene": HistoryState.history_name(entry)})
	return out


## {"steps", "until" (-1: none), "dry_run"} or {"error"}.
static func _step_params(params: Dictionary) -> Dictionary:
	var dry_run: Variant = params.get("dry_run", false)
	if not dry_run is bool:
		return {"error": ToolkitError.fail("INVALID_PARAMS", "dry_run must be true or false")}
	var has_steps := params.get("steps") != null
	var has_until := params.get("until") != null
	if has_steps and has_until:
		return {"error": ToolkitError.fail("INVALID_PARAMS", "Pass steps or until, not both",
			"steps counts entries from the newest; until names the oldest entry to include.")}
	var steps: Variant = params.get("steps", 1)
	if not Params.is_whole_number(steps) or int(steps) < 1 or int(steps) > STEPS_MAX:
		return {"error": ToolkitError.fail("INVALID_PARAMS", "steps must be a whole number from 1 to %d" % STEPS_MAX)}
	var until: Variant = params.get("until")
	if has_until and (not Params.is_whole_number(until) or int(until) < 1):
		return {"error": ToolkitError.fail("INVALID_PARAMS", "until must be an entry id (a whole number from 1)", LIST_HINT)}
	return {"steps": int(steps), "until": int(until) if has_until else -1, "dry_run": dry_run}


## The ledger told of what the user did in the editor since (an entry of ours they redid there
## is done again); the histories as they are now.
static func _synced(ledger: EditLedger, context: RefCounted) -> Dictionary:
	var histories := HistoryState.read(ledger, context)
	for entry: Dictionary in ledger.undone_newest_first():
		var redone_there: bool = HistoryState.live(entry, histories)["live"] == HistoryState.LIVE_DONE
		if redone_there and not (entry["actions"] as Array).is_empty():
			ledger.mark_redone(entry)
	return histories


## What undo would step, newest first: {"targets", "skipped"}, or {"refusal"} for an entry in the
## way, or {"error"} for a request that names nothing to undo. `until` > 0 reaches back to that
## entry (skipping entries whose history is gone); else the newest `steps` entries.
static func _undo_selection(ledger: EditLedger, histories: Dictionary, steps: int, until: int) -> Dictionary:
	return _selection(HistoryState.UNDO, ledger, histories, _undo_candidates(ledger, histories), steps, until)


## The entries undo may take, most recently done first: those the ledger has as done and the
## user has not undone in the editor.
static func _undo_candidates(ledger: EditLedger, histories: Dictionary) -> Array[Dictionary]:
	var candidates: Array[Dictionary] = []
	for entry: Dictionary in ledger.done_newest_first():
		if HistoryState.live(entry, histories)["live"] != HistoryState.LIVE_UNDONE:
			candidates.append(entry)
	return candidates


## What redo would step, the most recently undone first (see _undo_selection).
static func _redo_selection(ledger: EditLedger, histories: Dictionary, steps: int, until: int) -> Dictionary:
	return _selection(HistoryState.REDO, ledger, histories, ledger.undone_newest_first(), steps, until)


static func _selection(direction: String, ledger: EditLedger, histories: Dictionary, candidates: Array[Dictionary],
		steps: int, until: int) -> Dictionary:
	if until < 0:
		if candidates.is_empty():
			return {"error": ToolkitError.fail("INVALID_STATE", "Nothing to %s: %s" % [direction,
				"none of the assistant's edits is still done" if direction == HistoryState.UNDO
				else "no edit stepped back by undo is waiting to be redone"], LIST_HINT)}
		if steps > candidates.size():
			var message := "steps is %d, but only %d of the assistant's entries can be %s" % [steps, candidates.size(),
				"undone" if direction == HistoryState.UNDO else "redone"]
			return {"error": ToolkitError.fail("INVALID_STATE", message, "Pass steps: %d, or see history." % candidates.size())}
		return {"targets": candidates.slice(0, steps), "skipped": []}
	var wanted := ledger.find(until)
	if wanted.is_empty():
		return {"error": ToolkitError.fail("NOT_FOUND", "There is no entry #%d in the assistant's history%s" % [until,
			" (older entries were dropped)" if ledger.dropped > 0 else ""], LIST_HINT)}
	var wanted_id := int(wanted["id"])
	if candidates.filter(func(entry: Dictionary) -> bool: return int(entry["id"]) == wanted_id).is_empty():
		return {"refusal": _not_candidate(direction, wanted, histories)}
	var targets: Array = []
	var skipped: Array = []
	for entry: Dictionary in candidates:
		var state := HistoryState.live(entry, histories)
		var is_wanted := int(entry["id"]) == wanted_id
		if not is_wanted and state["live"] == HistoryState.LIVE_GONE:
			skipped.append({"id": entry["id"], "label": entry["label"], "reason": state["reason"],
				"why": HistoryState.explain({"entry": entry, "reason": state["reason"]})["why"]})
		else:
			targets.append(entry)
		if is_wanted:
			break
	return {"targets": targets, "skipped": skipped}


## Why an entry that is not among `direction`'s candidates cannot be stepped that way.
static func _not_candidate(direction: String, entry: Dictionary, histories: Dictionary) -> Dictionary:
	var reason := HistoryState.UNDONE if direction == HistoryState.UNDO else HistoryState.NOT_UNDONE
	if HistoryState.live(entry, histories)["live"] == HistoryState.LIVE_UNDONE and entry["state"] == EditLedger.STATE_DONE:
		reason = HistoryState.UNDONE_IN_EDITOR
	return {"entry": entry, "reason": reason, "detail": ""}


## History id -> how many steps back (> 0) or forward (< 0) the targets take it.
static func _predicted_steps(direction: String, targets: Array) -> Dictionary:
	var counts := {}
	for entry: Dictionary in targets:
		for action: Dictionary in entry["actions"]:
			var id := int(action["history"])
			counts[id] = int(counts.get(id, 0)) + (1 if direction == HistoryState.UNDO else -1)
	return counts


static func _refuse(direction: String, refusal: Dictionary) -> Dictionary:
	var entry: Dictionary = refusal["entry"]
	var explained := HistoryState.explain(refusal)
	var envelope := ToolkitError.fail("INVALID_STATE", "Entry #%d (%s, %s) cannot be %s: %s" % [entry["id"],
		entry["label"], HistoryState.history_name(entry), "undone" if direction == HistoryState.UNDO else "redone",
		explained["why"]], explained["hint"] + " Nothing was changed.")
	envelope["entry"] = entry["id"]
	envelope["reason"] = refusal["reason"]
	return envelope
