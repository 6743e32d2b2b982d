extends RefCounted
## Loopback WebSocket clients for the transport tests: connect, poll the server under test and
## every client in a bounded loop, read JSON frames. close_all() closes every client it opened.

const Assert := preload("assert.gd")
const POLL_ROUNDS := 400

## Called once per round before the clients are polled (the server under test).
var server_poll: Callable = Callable()
var clients: Array[WebSocketPeer] = []
var received: Array[String] = []


func open(port: int) -> WebSocketPeer:
	var client := WebSocketPeer.new()
	clients.append(client)
	Assert.eq(client.connect_to_url("ws://127.0.0.1:%d" % port), OK, "client connecting")
	pump_until(func() -> bool: return client.get_ready_state() == WebSocketPeer.STATE_OPEN)
	Assert.eq(client.get_ready_state(), WebSocketPeer.STATE_OPEN, "client open")
	return client


## Polls server and clients until `done` holds or the rounds run out.
func pump_until(done: Callable) -> void:
	for _round in POLL_ROUNDS:
		if server_poll.is_valid():
			server_poll.call()
		for client: WebSocketPeer in clients:
			client.poll()
			while client.get_ready_state() == WebSocketPeer.STATE_OPEN and client.get_available_packet_count() > 0:
				received.append(client.get_packet().get_string_from_utf8())
		if done.call():
			return
		OS.delay_msec(5)


func next_json() -> Dictionary:
	pump_until(func() -> bool: return not received.is_empty())
	if received.is_empty():
		Assert.is_true(false, "expected a frame")
		return {}
	var parsed: Variant = JSON.parse_string(received.pop_front())
	return parsed if parsed is Dictionary else {}


func close_all() -> void:
	for client: WebSocketPeer in clients:
		client.close()


## A free loopback port at or above `first` (away from the editor and runtime bands).
static func free_port(first: int) -> int:
	for port in range(first, first + 100):
		var probe := TCPServer.new()
		if probe.listen(port, "127.0.0.1") == OK:
			probe.stop()
			return port
	return 0
