@tool
extends Node
## Composition root of the toolkit's editor side: start() builds the pieces in one fixed order and
## shutdown() takes them down in exactly the reverse order, so every piece can rely on what was
## built before it still being there. The editor plugin (plugin.gd) calls it with its editor
## context; an engine host (the end-to-end tests) calls it with the runtime context and its own
## listener, so both run the same start-up and cannot drift apart.
##
## Runtime-safe: names no Editor* class. What only an editor has (dock, export plugin, autoload,
## debugger hook) stays in plugin.gd. Polling happens in _process (and in the server node's own
## _process); no threads.

const Settings := preload("res://addons/godot_mcp_toolkit/settings/settings_registration.gd")
const VersionUtils := preload("res://addons/godot_mcp_toolkit/base/version_utils.gd")
const CommandDomains := preload("res://addons/godot_mcp_toolkit/commands/command_domains.gd")
const Auth := preload("res://addons/godot_mcp_toolkit/security/auth.gd")
const CommandRegistry := preload("res://addons/godot_mcp_toolkit/transport/mcp_toolkit_command_registry.gd")
const McpServer := preload("res://addons/godot_mcp_toolkit/transport/mcp_server.gd")
const MetaCommands := preload("res://addons/godot_mcp_toolkit/commands/meta/meta_commands.gd")
const LspStatusCommands := preload("res://addons/godot_mcp_toolkit/commands/editor/lsp_status_commands.gd")
const GameExit := preload("res://addons/godot_mcp_toolkit/logs/game_exit.gd")
const LogFile := preload("res://addons/godot_mcp_toolkit/logs/log_file.gd")
const ToolkitContext := preload("res://addons/godot_mcp_toolkit/context/toolkit_context.gd")

## Parts owned by other modules are loaded by path, so one that fails to compile costs its own
## feature (with an error in the Output panel) instead of the whole toolkit.
const REGISTRY_CLIENT_PATH := "res://addons/godot_mcp_toolkit/registry/registry_client.gd"
const LSP_PUBLISHER_PATH := "res://addons/godot_mcp_toolkit/paths/lsp_publisher.gd"
const EXTENSION_LOADER_PATH := "res://addons/godot_mcp_toolkit/extensions/extension_loader.gd"

const GAME_STOPPED := "game_stopped"

var _context: ToolkitContext = null
var _getenv := Callable()
var _listener: RefCounted = null
var _auth: Auth = null
var _registry: CommandRegistry = null
var _server: McpServer = null
var _publisher: RefCounted = null
var _registry_client: RefCounted = null
var _lsp_publisher: RefCounted = null
var _extension_loader: Node = null
var _was_playing := false
var _game_exit := GameExit.new()


## `context` is the seam every command uses (the editor's, or a runtime context). `options`:
## "getenv" (Callable(name) -> String, default the process environment), "listener" (the
## server's listening socket, transport/peer/tcp_listener.gd; default the real TCP one) and
## "publisher" (where the registry entry goes: an object with registry_client.gd's register,
## update_lsp_endpoint, unregister, has_runtime and clear_runtime; default the registry client).
func _init(context: ToolkitContext, options: Dictionary = {}) -> void:
	name = "MCPToolkitApp"
	_context = context
	_getenv = options.get("getenv", Callable())
	_listener = options.get("listener")
	_publisher = options.get("publisher")


