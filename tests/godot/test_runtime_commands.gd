extends RefCounted
## The running game's commands (commands/runtime/runtime_commands.gd) over a context that follows
## SceneTree.current_scene (runtime/game_context.gd), and the in-game server dispatching them
## through its registry over the fake socket layer (fake_net.gd). Screenshot sizing runs on a
## generated Image and a real capture of this engine's window. Not covered here: a minimized
## game window (RUNTIME_WINDOW_MINIMIZED and force_foreground_game need a desktop window manager;
## the web canvas always draws), and the game's log file (web builds do not log to a file).

const Assert := preload("assert.gd")
const ResultExamples := preload("result_examples.gd")
const FakeNet := preload("fake_net.gd")
const CommandRegistry := preload("res://addons/godot_mcp_toolkit/transport/mcp_toolkit_command_registry.gd")
const GameContext := preload("res://addons/godot_mcp_toolkit/runtime/game_context.gd")
const GameRuntimeCommands := preload("res://addons/godot_mcp_toolkit/commands/runtime/runtime_commands.gd")
const ScreenshotCapture := preload("res://addons/godot_mcp_toolkit/commands/runtime/screenshot_capture.gd")
const ScreenshotResponse := preload("res://addons/godot_mcp_toolkit/commands/runtime/screenshot_response.gd")
const RuntimeServer := preload("res://addons/godot_mcp_toolkit/runtime/mcp_runtime_server.gd")
const Auth := preload("res://addons/godot_mcp_toolkit/security/auth.gd")

const SHOTS := "user://screenshots"
const TOKEN_PATH := "user://mcp_toolkit_tests/runtime_commands_token"
const PLAYER_SOURCE := "extends Node\n\nvar speed := 5\nvar _hidden := \"x\"\nconst LIMIT := 9\n"

var _tree: SceneTree = Engine.get_main_loop() as SceneTree
var _root: Node = null
var _context: GameContext = null
var _registry := CommandRegistry.new()
var _server: RuntimeServer = null
var _auth: Auth = null


func _init() -> void:
	_root = Node.new()
	_root.name = "Game"
	var player := Node2D.new()
	player.name = "Player"
	var script := GDScript.new()
	script.source_code = PLAYER_SOURCE
	script.reload()
	player.set_script(script)
	player.position = Vector2(1, 2)
	_root.add_child(player)
	_tree.root.add_child(_root)
	_tree.current_scene = _root
	_context = GameContext.new(_tree)
	_registry.configure("4.6.0", _context)
	GameRuntimeCommands.register(_registry, _context)


func cleanup() -> void:
	if _server != null:
		_server.stop()
		_server.free()
	if _auth != null:
		_auth.stop()
	_registry.clear()
	_tree.current_scene = null
	_root.free()
	for file_name: String in DirAccess.get_files_at(SHOTS):
		if file_name.begins_with("test_"):
			DirAccess.remove_absolute(SHOTS.path_join(file_name))


func test_context_follows_the_current_scene() -> void:
	Assert.eq(_context.scenes.scene_root(), _root, "the game's current scene")
	var other := Node.new()
	_tree.root.add_child(other)
	_tree.current_scene = other
	Assert.eq(_context.scenes.scene_root(), other, "a scene change is followed without re-registering")
	_tree.current_scene = _root
	other.free()


func test_every_result_carries_success() -> void:
	var calls := {
		"runtime.get_script_vars": {"node_path": "Player"},
		"debugger.get_log": {"limit": 1},
		"execute.code": {"code": "1 + 1"},
		"runtime.screenshot": {"image_detail": "low"},
	}
	for method: String in calls:
		var result := _call(method, calls[method])
		Assert.eq(result.get("success"), true, "%s says success" % method)


