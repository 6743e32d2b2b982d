extends RefCounted
## Pushed errors through the real servers and commands: the game's runtime server and
## the editor's server send errors.reported to authenticated peers only (fake socket layer,
## fake_net.gd) from a real push_error() of this 4.6 engine; debugger.get_log and
## editor.get_console read the very capture the push reads (the context's log hub); crash
## detection (logs/game_exit.gd) over a scripted process state, and the game_crashed report over a
## log file. Not covered: the editor's debugger session signal and registry check that feed
## GameExit (editor glue in plugin.gd / editor_context.gd, which needs a real editor).

const Assert := preload("assert.gd")
const FakeNet := preload("fake_net.gd")
const CommandRegistry := preload("res://addons/godot_mcp_toolkit/transport/mcp_toolkit_command_registry.gd")
const GameContext := preload("res://addons/godot_mcp_toolkit/runtime/game_context.gd")
const RuntimeContext := preload("res://addons/godot_mcp_toolkit/context/runtime_context.gd")
const GameRuntimeCommands := preload("res://addons/godot_mcp_toolkit/commands/runtime/runtime_commands.gd")
const ConsoleCommands := preload("res://addons/godot_mcp_toolkit/commands/editor/console_commands.gd")
const RuntimeServer := preload("res://addons/godot_mcp_toolkit/runtime/mcp_runtime_server.gd")
const McpServer := preload("res://addons/godot_mcp_toolkit/transport/mcp_server.gd")
const Auth := preload("res://addons/godot_mcp_toolkit/security/auth.gd")
const GameExit := preload("res://addons/godot_mcp_toolkit/logs/game_exit.gd")

const TOKEN_PATH := "user://mcp_toolkit_tests/error_push_token"
const LOG_DIR := "user://tmp_tests_error_push"
const LOG_PATH := "user://tmp_tests_error_push/godot.log"
const FIXTURE := "res://tests/fixtures/toolkit/pushed_errors.json"

var _tree: SceneTree = Engine.get_main_loop() as SceneTree
var _runtime: RuntimeServer = null
var _editor: McpServer = null
var _auth: Auth = null
var _env := {"GODOT_MCP_RUNTIME_PORT": "47991", "GODOT_MCP_EDITOR_PORT": "47992", "GODOT_MCP_TOKEN_PATH": TOKEN_PATH}


func cleanup() -> void:
	if _runtime != null:
		_runtime.stop()
		_runtime.free()
	if _editor != null:
		_editor.stop()
		_editor.free()
	if _auth != null:
		_auth.stop()
	if FileAccess.file_exists(LOG_PATH):
		DirAccess.remove_absolute(LOG_PATH)
	DirAccess.remove_absolute(LOG_DIR)


func test_the_game_server_pushes_its_errors_to_authenticated_peers() -> void:
	var listener := FakeNet.FakeListener.new()
	_auth = Auth.new(_getenv)
	_auth.start()
	_runtime = RuntimeServer.new(_getenv, listener)
	_runtime.registry_root = ProjectSettings.globalize_path("user://mcp_toolkit_tests/error_push_registry")
	Assert.is_true(_runtime.start(), "listening (fake)")
	var bridge := listener.connect_peer()
	bridge.feed_json({"auth": _auth.get_token()})
	var stranger := listener.connect_peer()
	var marker := "game-push-%d" % Time.get_ticks_usec()
	push_error(marker + " broke")
	push_error(marker + " broke")
	push_warning(marker + " odd")
	_runtime.poll()
	var pushed := _events(bridge, "errors.reported")
	Assert.eq(pushed.size(), 1, "one notification for the frame")
	var params: Dictionary = pushed[0]["params"] if not pushed.is_empty() else {}
	Assert.eq(params.get("source"), "game", "from the game")
	var mine := (params.get("entries", []) as Array).filter(
		func(e: Dictionary) -> bool: return marker in str(e["message"]))
	Assert.eq(mine.map(func(e: Dictionary) -> Array: return [e["severity"], e["count"]]),
		[["error", 2.0], ["warning", 1.0]], "each distinct problem once, with its count")
	_check_entry_shape(mine[0] if not mine.is_empty() else {})
	Assert.eq(_events(stranger, "errors.reported"), [], "nothing to a peer that has not authenticated")
	_runtime.poll()
	Assert.eq(_events(bridge, "errors.reported").size(), 1, "nothing again in the same frame")


func test_the_editor_server_pushes_with_source_editor() -> void:
	var listener := FakeNet.FakeListener.new()
	_auth = Auth.new(_getenv)
	_auth.start()
	var context := RuntimeContext.new()
	_editor = McpServer.new()
	_editor.setup(CommandRegistry.new(), _auth, _getenv, listener)
	_editor.push_errors(context.debugger.log_hub().errors, "editor")
	Assert.is_true(_editor.start(), "listening (fake)")
	var marker := "editor-push-%d" % Time.get_ticks_usec()
	push_error(marker + " in a tool script")
	_editor.poll()
	Assert.eq(context.debugger.log_hub().errors.take_batch().size(), 1, "not taken while no bridge is connected")
	var bridge := listener.connect_peer()
	bridge.feed_json({"auth": _auth.get_token()})
	push_error(marker + " again")
	_editor.poll()
	var pushed := _events(bridge, "errors.reported")
	Assert.eq(pushed.size(), 1, "pushed once the bridge is in")
	var params: Dictionary = pushed[0]["params"] if not pushed.is_empty() else {}
	Assert.eq(params.get("source"), "editor", "from the editor")
	Assert.eq((params.get("entries", []) as Array).map(func(e: Dictionary) -> String: return e["message"]),
		[marker + " again"], "what the earlier test take already marked pushed is not sent twice")


