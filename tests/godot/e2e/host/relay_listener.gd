extends "res://addons/godot_mcp_toolkit/transport/peer/tcp_listener.gd"
## The engine host's listener: a browser cannot listen, so the relay listens on 127.0.0.1 for it.
## listen() asks the relay to open the port; each connection a bridge makes there arrives as a
## request on the control link, and take_peer() answers it by dialling the relay (relay_peer.gd).
## Everything above this seam (auth, framing, dispatch) is the toolkit's own.

const RelayPeer := preload("relay_peer.gd")

var _link: RefCounted = null
var _port := 0


## `link` is the host's control link (relay_link.gd).
func _init(link: RefCounted) -> void:
	_link = link


func listen(port: int, _address: String) -> Error:
	stop()
	_port = port
	_link.listen(port)
	return OK


func stop() -> void:
	if _port != 0:
		_link.unlisten(_port)
		_port = 0


func is_listening() -> bool:
	return _port != 0 and not _link.is_closed()


func take_peer(buffer_bytes: int) -> SocketPeer:
	if _port == 0:
		return null
	var id: String = _link.take_connection(_port)
	if id.is_empty():
		return null
	var socket := WebSocketPeer.new()
	socket.inbound_buffer_size = buffer_bytes
	socket.outbound_buffer_size = buffer_bytes
	var error := socket.connect_to_url(_link.peer_url(id))
	if error != OK:
		push_error("e2e host: could not dial the relay for connection %s (%s)" % [id, error_string(error)])
		return null
	return RelayPeer.new(socket)