func test_get_script_vars() -> void:
	var all := _call("runtime.get_script_vars", ResultExamples.params("runtime", "runtime.get_script_vars", 0))
	ResultExamples.check("runtime", "runtime.get_script_vars", all, 0)
	var public := _call("runtime.get_script_vars", {"node_path": "Player", "visibility": "public"})
	Assert.eq((public["variables"] as Array).map(func(v: Dictionary) -> String: return v["name"]), ["speed"], "public")
	var private := _call("runtime.get_script_vars", {"node_path": "/root/Game/Player", "visibility": "private"})
	Assert.eq((private["variables"] as Array).map(func(v: Dictionary) -> String: return v["name"]), ["_hidden"], "private")
	var plain := _call("runtime.get_script_vars", {"node_path": "/root/Game"})
	Assert.eq([plain["script"], plain["count"]], [null, 0], "a node without a script has no variables")
	ResultExamples.check("runtime", "runtime.get_script_vars",
		_call("runtime.get_script_vars", ResultExamples.params("runtime", "runtime.get_script_vars", 1)), 1)
	var missing := _call("runtime.get_script_vars", {"node_path": "/root/Game/Enemy"})
	Assert.contains(missing["hint"], "Player", "the hint names what is there")
	var outside := Node.new()
	outside.name = "TmpAutoload"
	outside.set_script(_tree.root.get_node("Game/Player").get_script())
	_tree.root.add_child(outside)
	var autoload := _call("runtime.get_script_vars", {"node_path": "/root/TmpAutoload"})
	Assert.eq([autoload.get("node_path"), autoload.get("count")], ["/root/TmpAutoload", 2],
		"an absolute path outside the current scene (an autoload) resolves")
	outside.free()
	Assert.eq(_call("runtime.get_script_vars", {})["code"], "INVALID_PARAMS", "node_path required")
	Assert.eq(_call("runtime.get_script_vars", {"node_path": "Player", "visibility": "mine"})["code"],
		"INVALID_PARAMS", "bad visibility")


func test_execute_code_in_the_game() -> void:
	var result := _call("execute.code", ResultExamples.params("runtime", "execute.code", 0))
	ResultExamples.check("runtime", "execute.code", result, 0)
	var rooted := _call("execute.code", {"code": "get_node(\"Game/Player\").speed"})
	Assert.eq([rooted["value"], rooted["scope_path"]], [5, "/root"], "default scope is /root")
	Assert.eq(_call("execute.code", {"code": "(", "scope_path": "Player"})["code"], "PARSE_ERROR", "parse error")
	Assert.eq(_call("execute.code", {"code": "1", "scope_path": "/root/Nope"})["code"], "NOT_FOUND", "missing scope")


func test_debugger_get_log_reads_the_game_output() -> void:
	var marker := "game-log-%d" % Time.get_ticks_usec()
	print(marker, " spawned")
	push_error(marker + " failed")
	var read := _call("debugger.get_log", {"text_filter": marker})
	Assert.eq((read["entries"] as Array).map(func(e: Dictionary) -> String: return e["level"]), ["info", "error"],
		"a print and an error")
	Assert.eq([read["source"], read["returned"]], ["buffer", 2], "from the buffer")
	Assert.contains(read["output"], "kind=\"game_log\"", "wrapped as untrusted game log")
	var regex := _call("debugger.get_log", {"text_filter": marker + " (spawned|nothing)$", "is_regex": true, "limit": 5})
	Assert.eq(regex["returned"], 1, "regex")
	ResultExamples.check("runtime", "debugger.get_log", _call("debugger.get_log",
		ResultExamples.params("runtime", "debugger.get_log", 0)), 0)
	Assert.eq(_call("debugger.get_log", {"limit": -1})["code"], "INVALID_PARAMS", "bad limit")
	Assert.eq(_call("debugger.get_log", {"source": "screen"})["code"], "INVALID_PARAMS", "bad source")


