@tool
extends "res://addons/godot_mcp_toolkit/context/toolkit_context.gd"
## The context inside the editor: each role (context/toolkit_context.gd) over EditorInterface and
## the plugin's EditorUndoRedoManager. Editor glue (scripts/gd_common.py EDITOR_GLUE): it only
## forwards to the editor, so keep logic out of here; anything worth testing belongs in a
## runtime-safe file. What it leaves to a role's base (the test processes, the log capture, asking
## the person) is runtime-safe and the same everywhere. The undo manager is passed in (the
## plugin's get_undo_redo()), since EditorInterface.get_editor_undo_redo() is 4.4+ only.

const ManagerHistories := preload("res://addons/godot_mcp_toolkit/context/manager_histories.gd")

## The same debugger role under its own type (the plugin adds its debugger plugin).
var editor_debugger: EditorDebugger = EditorDebugger.new()


func _init(manager: EditorUndoRedoManager) -> void:
	var histories := ManagerHistories.new(manager)
	host = EditorHost.new()
	scenes = EditorScenes.new(histories)
	edits = EditorEdits.new(histories, scenes, manager)
	project = EditorProject.new()
	game = EditorGame.new(host.wait_frame)
	debugger = editor_debugger
	viewport = EditorViewport.new(scenes)
	person = PersonRole.new(host)


class EditorHost extends "res://addons/godot_mcp_toolkit/context/host_role.gd":
	func is_editor() -> bool:
		return true


class EditorScenes extends "res://addons/godot_mcp_toolkit/context/scene_role.gd":
	func scene_root() -> Node:
		return EditorInterface.get_edited_scene_root()

	func mark_modified() -> void:
		EditorInterface.mark_scene_as_unsaved()
		note_edited_scene(false)

	func open_scene(path: String) -> Error:
		if not ResourceLoader.exists(path):
			return ERR_FILE_NOT_FOUND
		EditorInterface.open_scene_from_path(path)
		return OK if edited_scene_path() == path else ERR_CANT_OPEN

	func reload_scene(path: String) -> void:
		EditorInterface.reload_scene_from_path(path)

	func open_script(path: String, line: int = -1) -> void:
		var script := load(path) as Script
		if script != null:
			EditorInterface.edit_script(script, line)

	func open_scene_paths() -> PackedStringArray:
		return EditorInterface.get_open_scenes()

	## close_scene() (4.5+) closes the *active* scene: switch to `path`'s tab, close it, and switch
	## back to the scene that was active before (unless that was the one closed).
	func close_scene(path: String) -> Error:
		if Engine.get_version_info().hex < 0x040500:
			return ERR_UNAVAILABLE
		var active := edited_scene_path()
		var target := active if path.is_empty() else path
		if target.is_empty() or not target in open_scene_paths():
			return ERR_DOES_NOT_EXIST
		if target != active:
			EditorInterface.open_scene_from_path(target)
			if edited_scene_path() != target:
				return ERR_CANT_OPEN
		# Named by string: the method does not exist (so would not compile) before 4.5.
		var error: Error = EditorInterface.call("close_scene")
		if target != active and not active.is_empty() and active in open_scene_paths():
			EditorInterface.open_scene_from_path(active)
		return error

	## save_scene_as() would write the *active* scene: switch to the target's tab, save, switch back.
	## The editor writes the file, so the checkpoint journal is told before and after.
	func save_scene(path: String) -> Error:
		var active := edited_scene_path()
		var target := active if path.is_empty() else path
		if target.is_empty() or not (target == active or target in open_scene_paths()):
			return ERR_DOES_NOT_EXIST
		if target != active:
			EditorInterface.open_scene_from_path(target)
			if edited_scene_path() != target:
				return ERR_CANT_OPEN
		var error := ProjectWrites.save_scene_file(target, Callable(EditorInterface, "save_scene"))
		if error == OK:
			note_edited_scene(true)
		if target != active and not active.is_empty():
			EditorInterface.open_scene_from_path(active)
		return error


