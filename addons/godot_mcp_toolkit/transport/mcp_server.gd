@tool
extends Node
## The editor-mode server (Mode A, contract C1, C2, C5, C15). Binds the editor band on 127.0.0.1,
## answers the auth handshake with the engine and plugin versions, routes JSON-RPC into the
## dispatch lanes, sends notifications, and reports its state to the dock.
## Editor-only by composition (the plugin creates it), though it names no Editor* class itself:
## the active-scene lookup is injected.

signal status_changed
## A fresh bind (the first, or a pinned port that freed late): the registry entry must be
## re-published with this port.
signal bound(port: int)

const WsTransport := preload("res://addons/godot_mcp_toolkit/transport/ws_transport.gd")
const PortConfig := preload("res://addons/godot_mcp_toolkit/transport/port_config.gd")
const Router := preload("res://addons/godot_mcp_toolkit/transport/dispatch/server_request_router.gd")
const DispatchLane := preload("res://addons/godot_mcp_toolkit/transport/dispatch/dispatch_lane.gd")
const Notifier := preload("res://addons/godot_mcp_toolkit/transport/notifier.gd")
const VersionUtils := preload("res://addons/godot_mcp_toolkit/base/version_utils.gd")
const Settings := preload("res://addons/godot_mcp_toolkit/settings/settings_registration.gd")
const ToolkitSuccess := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_success.gd")
const ErrorPush := preload("res://addons/godot_mcp_toolkit/logs/error_push.gd")

## The default editor band (C1); GODOT_MCP_EDITOR_PORT* move or pin it (port_config.gd). The
## bridge reads PORT_MIN: the port it tries when no registry entry names one.
const PORT_MIN := 6550
const PORT_MAX := 6560

var _registry: RefCounted = null
var _auth: RefCounted = null
var _getenv: Callable
var _transport: WsTransport = null
var _router: Router = null
var _lane: DispatchLane = null
var _notifier: Notifier = null
var _error := ""
var _lsp_status: Dictionary = {}
var _read_only := false
var _error_push: ErrorPush = null


## `registry` is the command registry, `auth` the token holder (validate()); `getenv` defaults to
## the process environment; `listener` and `pacer` to the real socket and OS sleep (tests: fakes).
func setup(registry: RefCounted, auth: RefCounted, getenv: Callable = Callable(), listener: RefCounted = null,
		pacer: RefCounted = null) -> void:
	_registry = registry
	_auth = auth
	_getenv = getenv if getenv.is_valid() else Callable(OS, "get_environment")
	var clock := Callable(Time, "get_ticks_msec")
	_transport = WsTransport.new(Callable(auth, "validate"), clock, listener, pacer)
	_transport.set_ack_builder(_build_auth_ack)
	_transport.text_received.connect(_on_text)
	_transport.peer_authed.connect(_on_peer_changed)
	_transport.peer_closed.connect(_on_peer_closed)
	_transport.bound.connect(_on_bound)
	_transport.bind_failed.connect(_on_bind_failed)
	_notifier = Notifier.new(_transport.send_json, _transport.authed_peer_ids)
	_router = Router.new(Callable(registry, "is_dispatchable"))
	_lane = DispatchLane.new(Callable(registry, "dispatch_info"), _transport.send_response, _send_progress, clock,
		func() -> int: return Settings.get_int(Settings.MUTATION_WATCHDOG_GRACE_MS))
	_lane.set_progress_reporter(_send_counted)
	var context: Object = registry.call("get_context") if registry.has_method("get_context") else null
	var edits: Object = context.get("edits") if context != null else null
	if edits != null and edits.has_method("edit_ledger"):
		_lane.set_edit_recorder(edits.call("edit_ledger"))
	_transport.set_idle_check(func(peer_id: int) -> bool: return not _lane.has_jobs(peer_id))


## `provider() -> String`: res:// path of the active scene tab, for the scene lease.
func set_active_scene_provider(provider: Callable) -> void:
	_lane.set_active_scene_provider(provider)


## Resolves the port band and starts listening. False when the configuration is invalid or no port
## could be bound right away (a pinned port may still bind later; watch `bound`).
func start() -> bool:
	var ports := PortConfig.resolve(_getenv, PortConfig.MODE_EDITOR)
	if not ports["ok"]:
		_fail_start("invalid port configuration: %s" % ports["error"])
		return false
	_error = ""
	var port := _transport.start(ports["ports"], ports["pinned"], ports["source"])
	if port == 0 and ports["pinned"] and _error.is_empty():
		# Still inside the pinned-port grace; `bound` or `bind_failed` settles it.
		_error = "waiting for pinned port %d to be released" % int(ports["ports"][0])
	status_changed.emit()
	return port > 0


