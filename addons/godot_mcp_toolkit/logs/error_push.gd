@tool
extends RefCounted
## Pushes an ErrorStore to the bridges as the `errors.reported` plugin event:
##   {"notification": "errors.reported", "params": {"source": "game"|"editor", "entries": [...]}}
## at most one per frame, carrying everything due (ErrorStore.take_batch). Nothing is taken while
## no bridge is authenticated, so errors from before the first connection (a game's start-up) reach
## the first bridge that connects. Text is scrubbed of secrets and untrusted-envelope tags, as
## every log read is. No socket here: `broadcast(name, params)` and `has_peers() -> bool` are the
## server's. RUNTIME-REACHABLE.

const ErrorStore := preload("res://addons/godot_mcp_toolkit/logs/error_store.gd")
const Scrubber := preload("res://addons/godot_mcp_toolkit/security/scrubber.gd")
const Untrusted := preload("res://addons/godot_mcp_toolkit/security/untrusted.gd")

const EVENT := "errors.reported"
const SOURCES := ["game", "editor"]

var _store: ErrorStore = null
var _source := ""
var _broadcast: Callable
var _has_peers: Callable
var _frame: Callable
var _last_frame := -1


## `frame() -> int` is the frame counter (default Engine.get_process_frames; tests pass their own).
func _init(store: ErrorStore, source: String, broadcast: Callable, has_peers: Callable,
		frame: Callable = Callable()) -> void:
	_store = store
	_source = source if source in SOURCES else "game"
	_broadcast = broadcast
	_has_peers = has_peers
	_frame = frame if frame.is_valid() else Callable(Engine, "get_process_frames")


## Sends what is due, once per frame at most; true when a notification went out.
func tick() -> bool:
	var frame := int(_frame.call())
	if frame == _last_frame or not bool(_has_peers.call()):
		return false
	var batch := _store.take_batch()
	if batch.is_empty():
		return false
	_last_frame = frame
	_broadcast.call(EVENT, params_for(_source, batch))
	return true


## The notification's params for `entries` (ErrorStore entries), text cleaned.
static func params_for(source: String, entries: Array[Dictionary]) -> Dictionary:
	var shown: Array[Dictionary] = []
	for entry: Dictionary in entries:
		var clean := entry.duplicate(true)
		clean["message"] = _clean(str(entry["message"]))
		clean["function"] = _clean(str(entry["function"]))
		shown.append(clean)
	return {"source": source, "entries": shown}


static func _clean(text: String) -> String:
	return Untrusted.strip_tags(Scrubber.scrub(text))
