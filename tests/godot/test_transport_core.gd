extends RefCounted
## transport/ws_transport.gd, transport/mcp_server.gd and runtime/mcp_runtime_server.gd over the
## fake socket layer (fake_net.gd): auth, framing, flow control when the outbound buffer is full,
## buffer limits on live peers, the loop pace, and dispatch end to end. Runs on every engine;
## test_ws_transport.gd covers the real sockets where they exist.

const Assert := preload("assert.gd")
const FakeNet := preload("fake_net.gd")
const WsTransport := preload("res://addons/godot_mcp_toolkit/transport/ws_transport.gd")
const LoopPacer := preload("res://addons/godot_mcp_toolkit/transport/loop_pacer.gd")
const McpServer := preload("res://addons/godot_mcp_toolkit/transport/mcp_server.gd")
const RuntimeServer := preload("res://addons/godot_mcp_toolkit/runtime/mcp_runtime_server.gd")
const CommandRegistry := preload("res://addons/godot_mcp_toolkit/transport/mcp_toolkit_command_registry.gd")
const MetaCommands := preload("res://addons/godot_mcp_toolkit/commands/meta/meta_commands.gd")
const Auth := preload("res://addons/godot_mcp_toolkit/security/auth.gd")
const Settings := preload("res://addons/godot_mcp_toolkit/settings/settings_registration.gd")

const TOKEN := "secret-token"
const TOKEN_PATH := "user://mcp_toolkit_tests/core_token"
const KIB := 1024
const PLATFORMER := "res://tests/fixtures/projects/platformer_3d/project.godot"

var _clock := {"now": 1000}
var _listener := FakeNet.FakeListener.new()
var _loop := FakeNet.FakeLoop.new()
var _transport: WsTransport = null
var _server: Node = null
var _received: Array = []


func cleanup() -> void:
	if _transport != null:
		_transport.stop()
	if _server != null:
		_server.stop()
		_server.free()
	if ProjectSettings.has_setting(Settings.WS_BUFFER_KB):
		ProjectSettings.set_setting(Settings.WS_BUFFER_KB, null)
	if FileAccess.file_exists(TOKEN_PATH):
		DirAccess.remove_absolute(ProjectSettings.globalize_path(TOKEN_PATH))


func test_first_frame_authenticates() -> void:
	_start_transport()
	var good := _authed_peer()
	Assert.eq(good.sent_json(), [{"authed": true}], "default ack")
	Assert.eq(_transport.authed_peer_ids(), [1], "counted once authed")
	Assert.eq(_received, [], "the auth frame is not passed on")
	good.feed_text("{\"jsonrpc\": \"2.0\"}")
	_transport.poll()
	Assert.eq(_received, [[1, "{\"jsonrpc\": \"2.0\"}"]], "later text frames go to the owner")
	for frame: String in ["not json", "{\"auth\": \"wrong\"}", "[1]"]:
		var peer := _listener.connect_peer()
		peer.feed_text(frame)
		_transport.poll()
		Assert.eq([peer.close_code, peer.close_reason], [1008, "invalid token"], "refused: %s" % frame)
		Assert.eq(peer.sent, [], "no ack for %s" % frame)
	var binary := _listener.connect_peer()
	binary.feed_binary(JSON.stringify({"auth": TOKEN}).to_utf8_buffer())
	_transport.poll()
	Assert.eq(binary.close_code, 1008, "the token must come as text")


func test_auth_timeout_and_close_grace() -> void:
	_start_transport()
	var silent := _listener.connect_peer()
	_transport.poll()
	_clock["now"] += WsTransport.AUTH_TIMEOUT_MS + 1
	_transport.poll()
	Assert.eq([silent.close_code, silent.close_reason], [1008, "auth timeout"], "silent peer closed")
	_transport.poll()
	Assert.is_false(_transport.has_peer(1), "dropped once closed")