func test_screenshot_sizes_on_a_generated_image() -> void:
	var image := Image.create(2000, 1000, false, Image.FORMAT_RGBA8)
	image.fill(Color.CORNFLOWER_BLUE)
	for case: Array in [["full", "2000x1000"], ["mid", "1024x512"], ["low", "512x256"]]:
		var reply := ScreenshotCapture.shaped(image, _chosen({"image_detail": case[0]}), PackedStringArray())
		Assert.eq([reply["returned"], reply["width"], reply["image_detail"]], [case[1], 2000, case[0]], case[0])
		var decoded := Image.new()
		decoded.load_png_from_buffer(Marshalls.base64_to_raw(reply["image_base64"]))
		Assert.eq("%dx%d" % [decoded.get_width(), decoded.get_height()], case[1], "the inline PNG is that size")
	var small := Image.create(300, 200, false, Image.FORMAT_RGBA8)
	var kept := ScreenshotCapture.shaped(small, _chosen({"image_detail": "low"}), PackedStringArray())
	Assert.eq(kept["returned"], "300x200", "never upscaled")
	Assert.eq(ScreenshotResponse.detail_dims(600, 1200, "low"), Vector2i(256, 512), "portrait: the long edge is capped")


func test_screenshot_disk_and_both() -> void:
	var image := Image.create(1600, 900, false, Image.FORMAT_RGBA8)
	var disk := ScreenshotCapture.shaped(image, _chosen({"image_response_mode": "disk", "image_detail": "low",
		"save_path": "user://screenshots/test_disk.png"}), PackedStringArray())
	Assert.is_false(disk.has("image_base64"), "disk is lean")
	Assert.eq(disk["returned"], "1600x900", "the saved file is full size whatever image_detail says")
	Assert.eq(disk["path"], ProjectSettings.globalize_path("user://screenshots/test_disk.png"), "absolute path")
	Assert.eq(disk["bytes"], FileAccess.get_file_as_bytes("user://screenshots/test_disk.png").size(), "bytes on disk")
	Assert.contains(disk["hint"], "Saved full-res", "the file is disclosed")
	var both := ScreenshotCapture.shaped(image, _chosen({"image_response_mode": "both", "image_detail": "mid",
		"save_path": "user://screenshots/test_both.png"}), PackedStringArray(["foregrounded_game"]))
	Assert.eq([both["returned"], both.has("image_base64"), both["remediation"]], ["1024x576", true, ["foregrounded_game"]],
		"inline shrunk, file full, remediation carried")
	Assert.is_true(FileAccess.file_exists("user://screenshots/test_both.png"), "written")
	var inline_only := ScreenshotCapture.shaped(image, _chosen({"save_path": "user://screenshots/test_inline.png"}),
		PackedStringArray())
	Assert.is_false(FileAccess.file_exists("user://screenshots/test_inline.png"), "inline validates but does not save")
	Assert.is_false(inline_only.has("path"), "no path inline")


func test_screenshot_of_the_game_window() -> void:
	var reply := _call("runtime.screenshot", ResultExamples.params("runtime", "runtime.screenshot", 0))
	ResultExamples.check("runtime", "runtime.screenshot", reply, 0)
	var size := _tree.root.get_texture().get_image().get_size()
	var expected := ScreenshotResponse.detail_dims(size.x, size.y, "low")
	Assert.eq(reply["returned"], "%dx%d" % [expected.x, expected.y], "this window, capped at 512")
	for params: Dictionary in [{"image_detail": "huge"}, {"image_response_mode": "file"},
			{"force_foreground_game": "yes"}]:
		Assert.eq(_call("runtime.screenshot", params)["code"], "INVALID_PARAMS", "refused: %s" % JSON.stringify(params))
	Assert.eq(_call("runtime.screenshot", {"save_path": "user://screenshots/a.jpg"})["code"], "UNSUPPORTED_FILE_TYPE",
		"a wrong extension")
	for path: String in ["res://shot.png", "user://other/shot.png", "user://screenshots/../x.png"]:
		Assert.eq(_call("runtime.screenshot", {"save_path": path})["code"], "PATH_DENIED", "refused: %s" % path)
	ResultExamples.check("runtime", "runtime.screenshot",
		_call("runtime.screenshot", ResultExamples.params("runtime", "runtime.screenshot", 1)), 1)


