extends RefCounted
## execute.code in the editor (commands/runtime/execute_commands.gd) under the runtime context: one
## expression evaluated on a node of a throwaway scene (self = the scope node, `scene` = the root),
## values JSON-safe, parse and run failures with the engine's message. Not covered here: an
## editor-only effect of the code (it runs on the edited scene's nodes exactly as here).

const Assert := preload("assert.gd")
const DomainFixture := preload("domain_fixture.gd")
const ResultExamples := preload("result_examples.gd")
const DOMAIN_PATH := "res://addons/godot_mcp_toolkit/commands/runtime/execute_commands.gd"

var _root: Node2D = null
var _fx: DomainFixture = null


func _init() -> void:
	_root = Node2D.new()
	_root.name = "Main"
	var player := Node2D.new()
	player.name = "Player"
	player.position = Vector2(3, 4)
	_root.add_child(player)
	var domains: Array[String] = [DOMAIN_PATH]
	_fx = DomainFixture.new(domains, "execute", _root, "", "4.6.0")


func cleanup() -> void:
	_fx.cleanup()


## Runs execute.code with `params`.
func _call(params: Dictionary) -> Dictionary:
	return _fx.invoke("execute.code", params)


func test_lane() -> void:
	var info := _fx.registry.dispatch_info("execute.code")
	Assert.eq([info["read_only"], info["scene_independent"], info["exclusive"]], [false, false, false],
		"a scene mutation, as the reference")


func test_expression_on_the_root_and_on_a_scope() -> void:
	var read := _call(ResultExamples.params("execute", "execute.code", 0))
	ResultExamples.check("execute", "execute.code", read, 0)
	var scoped := _call({"code": "position.x + scene.get_child_count()", "scope_path": "Player"})
	Assert.eq([scoped["value"], scoped["value_type"], scoped["scope_path"]], [4.0, "float", "Player"], "self is Player")
	var changed := _call({"code": "get_node(\"Player\").set(\"position\", Vector2(7, 8))"})
	Assert.is_true(changed["success"], "a call that changes the scene runs")
	Assert.eq((_root.get_node("Player") as Node2D).position, Vector2(7, 8), "and the change took")
	Assert.contains(changed["hint"], "not in the undo history", "said honestly")


func test_failures() -> void:
	ResultExamples.check("execute", "execute.code", _call(ResultExamples.params("execute", "execute.code", 1)), 1)
	var failed := _call({"code": "get_node(\"Player\").no_such_method()"})
	Assert.eq(failed["code"], "EXECUTE_FAILED", "a failing call")
	Assert.contains(failed["error"], "no_such_method", "names what failed")
	Assert.eq(_call({"code": "1", "scope_path": "Nope"})["code"], "NOT_FOUND", "missing scope")
	Assert.eq(_call({"code": ""})["code"], "INVALID_PARAMS", "empty code")
	Assert.eq(_call({})["code"], "INVALID_PARAMS", "no code")
	Assert.eq(_call({"code": "1", "scope_path": 5})["code"], "INVALID_PARAMS", "scope_path not a string")
	_fx.context.runtime_scenes.set_scene_root(null)
	Assert.eq(_call({"code": "1"})["code"], "NO_SCENE", "no scene open")

