extends "node_scene.gd"
## node.get_property, node.set_property, node.get_property_list, node.set_script and
## node.call_method through the command registry, with a runtime context over a throwaway scene
## (node_scene.gd): each result, the scene it leaves, undo and redo, and a save + reload of the
## .tscn after attaching a script.
##
## Not covered here (only an editor shows it): the editor's Scene dock and inspector refreshing,
## EditorUndoRedoManager's per-scene history (the runtime context has one plain UndoRedo), the
## editor rewriting NodePaths of other nodes after a rename or reparent, and @tool script
## semantics (outside the editor every script runs, tool or not).

const AnswerBudget := preload("res://addons/godot_mcp_toolkit/contract/answer_budget.gd")


func test_registered_with_their_lanes() -> void:
	for method: String in ["node.get_property", "node.get_property_list"]:
		Assert.is_true(_registry.dispatch_info(method)["read_only"], "%s is a read" % method)
	for method: String in ["node.set_property", "node.set_script", "node.call_method", "node.manage",
			"node.groups", "control.set_layout"]:
		Assert.is_false(_registry.dispatch_info(method)["read_only"], "%s mutates" % method)
		Assert.is_false(_registry.dispatch_info(method)["scene_independent"], "%s needs the scene lease" % method)


func test_domains_are_listed_for_the_plugin() -> void:
	for path: String in DOMAINS:
		Assert.is_true(path in CommandDomains.DOMAINS, "%s is in command_domains.gd" % path)


# --- properties ----------------------------------------------------------------------------------

func test_get_property() -> void:
	var result := _call("node.get_property", ResultExamples.params("node", "node.get_property"))
	ResultExamples.check("node", "node.get_property", result)
	Assert.eq(result["value"], {"type": "Vector2", "x": 10.0, "y": 20.0}, "tagged vector")
	var missing := _call("node.get_property", ResultExamples.params("node", "node.get_property", 1))
	ResultExamples.check("node", "node.get_property", missing, 1)
	Assert.eq(_call("node.get_property", {"node_path": "Player", "property": "no_such"})["success"],
		false, "unknown property")
	Assert.eq(_context.runtime_scenes.modified_count, 0, "a read marks nothing modified")


func test_set_property_verified_and_undoable() -> void:
	var player := _root.get_node("Player") as Node2D
	var result := _call("node.set_property", ResultExamples.params("node", "node.set_property"))
	ResultExamples.check("node", "node.set_property", result)
	Assert.eq(player.position, Vector2(5, 6), "written")
	Assert.eq(_context.runtime_scenes.modified_count, 1, "scene marked modified")
	Assert.is_true(_context.edits.undo(), "undo")
	Assert.eq(player.position, Vector2(10, 20), "undo restores")
	Assert.is_true(_context.edits.redo(), "redo")
	Assert.eq(player.position, Vector2(5, 6), "redo re-applies")


func test_set_property_dropped_write_fails_and_leaves_the_node() -> void:
	var player := _root.get_node("Player") as Node2D
	var result := _call("node.set_property", ResultExamples.params("node", "node.set_property", 1))
	ResultExamples.check("node", "node.set_property", result, 1)
	Assert.eq(player.position, Vector2(10, 20), "untouched")
	Assert.eq(_context.runtime_scenes.modified_count, 0, "nothing marked")
	Assert.is_false(_context.edits.undo(), "nothing recorded")


func test_set_property_batch_is_one_undo_step_with_per_item_outcomes() -> void:
	var player := _root.get_node("Player") as Node2D
	var enemy := _root.get_node("Enemy") as Node2D
	var result := _call("node.set_property", ResultExamples.params("node", "node.set_property", 2))
	ResultExamples.check("node", "node.set_property", result, 2)
	Assert.eq(player.rotation, 1.5, "first item")
	Assert.eq(enemy.visible, false, "second item")
	Assert.is_true(_context.edits.undo(), "one undo")
	Assert.eq([player.rotation, enemy.visible], [0.0, true], "both restored by one undo")
	Assert.is_false(_context.edits.undo(), "a single step")
	Assert.is_true(_context.edits.redo(), "redo")
	Assert.eq([player.rotation, enemy.visible], [1.5, false], "both re-applied")