func test_a_second_large_reply_waits_instead_of_being_dropped() -> void:
	_start_transport()
	var peer := _authed_peer()
	peer.sent.clear()
	peer.hold_output = true
	var limit := WsTransport.buffer_bytes()
	var big := "x".repeat(limit - WsTransport.FRAME_HEADROOM_BYTES - 200)
	Assert.is_true(_transport.send_response(1, {"jsonrpc": "2.0", "id": 1, "result": {"text": big}}), "first sent")
	Assert.is_true(_transport.send_response(1, {"jsonrpc": "2.0", "id": 2, "result": {"text": big}}), "second queued")
	Assert.is_true(_transport.send_json(1, {"notification": "after"}), "a later frame queues behind it")
	Assert.eq(peer.sent.size(), 1, "only the first fits while it is unread")
	Assert.eq(peer.refused, 0, "nothing was pushed into a full buffer (the engine would drop it)")
	Assert.is_true(_transport.pending_bytes(1) > limit, "the rest waits")
	peer.drain()
	_transport.poll()
	Assert.eq(JSON.parse_string(peer.sent[1])["id"], 2, "the second reply goes once the first drained")
	peer.drain()
	_transport.poll()
	var ids := peer.sent_json().map(func(frame: Dictionary) -> Variant: return frame.get("id", frame.get("notification")))
	Assert.eq(ids, [1, 2, "after"], "in order")
	Assert.eq(_transport.pending_bytes(1), 0, "all out")


func test_reply_larger_than_the_buffer_is_answered_with_an_error() -> void:
	_start_transport()
	var peer := _authed_peer()
	peer.sent.clear()
	var huge := "y".repeat(WsTransport.buffer_bytes())
	Assert.is_true(_transport.send_response(1, {"jsonrpc": "2.0", "id": 7, "result": {"text": huge}}), "answered")
	var reply: Dictionary = peer.sent_json()[0]
	Assert.eq(reply["id"], 7, "same id")
	Assert.eq(reply["result"]["code"], "RESPONSE_TOO_LARGE", "explicit error, not silence")


## 3d/platformer of godot-demo-projects (tests/fixtures/projects) binds keys by their Godot 3
## codes; such a key's name reads "Ctrl+" and a control character, which Godot's JSON.stringify
## leaves raw (and U+000B as \v): invalid JSON, which the bridge dropped, so the call never
## answered. Every frame must be JSON a strict reader takes, the text coming back unchanged.
func test_a_reply_with_control_characters_is_valid_json() -> void:
	_start_transport()
	var peer := _authed_peer()
	peer.sent.clear()
	var real := ConfigFile.new()
	Assert.eq(real.load(PLATFORMER), OK, "the real project.godot parses")
	var names := PackedStringArray()
	for event: InputEvent in real.get_value("input", "ui_accept")["events"]:
		names.append(event.as_text())
	var text := "|".join(names) + "|tab\tvt\u000bbackslash-v\\v"
	Assert.is_true(text.contains(char(5)), "a real key name holds a control character")
	_transport.send_response(1, {"jsonrpc": "2.0", "id": 3, "result": {"text": text}})
	var frame: String = peer.sent[0]
	var raw := PackedStringArray()
	for index in frame.length():
		if frame.unicode_at(index) < 0x20:
			raw.append("U+%04X" % frame.unicode_at(index))
	Assert.eq(raw, PackedStringArray(), "no raw control character in the frame")
	var escapes := RegEx.create_from_string("\\\\\\\\|\\\\[^\"\\\\/bfnrtu]")
	var bad := escapes.search_all(frame).map(func(m: RegExMatch) -> String: return m.get_string()).filter(
		func(s: String) -> bool: return s != "\\\\")
	Assert.eq(bad, [], "only the escapes JSON has")
	Assert.eq(JSON.parse_string(frame)["result"]["text"], text, "the text comes back as it was")


