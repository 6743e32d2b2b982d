extends RefCounted
## commands/runtime/runtime_node_commands.gd (the running game's runtime.get_node_state and
## runtime.set_property) through a command registry filled from runtime/runtime_domains.gd, with a
## runtime context over a scene added to the tree as a game's current scene would be.
##
## Not covered here: the in-game server's socket and the bridge's runtime channel (the transport
## tests cover those), and a real game's main loop changing scenes under the context.

const Assert := preload("assert.gd")
const DomainFixture := preload("domain_fixture.gd")
const ResultExamples := preload("result_examples.gd")
const RuntimeDomains := preload("res://addons/godot_mcp_toolkit/runtime/runtime_domains.gd")

var _root: Node2D = null
var _fx: DomainFixture = null


func _init() -> void:
	_root = Node2D.new()
	_root.name = "Main"
	var player := Node2D.new()
	player.name = "Player"
	player.position = Vector2(10, 20)
	_root.add_child(player)
	_fx = DomainFixture.new(RuntimeDomains.DOMAINS, "runtime_node", _root)


func cleanup() -> void:
	_fx.cleanup()


func test_registered_from_runtime_domains() -> void:
	Assert.is_true(_fx.registry.dispatch_info("runtime.get_node_state")["read_only"], "get_node_state is a read")
	Assert.is_false(_fx.registry.dispatch_info("runtime.set_property")["read_only"], "set_property mutates")


func test_get_node_state() -> void:
	var result := _fx.invoke("runtime.get_node_state", ResultExamples.params("runtime_node", "runtime.get_node_state"))
	ResultExamples.check("runtime_node", "runtime.get_node_state", result)
	Assert.eq(result["properties"]["position"], {"type": "Vector2", "x": 10.0, "y": 20.0}, "current position")
	Assert.is_false(result["properties"].has("process_mode"), "Node's own bookkeeping left out")
	var missing := _fx.invoke("runtime.get_node_state", ResultExamples.params("runtime_node", "runtime.get_node_state",
		1))
	ResultExamples.check("runtime_node", "runtime.get_node_state", missing, 1)
	Assert.eq(_fx.invoke("runtime.get_node_state", {"node_path": "Player"})["node_path"], "/root/Main/Player",
		"a path relative to the current scene works and comes back absolute")
	Assert.eq(_fx.invoke("runtime.get_node_state", {})["code"], "INVALID_PARAMS", "node_path required")


func test_get_node_state_reaches_nodes_outside_the_scene() -> void:
	var tree_root := (Engine.get_main_loop() as SceneTree).root
	var autoload := Node.new()
	autoload.name = "GameState"
	tree_root.add_child(autoload)
	var result := _fx.invoke("runtime.get_node_state", {"node_path": "/root/GameState"})
	tree_root.remove_child(autoload)
	autoload.free()
	Assert.eq([result["success"], result["class"]], [true, "Node"], "an autoload-like node by absolute path")


func test_set_property() -> void:
	var player := _root.get_node("Player") as Node2D
	var result := _fx.invoke("runtime.set_property", ResultExamples.params("runtime_node", "runtime.set_property"))
	ResultExamples.check("runtime_node", "runtime.set_property", result)
	Assert.eq(player.position, Vector2(1, 2), "written")
	var dropped := _fx.invoke("runtime.set_property", ResultExamples.params("runtime_node", "runtime.set_property", 1))
	ResultExamples.check("runtime_node", "runtime.set_property", dropped, 1)
	Assert.eq(player.position, Vector2(1, 2), "a refused write leaves the value")
	Assert.eq(_fx.invoke("runtime.set_property", {"node_path": "Player", "property": "nope", "value": 1})["code"],
		"PROPERTY_NOT_FOUND", "unknown property")
	Assert.eq(_fx.invoke("runtime.set_property", {"node_path": "Player", "property": "position"})["code"],
		"INVALID_PARAMS", "value required")
	var stand_in := {"omitted": true, "json_bytes": 20000, "variant": "Vector2"}
	var kept := _fx.invoke("runtime.set_property", {"node_path": "Player", "property": "position", "value": stand_in})
	Assert.eq([kept["success"], kept["kept"], player.position], [true, ["position"], Vector2(1, 2)],
		"a value shown by its size, given back, is kept as it is (%s)" % kept)


func test_absolute_paths_work_without_the_context_scene() -> void:
	_fx.context.runtime_scenes.set_scene_root(null)
	var result := _fx.invoke("runtime.get_node_state", {"node_path": "/root/Main/Player"})
	Assert.eq([result["success"], result["name"]], [true, "Player"], "found through the tree")
	var relative := _fx.invoke("runtime.get_node_state", {"node_path": "Player"})
	var current := (Engine.get_main_loop() as SceneTree).current_scene
	if current == null:
		Assert.eq(relative["code"], "NOT_FOUND", "no scene to be relative to")
		Assert.contains(relative["hint"], "/root/", "the hint says to use an absolute path")
