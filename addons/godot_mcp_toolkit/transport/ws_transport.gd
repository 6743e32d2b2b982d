@tool
extends RefCounted
## One polled TCP + WebSocket listener on 127.0.0.1, shared by the editor and game servers
## (contract C1, C2). It binds, accepts, authenticates the first frame, enforces the auth timeout,
## sizes peer buffers, and guards the frame ceiling; what an authenticated frame means is the
## owner's business (signal text_received). No threads: the owner calls poll() every frame.
## Runtime-safe: names no Editor* class.

signal bound(port: int)
signal bind_failed(message: String)
signal peer_authed(peer_id: int)
signal text_received(peer_id: int, text: String)
signal peer_closed(peer_id: int)

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const Settings := preload("res://addons/godot_mcp_toolkit/core/settings_registration.gd")

const BIND_ADDRESS := "127.0.0.1"
const AUTH_TIMEOUT_MS := 2000
const CLOSE_POLICY_VIOLATION := 1008
const CLOSE_GOING_AWAY := 1001
## Godot drops an outbound frame that does not fit the peer buffer, silently and whole
## (wsl_peer.cpp, no chunking in 4.2-4.5). Keep this much room for framing and the JSON-RPC wrapper.
const FRAME_HEADROOM_BYTES := 4096
## A peer we asked to close gets this long to finish the close handshake before it is cut.
const CLOSE_GRACE_MS := 1000
## A pinned port still held by a previous process is retried this long before failing loudly.
const PIN_GRACE_MS := 5000
const PIN_RETRY_MS := 500

var _validate: Callable
var _clock: Callable
var _ack_builder := Callable()
var _server: TCPServer = null
var _port := 0
## peer_id -> {"socket": WebSocketPeer, "authed": bool, "since_ms": int, "closing_since_ms": int,
## "buffer_bytes": int}
var _peers: Dictionary = {}
var _next_peer_id := 1
## Pending pinned bind: {"port", "deadline_ms", "next_try_ms", "source"}
var _pin_retry: Dictionary = {}


## `validate(token) -> bool` decides auth; `clock() -> int` ms (defaults to the engine clock).
func _init(validate: Callable, clock: Callable = Callable()) -> void:
	_validate = validate
	_clock = clock if clock.is_valid() else Callable(Time, "get_ticks_msec")


## The ack override hook: `builder() -> Dictionary` replaces the default {"authed": true}.
func set_ack_builder(builder: Callable) -> void:
	_ack_builder = builder


## Binds the first free port of `ports`. A pinned port (a single port the operator chose) that is
## busy is retried for PIN_GRACE_MS, since the previous editor may still be letting go of it;
## a band is scanned once. Emits bound or bind_failed; returns the port or 0 while undecided.
func start(ports: Array, pinned: bool, source: String = "") -> int:
	stop()
	for port: int in ports:
		if _try_listen(port):
			return port
	if pinned and ports.size() == 1:
		var now := int(_clock.call())
		_pin_retry = {"port": ports[0], "deadline_ms": now + PIN_GRACE_MS, "next_try_ms": now + PIN_RETRY_MS,
			"source": source}
		return 0
	var span := "%d-%d" % [ports.front(), ports.back()] if not ports.is_empty() else "(none)"
	bind_failed.emit("no free port on %s in %s (%s); close the other editor or move the band" % [
		BIND_ADDRESS, span, source if not source.is_empty() else "default band"])
	return 0


## Closes every peer and stops listening.
func stop() -> void:
	for peer_id: int in _peers.keys():
		(_peers[peer_id]["socket"] as WebSocketPeer).close(CLOSE_GOING_AWAY, "server stopping")
		_drop(peer_id)
	_pin_retry = {}
	if _server != null:
		_server.stop()
		_server = null
	_port = 0


func is_listening() -> bool:
	return _server != null and _server.is_listening()


func get_port() -> int:
	return _port


func authed_peer_ids() -> Array[int]:
	var ids: Array[int] = []
	for peer_id: int in _peers:
		if _peers[peer_id]["authed"] and _peers[peer_id]["closing_since_ms"] < 0:
			ids.append(peer_id)
	return ids


func has_peer(peer_id: int) -> bool:
	return _peers.has(peer_id)


## One step: pinned-bind retry, new connections, then every peer.
func poll() -> void:
	_retry_pin()
	_accept_new()
	for peer_id: int in _peers.keys():
		if _peers.has(peer_id):
			_poll_peer(peer_id)


## Sends a JSON frame to an authenticated peer. False when the peer is gone or the send failed.
func send_json(peer_id: int, frame: Dictionary) -> bool:
	return _send_text(peer_id, JSON.stringify(frame))


## Sends a JSON-RPC response, replacing a result too big for the peer's buffer with a
## RESPONSE_TOO_LARGE envelope, because the engine would otherwise drop the frame without a word
## and the request would hang on the other side.
func send_response(peer_id: int, response: Dictionary) -> bool:
	if not _peers.has(peer_id):
		return false
	var text := JSON.stringify(response)
	var ceiling := int(_peers[peer_id]["buffer_bytes"]) - FRAME_HEADROOM_BYTES
	var size := text.to_utf8_buffer().size()
	if size > ceiling:
		var message := "The response is %d KiB; the WebSocket buffer allows %d KiB per frame" % [
			ceili(size / 1024.0), floori(ceiling / 1024.0)]
		var envelope := ToolkitError.fail("RESPONSE_TOO_LARGE", message)
		text = JSON.stringify({"jsonrpc": "2.0", "id": response.get("id"), "result": envelope})
	return _send_text(peer_id, text)


