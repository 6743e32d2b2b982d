@tool
extends RefCounted
## One polled TCP + WebSocket listener on 127.0.0.1, shared by the editor and game servers
## (contract C1, C2). It binds, accepts, authenticates the first frame, enforces the auth timeout,
## sizes peer buffers, guards the frame ceiling and queues what does not fit the outbound buffer
## yet; what an authenticated frame means is the owner's business (signal text_received). No
## threads: the owner calls poll() every frame. Socket I/O is behind peer/tcp_listener.gd and
## peer/socket_peer.gd, so all of this runs against fakes in tests (web engine included).
## Runtime-safe: names no Editor* class.

signal bound(port: int)
signal bind_failed(message: String)
signal peer_authed(peer_id: int)
signal text_received(peer_id: int, text: String)
signal peer_closed(peer_id: int)

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const Settings := preload("res://addons/godot_mcp_toolkit/settings/settings_registration.gd")
const TcpListener := preload("res://addons/godot_mcp_toolkit/transport/peer/tcp_listener.gd")
const SocketPeer := preload("res://addons/godot_mcp_toolkit/transport/peer/socket_peer.gd")
const LoopPacer := preload("res://addons/godot_mcp_toolkit/transport/loop_pacer.gd")
const StrictJson := preload("res://addons/godot_mcp_toolkit/contract/strict_json.gd")

const BIND_ADDRESS := "127.0.0.1"
const AUTH_TIMEOUT_MS := 2000
const CLOSE_POLICY_VIOLATION := 1008
const CLOSE_GOING_AWAY := 1001
## Godot refuses an outbound frame that does not fit the peer buffer, whole, counting what is
## already queued (wsl_peer.cpp, no chunking in 4.2-4.5). Keep this much room for framing.
const FRAME_HEADROOM_BYTES := 4096
## Frames waiting for room in the outbound buffer, per peer, at most this many buffers' worth;
## beyond it the connection is not draining and a reply fails with RESPONSE_TOO_LARGE instead.
const OUTBOX_BUFFERS := 4
const CLOSE_BUFFER_CHANGED := "buffer limit changed; reconnect to apply it"
## A peer we asked to close gets this long to finish the close handshake before it is cut.
const CLOSE_GRACE_MS := 1000
## A pinned port still held by a previous process is retried this long before failing loudly.
const PIN_GRACE_MS := 5000
const PIN_RETRY_MS := 500

var _validate: Callable
var _clock: Callable
var _ack_builder := Callable()
var _listener: TcpListener = null
var _pacer: LoopPacer = null
var _listening := false
var _port := 0
## peer_id -> {"socket": SocketPeer, "authed": bool, "since_ms": int, "closing_since_ms": int,
## "outbox": Array[String] (frames waiting for room, oldest first), "outbox_bytes": int,
## "stale": bool (its inbound buffer predates the current limit: reconnect it when idle)}
var _peers: Dictionary = {}
## `idle(peer_id) -> bool`: nothing in flight for that peer (the owner's dispatch knows).
var _is_idle := Callable()
var _next_peer_id := 1
## Pending pinned bind: {"port", "deadline_ms", "next_try_ms", "source"}
var _pin_retry: Dictionary = {}


## `validate(token) -> bool` decides auth; `clock() -> int` ms (defaults to the engine clock);
## `listener` and `pacer` default to the real socket and the OS sleep (tests pass fakes).
func _init(validate: Callable, clock: Callable = Callable(), listener: TcpListener = null,
		pacer: LoopPacer = null) -> void:
	_validate = validate
	_clock = clock if clock.is_valid() else Callable(Time, "get_ticks_msec")
	_listener = listener if listener != null else TcpListener.new()
	_pacer = pacer if pacer != null else LoopPacer.new()


## `idle(peer_id) -> bool`; a peer whose buffers are stale is reconnected only when idle.
func set_idle_check(idle: Callable) -> void:
	_is_idle = idle


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
		(_peers[peer_id]["socket"] as SocketPeer).close(CLOSE_GOING_AWAY, "server stopping")
		_drop(peer_id)
	_pin_retry = {}
	_listener.stop()
	_listening = false
	_port = 0
	_pacer.update(false)