## A batch whose results outgrow one answer lists the first ones, in order, within it; every item
## was still written, counted in applied/failed, and the failed ones past the page are named.
func test_a_batch_answer_stops_at_one_answer_and_names_the_failures_it_does_not_show() -> void:
	var batch: Array = []
	for index in 200:
		var property := "no_such_%d" % index if index in [3, 150, 199] else "position"
		batch.append({"node_path": "Player" if index % 2 == 0 else "Enemy", "property": property,
			"value": {"type": "Vector2", "x": float(index), "y": -float(index)}})
	var result := _call("node.set_property", {"batch": batch})
	Assert.is_true(result["success"], "the batch answers (%s)" % str(result).left(300))
	Assert.is_true(AnswerBudget.size_of(result) <= AnswerBudget.BYTES - AnswerBudget.RESERVE,
		"within one answer (%d bytes)" % AnswerBudget.size_of(result))
	Assert.eq([result["applied"], result["failed"], result["total_results"], result["has_more"]], [197, 3, 200, true],
		"applied and failed count every item")
	var shown: Array = result["results"]
	Assert.eq(result["returned"], shown.size(), "returned counts the results shown")
	Assert.is_true(shown.size() > 3 and shown.size() < 150, "the first %d of them" % shown.size())
	Assert.eq([shown[2]["value"], shown[3]["success"]], [{"type": "Vector2", "x": 2.0, "y": -2.0}, false],
		"in batch order, whole")
	Assert.eq(result["failed_indexes"], [150, 199], "the failures not shown, by index")
	Assert.contains(result["hint"], "batch[%d]" % shown.size(), "the hint says where the shown results stop")
	Assert.eq((_root.get_node("Enemy") as Node2D).position, Vector2(197, -197), "the last items were written too")
	Assert.eq((_root.get_node("Player") as Node2D).position, Vector2(198, -198), "on both nodes")


func test_set_property_make_unique_copies_a_shared_sub_resource() -> void:
	var shared := CanvasItemMaterial.new()
	var player := _root.get_node("Player") as Node2D
	var enemy := _root.get_node("Enemy") as Node2D
	player.material = shared
	enemy.material = shared
	var result := _call("node.set_property", {"node_path": "Player", "property": "material:blend_mode", "value": 1,
		"make_unique": true})
	Assert.eq([result["success"], result["made_unique"], result["value"]], [true, "material", 1], "set on a copy")
	Assert.is_true(player.material != shared, "Player got its own material")
	Assert.eq([player.material.get("blend_mode"), shared.blend_mode], [1, 0], "the shared one is untouched")
	Assert.is_true(_context.edits.undo(), "undo")
	Assert.is_true(player.material == shared, "the shared material is back")
	Assert.eq(shared.blend_mode, 0, "and still unchanged")
	var plain := _call("node.set_property", {"node_path": "Player", "property": "rotation", "value": 1,
		"make_unique": true})
	Assert.eq(plain["code"], "INVALID_PARAMS", "make_unique needs a sub-resource path")


func test_set_property_reports_an_engine_adjusted_value() -> void:
	var bar := ProgressBar.new()
	bar.name = "Health"
	_root.get_node("UI").add_child(bar)
	bar.owner = _root
	var result := _call("node.set_property", {"node_path": "UI/Health", "property": "value", "value": 150})
	Assert.eq([result["success"], result["value"]], [true, 100], "stored the clamped value")
	Assert.eq(result["warnings"].size(), 1, "and warns about it")
	Assert.contains(result["warnings"][0], "150", "naming what was asked")


func test_set_property_refuses_bad_input() -> void:
	Assert.eq(_call("node.set_property", {"node_path": "Player"})["code"], "INVALID_PARAMS", "no property")
	Assert.eq(_call("node.set_property", {"node_path": "Player", "property": "position"})["code"],
		"INVALID_PARAMS", "no value")
	Assert.eq(_call("node.set_property", {"batch": []})["code"], "INVALID_PARAMS", "empty batch")
	var bad := _call("node.set_property",
		{"batch": [{"node_path": "Player", "property": "rotation", "value": 1.0}, {"node_path": "Enemy"}]})
	Assert.eq(bad["code"], "INVALID_PARAMS", "malformed item")
	Assert.contains(bad["error"], "batch[1]", "names the item")
	Assert.eq((_root.get_node("Player") as Node2D).rotation, 0.0, "nothing applied from a refused batch")
	Assert.eq(_call("node.set_property", {"node_path": "Nope", "property": "x", "value": 1})["code"],
		"NOT_FOUND", "missing node")
	var all_failed := _call("node.set_property", {"batch": [{"node_path": "Nope", "property": "x", "value": 1}]})
	Assert.eq(all_failed["success"], false, "a batch where nothing took fails")
	Assert.eq(all_failed["results"].size(), 1, "and still lists the item")


func test_get_property_list_masks() -> void:
	var result := _call("node.get_property_list", ResultExamples.params("node", "node.get_property_list"))
	ResultExamples.check("node", "node.get_property_list", result)
	var names := _names(result["properties"])
	Assert.is_true("position" in names and "visible" in names, "common has the edited ones: %s" % [names])
	Assert.is_false("process_mode" in names, "common leaves Node's own out")
	var all := _call("node.get_property_list", {"node_path": "Player", "mask": "all"})
	Assert.is_true("process_mode" in _names(all["properties"]), "all has everything")
	Assert.is_true(all["properties"].size() > result["properties"].size(), "all is larger")
	var groups := _call("node.get_property_list", {"node_path": "Player", "mask": "groups"})
	Assert.is_true({"name": "Node2D", "kind": "category"} in groups["groups"], "categories listed")
	Assert.is_true({"name": "Transform", "kind": "group"} in groups["groups"], "groups listed")
	Assert.eq(_call("node.get_property_list", {"node_path": "Player", "mask": "nope"})["code"],
		"INVALID_PARAMS", "bad mask")