func broadcast_json(frame: Dictionary) -> void:
	var text := JSON.stringify(frame)
	for peer_id: int in authed_peer_ids():
		_send_text(peer_id, text)


## Asks a peer to close; it is cut after CLOSE_GRACE_MS if it does not answer.
func close_peer(peer_id: int, code: int, reason: String) -> void:
	if not _peers.has(peer_id) or _peers[peer_id]["closing_since_ms"] >= 0:
		return
	(_peers[peer_id]["socket"] as WebSocketPeer).close(code, reason)
	_peers[peer_id]["closing_since_ms"] = int(_clock.call())


## Buffer size for new peers: mcp_toolkit/limits/ws_buffer_kb, read at accept time so a changed
## limit applies to the next connection.
static func buffer_bytes() -> int:
	return Settings.get_int(Settings.WS_BUFFER_KB) * 1024


# --- internals ---------------------------------------------------------------------------------

func _try_listen(port: int) -> bool:
	var server := TCPServer.new()
	if server.listen(port, BIND_ADDRESS) != OK:
		return false
	_server = server
	_port = port
	_pin_retry = {}
	bound.emit(port)
	return true


func _retry_pin() -> void:
	if _pin_retry.is_empty():
		return
	var now := int(_clock.call())
	if now < int(_pin_retry["next_try_ms"]):
		return
	var port := int(_pin_retry["port"])
	if _try_listen(port):
		return
	if now >= int(_pin_retry["deadline_ms"]):
		var source: String = _pin_retry["source"]
		_pin_retry = {}
		bind_failed.emit("pinned port %d (%s) is in use on %s; free it or change the pin" % [
			port, source if not source.is_empty() else "pin", BIND_ADDRESS])
		return
	_pin_retry["next_try_ms"] = now + PIN_RETRY_MS


func _accept_new() -> void:
	while _server != null and _server.is_connection_available():
		var stream := _server.take_connection()
		if stream == null:
			return
		var socket := WebSocketPeer.new()
		var size := buffer_bytes()
		socket.inbound_buffer_size = size
		socket.outbound_buffer_size = size
		if socket.accept_stream(stream) != OK:
			continue
		_peers[_next_peer_id] = {"socket": socket, "authed": false, "since_ms": int(_clock.call()),
			"closing_since_ms": -1, "buffer_bytes": size}
		_next_peer_id += 1


func _poll_peer(peer_id: int) -> void:
	var peer: Dictionary = _peers[peer_id]
	var socket: WebSocketPeer = peer["socket"]
	socket.poll()
	var now := int(_clock.call())
	var closing_since := int(peer["closing_since_ms"])
	var close_overdue := closing_since >= 0 and now - closing_since > CLOSE_GRACE_MS
	if socket.get_ready_state() == WebSocketPeer.STATE_CLOSED or close_overdue:
		_drop(peer_id)
		return
	while _peers.has(peer_id) and socket.get_available_packet_count() > 0:
		var packet := socket.get_packet()
		var is_text := socket.was_string_packet()
		if int(peer["closing_since_ms"]) >= 0:
			continue
		if not peer["authed"]:
			_authenticate(peer_id, packet, is_text)
		elif is_text:
			text_received.emit(peer_id, packet.get_string_from_utf8())
	if _peers.has(peer_id) and not peer["authed"] and int(peer["closing_since_ms"]) < 0 \
			and now - int(peer["since_ms"]) > AUTH_TIMEOUT_MS:
		close_peer(peer_id, CLOSE_POLICY_VIOLATION, "auth timeout")


## The first frame must be {"auth": "<token>"}; anything else closes the connection 1008.
func _authenticate(peer_id: int, packet: PackedByteArray, is_text: bool) -> void:
	var token: Variant = null
	if is_text:
		var json := JSON.new()
		if json.parse(packet.get_string_from_utf8()) == OK and json.data is Dictionary:
			token = (json.data as Dictionary).get("auth")
	if not (token is String and bool(_validate.call(token))):
		close_peer(peer_id, CLOSE_POLICY_VIOLATION, "invalid token")
		return
	_peers[peer_id]["authed"] = true
	var ack: Variant = _ack_builder.call() if _ack_builder.is_valid() else null
	_send_text(peer_id, JSON.stringify(ack if ack is Dictionary else {"authed": true}))
	peer_authed.emit(peer_id)


func _send_text(peer_id: int, text: String) -> bool:
	if not _peers.has(peer_id):
		return false
	var socket: WebSocketPeer = _peers[peer_id]["socket"]
	if socket.get_ready_state() != WebSocketPeer.STATE_OPEN:
		return false
	var error := socket.send_text(text)
	if error != OK:
		push_warning("MCP toolkit: send to peer %d failed (%s)" % [peer_id, error_string(error)])
	return error == OK


func _drop(peer_id: int) -> void:
	var was_authed: bool = _peers[peer_id]["authed"]
	_peers.erase(peer_id)
	if was_authed:
		peer_closed.emit(peer_id)
