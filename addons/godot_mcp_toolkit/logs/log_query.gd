@tool
extends RefCounted
## One query over log entries for editor.get_console and debugger.get_log: validate the filters,
## keep what matches, take one page, scrub secrets and wrap the text as untrusted (contract C21).
## Without since_id the page is the newest `limit` matches; with it, the oldest `limit` after it,
## so a reader can follow the log by passing back last_id. A page stops at one answer's size
## (contract/answer_budget.gd) and says how to go on. Pure; RUNTIME-REACHABLE.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const Params := preload("res://addons/godot_mcp_toolkit/contract/params.gd")
const Scrubber := preload("res://addons/godot_mcp_toolkit/security/scrubber.gd")
const Untrusted := preload("res://addons/godot_mcp_toolkit/security/untrusted.gd")
const LogBuffer := preload("res://addons/godot_mcp_toolkit/logs/log_buffer.gd")
const AnswerBudget := preload("res://addons/godot_mcp_toolkit/contract/answer_budget.gd")

const DEFAULT_LIMIT := 100
const MAX_LIMIT := 1000
## A line larger than this (as JSON) is shown by its size: it is in an answer twice, which must
## hold it. Above the buffer's cut (LogBuffer.MAX_MESSAGE_CHARS), so only a log file's can be.
const MESSAGE_BYTES := 4600
const FORWARD_HINT := "One answer's worth; pass since_id %d for the lines after these."
const NEWEST_HINT := "The newest %d lines; older ones: since_id 0 reads from the oldest on, or narrow with text_filter."


## filters() over only the `keys` a tool takes (debugger.get_log has no since_id or level_filter).
static func filters_of(params: Dictionary, keys: Array) -> Dictionary:
	var query := {}
	for key: String in keys:
		if params.has(key):
			query[key] = params[key]
	return filters(query)


## The validated filters {"ok": true, "since_id", "limit", "levels", "text", "regex"} or
## {"ok": false, "error": <INVALID_PARAMS envelope>}.
static func filters(params: Dictionary) -> Dictionary:
	var since: Variant = params.get("since_id", null)
	if since != null and not (Params.is_whole_number(since) and int(since) >= 0):
		return _invalid("since_id must be a whole number >= 0 (the last_id of a previous result)")
	var limit: Variant = params.get("limit", DEFAULT_LIMIT)
	if not Params.is_whole_number(limit) or int(limit) < 1:
		return _invalid("limit must be a whole number >= 1")
	var levels: Variant = _levels(params.get("level_filter", null))
	if levels == null:
		return _invalid("level_filter must be one of %s, or a list of them" % ", ".join(PackedStringArray(LogBuffer.LEVELS)))
	var text: Variant = params.get("text_filter", "")
	if not text is String:
		return _invalid("text_filter must be a string")
	var is_regex: Variant = params.get("is_regex", false)
	if not is_regex is bool:
		return _invalid("is_regex must be true or false")
	var regex: RegEx = null
	if is_regex and not (text as String).is_empty():
		regex = RegEx.new()
		if regex.compile(text) != OK:
			return _invalid("text_filter is not a valid regular expression: %s" % text)
	return {"ok": true, "since_id": int(since) if since != null else -1, "limit": mini(int(limit), MAX_LIMIT),
		"levels": levels, "text": text, "regex": regex}


## The page of `entries` the filters select, shaped for the reply (no success key): at most
## `limit` lines and one answer's size, the oldest after since_id or else the newest.
static func page(entries: Array, chosen: Dictionary, kind: String, origin: String) -> Dictionary:
	var matching: Array[Dictionary] = []
	for entry: Dictionary in entries:
		if _matches(entry, chosen):
			matching.append(entry)
	var limit: int = chosen["limit"]
	var forward: bool = chosen["since_id"] >= 0
	var picked := matching.slice(0, limit) if forward else matching.slice(maxi(matching.size() - limit, 0))
	# Each line travels twice, in entries and in the output text: measured as the pair.
	var lines: Array = []
	for entry: Dictionary in picked:
		var clean := _clean(entry)
		lines.append([clean, "#%d [%s] %s" % [clean["id"], clean["level"], _shown(clean["message"])]])
	var latest: int = entries[-1]["id"] if not entries.is_empty() else 0
	var room := AnswerBudget.room_beside({"entries": [], "output": Untrusted.wrap("", kind, origin),
		"returned": limit, "total_entries": matching.size(), "has_more": true, "last_id": latest,
		"latest_id": latest, "hint": (FORWARD_HINT if forward else NEWEST_HINT) % latest})
	if not forward:
		lines.reverse()
	lines = lines.slice(0, AnswerBudget.fitting(lines, room))
	if not forward:
		lines.reverse()
	var shown: Array[Dictionary] = []
	var text := PackedStringArray()
	for line: Array in lines:
		shown.append(line[0])
		text.append(line[1])
	var result := {
		"entries": shown,
		"output": Untrusted.wrap("\n".join(text), kind, origin),
		"returned": shown.size(),
		"total_entries": matching.size(),
		"has_more": shown.size() < matching.size(),
		"last_id": shown[-1]["id"] if not shown.is_empty() else maxi(chosen["since_id"], 0),
		"latest_id": latest,
	}
	# A page limit stopped is what was asked for; one that one answer's size stopped says so.
	if shown.size() < picked.size() and forward:
		result["hint"] = FORWARD_HINT % result["last_id"]
	elif shown.size() < picked.size():
		result["hint"] = NEWEST_HINT % shown.size()
	return result


## A message as the output text shows it: itself, or the size of one too large for an answer.
static func _shown(message: Variant) -> String:
	return message if message is String else "(%d bytes, omitted)" % message["json_bytes"]


static func _matches(entry: Dictionary, chosen: Dictionary) -> bool:
	if int(entry["id"]) <= chosen["since_id"]:
		return false
	if not (chosen["levels"] as Array).is_empty() and not entry["level"] in chosen["levels"]:
		return false
	var message := str(entry["message"])
	if chosen["regex"] != null:
		return (chosen["regex"] as RegEx).search(message) != null
	return (chosen["text"] as String).is_empty() or message.findn(chosen["text"]) >= 0


## Secrets scrubbed and untrusted tags defused in everything that is text.
static func _clean(entry: Dictionary) -> Dictionary:
	var message := Untrusted.strip_tags(Scrubber.scrub(str(entry["message"])))
	var clean := {"id": entry["id"], "level": entry["level"], "message": AnswerBudget.within(message, MESSAGE_BYTES)}
	if entry.has("source"):
		clean["source"] = Untrusted.strip_tags(Scrubber.scrub(str(entry["source"])))
	return clean


## [] for "all levels", the chosen levels, or null when the value is not valid.
static func _levels(raw: Variant) -> Variant:
	if raw == null:
		return []
	var names: Array = [raw] if raw is String else (raw as Array if raw is Array else [null])
	for name: Variant in names:
		if not (name is String and name in LogBuffer.LEVELS):
			return null
	return names


static func _invalid(message: String) -> Dictionary:
	return {"ok": false, "error": ToolkitError.fail("INVALID_PARAMS", message)}
