extends RefCounted
## registry/store/registry_lock.gd and the registry client's retry: a busy lock costs the main
## thread one attempt, and the projection is rebuilt on a later frame once the lock is free.

const Assert := preload("assert.gd")
const RegistryClient := preload("res://addons/godot_mcp_toolkit/registry/registry_client.gd")
const RegistryLock := preload("res://addons/godot_mcp_toolkit/registry/store/registry_lock.gd")
const RegistryPaths := preload("res://addons/godot_mcp_toolkit/registry/store/registry_paths.gd")
const AtomicFile := preload("res://addons/godot_mcp_toolkit/registry/store/atomic_file.gd")
const ProjectKey := preload("res://addons/godot_mcp_toolkit/paths/project_key.gd")

const PROJECT := "/tmp/mcp-toolkit-lock-test-project"

var _root := ""
## Retries the client asked for, run by hand in place of the next frame.
var _scheduled: Array[Callable] = []


func test_a_held_lock_is_refused_at_once_without_waiting() -> void:
	var holder := RegistryLock.new(RegistryPaths.lock_path(_scratch()))
	Assert.is_true(holder.try_acquire(), "the first holder gets it")
	var contender := RegistryLock.new(RegistryPaths.lock_path(_root))
	Assert.is_false(contender.try_acquire(), "a fresh lock held elsewhere is refused")
	Assert.is_false(contender.is_held(), "the contender holds nothing")
	holder.release()
	Assert.is_true(contender.try_acquire(), "free again after release")
	contender.release()
	Assert.is_false(DirAccess.dir_exists_absolute(RegistryPaths.lock_path(_root)), "released")


func test_a_busy_rebuild_is_retried_on_a_later_frame() -> void:
	var holder := RegistryLock.new(RegistryPaths.lock_path(_scratch()))
	Assert.is_true(holder.try_acquire(), "another process holds the lock")
	var client := RegistryClient.new(_root)
	client.set_retry_scheduler(func(retry: Callable) -> void: _scheduled.append(retry))
	client.register(PROJECT, 6550, "/t", "4.2.2", "127.0.0.1", 6005)
	Assert.is_false(_published().has(ProjectKey.canonical(PROJECT)), "not projected while the lock is busy")
	Assert.eq(_scheduled.size(), 1, "one retry scheduled")
	client.republish()
	Assert.eq(_scheduled.size(), 1, "a second busy rebuild shares the pending retry")
	_run_scheduled()
	Assert.eq(_scheduled.size(), 1, "still busy: retried again next frame")
	Assert.is_false(_published().has(ProjectKey.canonical(PROJECT)), "still not projected")
	holder.release()
	_run_scheduled()
	Assert.eq(_published().get(ProjectKey.canonical(PROJECT), {}).get("port"), 6550, "projected once the lock is free")
	Assert.eq(_scheduled.size(), 0, "no retry left")
	client.unregister()
	Assert.is_false(_published().has(ProjectKey.canonical(PROJECT)), "withdrawn")


func cleanup() -> void:
	if _root.is_empty():
		return
	_remove_tree(_root)


func _run_scheduled() -> void:
	var due := _scheduled.duplicate()
	_scheduled.clear()
	for retry: Callable in due:
		retry.call()


func _scratch() -> String:
	if _root.is_empty():
		_root = OS.get_user_data_dir().path_join("registry_lock_test_%d" % randi())
		DirAccess.make_dir_recursive_absolute(RegistryPaths.entries_dir(_root))
	return _root


func _published() -> Dictionary:
	return AtomicFile.read_json_object(RegistryPaths.projects_json(_root)).get("by_path", {})


func _remove_tree(dir: String) -> void:
	for sub: String in DirAccess.get_directories_at(dir):
		_remove_tree(dir.path_join(sub))
	for file_name: String in DirAccess.get_files_at(dir):
		DirAccess.remove_absolute(dir.path_join(file_name))
	DirAccess.remove_absolute(dir)
