@tool
extends RefCounted
## Publishes this process into the machine-wide registry (contract C16, C18, C19, C20).
##
## RUNTIME-REACHABLE: the game autoload uses set_runtime/clear_runtime, so this file and all it
## preloads must stay export-clean (no Editor* names). Editor-only values (LSP endpoint, token
## path) arrive as plain arguments.
##
## Each editor owns entries/<hash>.json and each game owns entries/<hash>.runtime.json, so the two
## processes never rewrite each other's file; projects.json is a projection of the whole dir,
## rebuilt under a lock after every change.

const ProjectKey := preload("../paths/project_key.gd")
const RegistryPaths := preload("store/registry_paths.gd")
const RegistryEntry := preload("store/registry_entry.gd")
const RegistryProjection := preload("store/registry_projection.gd")
const RegistryLock := preload("store/registry_lock.gd")
const AtomicFile := preload("store/atomic_file.gd")
const VersionUtils := preload("../base/version_utils.gd")
const Folders := preload("res://addons/godot_mcp_toolkit/base/folders.gd")

const NAME_SETTING := "application/config/name"
const RUNTIME_SUFFIX := ".runtime.json"
## How long a withdrawal (unregister on editor exit, clear_runtime as a game stops) may wait for
## the lock: the process may have no later frame to retry on. Every other rebuild tries once and
## retries on the next frame.
const EXIT_LOCK_WAIT_MS := 100

## Registry root; empty means the per-OS default. Tests point it at a temp dir.
var root := ""

var _project_path := ""
var _registration: Dictionary = {}
var _started_at := 0.0
var _project_name := ""
var _runtime_published := false
## `schedule(retry: Callable)` runs `retry` on a later frame; tests run it by hand.
var _retry_scheduler: Callable
var _retry_pending := false


## `project_path` defaults to the running project; register() may set it later.
func _init(registry_root: String = "", project_path: String = "") -> void:
	root = registry_root
	_project_path = project_path
	_retry_scheduler = _retry_next_frame


func set_retry_scheduler(scheduler: Callable) -> void:
	_retry_scheduler = scheduler


## Publishes (or re-publishes) this editor. Called on every fresh bind; a changed port restarts
## `started_at`, because the projection lets the newest claimant of a port win and a fresh bind
## is exactly such a claim.
func register(project_path: String, port: int, token_path: String, godot_version: String,
		lsp_host: String, lsp_port: int) -> void:
	# Typed, not inferred: a Variant compared with an int has no static type, so `:=` here
	# would not compile.
	var port_changed: bool = int(_registration.get("port", -1)) != port
	_project_path = project_path
	if port_changed or _started_at == 0.0:
		_started_at = Time.get_unix_time_from_system()
	_registration = {
		"port": port,
		"token_path": token_path,
		"godot_version": godot_version,
		"lsp_host": lsp_host,
		"lsp_port": lsp_port,
	}
	_watch_project_name()
	_write_entry()


## The user changed the language-server settings: publish the new endpoint (C19).
func update_lsp_endpoint(lsp_host: String, lsp_port: int) -> void:
	if _registration.is_empty():
		return
	if _registration["lsp_host"] == lsp_host and _registration["lsp_port"] == lsp_port:
		return
	_registration["lsp_host"] = lsp_host
	_registration["lsp_port"] = lsp_port
	_write_entry()


## Writes the last registration again (e.g. after a project rename).
func republish() -> void:
	if not _registration.is_empty():
		_write_entry()


## Game process: announce the runtime server's port (C20).
func set_runtime(port: int, pid: int) -> void:
	var key := ProjectKey.canonical(_project_root())
	var overlay := RegistryEntry.build_runtime(key, port, pid, Time.get_unix_time_from_system(),
		VersionUtils.engine_version())
	if AtomicFile.write_json(_runtime_path(), overlay) != OK:
		push_warning("MCP toolkit: could not write the runtime registry overlay at %s" % _runtime_path())
		return
	_runtime_published = true
	rebuild()


## Game process: the runtime server stopped.
func clear_runtime() -> void:
	if not _runtime_published and not FileAccess.file_exists(_runtime_path()):
		return
	AtomicFile.remove(_runtime_path())
	_runtime_published = false
	rebuild(EXIT_LOCK_WAIT_MS)


