@tool
extends RefCounted
## One accepted connection as the transport sees it: the only place that touches a WebSocketPeer.
## ws_transport.gd speaks to this surface alone, so its framing, auth and flow control run against
## a scripted fake in tests (tests/godot/fake_peer.gd extends this) on any engine, the web build
## included, where no listening socket can exist.
##
## States are WebSocketPeer.State values. Runtime-safe: names no Editor* class.

var _socket: WebSocketPeer = null


func _init(socket: WebSocketPeer = null) -> void:
	_socket = socket


func poll() -> void:
	_socket.poll()


func get_ready_state() -> int:
	return _socket.get_ready_state()


func get_available_packet_count() -> int:
	return _socket.get_available_packet_count()


func get_packet() -> PackedByteArray:
	return _socket.get_packet()


func was_string_packet() -> bool:
	return _socket.was_string_packet()


func send_text(text: String) -> Error:
	return _socket.send_text(text)


func close(code: int, reason: String) -> void:
	_socket.close(code, reason)


## Bytes queued for sending but not yet written to the socket.
func get_outbound_buffered() -> int:
	return _socket.get_current_outbound_buffered_amount()


## The outbound ceiling: a frame that would push the queued bytes past it is refused whole.
## Read at send time, so changing it applies to a live connection.
func get_outbound_limit() -> int:
	return _socket.outbound_buffer_size


func set_outbound_limit(bytes: int) -> void:
	_socket.outbound_buffer_size = bytes


## The inbound ceiling; fixed once the handshake is done (the engine sizes its buffers then).
func get_inbound_limit() -> int:
	return _socket.inbound_buffer_size
