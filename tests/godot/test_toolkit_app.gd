extends RefCounted
## core/toolkit_app.gd, the composition the editor plugin and an engine host both run: over the
## runtime context and a fake listener it writes the token, listens on the pinned port, publishes
## through the given publisher, serves authenticated JSON-RPC (pipeline and domain commands), tells
## bridges when play stops, and takes everything down again in reverse. Also the runtime context's
## signals a host reacts to.

const Assert := preload("assert.gd")
const FakeNet := preload("fake_net.gd")
const ToolkitApp := preload("res://addons/godot_mcp_toolkit/core/toolkit_app.gd")
const RuntimeContext := preload("res://addons/godot_mcp_toolkit/context/runtime_context.gd")

const PORT := 47801
## Only its existence matters here (open and play check it); the root is built in code.
const SCENE := "res://tests/godot/e2e/project/scenes/game.tscn"


## Stands in for registry_client.gd: records what the app published.
class RecordingPublisher:
	extends RefCounted
	var calls: Array[Array] = []

	func register(project_path: String, port: int, token_path: String, godot_version: String,
			lsp_host: String, lsp_port: int) -> void:
		calls.append(["register", project_path, port, token_path, godot_version, lsp_host, lsp_port])

	func update_lsp_endpoint(host: String, port: int) -> void:
		calls.append(["update_lsp_endpoint", host, port])

	func has_runtime() -> bool:
		return false

	func clear_runtime() -> void:
		calls.append(["clear_runtime"])

	func unregister() -> void:
		calls.append(["unregister"])

	func names() -> Array:
		return calls.map(func(call: Array) -> String: return call[0])


var _app: ToolkitApp = null
var _root: Node = null


func cleanup() -> void:
	if _app != null:
		_app.shutdown(false)
		_app.free()
		_app = null
	if _root != null:
		_root.free()
		_root = null


static func _scene() -> Node:
	var root := Node2D.new()
	root.name = "Main"
	var child := Node2D.new()
	child.name = "Player"
	root.add_child(child)
	child.owner = root
	return root


func _env(name: String) -> String:
	return str(PORT) if name == "GODOT_MCP_EDITOR_PORT" else ""


func _start(context: RuntimeContext) -> Dictionary:
	var listener := FakeNet.FakeListener.new()
	var publisher := RecordingPublisher.new()
	_app = ToolkitApp.new(context, {"getenv": _env, "listener": listener, "publisher": publisher})
	_app.start()
	return {"listener": listener, "publisher": publisher}


func _call(peer: FakeNet.FakePeer, id: int, method: String, params: Dictionary = {}) -> Dictionary:
	peer.feed_json({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	_app.server().poll()
	for text: String in peer.sent:
		var frame: Variant = JSON.parse_string(text)
		if frame is Dictionary and frame.get("id") is float and int(frame["id"]) == id and frame.has("result"):
			return frame["result"]
	return {}


func test_start_serve_and_shut_down() -> void:
	_root = _scene()
	var parts := _start(RuntimeContext.new(_root))
	var listener: FakeNet.FakeListener = parts["listener"]
	var publisher: RecordingPublisher = parts["publisher"]
	Assert.eq(listener.port, PORT, "listens on the pinned editor port")
	Assert.eq(publisher.names(), ["register"], "published once, on bind")
	Assert.eq(publisher.calls[0][2], PORT, "the bound port is published")
	var token_path: String = publisher.calls[0][3]
	Assert.is_true(token_path.ends_with("/mcp_token") and token_path.is_absolute_path(),
		"with the token file's absolute path: %s" % token_path)
	var token := FileAccess.get_file_as_string(token_path)
	Assert.eq(token.length(), 64, "a fresh 256-bit token is written before anyone can connect")
	Assert.eq([publisher.calls[0][5], publisher.calls[0][6]], ["127.0.0.1", 6005],
		"no editor settings: the language server's default endpoint")

	var peer := listener.connect_peer()
	peer.feed_json({"auth": token})
	_app.server().poll()
	var ack: Dictionary = peer.sent_json()[0]
	Assert.is_true(ack.get("authed", false), "the token authenticates")
	Assert.eq(_call(peer, 1, "echo", {"v": 1}), {"success": true, "echo": {"v": 1}}, "pipeline command served")
	var tree := _call(peer, 2, "scene.get_tree", {})
	Assert.eq(tree.get("success"), true, "a domain command runs over the context: %s" % [tree])
	Assert.eq(_call(peer, 3, "extensions.list").get("success"), true, "the extension loader registered its commands")

	_app.shutdown(false)
	Assert.eq(publisher.names(), ["register", "unregister"], "shutdown withdraws the registry entry")
	Assert.is_false(listener.is_listening(), "and stops listening")
	Assert.is_false(FileAccess.file_exists(token_path), "and removes the token it wrote")
	_app.free()
	_app = null


func test_play_stop_tells_bridges_and_withdraws_the_game() -> void:
	_root = _scene()
	var context := RuntimeContext.new(_root)
	var parts := _start(context)
	var listener: FakeNet.FakeListener = parts["listener"]
	var publisher: RecordingPublisher = parts["publisher"]
	var peer := listener.connect_peer()
	peer.feed_json({"auth": FileAccess.get_file_as_string(publisher.calls[0][3])})
	_app.server().poll()
	Assert.eq(context.game.play_scene(SCENE), OK, "played")
	_app._process(0.0)
	context.game.stop_playing()
	_app._process(0.0)
	Assert.is_true(peer.sent.any(func(text: String) -> bool: return "game_stopped" in text),
		"game_stopped pushed to the bridge")
	Assert.eq(publisher.names().count("clear_runtime"), 1, "the game's runtime entry withdrawn once")


func test_runtime_context_signals_open_play_and_stop() -> void:
	var context := RuntimeContext.new()
	var seen: Array[String] = []
	context.runtime_scenes.scene_opened.connect(func(path: String) -> void: seen.append("open " + path))
	context.runtime_game.play_started.connect(func(path: String) -> void: seen.append("play " + path))
	context.runtime_game.play_stopped.connect(func() -> void: seen.append("stop"))
	Assert.eq(context.scenes.open_scene("res://missing.tscn"), ERR_FILE_NOT_FOUND, "a missing scene is refused")
	Assert.eq(context.scenes.open_scene(SCENE), OK, "opened")
	context.game.stop_playing()
	Assert.eq(context.game.play_scene(SCENE), OK, "played")
	context.game.stop_playing()
	context.game.stop_playing()
	Assert.eq(seen, ["open " + SCENE, "play " + SCENE, "stop"],
		"one signal per change; a refused open and a stop with nothing playing say nothing")