## A game started headless (from a headless editor) has no frame to capture: a clear refusal, not an
## empty image.
func test_screenshot_of_a_headless_game_is_refused() -> void:
	_context.runtime_host.headless = true
	var reply := _call("runtime.screenshot", {"image_response_mode": "both", "save_path": "user://screenshots/test_h.png"})
	_context.runtime_host.headless = false
	Assert.eq([reply["success"], reply["code"]], [false, "HEADLESS_UNSUPPORTED"], "refused")
	Assert.contains(reply["error"], "headless", "says why")
	Assert.contains(reply["hint"], "runtime_get_node_state", "says what works instead")
	Assert.is_false(FileAccess.file_exists("user://screenshots/test_h.png"), "nothing written")
	Assert.is_true(_call("runtime.screenshot", {"image_detail": "low"})["success"], "a game with a window still can")


func test_server_dispatches_runtime_domains_over_a_socket() -> void:
	var env := {"GODOT_MCP_RUNTIME_PORT": "47981", "GODOT_MCP_TOKEN_PATH": TOKEN_PATH}
	var getenv := func(name: String) -> String: return str(env.get(name, ""))
	_auth = Auth.new(getenv)
	_auth.start()
	var listener := FakeNet.FakeListener.new()
	_server = RuntimeServer.new(getenv, listener)
	_server.registry_root = ProjectSettings.globalize_path("user://mcp_toolkit_tests/runtime_commands_registry")
	Assert.is_true(_server.start(), "listening (fake)")
	var peer := listener.connect_peer()
	peer.feed_json({"auth": _auth.get_token()})
	peer.feed_json({"jsonrpc": "2.0", "id": 1, "method": "ping"})
	peer.feed_json({"jsonrpc": "2.0", "id": 2, "method": "echo", "params": {"a": 1}})
	peer.feed_json({"jsonrpc": "2.0", "id": 3, "method": "runtime.get_script_vars", "params": {"node_path": "Player"}})
	peer.feed_json({"jsonrpc": "2.0", "id": 4, "method": "execute.code", "params": {"code": "speed * 2",
		"scope_path": "/root/Game/Player"}})
	peer.feed_json({"jsonrpc": "2.0", "id": 5, "method": "scene.create"})
	_server.poll()
	var replies := {}
	for frame: Variant in peer.sent_json():
		if frame is Dictionary and (frame as Dictionary).has("id") and (frame as Dictionary).has("jsonrpc"):
			replies[frame["id"]] = frame
	Assert.eq(replies[1.0]["result"], {"success": true, "pong": true}, "ping")
	Assert.eq(replies[2.0]["result"], {"success": true, "echo": {"a": 1.0}}, "echo")
	Assert.eq(replies[3.0]["result"]["variables"][0]["value"], 5.0, "a runtime domain through the registry")
	Assert.eq(replies[4.0]["result"]["value"], 10.0, "execute.code in the game's current scene")
	Assert.eq(replies[5.0]["error"]["code"], -32601.0, "editor commands are not served in the game")
	var registry := _server.get_registry()
	for method: String in ["ping", "echo", "runtime.screenshot", "runtime.get_script_vars", "debugger.get_log",
			"execute.code"]:
		Assert.is_true(registry.has_command(method), "%s registered in the game" % method)


func _chosen(params: Dictionary) -> Dictionary:
	return ScreenshotResponse.read_params(params, PackedStringArray(ScreenshotCapture.ALLOWED_PREFIXES))


func _call(method: String, params: Dictionary) -> Dictionary:
	var handler: Callable = _registry.dispatch_info(method)["handler"]
	return handler.callv([params])
