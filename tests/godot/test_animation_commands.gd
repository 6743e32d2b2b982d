extends RefCounted
## commands/animation/animation_commands.gd (and commands/animation/animation_tree.gd) through the command
## registry with a runtime context over a throwaway scene: Main with a Sprite2D, an AnimationPlayer
## whose default library has 'walk', and an AnimationTree driving that player. Keys and tree edits,
## their undo/redo, refusals that change nothing, and a save/reload of the scene showing the keys and
## the tree are what a user gets.
## Not covered here (editor only): the Animation panel and AnimationTree editor redrawing, and the
## editor's per-scene undo history (EditorUndoRedoManager) the actions go into there.

const Assert := preload("assert.gd")
const ResultExamples := preload("result_examples.gd")
const CommandDomains := preload("res://addons/godot_mcp_toolkit/commands/command_domains.gd")
const DomainFixture := preload("domain_fixture.gd")

const DOMAIN := "res://addons/godot_mcp_toolkit/commands/animation/animation_commands.gd"
const DIR := "res://tmp_tests/animation"

var _root := Node2D.new()
var _player := AnimationPlayer.new()
var _tree := AnimationTree.new()
var _walk := Animation.new()
var _fx: DomainFixture = null


func _init() -> void:
	DirAccess.make_dir_recursive_absolute(DIR)
	_root.name = "Main"
	var sprite := Sprite2D.new()
	sprite.name = "Sprite"
	_player.name = "Player"
	_tree.name = "Tree"
	for node: Node in [sprite, _player, _tree]:
		_root.add_child(node)
		node.owner = _root
	_walk.length = 1.0
	var library := AnimationLibrary.new()
	library.add_animation(&"walk", _walk)
	_player.add_animation_library(&"", library)
	_tree.anim_player = NodePath("../Player")
	var domains: Array[String] = [DOMAIN]
	_fx = DomainFixture.new(domains, "animation", _root, DIR, "4.6.0")


func cleanup() -> void:
	_fx.cleanup()


func test_registered_with_the_reference_lanes() -> void:
	Assert.is_true(DOMAIN in CommandDomains.DOMAINS, "listed in command_domains.gd")
	for method: String in ["animation.get_keys", "animationtree.list"]:
		Assert.is_true(_fx.registry.dispatch_info(method)["read_only"], "%s reads" % method)
	for method: String in ["animation.keyframe", "animationtree.edit"]:
		Assert.is_false(_fx.registry.dispatch_info(method)["read_only"], "%s mutates" % method)
	for method: String in ["animation.keyframe", "animation.get_keys", "animationtree.edit", "animationtree.list"]:
		Assert.is_false(_fx.registry.dispatch_info(method)["scene_independent"], "%s works on the scene" % method)


func test_add_replace_remove_keys_with_undo() -> void:
	var added := _fx.invoke("animation.keyframe", ResultExamples.params("animation", "animation.keyframe", 0))
	ResultExamples.check("animation", "animation.keyframe", added, 0)
	Assert.eq(_walk.get_track_count(), 1, "a track was made")
	Assert.eq(_walk.track_get_key_value(0, 0), Vector2(10, 20), "with the key")
	Assert.eq(_fx.context.runtime_scenes.modified_count, 1, "scene marked modified")
	var replaced := _fx.invoke("animation.keyframe", {"action": "add", "player_path": "Player", "animation_name": "walk",
		"track_path": "Sprite:position", "time": 0.5, "value": {"type": "Vector2", "x": 1, "y": 2}})
	Assert.eq([replaced["status"], replaced["key_count"]], ["replaced", 1], "same time replaces")
	Assert.is_true(_fx.context.edits.undo(), "undo the replace")
	Assert.eq(_walk.track_get_key_value(0, 0), Vector2(10, 20), "old value back")
	var longer := _fx.invoke("animation.keyframe", {"action": "add", "player_path": "Player", "animation_name": "walk",
		"track_path": "Sprite:position", "time": 2, "value": {"type": "Vector2", "x": 0, "y": 0}})
	Assert.eq([longer["length_extended_to"], _walk.length], [2.0, 2.0], "the animation grows to the key")
	Assert.is_true(_fx.context.edits.undo(), "undo the late key")
	Assert.eq([_walk.length, _walk.track_get_key_count(0)], [1.0, 1], "length and keys restored")
	ResultExamples.check("animation", "animation.keyframe",
		_fx.invoke("animation.keyframe", ResultExamples.params("animation", "animation.keyframe", 1)), 1)
	Assert.eq(_walk.track_get_key_count(0), 0, "removed")
	Assert.is_true(_fx.context.edits.undo(), "undo the remove")
	Assert.eq(_walk.track_get_key_value(0, 0), Vector2(10, 20), "key back")
	Assert.is_true(_fx.context.edits.undo(), "undo the first add")
	Assert.eq(_walk.get_track_count(), 0, "the track it made is gone too")
	Assert.is_true(_fx.context.edits.redo(), "redo")
	Assert.eq(_walk.track_get_key_value(0, 0), Vector2(10, 20), "re-applied")
	Assert.is_true(_fx.context.edits.undo(), "and back")


