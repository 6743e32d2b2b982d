@tool
extends RefCounted
## The listening socket: binds 127.0.0.1, accepts TCP connections and wraps each in a WebSocket
## peer (peer/socket_peer.gd) sized to the current buffer limit. The only place that touches
## TCPServer; tests substitute a fake (tests/godot/fake_peer.gd) that hands out scripted peers.
## Runtime-safe: names no Editor* class.

const SocketPeer := preload("res://addons/godot_mcp_toolkit/transport/peer/socket_peer.gd")

var _server: TCPServer = null


func listen(port: int, address: String) -> Error:
	stop()
	var server := TCPServer.new()
	var error := server.listen(port, address)
	if error == OK:
		_server = server
	return error


func stop() -> void:
	if _server != null:
		_server.stop()
		_server = null


func is_listening() -> bool:
	return _server != null and _server.is_listening()


## The next pending connection as a peer with `buffer_bytes` both ways, or null when none is waiting.
func take_peer(buffer_bytes: int) -> SocketPeer:
	while _server != null and _server.is_connection_available():
		var stream := _server.take_connection()
		if stream == null:
			return null
		# Godot leaves Nagle on for accepted sockets: small replies would wait for
		# the peer's delayed ACK, ~40 ms a hop.
		stream.set_no_delay(true)
		var socket := WebSocketPeer.new()
		socket.inbound_buffer_size = buffer_bytes
		socket.outbound_buffer_size = buffer_bytes
		if socket.accept_stream(stream) == OK:
			return SocketPeer.new(socket)
	return null
