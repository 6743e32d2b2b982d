@tool
extends RefCounted
## Deferred scene saves (contract C13: queue_save / check_save). A handler queues a save and
## returns; the save runs on the next editor tick, outside the handler's own call stack, because
## saving mid-mutation can re-enter the scene the handler is still editing.
##
## The actual save is injected (`saver(path) -> Error`, path "" meaning the active scene), so the
## queue runs headless in tests.

const FileGuard := preload("res://addons/godot_mcp_toolkit/security/file_guard.gd")

const STATUS_QUEUED := "queued"
const STATUS_SAVED := "saved"
const STATUS_FAILED := "failed"
const STATUS_UNKNOWN := "unknown"

var _saver: Callable
var _jobs: Dictionary = {}
var _pending: Array[int] = []
var _next_id := 1


func _init(saver: Callable = Callable()) -> void:
	_saver = saver


func set_saver(saver: Callable) -> void:
	_saver = saver


## Queues a save of `path` (a res:// scene; "" = the active scene) and returns its id.
## A refused path is recorded as failed straight away so check_save reports why.
func queue(path: String = "") -> int:
	var save_id := _next_id
	_next_id += 1
	var job := {"save_id": save_id, "path": path, "status": STATUS_QUEUED}
	if not path.is_empty():
		var verdict := FileGuard.check(path)
		if not verdict["ok"]:
			job["status"] = STATUS_FAILED
			job["error"] = verdict["error"]["error"]
		else:
			job["path"] = verdict["path"]
	_jobs[save_id] = job
	if job["status"] == STATUS_QUEUED:
		_pending.append(save_id)
	return save_id


## {"save_id", "status": queued|saved|failed|unknown, "path", "error"?}; `clear` forgets a finished
## job so long sessions do not accumulate them.
func check(save_id: Variant, clear: bool = false) -> Dictionary:
	var key := int(save_id) if (save_id is int or save_id is float) else -1
	if not _jobs.has(key):
		return {"save_id": save_id, "status": STATUS_UNKNOWN}
	var job: Dictionary = (_jobs[key] as Dictionary).duplicate()
	if clear and job["status"] != STATUS_QUEUED:
		_jobs.erase(key)
	return job


## Runs every queued save; called once per editor tick.
func process() -> void:
	while not _pending.is_empty():
		var job: Dictionary = _jobs[_pending.pop_front()]
		var error := int(_saver.call(job["path"])) if _saver.is_valid() else ERR_UNAVAILABLE
		if error == OK:
			job["status"] = STATUS_SAVED
		else:
			job["status"] = STATUS_FAILED
			job["error"] = "save failed: %s" % error_string(error)
