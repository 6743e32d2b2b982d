@tool
extends EditorPlugin
## Composition root of the editor side. _enter_tree builds the pieces in one fixed order and
## _exit_tree takes them down in exactly the reverse order, so every piece can rely on what was
## built before it still being there. Disabling the plugin leaves nothing behind: no socket, no
## registry entry, no token file, no autoload, and no setting still at its default.
## Polling happens in _process (and in the server node's own _process); no threads.
##
## Editor glue (scripts/gd_common.py EDITOR_GLUE): everything the commands need from the editor
## goes through one context object (editor/editor_context.gd); this file only wires parts.

const Settings := preload("res://addons/godot_mcp_toolkit/core/settings_registration.gd")
const VersionUtils := preload("res://addons/godot_mcp_toolkit/core/version_utils.gd")
const ExportStripper := preload("res://addons/godot_mcp_toolkit/editor/export_stripper.gd")
const EditorContext := preload("res://addons/godot_mcp_toolkit/editor/editor_context.gd")
const CommandDomains := preload("res://addons/godot_mcp_toolkit/commands/command_domains.gd")
const Auth := preload("res://addons/godot_mcp_toolkit/security/auth.gd")
const CommandRegistry := preload("res://addons/godot_mcp_toolkit/transport/mcp_toolkit_command_registry.gd")
const McpServer := preload("res://addons/godot_mcp_toolkit/transport/mcp_server.gd")
const MetaCommands := preload("res://addons/godot_mcp_toolkit/commands/meta_commands.gd")
const EditorStatusCommands := preload("res://addons/godot_mcp_toolkit/commands/editor_status_commands.gd")
const GameExit := preload("res://addons/godot_mcp_toolkit/logs/game_exit.gd")
const LogFile := preload("res://addons/godot_mcp_toolkit/logs/log_file.gd")

## Parts owned by other modules are loaded by path, so one that fails to compile costs its own
## feature (with an error in the Output panel) instead of the whole plugin.
const REGISTRY_CLIENT_PATH := "res://addons/godot_mcp_toolkit/registry/registry_client.gd"
const LSP_PUBLISHER_PATH := "res://addons/godot_mcp_toolkit/paths/lsp_publisher.gd"
const EXTENSION_LOADER_PATH := "res://addons/godot_mcp_toolkit/extensions/extension_loader.gd"
const DOCK_PATH := "res://addons/godot_mcp_toolkit/ui/dock.gd"

const AUTOLOAD_NAME := "MCPToolkitRuntime"
const AUTOLOAD_PATH := "res://addons/godot_mcp_toolkit/runtime/mcp_runtime_autoload.gd"
const GAME_STOPPED := "game_stopped"

var _auth: Auth = null
var _context: EditorContext = null
var _registry: CommandRegistry = null
var _server: McpServer = null
var _registry_client: RefCounted = null
var _lsp_publisher: RefCounted = null
var _extension_loader: Node = null
var _dock: Control = null
var _export_stripper: ExportStripper = null
var _was_playing := false
var _game_exit := GameExit.new()
## Set by _disable_plugin (which the editor calls just before _exit_tree) so teardown also removes
## what must survive a mere editor restart: the autoload and default-valued settings.
var _disabling := false


func _enter_tree() -> void:
	# 1. Settings first: everything below reads limits through them.
	Settings.register_all()
	# 2. A fresh token on every start, written before anything can accept a connection.
	_auth = Auth.new()
	var token_error := _auth.start()
	if token_error != OK:
		push_error("MCP toolkit: could not write the auth token to %s (%s); bridges cannot connect" % [
			_auth.get_token_path(), error_string(token_error)])
	# 3. The editor context (the seam every command uses) and the command registry over it.
	_context = EditorContext.new(get_undo_redo())
	_registry = CommandRegistry.new()
	_registry.configure(VersionUtils.engine_version(), _context)
	# 4. Pipeline commands. The server object exists from here so commands can hold it; it does
	#    not listen until step 5.
	_server = McpServer.new()
	_server.name = "MCPToolkitServer"
	_server.setup(_registry, _auth)
	_server.set_active_scene_provider(_context.edited_scene_path)
	_server.push_errors(_context.log_hub().errors, "editor")
	MetaCommands.register(_registry, _server)
	EditorStatusCommands.register(_registry, _server)
	CommandDomains.register_all(_registry, _context)
	# 5. Listen. A pinned port that frees late binds later and re-publishes through `bound`.
	add_child(_server)
	_server.bound.connect(_publish)
	_server.start()
	# 6. Publish this editor in the machine-wide registry.
	_registry_client = _instantiate(REGISTRY_CLIENT_PATH) as RefCounted
	if _server.is_listening():
		_publish(_server.get_port())
	# 7. Follow the user's language-server settings.
	_lsp_publisher = _instantiate(LSP_PUBLISHER_PATH) as RefCounted
	if _lsp_publisher != null:
		_lsp_publisher.start(_context.editor_settings())
		_lsp_publisher.connect("endpoint_changed", _on_lsp_endpoint_changed)
	# 8. Project extensions (they register into the registry and broadcast through the server).
	_extension_loader = _instantiate(EXTENSION_LOADER_PATH) as Node
	if _extension_loader != null:
		add_child(_extension_loader)
		_extension_loader.setup(_registry, _server, "res://", _context.filesystem())
	# 9. The dock.
	_dock = _instantiate(DOCK_PATH) as Control
	if _dock != null:
		add_control_to_dock(DOCK_SLOT_RIGHT_UL, _dock)
		_dock.bind(_server, self)
	# 10. Mode B: keep the game autoload registered (healing a hand-removed one) and strip the
	#     toolkit from exports.
	_export_stripper = ExportStripper.new()
	add_export_plugin(_export_stripper)
	_ensure_autoload()
	# 11. The debugger hook the debug.* commands read sessions through; its session ends feed
	#     crash detection.
	add_debugger_plugin(_context.debugger_plugin())
	_context.debugger_plugin().connect("session_stopped", _on_game_session_stopped)


