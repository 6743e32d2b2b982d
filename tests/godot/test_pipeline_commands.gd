extends RefCounted
## The pipeline commands through the registry, as dispatch calls them: echo, meta.set_limits,
## editor.set_lsp_status (against a real, unstarted editor server).

const Assert := preload("assert.gd")
const CommandRegistry := preload("res://addons/godot_mcp_toolkit/transport/mcp_toolkit_command_registry.gd")
const MetaCommands := preload("res://addons/godot_mcp_toolkit/commands/meta/meta_commands.gd")
const EditorStatusCommands := preload("res://addons/godot_mcp_toolkit/commands/editor/lsp_status_commands.gd")
const McpServer := preload("res://addons/godot_mcp_toolkit/transport/mcp_server.gd")
const Auth := preload("res://addons/godot_mcp_toolkit/security/auth.gd")
const Settings := preload("res://addons/godot_mcp_toolkit/settings/settings_registration.gd")

var _registry: CommandRegistry = null
var _server: McpServer = null
var _status_changes := 0


func _init() -> void:
	_registry = CommandRegistry.new()
	_server = McpServer.new()
	_server.setup(_registry, Auth.new(func(_name: String) -> String: return ""))
	_server.status_changed.connect(func() -> void: _status_changes += 1)
	MetaCommands.register(_registry, _server)
	EditorStatusCommands.register(_registry, _server)


func cleanup() -> void:
	for key: String in [Settings.WS_BUFFER_KB, Settings.SCRIPT_READ_CAP_KB, Settings.SAVE_READ_CAP_KB]:
		if ProjectSettings.has_setting(key):
			ProjectSettings.set_setting(key, null)
	_server.free()


func test_pipeline_commands_are_registered_with_their_lanes() -> void:
	Assert.is_true(_registry.dispatch_info("echo")["read_only"], "echo is a read")
	Assert.is_true(_registry.dispatch_info("editor.set_lsp_status")["read_only"], "set_lsp_status is a read")
	Assert.is_false(_registry.dispatch_info("meta.set_limits")["read_only"], "set_limits mutates")
	for method: String in ["echo", "meta.set_limits", "editor.set_lsp_status"]:
		Assert.is_true(_registry.dispatch_info(method)["scene_independent"], "%s ignores the scene lease" % method)


func test_echo_returns_params() -> void:
	Assert.eq(_call("echo", {"a": [1, 2]}), {"success": true, "echo": {"a": [1, 2]}}, "echoed")


func test_set_limits_applies_and_clamps() -> void:
	var result := _call("meta.set_limits", {"ws_buffer_kb": 2048.0, "script_read_cap_kb": 0})
	Assert.is_true(result["success"], "applied")
	Assert.eq(result["applied"], {"ws_buffer_kb": 2048, "script_read_cap_kb": 1}, "stored values")
	Assert.eq(result["previous"]["ws_buffer_kb"], 1024, "previous value reported")
	Assert.eq(result["clamped"], ["script_read_cap_kb"], "clamping disclosed")
	Assert.contains(result["hint"], "reconnects", "the live connection is told how the new buffer applies")
	Assert.eq(Settings.get_int(Settings.WS_BUFFER_KB), 2048, "setting changed")
	var same := _call("meta.set_limits", {"ws_buffer_kb": 2048})
	Assert.is_false(same.has("hint"), "an unchanged buffer needs no reconnect")


func test_set_limits_refuses_bad_input() -> void:
	Assert.eq(_call("meta.set_limits", {})["code"], "INVALID_PARAMS", "nothing to set")
	Assert.eq(_call("meta.set_limits", {"ws_buffer": 10})["code"], "INVALID_PARAMS", "unknown key")
	Assert.eq(_call("meta.set_limits", {"ws_buffer_kb": 1.5})["code"], "INVALID_PARAMS", "not whole")
	Assert.eq(_call("meta.set_limits", {"ws_buffer_kb": "big"})["code"], "INVALID_PARAMS", "not a number")
	Assert.eq(Settings.get_int(Settings.WS_BUFFER_KB), 1024, "nothing applied")


func test_set_lsp_status_reaches_the_server() -> void:
	var result := _call("editor.set_lsp_status", {"state": "conflict", "host": "127.0.0.1", "port": 6005.0,
		"detail": "another editor owns 6005"})
	Assert.is_true(result["success"], "accepted")
	var expected := {"state": "conflict", "host": "127.0.0.1", "port": 6005, "detail": "another editor owns 6005"}
	Assert.eq(_server.get_status()["lsp_status"], expected, "the dock sees it")
	Assert.eq(_status_changes, 1, "status_changed emitted once")
	Assert.eq(_call("editor.set_lsp_status", {"state": "running"})["code"], "INVALID_PARAMS", "unknown state")
	Assert.eq(_call("editor.set_lsp_status", {"state": "active", "port": "6005"})["code"], "INVALID_PARAMS", "bad port")


func test_status_shape_for_the_dock() -> void:
	var status := _server.get_status()
	Assert.eq(status.keys().size(), 8, "eight fields")
	for key: String in ["listening", "port", "peers", "godot_version", "headless", "lsp_status", "error", "read_only"]:
		Assert.is_true(status.has(key), key)
	Assert.is_false(status["listening"], "not started")
	Assert.eq(status["headless"], DisplayServer.get_name() == "headless", "says whether this editor has a display")


func _call(method: String, params: Dictionary) -> Dictionary:
	var handler: Callable = _registry.dispatch_info(method)["handler"]
	return handler.callv([params])
