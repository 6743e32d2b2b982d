# gdlint: disable=max-public-methods
# The seam is one object on purpose (every reach into the editor goes through it), so it is broad.
@tool
extends RefCounted
## The editor seam: the one object through which commands reach the editor (the edited scene,
## undo/redo, the filesystem, open scenes and scripts, editor settings, play mode). Commands bind it
## as their last argument and never name an Editor* class, so their logic runs anywhere.
##
## Two implementations: editor/editor_context.gd (the plugin's, over EditorInterface) and
## context/runtime_context.gd (tests and the game: a plain UndoRedo and a given scene root).
## This base names no Editor* class and answers every call with a clear "not available" so a
## missing override is an error, never a silent success.

const UndoAction := preload("res://addons/godot_mcp_toolkit/edits/undo_action.gd")
const LogHub := preload("res://addons/godot_mcp_toolkit/logs/log_hub.gd")
## The file layer every file change goes through (checkpoint journal hook); subclasses that write
## files (saving a scene) use it too.
const ProjectWrites := preload("res://addons/godot_mcp_toolkit/checkpoints/project_writes.gd")
const VersionUtils := preload("res://addons/godot_mcp_toolkit/base/version_utils.gd")
const EditLedger := preload("res://addons/godot_mcp_toolkit/edits/edit_ledger.gd")
const SavedVersions := preload("res://addons/godot_mcp_toolkit/context/saved_versions.gd")
const ConsentDialog := preload("res://addons/godot_mcp_toolkit/ui/consent_dialog.gd")

## The id of the global undo history (EditorUndoRedoManager.GLOBAL_HISTORY): files, project
## settings, saved resources. Every open scene has a history of its own besides.
const GLOBAL_HISTORY := 0

## What the person's question is shown over: the editor's base control, set by the plugin; null
## where there is nobody to ask (the game, tests).
var dialog_parent: Node = null

var _log_hub: LogHub = null
## The undo histories: context/undo_histories.gd (runtime) or context/manager_histories.gd (the
## editor's manager); null (this base) records no history.
var _histories: RefCounted = null
var _edit_ledger: EditLedger = null
## What this context saw of saves, opens and "unsaved" marks (history_unsaved reads it).
var _saved_versions := SavedVersions.new()


## The edited scene's root (editor) or the test/game scene (runtime); null when none is open.
func scene_root() -> Node:
	return null


## A builder for one undoable action (edits/undo_action.gd) recorded in this context's history.
func create_undo_action(description: String, context_object: Object = null) -> UndoAction:
	return UndoAction.new(self, description, context_object)


## Steps the history back one action; false when there is nothing to undo.
func undo() -> bool:
	return _unavailable("undo")


## Steps the history forward one action; false when there is nothing to redo.
func redo() -> bool:
	return _unavailable("redo")


## Marks the edited scene as having unsaved changes (no-op at runtime).
func mark_modified() -> void:
	pass


## Tells the editor's filesystem about files written outside it (no-op at runtime).
func refresh_files(_paths: PackedStringArray) -> void:
	pass


func open_scene(_path: String) -> Error:
	_unavailable("open_scene")
	return ERR_UNAVAILABLE


func reload_scene(_path: String) -> void:
	_unavailable("reload_scene")


func open_script(_path: String, _line: int = -1) -> void:
	_unavailable("open_script")


func open_scene_paths() -> PackedStringArray:
	return PackedStringArray()


## res:// path of the edited scene; "" when none is open or it was never saved.
func edited_scene_path() -> String:
	var root := scene_root()
	return root.scene_file_path if root != null else ""


## Closes the open scene at `path` ("" = the edited scene), discarding its unsaved changes.
## ERR_DOES_NOT_EXIST when no open scene has that path; ERR_UNAVAILABLE before Godot 4.5 (the
## editor has no way to close a scene tab before EditorInterface.close_scene).
func close_scene(_path: String) -> Error:
	_unavailable("close_scene")
	return ERR_UNAVAILABLE


## Saves exactly the open scene at `path` ("" = the edited scene). ERR_DOES_NOT_EXIST when no
## open scene has that path; otherwise the save's own error.
func save_scene(_path: String) -> Error:
	_unavailable("save_scene")
	return ERR_UNAVAILABLE