func test_debugger_get_log_and_the_push_read_one_capture() -> void:
	var root := Node.new()
	_tree.root.add_child(root)
	_tree.current_scene = root
	var context := GameContext.new(_tree)
	var registry := CommandRegistry.new()
	registry.configure("4.6.0", context)
	GameRuntimeCommands.register(registry, context)
	var marker := "one-capture-%d" % Time.get_ticks_usec()
	push_error(marker + " failed")
	var log := _call(registry, "debugger.get_log", {"text_filter": marker})
	Assert.eq((log["entries"] as Array).map(func(e: Dictionary) -> String: return e["level"]), ["error"],
		"debugger.get_log shows the error")
	var errors := context.debugger.log_hub().errors.entries().filter(
		func(e: Dictionary) -> bool: return marker in str(e["message"]))
	Assert.eq(errors.size(), 1, "and the store the push reads has it")
	context.debugger.log_hub().buffer.clear()
	Assert.eq(_call(registry, "debugger.get_log", {"text_filter": marker})["returned"], 0,
		"the command reads the hub's own buffer (cleared there, gone here)")
	var editor_context := RuntimeContext.new()
	var editor_registry := CommandRegistry.new()
	ConsoleCommands.register(editor_registry, editor_context)
	push_warning(marker + " editor side")
	_call(editor_registry, "editor.get_console", {"source": "buffer", "clear_buffer": true})
	Assert.eq(editor_context.debugger.log_hub().buffer.entries(), [], "editor.get_console clears the hub's buffer")
	Assert.eq(editor_context.debugger.log_hub().errors.entries().size(), 1, "the error store is not the console buffer")
	registry.clear()
	editor_registry.clear()
	_tree.current_scene = null
	root.free()


func test_crash_is_a_session_ending_on_its_own_with_the_runtime_entry_left() -> void:
	var watch := GameExit.new()
	watch.play_state(true)
	Assert.is_false(watch.session_ended(false, true), "the editor stopped it (not playing any more): a stop")
	Assert.is_false(watch.session_ended(true, false), "it quit and withdrew its entry: a normal quit")
	Assert.is_true(watch.session_ended(true, true), "it vanished with its entry still published: a crash")
	Assert.is_false(watch.session_ended(true, true), "reported once per play")
	watch.play_state(false)
	Assert.is_false(watch.session_ended(true, true), "not armed again by a stop")
	watch.play_state(true)
	Assert.is_true(watch.session_ended(true, true), "a new play is watched again")


func test_crash_report_carries_the_last_log_lines() -> void:
	DirAccess.make_dir_recursive_absolute(LOG_DIR)
	var lines := PackedStringArray()
	for i in 40:
		lines.append("line %d" % i)
	lines.append("token api_key=abcd1234abcd1234abcd1234")
	lines.append("handle_crash: Program crashed with signal 11")
	var file := FileAccess.open(LOG_PATH, FileAccess.WRITE)
	file.store_string("\n".join(lines) + "\n\n")
	file.close()
	var report := GameExit.report(LOG_PATH)
	var fixture: Dictionary = JSON.parse_string(FileAccess.get_file_as_string(FIXTURE))
	var keys := report.keys()
	keys.sort()
	var expected := (fixture["game_crashed"]["params"] as Dictionary).keys()
	expected.sort()
	Assert.eq(keys, expected, "the fixture's keys")
	Assert.eq(report["exit_code"], null, "an editor plugin cannot see the exit code")
	var last: Array = report["last_lines"]
	Assert.eq([last.size(), last[0], last[-1]], [GameExit.LAST_LINES, "line 12",
		"handle_crash: Program crashed with signal 11"], "the last 30 non-empty lines, oldest first")
	Assert.is_false("abcd1234abcd1234" in str(last), "secrets scrubbed")
	Assert.eq(report["log_path"], ProjectSettings.globalize_path(LOG_PATH), "an absolute path")
	Assert.eq(GameExit.report(LOG_PATH, 139)["exit_code"], 139, "a known exit code is kept")
	Assert.eq(GameExit.report(LOG_DIR + "/none.log")["last_lines"], [], "no file, no lines")
	Assert.eq(GameExit.report("")["log_path"], "", "file logging off: no path")


func _getenv(name: String) -> String:
	return str(_env.get(name, ""))


static func _events(peer: FakeNet.FakePeer, event_name: String) -> Array:
	return peer.sent_json().filter(
		func(frame: Variant) -> bool: return frame is Dictionary and frame.get("notification") == event_name)


static func _check_entry_shape(entry: Dictionary) -> void:
	var types := {"id": TYPE_FLOAT, "severity": TYPE_STRING, "message": TYPE_STRING, "file": TYPE_STRING,
		"line": TYPE_FLOAT, "function": TYPE_STRING, "stack": TYPE_ARRAY, "count": TYPE_FLOAT, "time_ms": TYPE_FLOAT}
	var keys := entry.keys()
	keys.sort()
	var agreed := types.keys()
	agreed.sort()
	Assert.eq(keys, agreed, "the agreed entry keys")
	for key: String in types:
		Assert.eq(typeof(entry.get(key)), types[key], "%s is %s" % [key, type_string(types[key])])


static func _call(registry: CommandRegistry, method: String, params: Dictionary) -> Dictionary:
	var handler: Callable = registry.dispatch_info(method)["handler"]
	return handler.callv([params])