class EditorEdits extends "res://addons/godot_mcp_toolkit/context/edit_role.gd":
	var _manager: EditorUndoRedoManager = null

	func _init(histories: RefCounted, scenes: SceneRole, manager: EditorUndoRedoManager) -> void:
		super(histories, scenes)
		_manager = manager

	func undo() -> bool:
		var undo_redo := _edited_history()
		return undo_redo != null and undo_redo.undo()

	func redo() -> bool:
		var undo_redo := _edited_history()
		return undo_redo != null and undo_redo.redo()

	## The undo history of the edited scene (each scene has its own in the editor).
	func _edited_history() -> UndoRedo:
		var root := scene_root()
		if _manager == null or root == null:
			return null
		return _manager.get_history_undo_redo(_manager.get_object_history_id(root))


class EditorProject extends "res://addons/godot_mcp_toolkit/context/project_role.gd":
	func refresh_files(paths: PackedStringArray) -> void:
		var filesystem := EditorInterface.get_resource_filesystem()
		var unknown_folder := false
		for path: String in paths:
			# user:// (save data) is not part of the project index; a scan for it would be wasted.
			if not path.begins_with("res://"):
				continue
			if filesystem.get_filesystem_path(path.get_base_dir()) == null:
				unknown_folder = true
			else:
				filesystem.update_file(path)
		# update_file cannot add a file in a folder the editor has not seen yet; a scan can.
		if unknown_folder:
			filesystem.scan()

	func scan_files() -> void:
		EditorInterface.get_resource_filesystem().scan()

	func is_busy() -> bool:
		return EditorInterface.get_resource_filesystem().is_scanning()

	## The filesystem, for the extension loader's change watch (untyped so it stays runtime-safe).
	func filesystem() -> Object:
		return EditorInterface.get_resource_filesystem()

	## EditorSettings, for the language-server publisher's change watch.
	func editor_settings() -> Object:
		return EditorInterface.get_editor_settings()

	func get_editor_setting(name: String, default: Variant = null) -> Variant:
		var settings := EditorInterface.get_editor_settings()
		return settings.get_setting(name) if settings.has_setting(name) else default

	func set_editor_setting(name: String, value: Variant) -> void:
		EditorInterface.get_editor_settings().set_setting(name, value)


class EditorGame extends "res://addons/godot_mcp_toolkit/context/game_role.gd":
	const RunArgs := preload("res://addons/godot_mcp_toolkit/context/run_args.gd")

	## The host's wait_frame: the editor takes a changed run setting one frame later.
	var _wait_frame := Callable()

	func _init(wait_frame: Callable) -> void:
		_wait_frame = wait_frame

	func play_scene(path: String = "", extra_args: PackedStringArray = PackedStringArray()) -> Error:
		var play := Callable(EditorInterface, "play_custom_scene").bind(path)
		if path.is_empty():
			if str(ProjectSettings.get_setting("application/run/main_scene", "")).is_empty():
				return ERR_UNCONFIGURED
			play = Callable(EditorInterface, "play_main_scene")
		elif not ResourceLoader.exists(path):
			return ERR_FILE_NOT_FOUND
		await RunArgs.play_with(extra_args, play, _wait_frame)
		return OK

	func stop_playing() -> void:
		EditorInterface.stop_playing_scene()

	func is_playing() -> bool:
		return EditorInterface.is_playing_scene()


## Holds the editor's debugger sessions once added; session_stopped feeds logs/game_exit.gd.
class DebuggerHook extends EditorDebuggerPlugin:
	signal session_stopped
	func _has_capture(_prefix: String) -> bool:
		return false

	func _setup_session(session_id: int) -> void:
		get_session(session_id).stopped.connect(func() -> void: session_stopped.emit())


