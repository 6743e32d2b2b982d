# gdlint: disable=max-public-methods
# The seam is one object on purpose (every reach into the editor goes through it), so it is broad.
@tool
extends "res://addons/godot_mcp_toolkit/context/toolkit_context.gd"
## The context outside the editor: plain UndoRedo histories over a given scene root. Used by the
## GDScript tests (so command logic and its undo run in any engine, the web build included) and by anything
## in the running game. Editor-only requests (open, play, save, settings, refresh) are recorded
## so a test can assert what was asked; they succeed or fail as the editor would for the same
## input (a missing file is ERR_FILE_NOT_FOUND, saving a scene that is not open ERR_DOES_NOT_EXIST).
## Undo histories are kept as the editor keeps them (context/undo_histories.gd): one per scene root
## it was given, plus the global one; undo()/redo() step the newest of the edited scene's and the
## global one, as the editor's Undo does.

## What a host (the end-to-end engine host) reacts to instead of polling: `path` was opened as
## the edited scene (the host shows it and calls set_scene_root), the game was played or stopped.
signal scene_opened(path: String)
signal play_started(path: String)
signal play_stopped

const UndoHistories := preload("res://addons/godot_mcp_toolkit/context/undo_histories.gd")

## What was asked, in order, for tests to assert on.
var opened_scripts: Array[Dictionary] = []
var reloaded_scenes := PackedStringArray()
var refreshed_files := PackedStringArray()
var saved_scenes := PackedStringArray()
var closed_scenes := PackedStringArray()
var played_scenes := PackedStringArray()
## The extra command-line arguments of each play, in step with played_scenes.
var played_args: Array[PackedStringArray] = []
## Whether this process has no display; a test sets it to stand in for `godot --headless`.
var headless := DisplayServer.get_name() == "headless"
var modified_count := 0
# --- editor_advanced and debugger ------------------------------------------------------
# Stand-ins the tests drive: the game's own viewport for the capture, a busy countdown for the
# filesystem, and a breakpoint list plus a debugger state a test sets.

## Frames is_busy() still answers true (a test sets it to simulate a scan).
var busy_polls := 0
## False simulates a minimized window; `can_restore` whether force brings it back.
var viewport_can_draw := true
var viewport_can_restore := true
var scans := 0
var debugger := {"available": true, "active": false, "paused": false}
var continued := 0

# --- testing ---------------------------------------------------------------------------
# A fake process table: a test sets `process_runner`, a Callable(path, args) -> Dictionary that does
# what the real process would (writes its report) and says {"polls": frames it keeps running (-1 =
# never ends), "exit_code": int}. Without it no process can start, as in a game.

## The folder test commands treat as the project (tests point it at a scratch project).
var project_dir := "res://"
var process_runner := Callable()
## Whether wait_frame() awaits the next frame of the running loop (see wait_frame).
var frame_waits := false
## What was started ({"path", "args"}) and killed, in order.
var started_processes: Array[Dictionary] = []
var killed_processes: Array[int] = []

var _root: Node = null
var _open_scenes := PackedStringArray()
var _edited_path := ""
var _playing := false
var _settings: Dictionary = {}
var _breakpoints := PackedStringArray()
## pid -> {"polls", "exit_code"} of the fake processes.
var _processes: Dictionary = {}
var _next_pid := 1000


func _init(root: Node = null) -> void:
	_histories = UndoHistories.new()
	set_scene_root(root)


func _notification(what: int) -> void:
	# UndoRedo is an Object, not reference-counted: free them with their owner.
	if what == NOTIFICATION_PREDELETE:
		(_histories as UndoHistories).free_all()


## Makes `node` the edited scene (as opening or switching to its tab does); a root seen for the
## first time starts its own history, saved at its first version.
func set_scene_root(node: Node) -> void:
	_root = node
	_edited_path = node.scene_file_path if node != null else ""
	if not _edited_path.is_empty() and not _edited_path in _open_scenes:
		_open_scenes.append(_edited_path)
	if node != null:
		var id := history_id_for(node)
		if not _saved_versions.knows(id):
			_saved_versions.saved(id, history(id).get_version())


func scene_root() -> Node:
	return _root if is_instance_valid(_root) else null


func undo() -> bool:
	var id: int = _histories.newest_undo(_stepped_histories())
	return id >= 0 and history(id).undo()


func redo() -> bool:
	var id: int = _histories.oldest_redo(_stepped_histories())
	return id >= 0 and history(id).redo()


## As EditorInterface.mark_scene_as_unsaved: the edited scene stays unsaved until saved.
func mark_modified() -> void:
	modified_count += 1
	_note_edited_scene(false)


## What the editor's Undo chooses between: the edited scene's history and the global one.
func _stepped_histories() -> Array:
	var ids: Array = [GLOBAL_HISTORY]
	if scene_root() != null:
		ids.append(history_id_for(scene_root()))
	return ids


func refresh_files(paths: PackedStringArray) -> void:
	refreshed_files.append_array(paths)


## Records `path` as open and edited (the scene root stays the one given; tests set it).
func open_scene(path: String) -> Error:
	if not ResourceLoader.exists(path):
		return ERR_FILE_NOT_FOUND
	if not path in _open_scenes:
		_open_scenes.append(path)
	_edited_path = path
	scene_opened.emit(path)
	return OK


func reload_scene(path: String) -> void:
	reloaded_scenes.append(path)


func open_script(path: String, line: int = -1) -> void:
	opened_scripts.append({"path": path, "line": line})


