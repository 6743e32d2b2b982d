extends RefCounted
## The scene_advanced domain (commands/scene/scene_advanced_commands.gd) through the command registry,
## over a runtime context and a throwaway scene: scene.diff of snapshots and of the live scene, and
## scene.instantiate (result, the instances in the tree, undo and redo, and the saved .tscn reloaded
## from disk still holding them as instances of the sub-scene).
##
## Not covered here (only an editor shows it): the instance's edit state (GEN_EDIT_STATE_INSTANCE,
## editor builds only), the Scene dock's instance icon, and Ctrl+Z in the editor's own history.

const Assert := preload("assert.gd")
const DomainFixture := preload("domain_fixture.gd")
const CommandRegistry := preload("res://addons/godot_mcp_toolkit/transport/mcp_toolkit_command_registry.gd")
const RuntimeContext := preload("res://addons/godot_mcp_toolkit/context/runtime_context.gd")
const CommandDomains := preload("res://addons/godot_mcp_toolkit/commands/command_domains.gd")

const DOMAIN := "scene_advanced"
const SCRATCH := "res://tmp_tests/scene_advanced"
const ENEMY := SCRATCH + "/enemy.tscn"

var _root: Node2D = null
var _fx: DomainFixture = null


## The scene the examples in tests/fixtures/toolkit/results/scene_advanced.json describe: Node2D
## "Main" > Player (Node2D) and Level (Node2D); the sub-scene res://tmp_tests/scene_advanced/enemy.tscn
## is Node2D "Enemy" > Body (Sprite2D).
func _init() -> void:
	DirAccess.make_dir_recursive_absolute(SCRATCH)
	var enemy := Node2D.new()
	enemy.name = "Enemy"
	var body := Sprite2D.new()
	body.name = "Body"
	enemy.add_child(body)
	body.owner = enemy
	var packed := PackedScene.new()
	packed.pack(enemy)
	ResourceSaver.save(packed, ENEMY)
	enemy.free()
	_root = Node2D.new()
	_root.name = "Main"
	for child_name: String in ["Player", "Level"]:
		var child := Node2D.new()
		child.name = child_name
		_root.add_child(child)
		child.owner = _root
	_fx = DomainFixture.new(CommandDomains.DOMAINS, DOMAIN, _root, SCRATCH)


func cleanup() -> void:
	_fx.cleanup()


## Frees what a test instanced under Level (without going through undo).
func _clear_level() -> void:
	var level := _root.get_node("Level")
	for child: Node in level.get_children():
		level.remove_child(child)
		child.free()


func test_commands_are_registered_with_the_reference_flags() -> void:
	Assert.is_true(_fx.registry.dispatch_info("scene.diff")["read_only"], "diff is a read")
	Assert.is_false(_fx.registry.dispatch_info("scene.instantiate")["read_only"], "instantiate mutates")
	for method: String in ["scene.diff", "scene.instantiate"]:
		Assert.is_false(_fx.registry.dispatch_info(method)["scene_independent"], "%s needs the scene" % method)


# --- scene.diff -------------------------------------------------------------------------------------

func test_diff_of_two_snapshots() -> void:
	var result := _fx.example("scene.diff")
	Assert.eq(result["summary"], {"added": 1, "removed": 1, "changed": 1}, "one of each")
	Assert.eq(result["changed"][0]["changes"]["class"], {"before": "Node2D", "after": "CharacterBody2D"}, "class change")


func test_diff_against_the_live_scene_sees_an_instance_and_a_moved_node() -> void:
	var before := _fx.invoke("scene.get_tree", {"include_properties": true})
	Assert.is_true(before["success"], "snapshot taken")
	_fx.invoke("scene.instantiate", {"parent_path": "Level", "scene_path": ENEMY})
	(_root.get_node("Player") as Node2D).position = Vector2(5, 6)
	var result := _fx.invoke("scene.diff", {"before": before})
	Assert.eq(result["compared_with"], "edited scene", "compared with the live scene")
	Assert.eq(result["added"], [{"path": "Level/Enemy", "class": "Node2D"}],
		"the instance root (its own nodes are not the scene's)")
	Assert.eq(result["removed"], [], "nothing removed")
	var changed: Dictionary = result["changed"][0]
	Assert.eq(changed["path"], "Player", "Player changed")
	Assert.is_true(changed["changes"]["properties"].has("position"), "its position: %s" % changed)
	Assert.eq(changed["changes"]["properties"]["position"]["before"], null, "was at its default")
	(_root.get_node("Player") as Node2D).position = Vector2.ZERO
	_clear_level()
	var same := _fx.invoke("scene.diff", {"before": JSON.parse_string(JSON.stringify(before))})
	Assert.is_true(same["identical"], "a snapshot that went through JSON still matches: %s" % same)