func test_refusals_change_nothing() -> void:
	ResultExamples.check("animation", "animation.keyframe",
		_fx.invoke("animation.keyframe", ResultExamples.params("animation", "animation.keyframe", 2)), 2)
	var base := {"action": "add", "player_path": "Player", "animation_name": "walk", "track_path": "Sprite:position",
		"time": 0, "value": {"type": "Vector2", "x": 1, "y": 1}}
	var cases := [
		[{"action": "move"}, "INVALID_PARAMS"], [{"time": -1}, "INVALID_PARAMS"], [{"time": "soon"}, "INVALID_PARAMS"],
		[{"track_type": "bezier"}, "INVALID_PARAMS"], [{"value": 3}, "INVALID_VALUE"],
		[{"value": {"type": "Vector2", "x": "a"}}, "INVALID_VALUE"], [{"track_path": "Sprite:nope"}, "PROPERTY_NOT_FOUND"],
		[{"track_path": "Sprite:position:z"}, "PROPERTY_NOT_FOUND"], [{"track_path": "Sprite"}, "INVALID_PARAMS"],
		[{"track_path": "Ghost:position"}, "NOT_FOUND"], [{"player_path": "Sprite"}, "INVALID_CLASS"],
		[{"player_path": "Nope"}, "NOT_FOUND"], [{"action": "remove"}, "NOT_FOUND"],
	]
	for case: Array in cases:
		var params := base.duplicate()
		params.merge(case[0], true)
		var refused := _fx.invoke("animation.keyframe", params)
		Assert.eq(refused["code"], case[1], JSON.stringify(case[0]))
		Assert.is_false(str(refused.get("hint", "")).is_empty(), "%s has a hint" % JSON.stringify(case[0]))
	var misspelt := base.duplicate()
	misspelt["track_path"] = "Sprite:postion"
	Assert.contains(_fx.invoke("animation.keyframe", misspelt)["hint"], "position", "a misspelt property: the close one")
	var typed := base.duplicate()
	typed["value"] = 3
	Assert.contains(_fx.invoke("animation.keyframe", typed)["hint"], "\"type\": \"Vector2\"",
		"a value of the wrong type: the form it takes")
	var no_value := base.duplicate()
	no_value.erase("value")
	Assert.eq(_fx.invoke("animation.keyframe", no_value)["code"], "INVALID_PARAMS", "add needs a value")
	Assert.eq(_walk.get_track_count(), 0, "nothing written")
	Assert.eq(_fx.context.runtime_scenes.modified_count, 0, "nothing marked")


func test_get_keys_and_the_saved_scene_keeps_them() -> void:
	for key: Array in [[0, 1], [1, 0]]:
		var result := _fx.invoke("animation.keyframe", {"action": "add", "player_path": "Player", "animation_name": "walk",
			"track_path": "Sprite:modulate:a", "time": key[0], "value": key[1]})
		Assert.is_true(result["success"], "keyed %s" % str(key))
	ResultExamples.check("animation", "animation.get_keys",
		_fx.invoke("animation.get_keys", ResultExamples.params("animation", "animation.get_keys", 0)), 0)
	Assert.eq(_fx.invoke("animation.get_keys", {"player_path": "Player", "animation_name": "walk",
		"track_path": "Sprite:scale"})["code"], "NOT_FOUND", "no such track")
	var path := DIR.path_join("main.tscn")
	var packed := PackedScene.new()
	Assert.eq(packed.pack(_root), OK, "packs")
	Assert.eq(ResourceSaver.save(packed, path), OK, "saves")
	var loaded := (ResourceLoader.load(path, "", ResourceLoader.CACHE_MODE_IGNORE) as PackedScene).instantiate()
	var animation := (loaded.get_node("Player") as AnimationPlayer).get_animation(&"walk")
	var track := animation.find_track(NodePath("Sprite:modulate:a"), Animation.TYPE_VALUE)
	Assert.eq([animation.track_get_key_value(track, 0), animation.track_get_key_value(track, 1)], [1.0, 0.0],
		"the keys are in the saved scene")
	loaded.free()
	_fx.context.edits.undo()
	_fx.context.edits.undo()
	Assert.eq(_walk.get_track_count(), 0, "undone")


