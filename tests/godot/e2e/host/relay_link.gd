extends RefCounted
## The engine host's control connection to the relay (tests/engine/e2e/relay.py): events go out (a port to
## listen on, the registry entry and token the toolkit published, replies), requests come in (a
## bridge connected to port P: dial back as connection N; or a test hook such as undo). Frames sent
## before the link is open wait, in order.

signal op_received(op: Dictionary)

## Room for a reply carrying a whole file (read_file) and for many queued events.
const BUFFER_BYTES := 32 * 1024 * 1024

var _url := ""
var _socket := WebSocketPeer.new()
var _outbox: Array[String] = []
## port -> Array[String] of connection ids waiting to be dialled back.
var _pending: Dictionary = {}
var _was_open := false


func _init(url: String) -> void:
	_url = url.trim_suffix("/")
	_socket.inbound_buffer_size = BUFFER_BYTES
	_socket.outbound_buffer_size = BUFFER_BYTES
	var error := _socket.connect_to_url(_url + "/control")
	if error != OK:
		push_error("e2e host: cannot dial the relay at %s (%s)" % [_url, error_string(error)])


func poll() -> void:
	_socket.poll()
	if _socket.get_ready_state() != WebSocketPeer.STATE_OPEN:
		return
	_was_open = true
	while not _outbox.is_empty():
		_socket.send_text(_outbox.pop_front())
	while _socket.get_available_packet_count() > 0:
		var op: Variant = JSON.parse_string(_socket.get_packet().get_string_from_utf8())
		if not op is Dictionary:
			continue
		if op.get("op") == "connect":
			var port := int(op.get("port", 0))
			if _pending.has(port):
				(_pending[port] as Array).append(str(op.get("id")))
		else:
			op_received.emit(op)


## True once the relay has gone (or was never reached): the host then quits.
func is_closed() -> bool:
	return _socket.get_ready_state() == WebSocketPeer.STATE_CLOSED


func was_open() -> bool:
	return _was_open


func send(event: Dictionary) -> void:
	var text := JSON.stringify(event)
	if _socket.get_ready_state() == WebSocketPeer.STATE_OPEN and _outbox.is_empty():
		_socket.send_text(text)
	else:
		_outbox.append(text)


func listen(port: int) -> void:
	_pending[port] = []
	send({"event": "listen", "port": port})


func unlisten(port: int) -> void:
	_pending.erase(port)
	send({"event": "unlisten", "port": port})


## The next connection the relay asked to be dialled back on `port`; "" when none waits.
func take_connection(port: int) -> String:
	var waiting: Array = _pending.get(port, [])
	return str(waiting.pop_front()) if not waiting.is_empty() else ""


func peer_url(id: String) -> String:
	return "%s/peer/%s" % [_url, id]