func stop() -> void:
	if _transport != null:
		_transport.stop()
	status_changed.emit()


func _process(_delta: float) -> void:
	poll()


## One step of network and dispatch work; _process calls it every editor frame.
func poll() -> void:
	if _transport == null:
		return
	_transport.poll()
	_lane.tick()
	if _error_push != null:
		_error_push.tick()


## Pushes `store`'s errors (logs/error_store.gd) as errors.reported with `source` ("editor") to
## every authenticated bridge, one notification per frame at most.
func push_errors(store: RefCounted, source: String) -> void:
	_error_push = ErrorPush.new(store, source, broadcast_notification,
		func() -> bool: return _transport != null and not _transport.authed_peer_ids().is_empty())


func is_listening() -> bool:
	return _transport != null and _transport.is_listening()


func get_port() -> int:
	return _transport.get_port() if _transport != null else 0


## Sends {"notification": name, "params": params} to every authenticated peer (C14).
func broadcast_notification(notification_name: String, params: Dictionary = {}) -> void:
	if _notifier != null:
		_notifier.broadcast(notification_name, params)


## What the dock shows.
func get_status() -> Dictionary:
	return {
		"listening": is_listening(),
		"port": get_port(),
		"peers": _transport.authed_peer_ids().size() if _transport != null else 0,
		"godot_version": VersionUtils.engine_version(),
		"headless": VersionUtils.is_headless(),
		"lsp_status": _lsp_status.duplicate(),
		"error": _error,
		"read_only": _read_only,
	}


## The bridge's LSP verdict (C15), via editor.set_lsp_status. Returns the stored form.
func set_reported_lsp_status(status: Dictionary) -> Dictionary:
	_lsp_status = {
		"state": str(status.get("state", "unavailable")),
		"host": str(status.get("host", "")),
		"port": int(status.get("port", 0)) if (status.get("port") is int or status.get("port") is float) else 0,
		"detail": str(status.get("detail", "")),
	}
	status_changed.emit()
	return _lsp_status.duplicate()


func get_reported_lsp_status() -> Dictionary:
	return _lsp_status.duplicate()


## Best-effort mirror of the bridge's read-only mode (from .mcp.json), for the dock only.
func set_read_only_mirror(read_only: bool) -> void:
	if _read_only != read_only:
		_read_only = read_only
		status_changed.emit()


## Binds `peer_id` to a scene for the scene lease (normally done by a leases_scene command).
func set_scene_affinity(peer_id: int, scene_path: String) -> void:
	_lane.set_affinity(peer_id, scene_path)


## The ws_buffer_kb limit changed (meta.set_limits): live connections take it (see
## WsTransport.apply_buffer_bytes: outbound at once, inbound by one reconnect when idle).
func apply_buffer_limit() -> void:
	if _transport != null:
		_transport.apply_buffer_bytes(WsTransport.buffer_bytes())


## Closes every connection (e.g. after the token was regenerated); bridges reconnect and re-auth.
func disconnect_all(reason: String) -> void:
	if _transport == null:
		return
	for peer_id: int in _transport.authed_peer_ids():
		_transport.close_peer(peer_id, WsTransport.CLOSE_POLICY_VIOLATION, reason)


# --- handlers ----------------------------------------------------------------------------------

func _build_auth_ack() -> Dictionary:
	return {
		"authed": true,
		"godot_version": VersionUtils.engine_version(),
		"version": VersionUtils.plugin_version(),
		"headless": VersionUtils.is_headless(),
	}


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
				var result := ToolkitSuccess.ok({"cancelled": found})
				_transport.send_response(peer_id, Router.result_response(decision["id"], result))
		"echo":
			_notifier.event(peer_id, Router.ECHO_METHOD, decision["params"])


func _send_progress(peer_id: int, method: String, request_id: Variant) -> void:
	_transport.send_json(peer_id, Notifier.progress_frame(method, request_id))


func _send_counted(peer_id: int, request_id: Variant, progress: float, total: float, message: String) -> void:
	_transport.send_json(peer_id, Notifier.counted_frame(request_id, progress, total, message))


func _on_peer_changed(_peer_id: int) -> void:
	status_changed.emit()


func _on_peer_closed(peer_id: int) -> void:
	_lane.drop_peer(peer_id)
	status_changed.emit()


func _on_bound(port: int) -> void:
	_error = ""
	bound.emit(port)
	status_changed.emit()


func _on_bind_failed(message: String) -> void:
	_fail_start(message)


func _fail_start(message: String) -> void:
	_error = message
	push_error("MCP toolkit: the editor server is not listening: %s" % message)
	status_changed.emit()