func test_tree_edits_list_undo_and_save() -> void:
	Assert.eq(_fx.invoke("animationtree.edit", {"node_path": "Tree", "action": "add_node", "node_name": "x"})["code"],
		"INVALID_STATE", "no root yet")
	for index in 3:
		ResultExamples.check("animation", "animationtree.edit",
			_fx.invoke("animationtree.edit", ResultExamples.params("animation", "animationtree.edit", index)), index)
	var listed := _fx.invoke("animationtree.list", {"node_path": "Tree"})
	ResultExamples.check("animation", "animationtree.list", listed, 0)
	var walk: Dictionary = (listed["nodes"] as Array).filter(func(n: Dictionary) -> bool: return n["name"] == "walk")[0]
	Assert.eq(walk, {"name": "walk", "type": "AnimationNodeAnimation", "position": {"x": 200.0, "y": 100.0},
		"animation": "walk"}, "the node listed")
	var changed := _fx.invoke("animationtree.edit", {"node_path": "Tree", "action": "set_property", "target_node": "walk",
		"property": "animation", "value": "run"})
	Assert.eq([changed["status"], changed["value"]], ["stored", "run"], "node property set")
	var machine := _tree.tree_root as AnimationNodeStateMachine
	Assert.eq(str((machine.get_node("walk") as AnimationNodeAnimation).animation), "run", "on the node")
	Assert.is_true(_fx.context.edits.undo(), "undo the property")
	Assert.eq(str((machine.get_node("walk") as AnimationNodeAnimation).animation), "walk", "restored")
	var path := DIR.path_join("tree.tscn")
	var packed := PackedScene.new()
	packed.pack(_root)
	Assert.eq(ResourceSaver.save(packed, path), OK, "saves")
	var loaded := (ResourceLoader.load(path, "", ResourceLoader.CACHE_MODE_IGNORE) as PackedScene).instantiate()
	var saved := (loaded.get_node("Tree") as AnimationTree).tree_root as AnimationNodeStateMachine
	Assert.is_true(saved != null and saved.has_node("walk") and saved.has_transition("Start", "walk"),
		"state and transition in the saved scene")
	loaded.free()
	var removed := _fx.invoke("animationtree.edit", {"node_path": "Tree", "action": "remove_node", "node_name": "walk"})
	Assert.eq([removed["status"], removed["transitions_removed"]], ["removed", 1], "state and its transition")
	Assert.is_false(machine.has_node("walk"), "gone")
	Assert.is_true(_fx.context.edits.undo(), "undo the removal")
	Assert.is_true(machine.has_node("walk") and machine.has_transition("Start", "walk"), "state and transition back")
	var cases := [
		[{"action": "add_node", "node_name": "walk"}, "INVALID_PARAMS"],
		[{"action": "add_node", "node_name": "n", "node_type": "Node2D"}, "INVALID_CLASS"],
		[{"action": "add_node", "node_name": "n", "position": {"x": 1}}, "INVALID_PARAMS"],
		[{"action": "remove_node", "node_name": "Start"}, "INVALID_PARAMS"],
		[{"action": "remove_node", "node_name": "ghost"}, "NOT_FOUND"],
		[{"action": "add_transition", "from": "walk", "to": "ghost"}, "NOT_FOUND"],
		[{"action": "add_transition", "from": "walk", "to": "End", "switch_mode": "slow"}, "INVALID_PARAMS"],
		[{"action": "remove_transition", "from": "walk", "to": "End"}, "NOT_FOUND"],
		[{"action": "set_property", "target_node": "walk", "property": "nope", "value": 1}, "PROPERTY_NOT_FOUND"],
		[{"action": "explode"}, "INVALID_PARAMS"],
	]
	for case: Array in cases:
		var params: Dictionary = case[0]
		params["node_path"] = "Tree"
		Assert.eq(_fx.invoke("animationtree.edit", params)["code"], case[1], JSON.stringify(case[0]))
	Assert.eq(_fx.invoke("animationtree.list", {"node_path": "Sprite"})["code"], "INVALID_CLASS", "not a tree")
	Assert.eq(machine.get_transition_count(), 1, "refusals changed nothing")
	for index in 3:
		Assert.is_true(_fx.context.edits.undo(), "undo edit %d" % index)
	Assert.is_true(_tree.tree_root == null, "back to no root")


func test_blend_tree_remove_keeps_connections_on_undo() -> void:
	_fx.invoke("animationtree.edit", {"node_path": "Tree", "action": "set_root", "root_type": "AnimationNodeBlendTree"})
	_fx.invoke("animationtree.edit",
		{"node_path": "Tree", "action": "add_node", "node_name": "walk", "animation_name": "walk"})
	var blend := _tree.tree_root as AnimationNodeBlendTree
	blend.connect_node("output", 0, "walk")
	Assert.eq(_fx.invoke("animationtree.edit", {"node_path": "Tree", "action": "add_transition", "from": "a",
		"to": "b"})["code"], "INVALID_STATE", "no transitions in a blend tree")
	_fx.invoke("animationtree.edit", {"node_path": "Tree", "action": "remove_node", "node_name": "walk"})
	Assert.is_false(blend.has_node("walk"), "removed")
	_fx.context.edits.undo()
	Assert.is_true(blend.has_node("walk"), "back")
	Assert.eq(Array(blend.get("node_connections")).map(func(v: Variant) -> String: return str(v)), ["output", "0", "walk"],
		"connected again")
	_fx.context.edits.undo()
	_fx.context.edits.undo()
	Assert.is_true(_tree.tree_root == null, "no root")
