@tool
extends RefCounted
## The engine's error prints during one synchronous step (a script or shader compile): compiling
## returns at most an Error code, and the message, file and line only travel through the engine's
## error print. Godot 4.5+ lets a Logger see those prints (OS.add_logger); before 4.5 nothing can,
## and start() says so by returning null. Logger cannot be named in a script that must parse on
## 4.2, so the capturing subclass is compiled from source at run time, only on 4.5+.
## RUNTIME-REACHABLE.

## Logger.ErrorType: the engine's numbering (ERR_HANDLER_*), stable since 4.5.
const TYPE_ERROR := 0
const TYPE_WARNING := 1
const TYPE_SCRIPT := 2
const TYPE_SHADER := 3

## A renderer may compile on its own thread and log from there (the main thread waits meanwhile),
## while another thread's unrelated error can arrive at any time: the list is guarded.
const LOGGER_SOURCE := """extends Logger
var entries: Array = []
var _lock := Mutex.new()


func _log_error(function: String, file: String, line: int, code: String, rationale: String,
		_editor_notify: bool, error_type: int, _script_backtraces: Array) -> void:
	_lock.lock()
	entries.append({"function": function, "file": file, "line": line, "code": code,
		"rationale": rationale, "type": error_type})
	_lock.unlock()


func taken() -> Array:
	_lock.lock()
	var out := entries.duplicate()
	_lock.unlock()
	return out
"""

static var _logger_script: GDScript = null


## True when this engine hands its error prints to a Logger (Godot 4.5+).
static func available() -> bool:
	var version := Engine.get_version_info()
	return int(version["major"]) * 100 + int(version["minor"]) >= 405 and OS.has_method("add_logger")


## A registered capturing logger, or null before Godot 4.5 (or when it did not build).
static func start() -> Object:
	if not available() or not OS.has_method("add_logger"):
		return null
	if _logger_script == null:
		_logger_script = GDScript.new()
		_logger_script.source_code = LOGGER_SOURCE
		if _logger_script.reload() != OK:
			_logger_script = null
			return null
	var logger: Object = _logger_script.new()
	OS.call("add_logger", logger)
	return logger


## Unregisters `logger` and returns what it saw, oldest first: {"function", "file", "line",
## "code", "rationale", "type"} each. [] for a null logger.
static func stop(logger: Object) -> Array:
	if logger == null or not OS.has_method("remove_logger"):
		return []
	OS.call("remove_logger", logger)
	return logger.call("taken")


## What the engine says an entry is about: its explanation when it gave one, else the condition.
static func message_of(entry: Dictionary) -> String:
	var rationale := str(entry.get("rationale", ""))
	return rationale if not rationale.is_empty() else str(entry.get("code", ""))
