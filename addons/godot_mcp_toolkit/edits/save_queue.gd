@tool
extends RefCounted
## Deferred scene saves (contract C13: queue_save / check_save). A handler queues a save and
## returns; the save runs on the next editor tick, outside the handler's own call stack, because
## saving mid-mutation can re-enter the scene the handler is still editing.
##
## The save itself is injected: `saver(path) -> Error` must save exactly the scene at `path` (the
## editor context's save_scene), never whichever tab happens to be active, and answer
## ERR_DOES_NOT_EXIST when no open scene has that path. A path of "" (the active scene) is
## resolved when the save is queued, through `active_scene() -> String`, so a tab switch before
## the next tick cannot redirect it; without that provider "" reaches the saver as "".
## check() reports a refusal or a failed save with a code from MCPToolkitError.CODES:
## NO_SCENE (not open), SAVE_FAILED (the engine's error), UNSUPPORTED (no saver: game process),
## or the path guard's own code.

const FileGuard := preload("res://addons/godot_mcp_toolkit/security/file_guard.gd")

const STATUS_QUEUED := "queued"
const STATUS_SAVED := "saved"
const STATUS_FAILED := "failed"
const STATUS_UNKNOWN := "unknown"

var _saver: Callable
var _active_scene: Callable
var _jobs: Dictionary = {}
var _pending: Array[int] = []
var _next_id := 1


func _init(saver: Callable = Callable(), active_scene: Callable = Callable()) -> void:
	_saver = saver
	_active_scene = active_scene


func set_saver(saver: Callable) -> void:
	_saver = saver


## `active_scene() -> String`: res:// path of the active tab, "" when none (or never saved).
func set_active_scene_provider(active_scene: Callable) -> void:
	_active_scene = active_scene


## Queues a save of `path` (a res:// scene; "" = the active scene) and returns its id.
## A refused path is recorded as failed straight away so check_save reports why.
func queue(path: String = "") -> int:
	var save_id := _next_id
	_next_id += 1
	var job := {"save_id": save_id, "path": path, "status": STATUS_QUEUED}
	_jobs[save_id] = job
	if path.is_empty() and _active_scene.is_valid():
		path = String(_active_scene.call())
		if path.is_empty():
			_fail(job, "NO_SCENE", "No saved scene is active in the editor to save")
			return save_id
	if not path.is_empty():
		var verdict := FileGuard.check(path)
		if not verdict["ok"]:
			_fail(job, String(verdict["error"]["code"]), String(verdict["error"]["error"]))
			return save_id
		job["path"] = verdict["path"]
	_pending.append(save_id)
	return save_id


## {"save_id", "status": queued|saved|failed|unknown, "path", "error"?, "code"?}; `clear` forgets
## a finished job so long sessions do not accumulate them.
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
		_run(job)


func _run(job: Dictionary) -> void:
	var path := String(job["path"])
	var shown := path if not path.is_empty() else "the active scene"
	if not _saver.is_valid():
		_fail(job, "UNSUPPORTED", "Cannot save %s: scenes are saved only by the editor" % shown)
		return
	var error := int(_saver.call(path))
	if error == OK:
		job["status"] = STATUS_SAVED
	elif error == ERR_DOES_NOT_EXIST:
		_fail(job, "NO_SCENE", "%s is not open in the editor, so it was not saved" % shown)
	else:
		_fail(job, "SAVE_FAILED", "Saving %s failed: %s" % [shown, error_string(error)])


static func _fail(job: Dictionary, code: String, message: String) -> void:
	job["status"] = STATUS_FAILED
	job["code"] = code
	job["error"] = message