func get_editor_setting(_name: String, default: Variant = null) -> Variant:
	return default


func set_editor_setting(_name: String, _value: Variant) -> void:
	_unavailable("set_editor_setting")


## Runs the scene at `path` ("" = the project's main scene), adding `extra_args` to the game's
## command line (e.g. --headless). May await a frame in the editor, so callers await it.
func play_scene(_path: String = "", _extra_args: PackedStringArray = PackedStringArray()) -> Error:
	_unavailable("play_scene")
	return ERR_UNAVAILABLE


func stop_playing() -> void:
	pass


func is_playing() -> bool:
	return false


func is_editor() -> bool:
	return false


## True when this process has no display (`godot --headless`): nothing is drawn, so there is
## nothing to capture, and a game it starts must run headless too.
func is_headless() -> bool:
	return VersionUtils.is_headless()


## The editor's filesystem (EditorFileSystem), for the extension loader's change watch; null
## where there is none to watch.
func filesystem() -> Object:
	return null


## The editor's settings (EditorSettings), for the language-server publisher; null outside the
## editor (the publisher then uses the engine defaults).
func editor_settings() -> Object:
	return null


# --- undo histories (the seam under edits/edit_ledger.gd and commands/history/) ---------------------
# The editor keeps one undo history per open scene plus the global one, each a plain UndoRedo; the
# runtime context keeps the same set (context/undo_histories.gd). Both answer the same calls, so
# the assistant's history reads and steps them without knowing which it has.

## The undo manager an action routed by `routing` (its context or first object) records into:
## the editor's EditorUndoRedoManager (which routes it itself) or the UndoRedo of its history;
## null applies actions without history.
func undo_manager_for(routing: Object) -> Object:
	return _histories.call("manager_for", routing, scene_root()) if _histories != null else null


## The history an action routed by `object` goes to (GLOBAL_HISTORY or a scene's).
func history_id_for(object: Object) -> int:
	return int(_histories.call("id_for", object, scene_root())) if _histories != null else GLOBAL_HISTORY


## The UndoRedo of history `id`; null when there is none. Only asked for histories an action was
## committed to, and for a scene history only while its scene is open.
func history(id: int) -> UndoRedo:
	return _histories.call("undo_redo", id) as UndoRedo if _histories != null else null


## The toolkit just stepped history `id` itself (history.undo / history.redo): whatever shows the
## history (the editor's History dock, scene tabs, Undo menu) is told.
func history_stepped(id: int) -> void:
	if _histories != null:
		_histories.call("stepped", id)


## Whether the scene of history `id` has unsaved changes (at its current version, or at
## `at_version`): true/false when this context knows (it saw the scene opened, saved or marked),
## null otherwise.
func history_unsaved(id: int, at_version: int = -1) -> Variant:
	var undo_redo := history(id) if id != GLOBAL_HISTORY else null
	if undo_redo == null:
		return null
	return _saved_versions.unsaved(id, at_version if at_version >= 0 else undo_redo.get_version())


## The editor saved `resource` (EditorPlugin.resource_saved, and scene_saved from 4.3): a save of
## the edited scene is noted for history_unsaved.
func note_saved(resource: Resource = null) -> void:
	if resource == null or (resource is PackedScene and resource.resource_path == edited_scene_path()):
		_note_edited_scene(true)


## The edited scene was saved (or, `saved` false, marked as having unsaved changes, as
## EditorInterface.mark_scene_as_unsaved does): see context/saved_versions.gd.
func _note_edited_scene(saved: bool) -> void:
	var root := scene_root()
	if root == null or _histories == null:
		return
	var id := history_id_for(root)
	if not saved:
		_saved_versions.marked(id)
	elif history(id) != null:
		_saved_versions.saved(id, history(id).get_version())


## The assistant's edits in this context's histories, made on first use.
func edit_ledger() -> EditLedger:
	if _edit_ledger == null:
		_edit_ledger = EditLedger.new(self)
	return _edit_ledger


