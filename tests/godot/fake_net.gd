extends RefCounted
## Scripted stand-ins for the transport's socket layer (transport/peer/*.gd), so framing, auth,
## flow control and dispatch run on any engine, the web build included (no listening sockets).

const SocketPeer := preload("res://addons/godot_mcp_toolkit/transport/peer/socket_peer.gd")
const TcpListener := preload("res://addons/godot_mcp_toolkit/transport/peer/tcp_listener.gd")


## One connection. Frames the test feeds arrive on the next poll; frames the transport sends are
## kept in `sent`. With `hold_output` the engine's outbound queue keeps what was sent (a slow
## reader) until drain(), and refuses a frame that does not fit beside it, as wsl_peer.cpp does.
class FakePeer:
	extends "res://addons/godot_mcp_toolkit/transport/peer/socket_peer.gd"

	var state := WebSocketPeer.STATE_OPEN
	var inbound_limit := 0
	var outbound_limit := 0
	var buffered := 0
	var hold_output := false
	var sent: Array[String] = []
	var refused := 0
	var close_code := -1
	var close_reason := ""
	var _incoming: Array = []
	var _last_was_string := true

	func feed_text(text: String) -> void:
		_incoming.append([text.to_utf8_buffer(), true])

	func feed_json(frame: Variant) -> void:
		feed_text(JSON.stringify(frame))

	func feed_binary(data: PackedByteArray) -> void:
		_incoming.append([data, false])

	func drain() -> void:
		buffered = 0

	## Every frame sent so far, parsed.
	func sent_json() -> Array:
		return sent.map(func(text: String) -> Variant: return JSON.parse_string(text))

	func poll() -> void:
		if state == WebSocketPeer.STATE_CLOSING:
			state = WebSocketPeer.STATE_CLOSED

	func get_ready_state() -> int:
		return state

	func get_available_packet_count() -> int:
		return _incoming.size()

	func get_packet() -> PackedByteArray:
		var item: Array = _incoming.pop_front()
		_last_was_string = item[1]
		return item[0]

	func was_string_packet() -> bool:
		return _last_was_string

	func send_text(text: String) -> Error:
		var size := text.to_utf8_buffer().size()
		if outbound_limit > 0 and buffered + size > outbound_limit:
			refused += 1
			return ERR_OUT_OF_MEMORY
		sent.append(text)
		if hold_output:
			buffered += size
		return OK

	func close(code: int, reason: String) -> void:
		close_code = code
		close_reason = reason
		state = WebSocketPeer.STATE_CLOSING

	func get_outbound_buffered() -> int:
		return buffered

	func get_outbound_limit() -> int:
		return outbound_limit

	func set_outbound_limit(bytes: int) -> void:
		outbound_limit = bytes

	func get_inbound_limit() -> int:
		return inbound_limit


## Hands out the peers the test connects; `busy_ports` refuse to bind.
class FakeListener:
	extends "res://addons/godot_mcp_toolkit/transport/peer/tcp_listener.gd"

	var busy_ports: Array[int] = []
	var port := 0
	var _listening := false
	var _pending: Array = []

	func connect_peer() -> FakePeer:
		var peer := FakePeer.new()
		_pending.append(peer)
		return peer

	func listen(port_number: int, _address: String) -> Error:
		if port_number in busy_ports:
			return ERR_ALREADY_IN_USE
		port = port_number
		_listening = true
		return OK

	func stop() -> void:
		_listening = false

	func is_listening() -> bool:
		return _listening

	func take_peer(buffer_bytes: int) -> SocketPeer:
		if _pending.is_empty():
			return null
		var peer: FakePeer = _pending.pop_front()
		peer.inbound_limit = buffer_bytes
		peer.outbound_limit = buffer_bytes
		return peer


## Stands in for the OS singleton's low-processor sleep.
class FakeLoop:
	extends RefCounted

	var low_processor_usage_mode_sleep_usec := 100000
