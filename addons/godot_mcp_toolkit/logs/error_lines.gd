@tool
extends RefCounted
## The errors and warnings in the engine's printed log, for engines without a Logger API (before
## Godot 4.5) where the log file is the only place they appear. The engine prints each as
##   ERROR: <message>            (or SCRIPT ERROR:, USER ERROR:, WARNING:, USER WARNING:, ...)
##      at: <function> (<file>:<line>)
## which LogFile.parse already folds into one entry {level, message, source}; this turns such an
## entry into what ErrorStore.record takes. Pure; RUNTIME-REACHABLE.

const LogFile := preload("res://addons/godot_mcp_toolkit/logs/log_file.gd")

static var _at_shape: RegEx = null


## {"severity", "message", "file", "line", "function"} for an error or warning entry of
## LogFile.parse, {} for any other line.
static func from_entry(entry: Dictionary) -> Dictionary:
	var level := str(entry.get("level", ""))
	if level != "error" and level != "warning":
		return {}
	var where := parse_at(str(entry.get("source", "")))
	return {"severity": level, "message": strip_prefix(str(entry.get("message", ""))),
		"file": where["file"], "line": where["line"], "function": where["function"]}


## The message without the engine's "ERROR: "-style prefix.
static func strip_prefix(line: String) -> String:
	var text := line.strip_edges()
	for prefix: String in LogFile.ERROR_PREFIXES + LogFile.WARNING_PREFIXES:
		if text.begins_with(prefix):
			return text.trim_prefix(prefix).strip_edges()
	return text


## "<function> (<file>:<line>)" as {"file", "line", "function"}; the parts the text lacks are ""
## and 0 (an "at:" line of another shape keeps its text as the function).
static func parse_at(text: String) -> Dictionary:
	if _at_shape == null:
		_at_shape = RegEx.create_from_string("^(.*?)\\s*\\((.+):(\\d+)\\)$")
	var found := _at_shape.search(text.strip_edges())
	if found == null:
		return {"file": "", "line": 0, "function": text.strip_edges()}
	return {"file": found.get_string(2), "line": int(found.get_string(3)), "function": found.get_string(1)}
