extends RefCounted
## edits/save_queue.gd against a fake editor with several open scenes: each queued save reaches
## the saver with exactly its own path, and a refusal or a failed save comes back through
## check() with a specific error code.

const Assert := preload("assert.gd")
const SaveQueue := preload("res://addons/godot_mcp_toolkit/edits/save_queue.gd")

## The fake editor: open scenes (path -> save count), the active tab, and paths whose save fails.
var _open := {"res://a.tscn": 0, "res://b.tscn": 0}
var _active := "res://a.tscn"
var _broken: Array[String] = []
var _calls: Array[String] = []


## What the editor context promises: save exactly `path` ("" = the active scene), or
## ERR_DOES_NOT_EXIST when no open scene has that path.
func _fake_save(path: String) -> Error:
	_calls.append(path)
	var target := path if not path.is_empty() else _active
	if not _open.has(target):
		return ERR_DOES_NOT_EXIST
	if target in _broken:
		return ERR_FILE_CANT_WRITE
	_open[target] = int(_open[target]) + 1
	return OK


func test_a_background_scene_is_saved_not_the_active_one() -> void:
	var queue := SaveQueue.new(_fake_save)
	var save_id := queue.queue("res://b.tscn")
	queue.process()
	Assert.eq(_calls, ["res://b.tscn"], "the saver is asked for that exact scene")
	Assert.eq(_open, {"res://a.tscn": 0, "res://b.tscn": 1}, "only b was written")
	Assert.eq(queue.check(save_id), {"save_id": save_id, "status": "saved", "path": "res://b.tscn"}, "reported saved")


func test_a_scene_that_is_not_open_is_refused_with_no_scene() -> void:
	var queue := SaveQueue.new(_fake_save)
	var save_id := queue.queue("res://closed.tscn")
	queue.process()
	var job := queue.check(save_id)
	Assert.eq(job["status"], "failed", "not saved")
	Assert.eq(job.get("code"), "NO_SCENE", "specific code")
	Assert.contains(String(job.get("error", "")), "res://closed.tscn", "the message names the scene")
	Assert.eq(_open, {"res://a.tscn": 0, "res://b.tscn": 0}, "no other scene written in its place")


func test_a_failed_save_reports_the_engine_error() -> void:
	_broken.append("res://b.tscn")
	var queue := SaveQueue.new(_fake_save)
	var save_id := queue.queue("res://b.tscn")
	queue.process()
	var job := queue.check(save_id)
	Assert.eq(job["status"], "failed", "failed")
	Assert.eq(job.get("code"), "SAVE_FAILED", "save failure code")
	Assert.contains(String(job.get("error", "")), error_string(ERR_FILE_CANT_WRITE), "the engine's reason")


func test_a_refused_path_carries_the_guard_code() -> void:
	var queue := SaveQueue.new(_fake_save)
	var save_id := queue.queue("res://../escape.tscn")
	var job := queue.check(save_id)
	Assert.eq(job["status"], "failed", "failed at once")
	Assert.eq(job.get("code"), "PATH_DENIED", "the guard's code")
	queue.process()
	Assert.eq(_calls, [], "never reaches the saver")


func test_no_saver_is_unsupported() -> void:
	var queue := SaveQueue.new()
	var save_id := queue.queue("res://a.tscn")
	queue.process()
	Assert.eq(queue.check(save_id).get("code"), "UNSUPPORTED", "no editor to save with")


func test_the_active_scene_is_resolved_when_queued() -> void:
	var queue := SaveQueue.new(_fake_save, func() -> String: return _active)
	var save_id := queue.queue()
	_active = "res://b.tscn"
	queue.process()
	Assert.eq(_calls, ["res://a.tscn"], "the scene active at queue time, not after a tab switch")
	Assert.eq(queue.check(save_id)["path"], "res://a.tscn", "reported under its real path")
	_active = ""
	var none := queue.queue()
	Assert.eq(queue.check(none).get("code"), "NO_SCENE", "nothing open: refused at once")
