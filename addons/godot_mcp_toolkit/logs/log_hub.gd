@tool
extends RefCounted
## This process's log capture in one place: the output lines (LogBuffer) and the distinct errors
## and warnings (ErrorStore), both fed by the same engine Logger (Godot 4.5+). editor.get_console,
## debugger.get_log and the pushed errors.reported all read this one object, so there is a single
## source of truth per process. The context owns it (its debugger role's log_hub(),
## context/debug_role.gd); freeing it removes the engine logger.
##
## Before 4.5 there is no Logger: follow_file() makes poll() read the errors from the log file's
## new lines instead (the game's own file; the editor does not write the project's log).
## RUNTIME-REACHABLE.

const LogBuffer := preload("res://addons/godot_mcp_toolkit/logs/log_buffer.gd")
const LogCapture := preload("res://addons/godot_mcp_toolkit/logs/log_capture.gd")
const ErrorStore := preload("res://addons/godot_mcp_toolkit/logs/error_store.gd")
const ErrorLines := preload("res://addons/godot_mcp_toolkit/logs/error_lines.gd")
const LogFile := preload("res://addons/godot_mcp_toolkit/logs/log_file.gd")
const LogTail := preload("res://addons/godot_mcp_toolkit/logs/log_tail.gd")

## The log file is read at most this often (each read opens the file).
const FILE_POLL_MS := 250

var buffer := LogBuffer.new()
var errors: ErrorStore = null
var capture := LogCapture.new()
var _clock: Callable
var _tail: LogTail = null
var _last_file_poll := -FILE_POLL_MS
## An error line the file ended on, kept until the next read brings its "at:" line (or nothing).
var _held := PackedStringArray()


## `clock() -> int` milliseconds (default Time.get_ticks_msec).
func _init(clock: Callable = Callable()) -> void:
	_clock = clock if clock.is_valid() else Callable(Time, "get_ticks_msec")
	errors = ErrorStore.new(ErrorStore.DEFAULT_CAPACITY, _clock)


## Starts the engine logger; false before Godot 4.5 (then only follow_file() can feed `errors`).
func attach() -> bool:
	return capture.attach(buffer, errors)


## Reads errors from the lines `path` gains from now on its top (a game's log file starts with the
## process, so its top is this run). Meant for engines without the Logger API.
func follow_file(path: String) -> void:
	_tail = LogTail.new(path, true)
	_held = PackedStringArray()


func is_following_file() -> bool:
	return _tail != null


## One step of the file fallback (a no-op with the engine logger); call it every frame.
func poll() -> void:
	if _tail == null:
		return
	var now := int(_clock.call())
	if now - _last_file_poll < FILE_POLL_MS:
		return
	_last_file_poll = now
	feed_lines(_tail.read_new())


## Records the errors and warnings in `lines` (log file lines, in order). A problem line that ends
## the text waits for the next call, whose first line may be its "at:" line; a call with no lines
## releases it as it is.
func feed_lines(lines: PackedStringArray) -> void:
	var text := _held + lines
	_held = PackedStringArray()
	if not lines.is_empty():
		var last := text.size() - 1
		while last >= 0 and text[last].strip_edges().is_empty():
			last -= 1
		if last >= 0 and _is_problem(text[last]):
			_held = text.slice(last)
			text = text.slice(0, last)
	for entry: Dictionary in LogFile.parse(text):
		var found := ErrorLines.from_entry(entry)
		if not found.is_empty():
			errors.record(found["severity"], found["message"], found["file"], found["line"], found["function"])


## An ERROR:/WARNING:-style line (whose "at:" line may still be coming).
static func _is_problem(line: String) -> bool:
	var parsed := LogFile.parse(PackedStringArray([line]))
	return not parsed.is_empty() and parsed[0]["level"] != "info"
