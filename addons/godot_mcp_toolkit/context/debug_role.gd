@tool
extends "res://addons/godot_mcp_toolkit/context/role.gd"
## The script debugger and the logs: the debugger's state, breakpoints, continuing a game paused
## at one, and this process's log capture. This base has no debugger; the log capture is real in
## every context. Runtime-safe.

const LogHub := preload("res://addons/godot_mcp_toolkit/logs/log_hub.gd")

var _log_hub: LogHub = null


## {"available": bool, "active": a game session runs, "paused": stopped at a breakpoint}.
func debugger_state() -> Dictionary:
	return {"available": false, "active": false, "paused": false}


## The breakpoints set in the script editor, as "res://path.gd:line" strings.
func breakpoints() -> PackedStringArray:
	return PackedStringArray()


func set_breakpoint(_path: String, _line: int, _enabled: bool) -> Error:
	_unavailable("set_breakpoint")
	return ERR_UNAVAILABLE


## Resumes a game paused at a breakpoint.
func debug_continue() -> Error:
	_unavailable("debug_continue")
	return ERR_UNAVAILABLE


## This process's log capture (output lines and distinct errors, logs/log_hub.gd), made on first
## use and living as long as the context: editor.get_console, debugger.get_log and the pushed
## errors.reported all read this one, so they never disagree.
func log_hub() -> LogHub:
	if _log_hub == null:
		_log_hub = LogHub.new()
		_log_hub.attach()
	return _log_hub
