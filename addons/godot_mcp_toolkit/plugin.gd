@tool
extends EditorPlugin
## The editor's entry point. The toolkit itself is composed by core/toolkit_app.gd (settings, token,
## commands, server, registry, language-server endpoint, extensions, playtest watch), the same
## composition an engine host runs over the runtime context; this file adds only what needs an
## editor: the editor context, the dock, the export plugin and game autoload, and the debugger
## hook. _enter_tree builds in one fixed order and _exit_tree takes down in exactly the reverse
## order. Disabling the plugin leaves nothing behind: no socket, no registry entry, no token file,
## no autoload, and no setting still at its default.
##
## Editor glue (scripts/gd_common.py EDITOR_GLUE): keep logic out of here.

const ToolkitApp := preload("res://addons/godot_mcp_toolkit/core/toolkit_app.gd")
const ExportStripper := preload("res://addons/godot_mcp_toolkit/editor/export_stripper.gd")
const EditorContext := preload("res://addons/godot_mcp_toolkit/editor/editor_context.gd")

const DOCK_PATH := "res://addons/godot_mcp_toolkit/ui/dock.gd"
const AUTOLOAD_NAME := "MCPToolkitRuntime"
const AUTOLOAD_PATH := "res://addons/godot_mcp_toolkit/runtime/mcp_runtime_autoload.gd"

var _context: EditorContext = null
var _app: ToolkitApp = null
var _dock: Control = null
var _export_stripper: ExportStripper = null
## Set by _disable_plugin (which the editor calls just before _exit_tree) so teardown also removes
## what must survive a mere editor restart: the autoload and default-valued settings.
var _disabling := false


func _enter_tree() -> void:
	# 1. The toolkit, over the editor context.
	_context = EditorContext.new(get_undo_redo())
	# The user's saves, for the unsaved state the assistant's history reports (scene_saved: 4.3+).
	resource_saved.connect(_context.scenes.note_saved)
	if has_signal("scene_saved"):
		connect("scene_saved", _context.scenes.note_saved.bind(null).unbind(1))
	_context.person.dialog_parent = EditorInterface.get_base_control()  # where the bridge's questions appear
	_app = ToolkitApp.new(_context)
	add_child(_app)
	_app.start()
	# 2. The dock (its token button calls the app's regenerate_token).
	var dock_script := ToolkitApp.load_part(DOCK_PATH)
	_dock = dock_script.new() as Control if dock_script != null else null
	if _dock != null:
		add_control_to_dock(DOCK_SLOT_RIGHT_UL, _dock)
		_dock.bind(_app.server(), _app)
	# 3. Mode B: keep the game autoload registered (healing a hand-removed one) and strip the
	#    toolkit from exports.
	_export_stripper = ExportStripper.new()
	add_export_plugin(_export_stripper)
	_ensure_autoload()
	# 4. The debugger hook the debug.* commands read sessions through; its session ends feed
	#    crash detection.
	add_debugger_plugin(_context.editor_debugger.debugger_plugin())
	_context.editor_debugger.debugger_plugin().connect("session_stopped", _app.game_session_ended)


func _exit_tree() -> void:
	# 4.
	if _context != null:
		_context.editor_debugger.debugger_plugin().disconnect("session_stopped", _app.game_session_ended)
		remove_debugger_plugin(_context.editor_debugger.debugger_plugin())
	# 3.
	if _export_stripper != null:
		remove_export_plugin(_export_stripper)
		_export_stripper = null
	if _disabling:
		_remove_autoload()
	# 2.
	if _dock != null:
		remove_control_from_docks(_dock)
		_dock.queue_free()
		_dock = null
	# 1.
	if _app != null:
		_app.shutdown(_disabling)
		remove_child(_app)
		_app.queue_free()
		_app = null
	_context = null


func _enable_plugin() -> void:
	_disabling = false
	_ensure_autoload()


func _disable_plugin() -> void:
	_disabling = true


func _ensure_autoload() -> void:
	if not ProjectSettings.has_setting("autoload/" + AUTOLOAD_NAME):
		add_autoload_singleton(AUTOLOAD_NAME, AUTOLOAD_PATH)


func _remove_autoload() -> void:
	if ProjectSettings.has_setting("autoload/" + AUTOLOAD_NAME):
		remove_autoload_singleton(AUTOLOAD_NAME)