func test_a_reader_that_never_drains_gets_an_explicit_error() -> void:
	_start_transport()
	var peer := _authed_peer()
	peer.sent.clear()
	peer.hold_output = true
	var chunk := "z".repeat(WsTransport.buffer_bytes() / 2)
	var id := 0
	while _transport.pending_bytes(1) <= WsTransport.buffer_bytes() * WsTransport.OUTBOX_BUFFERS:
		id += 1
		_transport.send_response(1, {"jsonrpc": "2.0", "id": id, "result": {"text": chunk}})
	id += 1
	_transport.send_response(1, {"jsonrpc": "2.0", "id": id, "result": {"text": chunk}})
	for _round in 20:
		peer.drain()
		_transport.poll()
	var last: Dictionary = peer.sent_json()[-1]
	Assert.eq(last["id"], id, "the reply that did not fit is still answered")
	Assert.eq(last["result"]["code"], "RESPONSE_TOO_LARGE", "with the reason")


func test_new_buffer_limit_reaches_live_peers() -> void:
	_start_transport()
	var busy_flag := {"busy": true}
	_transport.set_idle_check(func(_peer_id: int) -> bool: return not busy_flag["busy"])
	var peer := _authed_peer()
	Assert.eq(peer.inbound_limit, 1024 * KIB, "accepted with the setting")
	Settings.set_int(Settings.WS_BUFFER_KB, 2048)
	_transport.apply_buffer_bytes(WsTransport.buffer_bytes())
	Assert.eq(peer.outbound_limit, 2048 * KIB, "outbound applies at once")
	_transport.poll()
	Assert.eq(peer.close_code, -1, "not closed while a command is in flight")
	busy_flag["busy"] = false
	peer.hold_output = true
	_transport.send_json(1, {"notification": "x"})
	_transport.poll()
	Assert.eq(peer.close_code, -1, "not closed before its output drained")
	peer.drain()
	_transport.poll()
	Assert.eq([peer.close_code, peer.close_reason], [1001, WsTransport.CLOSE_BUFFER_CHANGED], "then reconnected")
	var fresh := _listener.connect_peer()
	_transport.poll()
	Assert.eq([fresh.inbound_limit, fresh.outbound_limit], [2048 * KIB, 2048 * KIB], "new peers get the new size")
	_transport.apply_buffer_bytes(WsTransport.buffer_bytes())
	_transport.poll()
	Assert.eq(fresh.close_code, -1, "a peer already at the size is left alone")


func test_loop_stays_responsive_while_a_peer_is_connected() -> void:
	_start_transport()
	_transport.poll()
	Assert.eq(_loop.low_processor_usage_mode_sleep_usec, 100000, "no peer: the editor's own sleep")
	var peer := _authed_peer()
	Assert.eq(_loop.low_processor_usage_mode_sleep_usec, LoopPacer.CAP_USEC, "capped while connected")
	_loop.low_processor_usage_mode_sleep_usec = 250000
	_transport.poll()
	Assert.eq(_loop.low_processor_usage_mode_sleep_usec, LoopPacer.CAP_USEC, "re-capped after the editor rewrote it")
	peer.close(1000, "bye")
	_transport.poll()
	_transport.poll()
	Assert.is_false(_transport.has_peer(1), "gone")
	Assert.eq(_loop.low_processor_usage_mode_sleep_usec, 250000, "the editor's latest value is back")


func test_pacer_leaves_a_faster_setting_alone() -> void:
	_loop.low_processor_usage_mode_sleep_usec = 1000
	var pacer := LoopPacer.new(_loop)
	pacer.update(true)
	Assert.eq(_loop.low_processor_usage_mode_sleep_usec, 1000, "already faster than the cap")
	pacer.update(false)
	Assert.eq(_loop.low_processor_usage_mode_sleep_usec, 1000, "untouched")


