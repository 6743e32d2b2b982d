@tool
extends RefCounted
## A cross-process lock for rebuilding projects.json.
##
## Godot exposes no O_EXCL/flock, but creating a directory is atomic on every desktop OS, so the
## lock is a directory. An owner file inside carries the holder's pid; a lock older than
## STALE_SECONDS is treated as left behind by a crashed process and broken. Export-clean.

const Folders := preload("res://addons/godot_mcp_toolkit/base/folders.gd")

const OWNER_FILE := "owner"
const STALE_SECONDS := 10
const RETRY_DELAY_MS := 5

var _path := ""
var _held := false


func _init(lock_path: String) -> void:
	_path = lock_path


## One attempt, never waits: false means another process holds a fresh lock. The holder keeps
## it for one directory scan and one small file write, so callers on the main thread retry on a
## later frame instead of sleeping here (see registry_client.gd).
func try_acquire() -> bool:
	if _take():
		return true
	if _is_stale():
		_break()
		return _take()
	return false


## Retries for at most `max_wait_ms` (sleeping RETRY_DELAY_MS between tries). Only for a write
## made as a process winds down, when there may be no later frame to retry on; keep it small.
func acquire_within(max_wait_ms: int) -> bool:
	var waited := 0
	while not try_acquire():
		if waited >= max_wait_ms:
			return false
		OS.delay_msec(RETRY_DELAY_MS)
		waited += RETRY_DELAY_MS
	return true


func release() -> void:
	if not _held:
		return
	_break()
	_held = false


func is_held() -> bool:
	return _held


func _take() -> bool:
	if DirAccess.make_dir_absolute(_path) != OK:
		return false
	_write_owner()
	_held = true
	return true


func _write_owner() -> void:
	var file := FileAccess.open(_path.path_join(OWNER_FILE), FileAccess.WRITE)
	if file != null:
		file.store_string(str(OS.get_process_id()))
		file.close()


func _is_stale() -> bool:
	if not Folders.exists(_path):
		return false
	# A holder between mkdir and writing its owner file has no owner yet; fall back to the
	# directory's own timestamp so a lock abandoned in that window still ages out.
	var owner := _path.path_join(OWNER_FILE)
	var stamp_of := owner if FileAccess.file_exists(owner) else _path
	var stamp := FileAccess.get_modified_time(stamp_of)
	if stamp <= 0:
		return false
	return Time.get_unix_time_from_system() - float(stamp) > STALE_SECONDS


func _break() -> void:
	DirAccess.remove_absolute(_path.path_join(OWNER_FILE))
	DirAccess.remove_absolute(_path)
