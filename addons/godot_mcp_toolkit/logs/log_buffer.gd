@tool
extends RefCounted
## A bounded, thread-safe list of log entries {id, level, message, source}. Ids only grow (a clear
## keeps counting), so a reader's since_id stays meaningful across clears and evictions.
## Loggers call append() from any thread. RUNTIME-REACHABLE: the game keeps its own log in one.

const LEVEL_INFO := "info"
const LEVEL_WARNING := "warning"
const LEVEL_ERROR := "error"
const LEVELS := [LEVEL_INFO, LEVEL_WARNING, LEVEL_ERROR]
const DEFAULT_CAPACITY := 2000
## One huge print must not hold megabytes for the life of the buffer.
const MAX_MESSAGE_CHARS := 4000
const CUT_MARKER := " [... %d characters cut]"

var _capacity := DEFAULT_CAPACITY
var _entries: Array[Dictionary] = []
var _next_id := 1
var _mutex := Mutex.new()


func _init(capacity: int = DEFAULT_CAPACITY) -> void:
	_capacity = maxi(capacity, 1)


## Adds one entry; multi-line text stays one entry (a backtrace belongs to its error).
func append(level: String, message: String, source: String = "") -> void:
	var text := message.strip_edges(false, true)
	if text.length() > MAX_MESSAGE_CHARS:
		text = text.left(MAX_MESSAGE_CHARS) + CUT_MARKER % (text.length() - MAX_MESSAGE_CHARS)
	var entry := {"id": 0, "level": level if level in LEVELS else LEVEL_INFO, "message": text}
	if not source.is_empty():
		entry["source"] = source
	_mutex.lock()
	entry["id"] = _next_id
	_next_id += 1
	_entries.append(entry)
	if _entries.size() > _capacity:
		_entries = _entries.slice(_entries.size() - _capacity)
	_mutex.unlock()


## A copy of every entry held, oldest first.
func entries() -> Array[Dictionary]:
	_mutex.lock()
	var copy: Array[Dictionary] = _entries.duplicate(true)
	_mutex.unlock()
	return copy


## Empties the buffer; returns how many entries were dropped. Ids keep counting.
func clear() -> int:
	_mutex.lock()
	var dropped := _entries.size()
	_entries.clear()
	_mutex.unlock()
	return dropped


## The id the next entry will get, minus one: the newest id ever handed out.
func latest_id() -> int:
	_mutex.lock()
	var latest := _next_id - 1
	_mutex.unlock()
	return latest
