@tool
extends RefCounted
## The distinct errors and warnings this process reported (errors pushed, not polled).
## One entry per severity+message+file+line; a repeat only raises its count. Bounded: past the
## capacity the oldest entry goes. Ids only grow, per process, so a reader can tell an update of a
## known entry from a new one.
##
## It also decides what is due for a push (take_batch): every new entry once, and an entry whose
## count rose again at most once per UPDATE_INTERVAL_MS, so a loop that errors every frame costs
## one line a second on the wire, not sixty. Loggers call record() from any thread, hence the
## mutex. RUNTIME-REACHABLE.

const SEVERITY_ERROR := "error"
const SEVERITY_WARNING := "warning"
const SEVERITIES := [SEVERITY_ERROR, SEVERITY_WARNING]
const DEFAULT_CAPACITY := 500
const UPDATE_INTERVAL_MS := 1000
## One push carries at most this many entries; the rest wait for the next frame.
const MAX_BATCH := 100
const MAX_MESSAGE_CHARS := 2000
## The bridge keeps as many frames of a pushed error (it reads this figure: toolkit_consts.py).
const MAX_STACK_FRAMES := 32
## Where a file is the project's own (a script), not the engine's C++ source.
const SCRIPT_PREFIXES := ["res://", "user://", "uid://"]

var _capacity := DEFAULT_CAPACITY
var _clock: Callable
## key -> entry; _order holds the keys oldest first (by id).
var _entries := {}
var _order: Array[String] = []
var _next_id := 1
var _dropped := 0
## key -> [count, time_ms] of its last push; a key missing here was never pushed.
var _pushed := {}
## Something may be due: set by record(), kept while an update waits out its interval. Lets the
## per-frame take_batch() return at once when nothing happened.
var _dirty := false
var _mutex := Mutex.new()


## `clock() -> int` milliseconds (default Time.get_ticks_msec; tests pass a fake one).
func _init(capacity: int = DEFAULT_CAPACITY, clock: Callable = Callable()) -> void:
	_capacity = maxi(capacity, 1)
	_clock = clock if clock.is_valid() else Callable(Time, "get_ticks_msec")


## Counts one occurrence. `stack` is [{file, line, function}, ...], innermost first. An unknown
## severity counts as an error (it was reported through the error path).
func record(severity: String, message: String, file: String = "", line: int = 0, function: String = "",
		stack: Array = []) -> void:
	var where := locate(file, line, function, stack)
	var text := message.strip_edges()
	if text.length() > MAX_MESSAGE_CHARS:
		text = text.left(MAX_MESSAGE_CHARS) + " [... cut]"
	var level := severity if severity in SEVERITIES else SEVERITY_ERROR
	var key := "%s\n%s\n%s\n%d" % [level, text, where["file"], where["line"]]
	var now := int(_clock.call())
	_mutex.lock()
	_dirty = true
	if _entries.has(key):
		_entries[key]["count"] += 1
	else:
		_entries[key] = {"id": _next_id, "severity": level, "message": text, "file": where["file"],
			"line": where["line"], "function": where["function"], "stack": _frames(stack), "count": 1,
			"time_ms": now}
		_next_id += 1
		_order.append(key)
		if _order.size() > _capacity:
			var oldest: String = _order.pop_front()
			_entries.erase(oldest)
			_pushed.erase(oldest)
			_dropped += 1
	_mutex.unlock()


## The place to report: the engine's own location, unless that is C++ source (push_error's
## implementation, say) and the script backtrace names a script frame; then that frame.
static func locate(file: String, line: int, function: String, stack: Array) -> Dictionary:
	if not _is_script(file) and not stack.is_empty():
		for frame: Variant in stack:
			if frame is Dictionary and _is_script(str(frame.get("file", ""))):
				return {"file": str(frame["file"]), "line": int(frame.get("line", 0)),
					"function": str(frame.get("function", ""))}
	return {"file": file, "line": maxi(line, 0), "function": function}


## A copy of every entry held, oldest first.
func entries() -> Array[Dictionary]:
	var copy: Array[Dictionary] = []
	_mutex.lock()
	for key: String in _order:
		copy.append((_entries[key] as Dictionary).duplicate(true))
	_mutex.unlock()
	return copy


## How many entries were evicted to stay within the capacity.
func dropped() -> int:
	_mutex.lock()
	var count := _dropped
	_mutex.unlock()
	return count


## Forgets every entry; returns how many there were. Ids keep counting.
func clear() -> int:
	_mutex.lock()
	var count := _order.size()
	_entries.clear()
	_order.clear()
	_pushed.clear()
	_dirty = false
	_mutex.unlock()
	return count


## The entries due for a push now, oldest first (copies), marked as pushed: new ones, and known
## ones whose count rose since their last push when that push is UPDATE_INTERVAL_MS old.
func take_batch() -> Array[Dictionary]:
	var now := int(_clock.call())
	var batch: Array[Dictionary] = []
	_mutex.lock()
	if not _dirty:
		_mutex.unlock()
		return batch
	var waiting := false
	for key: String in _order:
		var entry: Dictionary = _entries[key]
		var last: Variant = _pushed.get(key, null)
		if last != null and entry["count"] <= last[0]:
			continue
		if batch.size() >= MAX_BATCH or (last != null and now - int(last[1]) < UPDATE_INTERVAL_MS):
			waiting = true
			continue
		_pushed[key] = [entry["count"], now]
		batch.append(entry.duplicate(true))
	_dirty = waiting
	_mutex.unlock()
	return batch


static func _is_script(file: String) -> bool:
	for prefix: String in SCRIPT_PREFIXES:
		if file.begins_with(prefix):
			return true
	return false


static func _frames(stack: Array) -> Array[Dictionary]:
	var frames: Array[Dictionary] = []
	for frame: Variant in stack.slice(0, MAX_STACK_FRAMES):
		if frame is Dictionary:
			frames.append({"file": str(frame.get("file", "")), "line": int(frame.get("line", 0)),
				"function": str(frame.get("function", ""))})
	return frames