func start() -> void:
	# 1. Settings first: everything below reads limits through them.
	Settings.register_all()
	# 2. A fresh token on every start, written before anything can accept a connection.
	_auth = Auth.new(_getenv)
	var token_error := _auth.start()
	if token_error != OK:
		push_error("MCP toolkit: could not write the auth token to %s (%s); bridges cannot connect" % [
			_auth.get_token_path(), error_string(token_error)])
	# 3. The command registry over the context (the seam every command uses).
	_registry = CommandRegistry.new()
	_registry.configure(VersionUtils.engine_version(), _context)
	# 4. Pipeline commands. The server object exists from here so commands can hold it; it does
	#    not listen until step 5.
	_server = McpServer.new()
	_server.name = "MCPToolkitServer"
	_server.setup(_registry, _auth, _getenv, _listener)
	_server.set_active_scene_provider(_context.scenes.edited_scene_path)
	_server.push_errors(_context.debugger.log_hub().errors, "editor")
	MetaCommands.register(_registry, _server)
	LspStatusCommands.register(_registry, _server)
	CommandDomains.register_all(_registry, _context)
	# 5. Listen. A pinned port that frees late binds later and re-publishes through `bound`.
	add_child(_server)
	_server.bound.connect(_publish)
	_server.start()
	# 6. Publish this editor in the machine-wide registry.
	_registry_client = _publisher if _publisher != null else _instantiate(REGISTRY_CLIENT_PATH) as RefCounted
	if _server.is_listening():
		_publish(_server.get_port())
	# 7. Follow the user's language-server settings.
	_lsp_publisher = _instantiate(LSP_PUBLISHER_PATH) as RefCounted
	if _lsp_publisher != null:
		_lsp_publisher.start(_context.project.editor_settings())
		_lsp_publisher.connect("endpoint_changed", _on_lsp_endpoint_changed)
	# 8. Project extensions (they register into the registry and broadcast through the server).
	_extension_loader = _instantiate(EXTENSION_LOADER_PATH) as Node
	if _extension_loader != null:
		add_child(_extension_loader)
		_extension_loader.setup(_registry, _server, "res://", _context.project.filesystem())


## Reverse of start(). `disabling`: the toolkit is being switched off for good (not an editor
## restart), so settings still at their defaults are removed too.
func shutdown(disabling: bool) -> void:
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
	# 4. and 3. The pipeline commands go with the registry.
	if _registry != null:
		_registry.clear()
		_registry = null
	# 2.
	if _auth != null:
		_auth.stop()
		_auth = null
	# 1.
	if disabling:
		Settings.unregister_unchanged()


## The server, for the dock (status, peers) and hosts.
func server() -> McpServer:
	return _server


func _process(_delta: float) -> void:
	if _registry != null:
		_registry.get_save_queue().process()
	_watch_playtest()


## A new token on disk, and every connected bridge dropped so it reconnects with the new one
## (the dock's button).
func regenerate_token() -> void:
	if _auth == null:
		return
	var error := _auth.start()
	if error != OK:
		push_error("MCP toolkit: could not write the new token (%s)" % error_string(error))
	if _server != null:
		_server.disconnect_all("token regenerated")


## A game's debugger session ended: report a crash (logs/game_exit.gd has the rule) before the
## editor notices the stop and game_stopped follows.
func game_session_ended() -> void:
	if _server == null or _registry_client == null:
		return
	if _game_exit.session_ended(_context.game.is_playing(), _registry_client.has_runtime()):
		_server.broadcast_notification(GameExit.EVENT, GameExit.report(LogFile.path()))


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
	var script := load_part(LSP_PUBLISHER_PATH)
	return script.resolve_lsp_endpoint(_context.project.editor_settings()) if script != null else {}


func _on_lsp_endpoint_changed(host: String, port: int) -> void:
	if _registry_client != null:
		_registry_client.update_lsp_endpoint(host, port)


## Play stopped: tell every bridge, and withdraw the game's runtime port ourselves, because a game
## the editor killed never got to run its own cleanup.
func _watch_playtest() -> void:
	var playing := _context != null and _context.game.is_playing()
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


## The script at `path` when it loads and compiles; null (with an error saying which feature is
## off) otherwise.
static func load_part(path: String) -> Script:
	if not ResourceLoader.exists(path):
		push_error("MCP toolkit: %s is missing; that feature is off" % path)
		return null
	var script := load(path) as Script
	if script == null or not script.can_instantiate():
		push_error("MCP toolkit: %s does not compile; that feature is off" % path)
		return null
	return script


static func _instantiate(path: String) -> Object:
	var script := load_part(path)
	return script.new() if script != null else null
