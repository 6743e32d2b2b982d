@tool
extends Node
## The in-game server (Mode B, contract C1, C2, C20): listens on the runtime band, authenticates
## with the token file the editor wrote, answers ping and echo, and publishes its port in the
## registry so the bridge can find the running game.
##
## RUNTIME-REACHABLE: loaded by the game process; nothing here or in what it preloads may name an
## Editor* class. The ack is the transport's default {"authed": true}; the bridge takes the Godot
## version from the registry instead (C2).

const WsTransport := preload("res://addons/godot_mcp_toolkit/transport/ws_transport.gd")
const PortConfig := preload("res://addons/godot_mcp_toolkit/transport/port_config.gd")
const Router := preload("res://addons/godot_mcp_toolkit/transport/dispatch/server_request_router.gd")
const Notifier := preload("res://addons/godot_mcp_toolkit/transport/notifier.gd")
const Auth := preload("res://addons/godot_mcp_toolkit/security/auth.gd")
const ToolkitSuccess := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_success.gd")

## Loaded by path, not preloaded: the registry writer is another module, and a game must still run
## (unpublished) if it is missing.
const REGISTRY_CLIENT_PATH := "res://addons/godot_mcp_toolkit/registry/registry_client.gd"

## The default runtime band (C1); GODOT_MCP_RUNTIME_PORT* move or pin it (port_config.gd).
const PORT_MIN := 6570
const PORT_MAX := 6585
const METHODS := ["ping", "echo"]

## Registry dir override for the registry writer; empty means the per-OS default. Tests point it
## at a scratch dir so they never touch the machine-wide registry.
var registry_root := ""

var _getenv: Callable
var _listener: RefCounted = null
var _auth: Auth = null
var _transport: WsTransport = null
var _router: Router = null
var _registry_client: RefCounted = null


## `listener` defaults to the real socket (tests pass a fake: the web engine cannot listen).
func _init(getenv: Callable = Callable(), listener: RefCounted = null) -> void:
	_getenv = getenv if getenv.is_valid() else Callable(OS, "get_environment")
	_listener = listener
	# A game that pauses its tree (a pause menu) must not take the server down with it: a
	# paused node gets no _process, so no poll, and every bridge request would time out.
	process_mode = Node.PROCESS_MODE_ALWAYS


func _ready() -> void:
	start()


func _exit_tree() -> void:
	stop()


func _process(_delta: float) -> void:
	poll()


func poll() -> void:
	if _transport != null:
		_transport.poll()


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
	_router = Router.new(func(method: String) -> bool: return method in METHODS)
	return _transport.start(ports["ports"], ports["pinned"], ports["source"]) > 0


## Stops listening and withdraws the runtime port from the registry.
func stop() -> void:
	if _transport != null:
		_transport.stop()
		_transport = null
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
			_transport.send_response(peer_id, Router.result_response(decision["id"], _run(decision)))
		"cancel":
			# Runtime commands answer at once, so there is never anything in flight to cancel.
			if decision["has_id"]:
				_transport.send_response(peer_id, Router.result_response(decision["id"],
					ToolkitSuccess.ok({"cancelled": false})))
		"echo":
			_transport.send_json(peer_id, Notifier.event_frame(Router.ECHO_METHOD, decision["params"]))


func _run(decision: Dictionary) -> Dictionary:
	if decision["method"] == "ping":
		return ToolkitSuccess.ok({"pong": true})
	return ToolkitSuccess.ok({"echo": decision["params"]})


func _on_bound(port: int) -> void:
	if not ResourceLoader.exists(REGISTRY_CLIENT_PATH):
		push_warning("MCP toolkit runtime: listening on %d but the registry writer is missing" % port)
		return
	var client_script := load(REGISTRY_CLIENT_PATH) as Script
	_registry_client = client_script.new(registry_root) as RefCounted
	_registry_client.set_runtime(port, OS.get_process_id())


func _on_bind_failed(message: String) -> void:
	push_error("MCP toolkit runtime: not listening: %s" % message)
