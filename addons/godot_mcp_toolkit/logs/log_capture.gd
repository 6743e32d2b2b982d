@tool
extends RefCounted
## Feeds the process's own output (print, push_warning, push_error, script errors) into a
## LogBuffer, and its errors and warnings with their place and script backtrace into an
## ErrorStore, through an engine Logger (OS.add_logger, Godot 4.5+). Logger does not exist on 4.2,
## and naming it there is a parse error, so the subclass is compiled from source only after the
## version check. On older engines attach() says false and readers fall back to the log file.
## RUNTIME-REACHABLE: the game captures its own output with it too.

const LogBuffer := preload("res://addons/godot_mcp_toolkit/logs/log_buffer.gd")
const ErrorStore := preload("res://addons/godot_mcp_toolkit/logs/error_store.gd")

## Logger.ErrorType: 1 is a warning; error, script and shader errors are errors.
const LOGGER_SOURCE := """extends Logger

var buffer: RefCounted = null
var errors: RefCounted = null


func _log_message(message: String, error: bool) -> void:
	if buffer != null:
		buffer.append("error" if error else "info", message)


func _log_error(function: String, file: String, line: int, code: String, rationale: String,
		_editor_notify: bool, error_type: int, script_backtraces: Array[ScriptBacktrace]) -> void:
	var text := rationale if not rationale.is_empty() else code
	var severity := "warning" if error_type == 1 else "error"
	if buffer != null:
		var where := "%s:%d" % [file, line] if not file.is_empty() else ""
		if not function.is_empty():
			where = "%s @ %s()" % [where, function]
		buffer.append(severity, text, where)
	if errors != null:
		var stack: Array = []
		for backtrace: ScriptBacktrace in script_backtraces:
			for i in backtrace.get_frame_count():
				stack.append({"file": backtrace.get_frame_file(i), "line": backtrace.get_frame_line(i),
					"function": backtrace.get_frame_function(i)})
		errors.record(severity, text, file, line, function, stack)
"""

var _logger: RefCounted = null


func _notification(what: int) -> void:
	# The engine keeps the logger alive; drop it when its owner goes so nothing logs into a
	# buffer nobody reads.
	if what == NOTIFICATION_PREDELETE:
		detach()


## True when the engine can feed a buffer (Godot 4.5+).
static func engine_at_least_4_5() -> bool:
	var version := Engine.get_version_info()
	return int(version["major"]) > 4 or (int(version["major"]) == 4 and int(version["minor"]) >= 5)


## Starts feeding `buffer` (and `errors` when given); false when this engine has no Logger API or
## the logger did not build.
func attach(buffer: LogBuffer, errors: ErrorStore = null) -> bool:
	if _logger != null:
		return true
	if not engine_at_least_4_5():
		return false
	var script := GDScript.new()
	script.source_code = LOGGER_SOURCE
	if script.reload() != OK:
		return false
	_logger = script.new() as RefCounted
	_logger.set("buffer", buffer)
	_logger.set("errors", errors)
	OS.call("add_logger", _logger)
	return true


## Stops feeding the buffer (the engine keeps no reference to a removed logger).
func detach() -> void:
	if _logger == null or not engine_at_least_4_5():
		return
	OS.call("remove_logger", _logger)
	_logger.set("buffer", null)
	_logger.set("errors", null)
	_logger = null


func is_attached() -> bool:
	return _logger != null
