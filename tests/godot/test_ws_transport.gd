extends RefCounted
## transport/ws_transport.gd and transport/mcp_server.gd over real loopback sockets: first-frame
## auth, 1008 closes, the auth timeout (on an injected clock), the frame-size guard, and an editor
## server end to end (ack fields, request, progress, notifications). Both ends are polled in a
## bounded loop; every socket a test opens, it closes.

const Assert := preload("assert.gd")
const Loopback := preload("loopback.gd")
const WsTransport := preload("res://addons/godot_mcp_toolkit/transport/ws_transport.gd")
const McpServer := preload("res://addons/godot_mcp_toolkit/transport/mcp_server.gd")
const CommandRegistry := preload("res://addons/godot_mcp_toolkit/transport/mcp_toolkit_command_registry.gd")
const MetaCommands := preload("res://addons/godot_mcp_toolkit/commands/meta/meta_commands.gd")
const Auth := preload("res://addons/godot_mcp_toolkit/security/auth.gd")
const Settings := preload("res://addons/godot_mcp_toolkit/settings/settings_registration.gd")

const TOKEN := "secret-token"
const TOKEN_PATH := "user://mcp_toolkit_tests/mcp_token"
## Well away from the editor and runtime bands so a running editor cannot interfere.
const FIRST_TEST_PORT := 47650

var _clock := {"now": 0}
var _transport: WsTransport = null
var _net := Loopback.new()
var _server: McpServer = null



## The runner skips this file where no listening socket can exist (a browser has none).
static func skip_reason() -> String:
	if OS.has_feature("web"):
		return "needs a listening socket (TCPServer.listen), which the web platform does not have"
	return ""

func cleanup() -> void:
	_net.close_all()
	if _transport != null:
		_transport.stop()
	if _server != null:
		_server.stop()
		_server.free()
	if ProjectSettings.has_setting(Settings.WS_BUFFER_KB):
		ProjectSettings.set_setting(Settings.WS_BUFFER_KB, null)
	if FileAccess.file_exists(TOKEN_PATH):
		DirAccess.remove_absolute(ProjectSettings.globalize_path(TOKEN_PATH))


func test_valid_token_gets_the_default_ack() -> void:
	var client := _connect_transport()
	client.send_text(JSON.stringify({"auth": TOKEN}))
	Assert.eq(_net.next_json(), {"authed": true}, "default ack")
	Assert.eq(_transport.authed_peer_ids().size(), 1, "one authenticated peer")


func test_ack_override_hook() -> void:
	var client := _connect_transport()
	_transport.set_ack_builder(func() -> Dictionary: return {"authed": true, "mode": "custom"})
	client.send_text(JSON.stringify({"auth": TOKEN}))
	Assert.eq(_net.next_json(), {"authed": true, "mode": "custom"}, "builder used")


func test_wrong_token_closes_1008() -> void:
	for first_frame: String in [JSON.stringify({"auth": "nope"}), "not json", JSON.stringify({"token": TOKEN})]:
		var client := _connect_transport()
		client.send_text(first_frame)
		_net.pump_until(func() -> bool: return client.get_ready_state() == WebSocketPeer.STATE_CLOSED)
		Assert.eq(client.get_close_code(), 1008, "1008 for %s" % first_frame)
		Assert.eq(client.get_close_reason(), "invalid token", "reason for %s" % first_frame)
		_transport.stop()
		_transport = null


func test_silence_closes_with_auth_timeout() -> void:
	var client := _connect_transport()
	_clock["now"] += WsTransport.AUTH_TIMEOUT_MS + 1
	_net.pump_until(func() -> bool: return client.get_ready_state() == WebSocketPeer.STATE_CLOSED)
	Assert.eq(client.get_close_code(), 1008, "policy violation")
	Assert.eq(client.get_close_reason(), "auth timeout", "reason")


