extends RefCounted
## The running game's signal commands (commands/signal/runtime_signal_commands.gd) registered the way the
## in-game server registers them (runtime/runtime_domains.gd) over a runtime context whose scene is
## a throwaway "Game" tree, called through the registry's dispatch info. Asserted on what the
## engine did: an emitted signal reaches the connected method with converted arguments, and
## connections the assistant made are told apart from the game's own. Nothing here is undoable
## (the game is not a saved scene), so no undo is asserted. Not covered here: a game started by
## the editor (the in-game server's socket path is test_runtime_server.gd's).

const Assert := preload("assert.gd")
const DomainFixture := preload("domain_fixture.gd")
const ResultExamples := preload("result_examples.gd")
const RuntimeDomains := preload("res://addons/godot_mcp_toolkit/runtime/runtime_domains.gd")
const ToolContext := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_tool_context.gd")

const GAME_SOURCE := "extends Node\n\nsignal scored(points: int)\nsignal moved(to: Vector2)\nsignal hit\n" \
	+ "signal touched(by: Node)\n"
const PLAYER_SOURCE := "extends Node2D\n\nvar got: Array = []\n\n" \
	+ "func on_points(points: int) -> void:\n\tgot.append(points)\n\n" \
	+ "func on_hit() -> void:\n\tgot.append(\"hit\")\n\n" \
	+ "func on_moved(to: Vector2) -> void:\n\tgot.append(to)\n\n" \
	+ "func needs_two(a: int, b: int) -> void:\n\tgot.append(a + b)\n\n" \
	+ "func on_touched(by: Node) -> void:\n\tgot.append(by)\n"

var _root: Node = null
var _player: Node2D = null
var _fx: DomainFixture = null


func _init() -> void:
	_root = _scripted(Node.new(), GAME_SOURCE) as Node
	_root.name = "Game"
	_player = _scripted(Node2D.new(), PLAYER_SOURCE) as Node2D
	_player.name = "Player"
	_root.add_child(_player)
	_fx = DomainFixture.new(RuntimeDomains.DOMAINS, "runtime_signal", _root, "", "4.6.0")
	# The game's own connection, made by its code rather than through the tool.
	_root.connect("hit", Callable(_player, "on_hit"))


func cleanup() -> void:
	_fx.registry.clear()
	_fx.cleanup()


func test_the_game_serves_the_signal_commands() -> void:
	for method: String in ["signal.list", "signal.connect", "signal.disconnect", "signal.emit"]:
		Assert.is_true(_fx.registry.is_dispatchable(method), "%s registered through runtime_domains" % method)
	Assert.is_true(_fx.registry.dispatch_info("signal.list")["read_only"], "list is a read")
	Assert.is_false(_fx.registry.dispatch_info("signal.emit")["read_only"], "emit is not")


func test_connect_then_emit_reaches_the_method() -> void:
	var made := _fx.invoke("signal.connect", ResultExamples.params("runtime_signal", "signal.connect", 0))
	ResultExamples.check("runtime_signal", "signal.connect", made, 0)
	Assert.is_true(_root.is_connected("scored", Callable(_player, "on_points")), "connected in the engine")
	var emitted := _fx.invoke("signal.emit", ResultExamples.params("runtime_signal", "signal.emit", 0))
	ResultExamples.check("runtime_signal", "signal.emit", emitted, 0)
	Assert.eq(_player.got, [3], "the connected method ran with the argument")
	Assert.eq(typeof(_player.got[0]), TYPE_INT, "JSON 3.0 became the int the signal declares")
	var again := _fx.invoke("signal.connect", ResultExamples.params("runtime_signal", "signal.connect", 0))
	Assert.eq([again["status"], again["by_assistant"]], ["returned", true], "connecting twice is a no-op")
	Assert.eq(_root.get_signal_connection_list("scored").size(), 1, "still one connection")


func test_emit_converts_type_tags() -> void:
	_fx.invoke("signal.connect", {"node_path": ".", "signal_name": "moved", "target_path": "Player",
		"method_name": "on_moved"})
	var emitted := _fx.invoke("signal.emit", {"node_path": "/root/Game", "signal_name": "moved",
		"args": [{"type": "Vector2", "x": 1, "y": 2.5}]})
	Assert.is_true(emitted["success"], "emitted by the game's absolute path")
	Assert.eq(_player.got, [Vector2(1, 2.5)], "a Vector2 arrived")
	Assert.eq(emitted["receivers"], 1, "one receiver")
	ResultExamples.check("runtime_signal", "signal.emit", _fx.invoke("signal.emit",
		ResultExamples.params("runtime_signal", "signal.emit", 1)), 1)
	Assert.eq(_player.got.size(), 1, "a refused emit ran nothing")
	_fx.invoke("signal.connect", {"node_path": ".", "signal_name": "touched", "target_path": "Player",
		"method_name": "on_touched"})
	_fx.invoke("signal.emit", {"node_path": ".", "signal_name": "touched", "args": ["Player"]})
	Assert.eq(_player.got.back(), _player, "an object argument given by its node path arrives as the node")
	var nobody := _fx.invoke("signal.emit", {"node_path": ".", "signal_name": "touched", "args": ["Ghost"]})
	Assert.eq(nobody["code"], "NOT_FOUND", "a path to no node is refused")


