extends RefCounted
## runtime/mcp_runtime_server.gd (Mode B) over a real loopback socket: it authenticates with the
## token file the editor wrote (re-read on every attempt), acks {"authed": true} only, answers
## ping and echo, refuses other methods, and publishes/withdraws its port in a scratch registry.

const Assert := preload("assert.gd")
const Loopback := preload("loopback.gd")
const RuntimeServer := preload("res://addons/godot_mcp_toolkit/runtime/mcp_runtime_server.gd")
const Auth := preload("res://addons/godot_mcp_toolkit/security/auth.gd")
const RegistryPaths := preload("res://addons/godot_mcp_toolkit/registry/store/registry_paths.gd")
const ProjectKey := preload("res://addons/godot_mcp_toolkit/paths/project_key.gd")

const TOKEN_PATH := "user://mcp_toolkit_tests/runtime_token"
const FIRST_TEST_PORT := 47760

var _server: RuntimeServer = null
var _net := Loopback.new()
var _root := ""



## The runner skips this file where no listening socket can exist (a browser has none).
static func skip_reason() -> String:
	if OS.has_feature("web"):
		return "needs a listening socket (TCPServer.listen), which the web platform does not have"
	return ""

func cleanup() -> void:
	_net.close_all()
	if _server != null:
		_server.stop()
		_server.free()
	if FileAccess.file_exists(TOKEN_PATH):
		DirAccess.remove_absolute(ProjectSettings.globalize_path(TOKEN_PATH))


func test_runtime_round_trip() -> void:
	var port := Loopback.free_port(FIRST_TEST_PORT)
	_root = ProjectSettings.globalize_path("user://mcp_toolkit_tests/registry_%d" % Time.get_ticks_usec())
	var env := {"GODOT_MCP_RUNTIME_PORT": str(port), "GODOT_MCP_TOKEN_PATH": TOKEN_PATH}
	var getenv := func(name: String) -> String: return str(env.get(name, ""))
	var editor_auth := Auth.new(getenv)
	editor_auth.start()
	_server = RuntimeServer.new(getenv)
	_server.registry_root = _root
	Assert.is_true(_server.start(), "listening")
	Assert.eq(_server.get_port(), port, "on the pinned runtime port")
	var overlay := RegistryPaths.runtime_file(ProjectKey.current_hash(), _root)
	Assert.is_true(FileAccess.file_exists(overlay), "runtime port published")
	editor_auth.start()
	_net.server_poll = _server.poll
	var client := _net.open(port)
	client.send_text(JSON.stringify({"auth": editor_auth.get_token()}))
	Assert.eq(_net.next_json(), {"authed": true}, "the token rotated after start still works; ack has no version")
	client.send_text(JSON.stringify({"jsonrpc": "2.0", "id": 1, "method": "ping", "params": null}))
	Assert.eq(_net.next_json(), {"jsonrpc": "2.0", "id": 1, "result": {"success": true, "pong": true}}, "ping")
	client.send_text(JSON.stringify({"jsonrpc": "2.0", "id": "e", "method": "echo", "params": {"v": 3}}))
	Assert.eq(_net.next_json()["result"], {"success": true, "echo": {"v": 3}}, "echo")
	client.send_text(JSON.stringify({"jsonrpc": "2.0", "id": 2, "method": "scene.create"}))
	Assert.eq(_net.next_json()["error"]["code"], -32601, "editor commands are not served in the game")
	_server.stop()
	Assert.is_false(FileAccess.file_exists(overlay), "runtime port withdrawn on stop")