class EditorDebugger extends "res://addons/godot_mcp_toolkit/context/debug_role.gd":
	## The debugger plugin (debug.* commands), made on first use.
	var _debugger_hook: DebuggerHook = null

	func debugger_plugin() -> EditorDebuggerPlugin:
		if _debugger_hook == null:
			_debugger_hook = DebuggerHook.new()
		return _debugger_hook

	func debugger_state() -> Dictionary:
		var session := _session()
		return {"available": _debugger_hook != null, "active": session != null,
			"paused": session != null and session.is_breaked()}

	## ScriptEditor.get_breakpoints is 4.4+ ("res://x.gd:<1-based line>", closed scripts too); before
	## it, the breakpoints of the open scripts' editors.
	func breakpoints() -> PackedStringArray:
		var script_editor := EditorInterface.get_script_editor()
		var version := Engine.get_version_info()
		if version["major"] > 4 or version["minor"] >= 4:
			return script_editor.call("get_breakpoints")
		var found := PackedStringArray()
		var scripts := script_editor.get_open_scripts()
		var editors := script_editor.get_open_script_editors()
		# Script tabs and editor tabs line up unless a text file is open; then only the current
		# script (which set_breakpoint just opened) can be matched to its editor.
		if scripts.size() == editors.size():
			for i in scripts.size():
				_append_breakpoints(found, scripts[i], editors[i])
		else:
			_append_breakpoints(found, script_editor.get_current_script(), script_editor.get_current_editor())
		return found

	## Through the script's CodeEdit gutter, as a click there does (the debugger then tells a running
	## game); the script opens in the script editor for that.
	func set_breakpoint(path: String, line: int, enabled: bool) -> Error:
		var script := load(path) as Script
		if script == null:
			return ERR_CANT_OPEN
		EditorInterface.edit_script(script, line)
		var current := EditorInterface.get_script_editor().get_current_editor()
		var code: CodeEdit = current.get_base_editor() as CodeEdit if current != null else null
		if code == null:
			return ERR_UNAVAILABLE
		code.set_line_as_breakpoint(line - 1, enabled)
		return OK

	## The same "continue" message the debugger's own Continue button sends.
	func debug_continue() -> Error:
		var session := _session()
		if session == null or not session.is_breaked():
			return ERR_UNAVAILABLE
		session.send_message("continue", [])
		return OK

	func _append_breakpoints(found: PackedStringArray, script: Script, editor: ScriptEditorBase) -> void:
		var code: CodeEdit = editor.get_base_editor() as CodeEdit if editor != null else null
		if script == null or code == null:
			return
		for line: int in code.get_breakpointed_lines():
			found.append("%s:%d" % [script.resource_path, line + 1])

	func _session() -> EditorDebuggerSession:
		if _debugger_hook == null:
			return null
		for session: EditorDebuggerSession in _debugger_hook.get_sessions():
			if session.is_active():
				return session
		return null


class EditorViewport extends "res://addons/godot_mcp_toolkit/context/viewport_role.gd":
	## The 3D viewport when the focus (or else the scene root) is 3D, the 2D one otherwise. The focus
	## node is selected so the editor shows it; the engine has no API to frame it from a plugin.
	func capture_viewport(focus: Node) -> Image:
		var subject: Node = focus if focus != null else _scenes.scene_root()
		if focus != null:
			EditorInterface.edit_node(focus)
		var viewport: Viewport = null
		if subject is Node3D:
			viewport = EditorInterface.get_editor_viewport_3d(0)
		else:
			viewport = EditorInterface.get_editor_viewport_2d()
		if viewport == null or not _showing(viewport):
			return null
		return viewport.get_texture().get_image()

	func prepare_viewport(force: bool) -> Dictionary:
		var remediation := PackedStringArray()
		if DisplayServer.window_get_mode() == DisplayServer.WINDOW_MODE_MINIMIZED:
			if not force:
				return {"ok": false, "remediation": remediation}
			DisplayServer.window_set_mode(DisplayServer.WINDOW_MODE_WINDOWED)
			DisplayServer.window_move_to_foreground()
			remediation.append("foregrounded_editor")
		var screen := "3D" if _scenes.scene_root() is Node3D else "2D"
		var viewport: Viewport = EditorInterface.get_editor_viewport_3d(0) if screen == "3D" \
			else EditorInterface.get_editor_viewport_2d()
		if viewport != null and not _showing(viewport):
			EditorInterface.set_main_screen_editor(screen)
			remediation.append("switched_main_screen")
		return {"ok": true, "remediation": remediation}

	static func _showing(viewport: Viewport) -> bool:
		var holder := viewport.get_parent() as Control
		return holder == null or holder.is_visible_in_tree()