func open_scene_paths() -> PackedStringArray:
	return _open_scenes.duplicate()


func edited_scene_path() -> String:
	return _edited_path


## Forgets `path` as open (as the editor would, 4.5+); closing the edited scene leaves none edited.
func close_scene(path: String) -> Error:
	var target := _edited_path if path.is_empty() else path
	if Engine.get_version_info().hex < 0x040500:
		return ERR_UNAVAILABLE
	if target.is_empty() or not target in _open_scenes:
		return ERR_DOES_NOT_EXIST
	_open_scenes.remove_at(_open_scenes.find(target))
	if target == _edited_path:
		_edited_path = ""
	# The editor drops a closed scene's undo history with its tab.
	_histories.discard_scene(target)
	closed_scenes.append(target)
	return OK


## The scene root's own file is really written (packed from the tree); another open scene is only
## recorded, since this context holds no tree for it.
func save_scene(path: String) -> Error:
	var target := _edited_path if path.is_empty() else path
	if target.is_empty() or not target in _open_scenes:
		return ERR_DOES_NOT_EXIST
	var root := scene_root()
	if root != null and root.scene_file_path == target:
		var packed := PackedScene.new()
		var error := packed.pack(root)
		if error != OK:
			return error
		error = ProjectWrites.save_scene_resource(packed, target)
		if error != OK:
			return error
	var id: int = _histories.scene_id_of(target)
	if id > 0:
		_saved_versions.saved(id, history(id).get_version())
	saved_scenes.append(target)
	return OK


func get_editor_setting(name: String, default: Variant = null) -> Variant:
	return _settings.get(name, default)


func set_editor_setting(name: String, value: Variant) -> void:
	_settings[name] = value


func play_scene(path: String = "", extra_args: PackedStringArray = PackedStringArray()) -> Error:
	var target := path
	if target.is_empty():
		target = str(ProjectSettings.get_setting("application/run/main_scene", ""))
		if target.is_empty():
			return ERR_UNCONFIGURED
	if not ResourceLoader.exists(target):
		return ERR_FILE_NOT_FOUND
	played_scenes.append(target)
	played_args.append(extra_args)
	_playing = true
	play_started.emit(target)
	return OK


func stop_playing() -> void:
	if _playing:
		_playing = false
		play_stopped.emit()


func is_playing() -> bool:
	return _playing


func is_editor() -> bool:
	return false


func is_headless() -> bool:
	return headless


# --- editor_advanced and debugger ------------------------------------------------------

## The game window's own frame: there is no editor viewport outside the editor.
func capture_viewport(_focus: Node) -> Image:
	var tree := Engine.get_main_loop() as SceneTree
	return tree.root.get_texture().get_image() if tree != null else null


func prepare_viewport(force: bool) -> Dictionary:
	if viewport_can_draw:
		return {"ok": true, "remediation": PackedStringArray()}
	if force and viewport_can_restore:
		viewport_can_draw = true
		return {"ok": true, "remediation": PackedStringArray(["foregrounded_editor"])}
	return {"ok": false, "remediation": PackedStringArray()}


func scan_files() -> void:
	scans += 1


func is_busy() -> bool:
	if busy_polls > 0:
		busy_polls -= 1
		return true
	return false


func debugger_state() -> Dictionary:
	return debugger.duplicate()


func breakpoints() -> PackedStringArray:
	return _breakpoints.duplicate()


func set_breakpoint(path: String, line: int, enabled: bool) -> Error:
	var entry := "%s:%d" % [path, line]
	if enabled and not entry in _breakpoints:
		_breakpoints.append(entry)
	elif not enabled and entry in _breakpoints:
		_breakpoints.remove_at(_breakpoints.find(entry))
	return OK


func debug_continue() -> Error:
	if not debugger["paused"]:
		return ERR_UNAVAILABLE
	debugger["paused"] = false
	continued += 1
	return OK


## No frame loop to wait on in a synchronous test: a millisecond passes instead, so a poll that
## is bounded by a timeout still reaches it. A host with a running frame loop (the end-to-end
## engine host) sets `frame_waits`, so a long wait lets the engine serve meanwhile (a cancel).
func wait_frame() -> void:
	if frame_waits:
		await (Engine.get_main_loop() as SceneTree).process_frame
		return
	OS.delay_msec(1)


# --- testing ---------------------------------------------------------------------------

func project_root() -> String:
	return project_dir


func executable_path() -> String:
	return "/fake/godot"


func start_process(path: String, args: PackedStringArray) -> int:
	started_processes.append({"path": path, "args": args})
	if not process_runner.is_valid():
		return -1
	var plan: Dictionary = process_runner.call(path, args)
	_next_pid += 1
	_processes[_next_pid] = {"polls": int(plan.get("polls", 0)), "exit_code": int(plan.get("exit_code", 0))}
	return _next_pid


func is_process_running(pid: int) -> bool:
	var process: Dictionary = _processes.get(pid, {})
	if process.is_empty() or process["polls"] == 0:
		return false
	if process["polls"] > 0:
		process["polls"] -= 1
	return true


func kill_process(pid: int) -> Error:
	if not _processes.has(pid):
		return ERR_DOES_NOT_EXIST
	killed_processes.append(pid)
	_processes[pid]["polls"] = 0
	_processes[pid]["exit_code"] = -1
	return OK


func process_exit_code(pid: int) -> int:
	return int(_processes.get(pid, {}).get("exit_code", -1))
