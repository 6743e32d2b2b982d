@tool
extends Node
## The in-game server (Mode B, contract C1, C2, C20): listens on the runtime band, authenticates
## with the token file the editor wrote, and dispatches through a command registry exactly as the
## editor does (router, then dispatch lane): ping and echo plus every domain in
## runtime_domains.gd, over a context whose scene root is the game's current scene. It publishes
## its port in the registry so the bridge can find the running game.
##
## RUNTIME-REACHABLE: loaded by the game process; nothing here or in what it preloads may name an
## Editor* class. The ack is the transport's default {"authed": true}; the bridge takes the Godot
## version from the registry instead (C2).

const WsTransport := preload("res://addons/godot_mcp_toolkit/transport/ws_transport.gd")
const PortConfig := preload("res://addons/godot_mcp_toolkit/transport/port_config.gd")
const Router := preload("res://addons/godot_mcp_toolkit/transport/dispatch/server_request_router.gd")
const DispatchLane := preload("res://addons/godot_mcp_toolkit/transport/dispatch/dispatch_lane.gd")
const Notifier := preload("res://addons/godot_mcp_toolkit/transport/notifier.gd")
const CommandRegistry := preload("res://addons/godot_mcp_toolkit/transport/mcp_toolkit_command_registry.gd")
const VersionUtils := preload("res://addons/godot_mcp_toolkit/base/version_utils.gd")
const Settings := preload("res://addons/godot_mcp_toolkit/settings/settings_registration.gd")
const RuntimeDomains := preload("res://addons/godot_mcp_toolkit/runtime/runtime_domains.gd")
const GameContext := preload("res://addons/godot_mcp_toolkit/runtime/game_context.gd")
const Auth := preload("res://addons/godot_mcp_toolkit/security/auth.gd")
const ToolkitSuccess := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_success.gd")
const ErrorPush := preload("res://addons/godot_mcp_toolkit/logs/error_push.gd")
const LogFile := preload("res://addons/godot_mcp_toolkit/logs/log_file.gd")
const LogHub := preload("res://addons/godot_mcp_toolkit/logs/log_hub.gd")

## Loaded by path, not preloaded: the registry writer is another module, and a game must still run
## (unpublished) if it is missing.
const REGISTRY_CLIENT_PATH := "res://addons/godot_mcp_toolkit/registry/registry_client.gd"

## The default runtime band (C1); GODOT_MCP_RUNTIME_PORT* move or pin it (port_config.gd).
const PORT_MIN := 6570
const PORT_MAX := 6585
## Answers the ping and echo methods; loaded by path for the Callable(script, name) idiom.
const SELF_PATH := "res://addons/godot_mcp_toolkit/runtime/mcp_runtime_server.gd"

## Registry dir override for the registry writer; empty means the per-OS default. Tests point it
## at a scratch dir so they never touch the machine-wide registry.
var registry_root := ""

var _getenv: Callable
var _listener: RefCounted = null
var _auth: Auth = null
var _transport: WsTransport = null
var _router: Router = null
var _lane: DispatchLane = null
var _registry: CommandRegistry = null
var _context: GameContext = null
var _registry_client: RefCounted = null
var _publisher: RefCounted = null
var _notifier: Notifier = null
var _error_push: ErrorPush = null


## `listener` defaults to the real socket (tests pass a fake: the web engine cannot listen);
## `publisher` (set_runtime, clear_runtime) to the registry client, loaded when the port binds
## (an engine host passes its own to report the port instead).
func _init(getenv: Callable = Callable(), listener: RefCounted = null, publisher: RefCounted = null) -> void:
	_getenv = getenv if getenv.is_valid() else Callable(OS, "get_environment")
	_listener = listener
	_publisher = publisher
	# A game that pauses its tree (a pause menu) must not take the server down with it: a
	# paused node gets no _process, so no poll, and every bridge request would time out.
	process_mode = Node.PROCESS_MODE_ALWAYS


func _ready() -> void:
	start()


func _exit_tree() -> void:
	stop()


func _process(_delta: float) -> void:
	poll()


## Network and dispatch work, then this frame's errors.reported (source "game").
func poll() -> void:
	if _transport != null:
		_transport.poll()
	if _lane != null:
		_lane.tick()
	if _error_push != null:
		_context.debugger.log_hub().poll()
		_error_push.tick()


## The registry the server dispatches through (tests inspect it; null before start()).
func get_registry() -> CommandRegistry:
	return _registry