func test_oversized_response_becomes_response_too_large() -> void:
	Settings.set_int(Settings.WS_BUFFER_KB, 64)
	var client := _connect_transport()
	client.send_text(JSON.stringify({"auth": TOKEN}))
	_net.next_json()
	var peer_id: int = _transport.authed_peer_ids()[0]
	_transport.send_response(peer_id, {"jsonrpc": "2.0", "id": 3, "result": {"success": true, "n": 1}})
	Assert.eq(_net.next_json()["result"], {"success": true, "n": 1}, "a small response goes through")
	var huge := "x".repeat(64 * 1024)
	_transport.send_response(peer_id, {"jsonrpc": "2.0", "id": 4, "result": {"success": true, "text": huge}})
	var replaced := _net.next_json()
	Assert.eq(replaced["id"], 4, "same id")
	Assert.eq(replaced["result"]["code"], "RESPONSE_TOO_LARGE", "replaced by the error envelope")
	Assert.is_true(replaced["result"].has("hint"), "with its default hint")


func test_editor_server_end_to_end() -> void:
	var port := Loopback.free_port(FIRST_TEST_PORT)
	var env := {"GODOT_MCP_EDITOR_PORT": str(port), "GODOT_MCP_TOKEN_PATH": TOKEN_PATH}
	var getenv := func(name: String) -> String: return str(env.get(name, ""))
	var auth := Auth.new(getenv)
	Assert.eq(auth.start(), OK, "token written")
	Assert.eq(FileAccess.get_file_as_string(TOKEN_PATH), auth.get_token(), "raw, no newline")
	Assert.eq(auth.get_token().length(), 64, "64 hex")
	var registry := CommandRegistry.new()
	MetaCommands.register(registry)
	_server = McpServer.new()
	_server.setup(registry, auth, getenv)
	Assert.is_true(_server.start(), "listening on the pinned port")
	Assert.eq(_server.get_port(), port, "exactly the pin")
	_net.server_poll = _server.poll
	var client := _net.open(port)
	client.send_text(JSON.stringify({"auth": auth.get_token(), "version": "0.1.0"}))
	var ack := _net.next_json()
	Assert.eq(ack.keys().size(), 4, "authed, godot_version, version, headless")
	Assert.is_true(ack["authed"], "authed")
	Assert.eq((ack["godot_version"] as String).split(".").size(), 3, "M.m.p")
	Assert.is_true(ack["headless"] is bool, "headless flag")
	client.send_text(JSON.stringify({"jsonrpc": "2.0", "id": 1, "method": "echo", "params": {"hi": 1}}))
	var echoed := {"jsonrpc": "2.0", "id": 1, "result": {"success": true, "echo": {"hi": 1}}}
	Assert.eq(_net.next_json(), echoed, "echo request")
	var limits := {"jsonrpc": "2.0", "id": 2, "method": "meta.set_limits", "params": {"ws_buffer_kb": 128}}
	client.send_text(JSON.stringify(limits))
	Assert.eq(_net.next_json(), {"jsonrpc": "2.0", "method": "_executing", "params": {"request_id": 2}},
		"a mutation announces itself")
	Assert.is_true(_net.next_json()["result"]["success"], "then answers")
	client.send_text(JSON.stringify({"jsonrpc": "2.0", "method": "echo", "params": {"n": 2}}))
	Assert.eq(_net.next_json(), {"notification": "echo", "params": {"n": 2}}, "echo notification")
	client.send_text(JSON.stringify({"jsonrpc": "2.0", "id": 3, "method": "nope.nothing"}))
	Assert.eq(_net.next_json()["error"]["code"], -32601, "unknown method")
	_server.broadcast_notification("game_stopped")
	Assert.eq(_net.next_json(), {"notification": "game_stopped"}, "broadcast without params")
	Assert.eq(_server.get_status()["peers"], 1, "status counts the peer")
	_server.stop()
	auth.stop()
	Assert.is_true(FileAccess.file_exists(TOKEN_PATH), "an operator's token path is left alone")


# --- helpers -----------------------------------------------------------------------------------

func _connect_transport() -> WebSocketPeer:
	_transport = WsTransport.new(func(token: Variant) -> bool: return token == TOKEN, func() -> int: return _clock["now"])
	var port := Loopback.free_port(FIRST_TEST_PORT)
	Assert.eq(_transport.start([port], true), port, "bound")
	_net.server_poll = _transport.poll
	return _net.open(port)