func _exit_tree() -> void:
	# 11.
	if _context != null:
		_context.debugger_plugin().disconnect("session_stopped", _on_game_session_stopped)
		remove_debugger_plugin(_context.debugger_plugin())
	# 10.
	if _export_stripper != null:
		remove_export_plugin(_export_stripper)
		_export_stripper = null
	if _disabling:
		_remove_autoload()
	# 9.
	if _dock != null:
		remove_control_from_docks(_dock)
		_dock.queue_free()
		_dock = null
	# 8.
	if _extension_loader != null:
		_extension_loader.teardown()
		remove_child(_extension_loader)
		_extension_loader.queue_free()
		_extension_loader = null
	# 7.
	if _lsp_publisher != null:
		_lsp_publisher.disconnect("endpoint_changed", _on_lsp_endpoint_changed)
		_lsp_publisher.stop()
		_lsp_publisher = null
	# 6.
	if _registry_client != null:
		_registry_client.unregister()
		_registry_client = null
	# 5.
	if _server != null:
		_server.bound.disconnect(_publish)
		_server.stop()
		remove_child(_server)
		_server.queue_free()
		_server = null
	# 4. and 3. The pipeline commands go with the registry, then the context.
	if _registry != null:
		_registry.clear()
		_registry = null
	_context = null
	# 2.
	if _auth != null:
		_auth.stop()
		_auth = null
	# 1.
	if _disabling:
		Settings.unregister_unchanged()


func _enable_plugin() -> void:
	_disabling = false
	_ensure_autoload()


func _disable_plugin() -> void:
	_disabling = true


func _process(_delta: float) -> void:
	if _registry != null:
		_registry.get_save_queue().process()
	_watch_playtest()


## Called by the dock: a new token on disk, and every connected bridge dropped so it reconnects
## with the new one.
func regenerate_token() -> void:
	if _auth == null:
		return
	var error := _auth.start()
	if error != OK:
		push_error("MCP toolkit: could not write the new token (%s)" % error_string(error))
	if _server != null:
		_server.disconnect_all("token regenerated")


# --- helpers -----------------------------------------------------------------------------------

func _publish(port: int) -> void:
	if _registry_client == null or _auth == null:
		return
	var lsp := _lsp_endpoint()
	_registry_client.register(ProjectSettings.globalize_path("res://"), port, _auth.get_published_token_path(),
		VersionUtils.engine_version(), str(lsp.get("host", "127.0.0.1")), int(lsp.get("port", 6005)))


func _lsp_endpoint() -> Dictionary:
	if _lsp_publisher != null:
		return _lsp_publisher.current()
	var script := _load_script(LSP_PUBLISHER_PATH)
	return script.resolve_lsp_endpoint(EditorInterface.get_editor_settings()) if script != null else {}


func _on_lsp_endpoint_changed(host: String, port: int) -> void:
	if _registry_client != null:
		_registry_client.update_lsp_endpoint(host, port)


## Play stopped: tell every bridge, and withdraw the game's runtime port ourselves, because a game
## the editor killed never got to run its own cleanup.
func _watch_playtest() -> void:
	var playing := _context != null and _context.is_playing()
	if playing == _was_playing:
		return
	_was_playing = playing
	_game_exit.play_state(playing)
	if playing:
		return
	if _server != null:
		_server.broadcast_notification(GAME_STOPPED)
	if _registry_client != null:
		_registry_client.clear_runtime()


## A game's debugger session ended: report a crash (logs/game_exit.gd has the rule) before the
## editor notices the stop and game_stopped follows.
func _on_game_session_stopped() -> void:
	if _context == null or _server == null or _registry_client == null:
		return
	if _game_exit.session_ended(_context.is_playing(), _registry_client.has_runtime()):
		_server.broadcast_notification(GameExit.EVENT, GameExit.report(LogFile.path()))


func _ensure_autoload() -> void:
	if not ProjectSettings.has_setting("autoload/" + AUTOLOAD_NAME):
		add_autoload_singleton(AUTOLOAD_NAME, AUTOLOAD_PATH)


func _remove_autoload() -> void:
	if ProjectSettings.has_setting("autoload/" + AUTOLOAD_NAME):
		remove_autoload_singleton(AUTOLOAD_NAME)


static func _load_script(path: String) -> Script:
	if not ResourceLoader.exists(path):
		push_error("MCP toolkit: %s is missing; that feature is off" % path)
		return null
	var script := load(path) as Script
	if script == null or not script.can_instantiate():
		push_error("MCP toolkit: %s does not compile; that feature is off" % path)
		return null
	return script


static func _instantiate(path: String) -> Object:
	var script := _load_script(path)
	return script.new() if script != null else null