func _unavailable(what: String) -> bool:
	push_error("MCP toolkit: %s is not available in this context (%s)" % [what, get_script().resource_path])
	return false


# --- editor_advanced and debugger ------------------------------------------------------

## The editor's 2D/3D viewport as an Image, `focus` (a node of the edited scene, or null) framed
## when the editor can; null when there is no viewport to capture (headless, or no editor).
func capture_viewport(_focus: Node) -> Image:
	return null


## False when the viewport cannot draw a usable frame (window minimized); `force` restores it
## first. {"ok": bool, "remediation": PackedStringArray}.
func prepare_viewport(_force: bool) -> Dictionary:
	return {"ok": false, "remediation": PackedStringArray()}


## Asks the editor to rescan the whole project (files changed outside it).
func scan_files() -> void:
	pass


## True while the editor's filesystem scans or imports.
func is_busy() -> bool:
	return false


## The script debugger: {"available": bool, "active": a game session runs, "paused": stopped at a
## breakpoint}.
func debugger_state() -> Dictionary:
	return {"available": false, "active": false, "paused": false}


## The breakpoints set in the script editor, as "res://path.gd:line" strings.
func breakpoints() -> PackedStringArray:
	return PackedStringArray()


func set_breakpoint(_path: String, _line: int, _enabled: bool) -> Error:
	_unavailable("set_breakpoint")
	return ERR_UNAVAILABLE


## Resumes a game paused at a breakpoint.
func debug_continue() -> Error:
	_unavailable("debug_continue")
	return ERR_UNAVAILABLE


## Lets one editor frame pass (awaitable); waits that poll the editor go through here so a test
## context can stand in without a frame loop.
func wait_frame() -> void:
	var tree := Engine.get_main_loop() as SceneTree
	if tree != null:
		await tree.process_frame


## This process's log capture (output lines and distinct errors, logs/log_hub.gd), made on first
## use and living as long as the context: editor.get_console, debugger.get_log and the pushed
## errors.reported all read this one, so they never disagree.
func log_hub() -> LogHub:
	if _log_hub == null:
		_log_hub = LogHub.new()
		_log_hub.attach()
	return _log_hub


# --- testing: a separate Godot process runs the project's tests ----------------------
# Real here (OS is runtime-safe, so the editor context inherits these as they are); the runtime
# context replaces them with a recorded fake so tests need no second process.

## The project folder the test commands read (frameworks, suites): res:// in the editor.
func project_root() -> String:
	return "res://"


## The Godot binary this editor runs on, to start a test process with.
func executable_path() -> String:
	return OS.get_executable_path()


## Starts `path` with `args` without waiting; the pid, or -1 when it could not start.
func start_process(path: String, args: PackedStringArray) -> int:
	return OS.create_process(path, args, false)


func is_process_running(pid: int) -> bool:
	return OS.is_process_running(pid)


func kill_process(pid: int) -> Error:
	return OS.kill(pid)


## The exit code of a finished process; -1 when unknown (Godot before 4.3 cannot tell).
func process_exit_code(pid: int) -> int:
	if Engine.get_version_info().hex < 0x040300:
		return -1
	# Named by string: OS.get_process_exit_code does not exist (so would not compile) before 4.3.
	return int(OS.call("get_process_exit_code", pid))


## Asks the person at the editor to allow or refuse what `message` describes, and waits:
## {"answer": "accept" | "decline" | "cancel"} (cancel also when `timeout_ms` passes or `job`, the
## request's ToolContext, is cancelled: the question is withdrawn), in a dialog over the editor
## (ui/consent_dialog.gd). Where nobody can be asked (the game, a test, a headless editor):
## {"unavailable": why}. May await, so callers await it.
func ask_person(title: String, message: String, timeout_ms: int, job: RefCounted) -> Dictionary:
	var parent := dialog_parent
	if parent == null or not is_instance_valid(parent):
		return {"unavailable": "this is not an editor with a window, so nobody is there to ask"}
	if is_headless():
		return {"unavailable": "the editor runs headless (no window), so nobody is there to ask"}
	return {"answer": await ConsentDialog.new(title, message).ask(parent, timeout_ms, job)}