func test_list_tells_the_assistants_connections_apart() -> void:
	_fx.invoke("signal.connect", ResultExamples.params("runtime_signal", "signal.connect", 0))
	var listed := _fx.invoke("signal.list", ResultExamples.params("runtime_signal", "signal.list", 0))
	ResultExamples.check("runtime_signal", "signal.list", listed, 0)
	var by_name := {}
	for entry: Dictionary in listed["signals"]:
		by_name[entry["name"]] = entry
	Assert.eq(by_name["hit"]["connections"][0]["by_assistant"], false, "the game's own connection")
	Assert.eq(by_name["scored"]["connections"][0]["by_assistant"], true, "the one made through the tool")
	Assert.eq(by_name["scored"]["args"], [{"name": "points", "type": "int"}], "declared args with types")
	Assert.eq(by_name["tree_entered"]["source"], "Node", "class signals are listed too, under the class")
	Assert.eq(by_name["hit"]["connections"][0]["method_name"], "on_hit", "with the method")
	Assert.eq(by_name["hit"]["connection_count"], 1, "and a count")
	var plain := _fx.invoke("signal.list", {"node_path": "Player"})
	Assert.is_false((plain["signals"][0] as Dictionary).has("connections"), "connections only when asked")
	Assert.eq(listed["count"], listed["signals"].size(), "count matches")
	# The game drops the assistant's connection; a later identical one of its own is its own. (Two
	# identical connections are indistinguishable to the engine, so a drop and a remake with no
	# call in between would still read as the assistant's.)
	_root.disconnect("scored", Callable(_player, "on_points"))
	Assert.eq(_fx.invoke("signal.list", {"node_path": ".", "include_connections": true})["success"], true, "listed")
	_root.connect("scored", Callable(_player, "on_points"))
	var relisted := _fx.invoke("signal.list", {"node_path": ".", "include_connections": true})
	for entry: Dictionary in relisted["signals"]:
		if entry["name"] == "scored":
			Assert.eq(entry["connections"][0]["by_assistant"], false, "now the game's own")


func test_disconnect_removes_only_what_was_asked() -> void:
	_fx.invoke("signal.connect", ResultExamples.params("runtime_signal", "signal.connect", 0))
	var removed := _fx.invoke("signal.disconnect", ResultExamples.params("runtime_signal", "signal.disconnect", 0))
	ResultExamples.check("runtime_signal", "signal.disconnect", removed, 0)
	Assert.is_false(_root.is_connected("scored", Callable(_player, "on_points")), "gone from the engine")
	_fx.invoke("signal.emit", {"node_path": ".", "signal_name": "scored", "args": [1]})
	Assert.eq(_player.got, [], "nothing reaches the method any more")
	ResultExamples.check("runtime_signal", "signal.disconnect",
		_fx.invoke("signal.disconnect", ResultExamples.params("runtime_signal", "signal.disconnect", 1)), 1)
	var theirs := _fx.invoke("signal.disconnect", {"source_path": ".", "signal_name": "hit", "target_path": "Player",
		"method_name": "on_hit"})
	Assert.eq([theirs["disconnected"], theirs["by_assistant"]], [true, false], "the game's own, by source_path")
	Assert.contains(theirs["warning"], "made by the game", "and it says so")


func test_bad_input_changes_nothing() -> void:
	var cases := [
		["signal.connect", {"signal_name": "scored", "target_path": "Player", "method_name": "on_points"},
			"INVALID_PARAMS"],
		["signal.connect", {"node_path": "Nope", "signal_name": "scored", "target_path": "Player",
			"method_name": "on_points"}, "NOT_FOUND"],
		["signal.connect", {"node_path": ".", "signal_name": "nope", "target_path": "Player",
			"method_name": "on_points"}, "NOT_FOUND"],
		["signal.connect", {"node_path": ".", "signal_name": "scored", "target_path": "Player",
			"method_name": "nope"}, "NOT_FOUND"],
		["signal.emit", {"node_path": ".", "signal_name": "scored"}, "INVALID_PARAMS"],
		["signal.emit", {"node_path": ".", "signal_name": "scored", "args": ["three"]}, "INVALID_PARAMS"],
		["signal.emit", {"node_path": ".", "signal_name": "scored", "args": [1.5]}, "INVALID_PARAMS"],
		["signal.emit", {"node_path": ".", "signal_name": "moved", "args": [{"type": "Vector9"}]}, "INVALID_PARAMS"],
		["signal.emit", {"node_path": ".", "args": []}, "INVALID_PARAMS"],
		["signal.list", {"node_path": "Player", "include_connections": "yes"}, "INVALID_PARAMS"],
		["signal.list", {"node_path": "Player/Gun"}, "NOT_FOUND"],
	]
	for case: Array in cases:
		var reply := _fx.invoke(case[0], case[1])
		Assert.eq(reply.get("code"), case[2], "%s %s" % [case[0], JSON.stringify(case[1])])
		Assert.is_false(str(reply.get("error", "")).is_empty(), "a message says what was wrong")
	Assert.eq(_root.get_signal_connection_list("scored").size(), 0, "no connection made")
	Assert.eq(_player.got, [], "nothing ran")
	var unknown_method := _fx.invoke("signal.connect", {"node_path": ".", "signal_name": "scored",
		"target_path": "Player",
		"method_name": "nope"})
	Assert.contains(unknown_method["hint"], "on_points", "the hint lists the script's methods")


func test_connect_warns_when_the_method_needs_more_arguments() -> void:
	var made := _fx.invoke("signal.connect", {"node_path": ".", "signal_name": "scored", "target_path": "Player",
		"method_name": "needs_two"})
	Assert.eq(made["status"], "created", "Godot accepts it")
	Assert.contains(made.get("warning", ""), "takes 2 argument(s)", "but every emission would fail, and it says so")


static func _scripted(node: Object, source: String) -> Object:
	var script := GDScript.new()
	script.source_code = source
	script.reload()
	node.set_script(script)
	return node
