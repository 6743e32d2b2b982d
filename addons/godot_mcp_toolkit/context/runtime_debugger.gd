@tool
extends "res://addons/godot_mcp_toolkit/context/debug_role.gd"
## The runtime context's debugger: a breakpoint list and a debugger state a test sets and reads.
## Runtime-safe.

var debugger := {"available": true, "active": false, "paused": false}
var continued := 0

var _breakpoints := PackedStringArray()


func debugger_state() -> Dictionary:
	return debugger.duplicate()


func breakpoints() -> PackedStringArray:
	return _breakpoints.duplicate()


func set_breakpoint(path: String, line: int, enabled: bool) -> Error:
	var entry := "%s:%d" % [path, line]
	if enabled and not entry in _breakpoints:
		_breakpoints.append(entry)
	elif not enabled and entry in _breakpoints:
		_breakpoints.remove_at(_breakpoints.find(entry))
	return OK


func debug_continue() -> Error:
	if not debugger["paused"]:
		return ERR_UNAVAILABLE
	debugger["paused"] = false
	continued += 1
	return OK