func is_listening() -> bool:
	return _listening and _listener.is_listening()


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


## One step: pinned-bind retry, new connections, then every peer; then the loop pace.
func poll() -> void:
	_retry_pin()
	_accept_new()
	for peer_id: int in _peers.keys():
		if _peers.has(peer_id):
			_poll_peer(peer_id)
	_pacer.update(not _peers.is_empty())


## Sends a JSON frame to an authenticated peer. False when the peer is gone or the send failed.
func send_json(peer_id: int, frame: Dictionary) -> bool:
	return _send_text(peer_id, StrictJson.stringify(frame))


## Sends a JSON-RPC response. One too big for the peer's buffer even when empty is replaced by a
## RESPONSE_TOO_LARGE envelope; one that only has to wait for earlier frames to drain is queued.
## Either way the request gets an answer: the engine would otherwise drop the frame without a word
## and the request would hang on the other side.
func send_response(peer_id: int, response: Dictionary) -> bool:
	if not _peers.has(peer_id):
		return false
	var text := StrictJson.stringify(response)
	var ceiling := _frame_ceiling(peer_id)
	var size := text.to_utf8_buffer().size()
	var problem := ""
	if size > ceiling:
		problem = "The response is %d KiB; the WebSocket buffer allows %d KiB per frame" % [
			ceili(size / 1024.0), floori(ceiling / 1024.0)]
	elif int(_peers[peer_id]["outbox_bytes"]) + size > _outbox_limit(peer_id):
		problem = "The response is %d KiB and %d KiB of earlier output has not drained yet" % [
			ceili(size / 1024.0), ceili(int(_peers[peer_id]["outbox_bytes"]) / 1024.0)]
	if not problem.is_empty():
		var envelope := ToolkitError.fail("RESPONSE_TOO_LARGE", problem)
		text = StrictJson.stringify({"jsonrpc": "2.0", "id": response.get("id"), "result": envelope})
		return _send_text(peer_id, text, true)
	return _send_text(peer_id, text)


func broadcast_json(frame: Dictionary) -> void:
	var text := StrictJson.stringify(frame)
	for peer_id: int in authed_peer_ids():
		_send_text(peer_id, text)


## Asks a peer to close; it is cut after CLOSE_GRACE_MS if it does not answer.
func close_peer(peer_id: int, code: int, reason: String) -> void:
	if not _peers.has(peer_id) or _peers[peer_id]["closing_since_ms"] >= 0:
		return
	(_peers[peer_id]["socket"] as SocketPeer).close(code, reason)
	_peers[peer_id]["closing_since_ms"] = int(_clock.call())


## Bytes queued for a peer and not yet on the wire (engine buffer plus our outbox).
func pending_bytes(peer_id: int) -> int:
	if not _peers.has(peer_id):
		return 0
	return (_peers[peer_id]["socket"] as SocketPeer).get_outbound_buffered() + int(_peers[peer_id]["outbox_bytes"])


## Applies a new buffer size (bytes) to live peers. Outbound takes effect at once (the engine reads
## it per send); inbound is fixed at the handshake, so a peer with another inbound size is closed
## (1001) as soon as it is idle and flushed, and the bridge reconnects with the new size.
func apply_buffer_bytes(bytes: int) -> void:
	for peer_id: int in _peers:
		var socket: SocketPeer = _peers[peer_id]["socket"]
		socket.set_outbound_limit(bytes)
		_peers[peer_id]["stale"] = socket.get_inbound_limit() != bytes


## Buffer size for new peers: mcp_toolkit/limits/ws_buffer_kb, read at accept time (and by
## apply_buffer_bytes for live ones).
static func buffer_bytes() -> int:
	return Settings.get_int(Settings.WS_BUFFER_KB) * 1024


# --- internals ---------------------------------------------------------------------------------

func _try_listen(port: int) -> bool:
	if _listener.listen(port, BIND_ADDRESS) != OK:
		return false
	_listening = true
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
	if not _listening:
		return
	var size := buffer_bytes()
	var socket := _listener.take_peer(size)
	while socket != null:
		var outbox: Array[String] = []
		_peers[_next_peer_id] = {"socket": socket, "authed": false, "since_ms": int(_clock.call()),
			"closing_since_ms": -1, "outbox": outbox, "outbox_bytes": 0, "stale": false}
		_next_peer_id += 1
		socket = _listener.take_peer(size)