func test_diff_leaves_nodes_below_a_cut_uncompared() -> void:
	var cut := _fx.invoke("scene.get_tree", {"max_depth": 0})
	var result := _fx.invoke("scene.diff", {"before": cut})
	Assert.eq(result["summary"]["added"], 0, "nodes below the cut are not 'added'")
	Assert.eq(result["not_compared"], 2, "and are counted as not compared")
	Assert.contains(result["warnings"][0], "max_depth", "says how to compare them")


func test_diff_refuses_what_is_not_a_tree() -> void:
	_fx.example("scene.diff", 1)
	Assert.eq(_fx.invoke("scene.diff", {})["code"], "INVALID_PARAMS", "before is required")
	Assert.eq(_fx.invoke("scene.diff", {"before": {"tree": {"name": "A", "children": "x"}}})["code"], "INVALID_PARAMS",
		"children must be a list")
	var alone := RuntimeContext.new(null)
	var registry := CommandRegistry.new()
	CommandDomains.register_all(registry, alone)
	var handler: Callable = registry.dispatch_info("scene.diff")["handler"]
	Assert.eq(handler.call({"before": {"name": "Main"}})["code"], "NO_SCENE", "no live scene to compare with")


# --- scene.instantiate ------------------------------------------------------------------------------

func test_instantiate_once_with_undo_and_save() -> void:
	var result := _fx.example("scene.instantiate")
	var node := _root.get_node_or_null("Level/Boss") as Node2D
	Assert.is_true(node != null, "instanced under Level as Boss")
	Assert.eq(node.position, Vector2(40, 20), "transform applied")
	Assert.eq(node.owner, _root, "owned by the root, so it is saved")
	Assert.eq(node.scene_file_path, ENEMY, "an instance of the sub-scene")
	Assert.eq(node.get_node("Body").owner, node, "its own nodes stay the sub-scene's")
	Assert.eq(result["instances"][0]["properties_set"], ["position"], "what was set")
	Assert.is_true(_fx.context.runtime_scenes.modified_count > 0, "scene marked modified")
	var saved := SCRATCH + "/main.tscn"
	var packed := PackedScene.new()
	Assert.eq(packed.pack(_root), OK, "packs")
	Assert.eq(ResourceSaver.save(packed, saved), OK, "saves")
	var state := (ResourceLoader.load(saved, "", ResourceLoader.CACHE_MODE_IGNORE) as PackedScene).get_state()
	var found := false
	for i in state.get_node_count():
		if state.get_node_name(i) == &"Boss":
			found = true
			Assert.eq(state.get_node_instance(i).resource_path, ENEMY, "saved as an instance, not a copy")
	Assert.is_true(found, "Boss is in the saved file")
	Assert.is_true(_fx.context.edits.undo(), "undo")
	Assert.is_true(_root.get_node_or_null("Level/Boss") == null, "undo removes it")
	Assert.is_true(_fx.context.edits.redo(), "redo")
	Assert.eq(_root.get_node_or_null("Level/Boss"), node, "redo puts the same node back")
	_clear_level()


func test_instantiate_many_is_one_undo_step() -> void:
	var result := _fx.example("scene.instantiate", 1)
	Assert.eq(result["count"], 2, "two instances")
	Assert.eq((_root.get_node("Level/E2") as Node2D).position, Vector2(30, 0), "each its own position")
	Assert.is_true(_fx.context.edits.undo(), "undo")
	Assert.eq(_root.get_node("Level").get_child_count(), 0, "one undo removes both")
	_clear_level()


func test_instantiate_refusals_add_nothing() -> void:
	_fx.example("scene.instantiate", 2)
	var cases := [
		[{"parent_path": "Level"}, "INVALID_PARAMS"],
		[{"parent_path": "Level", "scene_path": SCRATCH + "/none.tscn"}, "NOT_FOUND"],
		[{"parent_path": "Level", "scene_path": SCRATCH + "/enemy.png"}, "UNSUPPORTED_FILE_TYPE"],
		[{"parent_path": "Nope", "scene_path": ENEMY}, "NOT_FOUND"],
		[{"parent_path": "Level", "scene_path": "res://../x.tscn"}, "PATH_DENIED"],
		[{"parent_path": "Level", "scene_path": ENEMY, "as_name": "a/b"}, "INVALID_PARAMS"],
		[{"parent_path": "Level", "scene_path": ENEMY, "transform": 3}, "INVALID_PARAMS"],
		[{"parent_path": "Level", "scene_path": ENEMY, "instances": [{"name": "A"}, 4]}, "INVALID_PARAMS"],
		[{"parent_path": "Level", "scene_path": ENEMY, "transform": {"position": "far"}}, "INVALID_VALUE"],
	]
	for case: Array in cases:
		var result := _fx.invoke("scene.instantiate", case[0])
		Assert.eq(result.get("code"), case[1], "%s -> %s (%s)" % [case[0], case[1], result.get("error")])
	Assert.eq(_root.get_node("Level").get_child_count(), 0, "nothing was added by any refusal")