## Editor: whether the game's runtime entry is published. A game that quits normally withdraws
## it as its tree exits; a crashed one leaves it (logs/game_exit.gd).
func has_runtime() -> bool:
	return FileAccess.file_exists(_runtime_path())


## Editor exit: withdraw this editor's entry.
func unregister() -> void:
	_unwatch_project_name()
	if _registration.is_empty():
		return
	AtomicFile.remove(_entry_path())
	_registration = {}
	rebuild(EXIT_LOCK_WAIT_MS)


## Re-projects every entry file into projects.json. Returns false when the lock was busy (a
## retry is then scheduled for a later frame, one at a time: a rebuild reads the whole entries
## dir, so one retry covers every change made meanwhile) or a write failed. `wait_ms` > 0 waits
## that long for the lock instead, for the exit path.
func rebuild(wait_ms: int = 0) -> bool:
	var lock := RegistryLock.new(RegistryPaths.lock_path(root))
	if not Folders.exists(RegistryPaths.entries_dir(root)):
		DirAccess.make_dir_recursive_absolute(RegistryPaths.entries_dir(root))
	var acquired := lock.acquire_within(wait_ms) if wait_ms > 0 else lock.try_acquire()
	if not acquired:
		_schedule_retry()
		return false
	var entries: Array = []
	var overlays: Array = []
	for file_name: String in DirAccess.get_files_at(RegistryPaths.entries_dir(root)):
		var path := RegistryPaths.entries_dir(root).path_join(file_name)
		if file_name.ends_with(RUNTIME_SUFFIX):
			overlays.append(AtomicFile.read_json_object(path))
		elif file_name.get_extension() == "json":
			entries.append(AtomicFile.read_json_object(path))
	var projection := RegistryProjection.merge_by_path(entries, overlays)
	var error := AtomicFile.write_json(RegistryPaths.projects_json(root), projection)
	lock.release()
	if error != OK:
		push_warning("MCP toolkit: could not write %s (%s)" % [RegistryPaths.projects_json(root), error_string(error)])
	return error == OK


func _schedule_retry() -> void:
	if _retry_pending:
		return
	_retry_pending = true
	_retry_scheduler.call(_retry_rebuild)


func _retry_rebuild() -> void:
	_retry_pending = false
	rebuild()


## The default scheduler: once, on the next frame of the running SceneTree (editor or game).
## Without one (a bare MainLoop) the retry is dropped and the next change rebuilds instead.
func _retry_next_frame(retry: Callable) -> void:
	var tree := Engine.get_main_loop() as SceneTree
	if tree == null:
		_retry_pending = false
		push_warning("MCP toolkit: registry lock busy; projects.json not rebuilt this time")
		return
	tree.process_frame.connect(retry, CONNECT_ONE_SHOT)


func _write_entry() -> void:
	var entry := RegistryEntry.build_entry(
		ProjectKey.canonical(_project_path),
		int(_registration["port"]),
		String(_registration["token_path"]),
		OS.get_process_id(),
		_started_at,
		String(_registration["godot_version"]),
		String(_registration["lsp_host"]),
		int(_registration["lsp_port"]),
	)
	# For the bridge's editor_launch: the binary to start this editor again.
	entry["godot_path"] = OS.get_executable_path()
	var error := AtomicFile.write_json(_entry_path(), entry)
	if error != OK:
		push_warning("MCP toolkit: could not write registry entry %s (%s)" % [_entry_path(), error_string(error)])
		return
	rebuild()


func _entry_path() -> String:
	return RegistryPaths.entry_file(ProjectKey.project_hash(_project_root()), root)


func _runtime_path() -> String:
	return RegistryPaths.runtime_file(ProjectKey.project_hash(_project_root()), root)


func _project_root() -> String:
	return _project_path if not _project_path.is_empty() else ProjectKey.current_project_root()


func _watch_project_name() -> void:
	_project_name = String(ProjectSettings.get_setting(NAME_SETTING, ""))
	if not ProjectSettings.settings_changed.is_connected(_on_project_settings_changed):
		ProjectSettings.settings_changed.connect(_on_project_settings_changed)


func _unwatch_project_name() -> void:
	if ProjectSettings.settings_changed.is_connected(_on_project_settings_changed):
		ProjectSettings.settings_changed.disconnect(_on_project_settings_changed)


func _on_project_settings_changed() -> void:
	var current := String(ProjectSettings.get_setting(NAME_SETTING, ""))
	if current == _project_name:
		return
	_project_name = current
	republish()