func _poll_peer(peer_id: int) -> void:
	var peer: Dictionary = _peers[peer_id]
	var socket: SocketPeer = peer["socket"]
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
	if not _peers.has(peer_id) or int(peer["closing_since_ms"]) >= 0:
		return
	_flush(peer_id)
	if not peer["authed"] and now - int(peer["since_ms"]) > AUTH_TIMEOUT_MS:
		close_peer(peer_id, CLOSE_POLICY_VIOLATION, "auth timeout")
	elif peer["stale"] and pending_bytes(peer_id) == 0 and (not _is_idle.is_valid() or bool(_is_idle.call(peer_id))):
		close_peer(peer_id, CLOSE_GOING_AWAY, CLOSE_BUFFER_CHANGED)


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
	_send_text(peer_id, StrictJson.stringify(ack if ack is Dictionary else {"authed": true}))
	peer_authed.emit(peer_id)


## Sends now when the frame fits beside what the engine already holds and nothing older waits;
## otherwise queues it (in order) for _flush. `force` queues past the outbox limit (a small error
## reply that must not be lost).
func _send_text(peer_id: int, text: String, force: bool = false) -> bool:
	if not _peers.has(peer_id):
		return false
	var peer: Dictionary = _peers[peer_id]
	var socket: SocketPeer = peer["socket"]
	if socket.get_ready_state() != WebSocketPeer.STATE_OPEN:
		return false
	var size := text.to_utf8_buffer().size()
	if size > _frame_ceiling(peer_id):
		push_warning("MCP toolkit: a %d-byte frame for peer %d exceeds its buffer; dropped" % [size, peer_id])
		return false
	if (peer["outbox"] as Array).is_empty() and _fits_now(socket, size):
		return _write(peer_id, socket, text)
	if not force and int(peer["outbox_bytes"]) + size > _outbox_limit(peer_id):
		push_warning("MCP toolkit: peer %d is not draining its output; a frame was dropped" % peer_id)
		return false
	(peer["outbox"] as Array).append(text)
	peer["outbox_bytes"] = int(peer["outbox_bytes"]) + size
	return true


## Moves queued frames to the engine as room frees up, oldest first.
func _flush(peer_id: int) -> void:
	var peer: Dictionary = _peers[peer_id]
	var outbox: Array = peer["outbox"]
	var socket: SocketPeer = peer["socket"]
	while not outbox.is_empty() and socket.get_ready_state() == WebSocketPeer.STATE_OPEN:
		var text: String = outbox[0]
		var size := text.to_utf8_buffer().size()
		if not _fits_now(socket, size):
			return
		outbox.pop_front()
		peer["outbox_bytes"] = int(peer["outbox_bytes"]) - size
		if not _write(peer_id, socket, text):
			return


func _write(peer_id: int, socket: SocketPeer, text: String) -> bool:
	var error := socket.send_text(text)
	if error != OK:
		push_warning("MCP toolkit: send to peer %d failed (%s)" % [peer_id, error_string(error)])
	return error == OK


## The engine refuses a frame when queued + frame > outbound_buffer_size (wsl_peer.cpp).
static func _fits_now(socket: SocketPeer, size: int) -> bool:
	return socket.get_outbound_buffered() + size + FRAME_HEADROOM_BYTES <= socket.get_outbound_limit()


func _frame_ceiling(peer_id: int) -> int:
	return (_peers[peer_id]["socket"] as SocketPeer).get_outbound_limit() - FRAME_HEADROOM_BYTES


func _outbox_limit(peer_id: int) -> int:
	return (_peers[peer_id]["socket"] as SocketPeer).get_outbound_limit() * OUTBOX_BUFFERS


func _drop(peer_id: int) -> void:
	var was_authed: bool = _peers[peer_id]["authed"]
	_peers.erase(peer_id)
	if was_authed:
		peer_closed.emit(peer_id)