func test_get_property_list_script_variables_by_visibility() -> void:
	_write_script("extends Node2D\n\nvar speed := 3\nvar _secret := \"x\"\n")
	(_root.get_node("Player") as Node).set_script(load(SCRIPT_PATH))
	var public := _call("node.get_property_list", {"node_path": "Player", "mask": "script", "visibility": "public"})
	Assert.eq(_names(public["properties"]), ["speed"], "public script variables")
	var private := _call("node.get_property_list", {"node_path": "Player", "mask": "script", "visibility": "private"})
	Assert.eq(_names(private["properties"]), ["_secret"], "private script variables")
	Assert.eq(public["properties"][0], {"name": "speed", "type": "int", "value": 3}, "entry shape")


# --- script --------------------------------------------------------------------------------------

func test_set_script_attaches_saves_and_undoes() -> void:
	_write_script("extends Node2D\n\nvar speed := 3\n")
	var enemy := _root.get_node("Enemy")
	var result := _call("node.set_script", ResultExamples.params("node", "node.set_script"))
	ResultExamples.check("node", "node.set_script", result)
	Assert.eq(enemy.get_script(), load(SCRIPT_PATH), "attached")
	Assert.eq(_save_and_reload().get_node("Enemy").get("speed"), 3, "the saved scene keeps the script")
	Assert.is_true(_context.edits.undo(), "undo")
	Assert.is_true(enemy.get_script() == null, "detached again")
	Assert.is_true(_context.edits.redo(), "redo")
	Assert.eq(enemy.get_script(), load(SCRIPT_PATH), "re-attached")
	var detached := _call("node.set_script", {"node_path": "Enemy", "script_path": ""})
	Assert.eq([detached["status"], detached["previous_script_path"]], ["detached", SCRIPT_PATH], "detach")
	Assert.is_true(enemy.get_script() == null, "gone")


func test_set_script_refusals() -> void:
	_write_script("extends Control\n", DIR + "/panel_only.gd")
	var mismatch := _call("node.set_script", ResultExamples.params("node", "node.set_script", 1))
	ResultExamples.check("node", "node.set_script", mismatch, 1)
	Assert.eq(_call("node.set_script", {"node_path": "Enemy", "script_path": DIR + "/none.gd"})["code"],
		"NOT_FOUND", "missing file")
	Assert.eq(_call("node.set_script", {"node_path": "Enemy", "script_path": "res://../x.gd"})["code"],
		"PATH_DENIED", "guarded")
	Assert.is_true(_root.get_node("Enemy").get_script() == null, "nothing attached")
	Assert.eq(_context.runtime_scenes.modified_count, 0, "nothing marked")


# --- call_method ---------------------------------------------------------------------------------

func test_call_method_returns_json_and_undoes_its_changes() -> void:
	var player := _root.get_node("Player") as Node2D
	var result := _call("node.call_method", ResultExamples.params("node", "node.call_method"))
	ResultExamples.check("node", "node.call_method", result)
	Assert.eq(player.position, Vector2(13, 24), "translate ran with coerced args")
	Assert.is_true(_context.edits.undo(), "undo")
	Assert.eq(player.position, Vector2(10, 20), "undo restores what the call changed")
	Assert.is_true(_context.edits.redo(), "redo")
	Assert.eq(player.position, Vector2(13, 24), "redo")
	var read := _call("node.call_method", {"node_path": "Player", "method_name": "get_child_count"})
	Assert.eq([read["result"], read["changed_properties"]], [1, []], "a read changes nothing")


func test_call_method_refusals() -> void:
	var refused := _call("node.call_method", ResultExamples.params("node", "node.call_method", 1))
	ResultExamples.check("node", "node.call_method", refused, 1)
	Assert.is_true(is_instance_valid(_root.get_node_or_null("Player")), "still there")
	Assert.eq(_call("node.call_method", {"node_path": "Player", "method_name": "nope"})["code"],
		"INVALID_METHOD", "unknown")
	var count := _call("node.call_method", {"node_path": "Player", "method_name": "translate", "args": []})
	Assert.eq(count["code"], "INVALID_PARAMS", "too few args")
	var kind := _call("node.call_method", {"node_path": "Player", "method_name": "translate", "args": ["x"]})
	Assert.eq(kind["code"], "INVALID_PARAMS", "wrong type")
	Assert.contains(kind["error"], "argument 1", "names the argument")
	var fitted := _call("node.call_method", {"node_path": "Player", "method_name": "set_rotation", "args": [2]})
	Assert.eq(fitted["changed_properties"], ["rotation"], "an int where a float is wanted is fitted")


# --- no scene ------------------------------------------------------------------------------------

func test_no_scene() -> void:
	_context.runtime_scenes.set_scene_root(null)
	for method: String in ["node.get_property", "node.set_property", "node.get_property_list", "node.call_method"]:
		var params := {"node_path": "Player", "property": "position", "value": 1, "method_name": "hide"}
		Assert.eq(_call(method, params)["code"], "NO_SCENE", method)
	Assert.eq(_call("node.groups", {"action": "list"})["code"], "NO_SCENE", "groups")