func test_editor_server_dispatch_and_set_limits_over_a_fake_socket() -> void:
	var env := {"GODOT_MCP_EDITOR_PORT": "47999", "GODOT_MCP_TOKEN_PATH": TOKEN_PATH}
	var getenv := func(name: String) -> String: return str(env.get(name, ""))
	var auth := Auth.new(getenv)
	Assert.eq(auth.start(), OK, "token written")
	var registry := CommandRegistry.new()
	var server := McpServer.new()
	_server = server
	server.setup(registry, auth, getenv, _listener, LoopPacer.new(_loop))
	MetaCommands.register(registry, server)
	Assert.is_true(server.start(), "listening (fake)")
	Assert.eq(server.get_port(), 47999, "the pinned port")
	var peer := _listener.connect_peer()
	peer.feed_json({"auth": auth.get_token()})
	server.poll()
	var ack: Dictionary = peer.sent_json()[0]
	Assert.eq(ack["authed"], true, "authed")
	Assert.eq(ack.keys().size(), 4, "editor ack fields")
	peer.feed_json({"jsonrpc": "2.0", "id": 1, "method": "echo", "params": {"hi": 1}})
	server.poll()
	Assert.eq(peer.sent_json()[-1], {"jsonrpc": "2.0", "id": 1, "result": {"success": true, "echo": {"hi": 1}}}, "echo")
	peer.feed_json({"jsonrpc": "2.0", "id": 2, "method": "meta.set_limits", "params": {"ws_buffer_kb": 256}})
	server.poll()
	var reply: Dictionary = peer.sent_json()[-1]
	Assert.eq(reply["id"], 2, "set_limits answered first")
	Assert.eq(reply["result"]["applied"], {"ws_buffer_kb": 256}, "applied")
	Assert.eq(peer.outbound_limit, 256 * KIB, "the live connection's outbound limit changed")
	server.poll()
	Assert.eq(peer.close_code, 1001, "then the connection is closed once so the bridge reconnects with it")
	server.poll()
	var again := _listener.connect_peer()
	again.feed_json({"auth": auth.get_token()})
	server.poll()
	again.feed_json({"jsonrpc": "2.0", "id": 3, "method": "meta.set_limits", "params": {"ws_buffer_kb": 256}})
	server.poll()
	server.poll()
	Assert.eq(again.inbound_limit, 256 * KIB, "the new connection has the new size")
	Assert.eq(again.close_code, -1, "setting the same limit again does not loop")
	auth.stop()


func test_runtime_server_answers_over_a_fake_socket() -> void:
	var env := {"GODOT_MCP_RUNTIME_PORT": "47998", "GODOT_MCP_TOKEN_PATH": TOKEN_PATH}
	var getenv := func(name: String) -> String: return str(env.get(name, ""))
	var editor_auth := Auth.new(getenv)
	editor_auth.start()
	var server := RuntimeServer.new(getenv, _listener)
	_server = server
	server.registry_root = ProjectSettings.globalize_path("user://mcp_toolkit_tests/core_registry")
	Assert.is_true(server.start(), "listening (fake)")
	var peer := _listener.connect_peer()
	peer.feed_json({"auth": editor_auth.get_token()})
	peer.feed_json({"jsonrpc": "2.0", "id": 1, "method": "ping", "params": null})
	peer.feed_json({"jsonrpc": "2.0", "id": 2, "method": "scene.create"})
	server.poll()
	var frames := peer.sent_json()
	Assert.eq(frames[0], {"authed": true}, "runtime ack has no versions")
	Assert.eq(frames[1], {"jsonrpc": "2.0", "id": 1, "result": {"success": true, "pong": true}}, "ping")
	Assert.eq(frames[2]["error"]["code"], -32601, "editor commands are not served in the game")
	editor_auth.stop()


# --- helpers -----------------------------------------------------------------------------------

func _start_transport() -> void:
	_transport = WsTransport.new(func(token: Variant) -> bool: return token == TOKEN,
		func() -> int: return _clock["now"], _listener, LoopPacer.new(_loop))
	_transport.text_received.connect(func(peer_id: int, text: String) -> void: _received.append([peer_id, text]))
	Assert.eq(_transport.start([47990], true), 47990, "bound (fake)")


func _authed_peer() -> FakeNet.FakePeer:
	var peer := _listener.connect_peer()
	peer.feed_json({"auth": TOKEN})
	_transport.poll()
	return peer