## Starts listening; false when the port configuration is invalid or nothing could be bound.
func start() -> bool:
	var ports := PortConfig.resolve(_getenv, PortConfig.MODE_RUNTIME)
	if not ports["ok"]:
		push_error("MCP toolkit runtime: not listening, invalid port configuration: %s" % ports["error"])
		return false
	_auth = Auth.new(_getenv)
	_transport = WsTransport.new(_validate, Callable(), _listener)
	_transport.text_received.connect(_on_text)
	_transport.bound.connect(_on_bound)
	_transport.bind_failed.connect(_on_bind_failed)
	_build_registry()
	_start_error_push()
	_router = Router.new(Callable(_registry, "is_dispatchable"))
	var clock := Callable(Time, "get_ticks_msec")
	_lane = DispatchLane.new(Callable(_registry, "dispatch_info"), _transport.send_response, _send_progress, clock,
		func() -> int: return Settings.get_int(Settings.MUTATION_WATCHDOG_GRACE_MS))
	return _transport.start(ports["ports"], ports["pinned"], ports["source"]) > 0


## Stops listening and withdraws the runtime port from the registry.
func stop() -> void:
	if _transport != null:
		_transport.stop()
		_transport = null
	if _registry != null:
		_registry.clear()
		_registry = null
	_lane = null
	_error_push = null
	_notifier = null
	if _registry_client != null:
		_registry_client.clear_runtime()
		_registry_client = null


func get_port() -> int:
	return _transport.get_port() if _transport != null else 0


## The token is re-read on every attempt: the editor writes a new one each time it starts.
func _validate(token: Variant) -> bool:
	_auth.load_existing()
	return _auth.validate(token)


func _on_text(peer_id: int, text: String) -> void:
	var decision := _router.route(text)
	match decision["action"]:
		"respond":
			_transport.send_response(peer_id, decision["response"])
		"dispatch":
			_lane.submit(peer_id, decision["id"], decision["method"], decision["params"])
		"cancel":
			var found := _lane.cancel(peer_id, decision["request_id"])
			if decision["has_id"]:
				_transport.send_response(peer_id, Router.result_response(decision["id"],
					ToolkitSuccess.ok({"cancelled": found})))
		"echo":
			_transport.send_json(peer_id, Notifier.event_frame(Router.ECHO_METHOD, decision["params"]))


## ping and echo, then every runtime domain, over a context that follows the game's current scene.
func _build_registry() -> void:
	_registry = CommandRegistry.new()
	var tree := get_tree() if is_inside_tree() else Engine.get_main_loop() as SceneTree
	_context = GameContext.new(tree)
	_registry.configure(VersionUtils.engine_version(), _context)
	var script: Script = load(SELF_PATH)
	_registry.register_command("ping", Callable(script, "_cmd_ping"),
		_registry.create_options().read_only().scene_independent())
	_registry.register_command("echo", Callable(script, "_cmd_echo"),
		_registry.create_options().read_only().scene_independent())
	RuntimeDomains.register_all(_registry, _context)


## The game's errors and warnings go to every authenticated bridge as they happen. Before Godot 4.5
## there is no engine logger, so they are read from the game's log file as it grows.
func _start_error_push() -> void:
	var hub: LogHub = _context.debugger.log_hub()
	if not hub.capture.is_attached() and not hub.is_following_file():
		hub.follow_file(LogFile.path())
	_notifier = Notifier.new(_transport.send_json, _transport.authed_peer_ids)
	_error_push = ErrorPush.new(hub.errors, "game", _notifier.broadcast,
		func() -> bool: return _transport != null and not _transport.authed_peer_ids().is_empty())


static func _cmd_ping(_params: Dictionary) -> Dictionary:
	return ToolkitSuccess.ok({"pong": true})


static func _cmd_echo(params: Dictionary) -> Dictionary:
	return ToolkitSuccess.ok({"echo": params})


func _send_progress(peer_id: int, method: String, request_id: Variant) -> void:
	if _transport != null:
		_transport.send_json(peer_id, Notifier.progress_frame(method, request_id))


func _on_bound(port: int) -> void:
	if _publisher != null:
		_registry_client = _publisher
		_registry_client.set_runtime(port, OS.get_process_id())
		return
	if not ResourceLoader.exists(REGISTRY_CLIENT_PATH):
		push_warning("MCP toolkit runtime: listening on %d but the registry writer is missing" % port)
		return
	var client_script := load(REGISTRY_CLIENT_PATH) as Script
	_registry_client = client_script.new(registry_root) as RefCounted
	_registry_client.set_runtime(port, OS.get_process_id())


func _on_bind_failed(message: String) -> void:
	push_error("MCP toolkit runtime: not listening: %s" % message)
