extends "node_scene.gd"
## node.manage, node.groups and control.set_layout through the command registry, with a runtime
## context over a throwaway scene (node_scene.gd): each result, the scene it leaves, undo and redo,
## and a save + reload of the .tscn where persistence is the point (reparent, duplicate, groups).
##
## Not covered here (only an editor shows it): the editor's Scene dock and inspector refreshing,
## EditorUndoRedoManager's per-scene history (the runtime context has one plain UndoRedo), the
## editor rewriting NodePaths of other nodes after a rename or reparent, and the layout_mode /
## anchors_preset fields the inspector shows for a Control.


# --- manage --------------------------------------------------------------------------------------

func test_rename_and_undo() -> void:
	var player := _root.get_node("Player")
	var result := _call("node.manage", ResultExamples.params("node", "node.manage"))
	ResultExamples.check("node", "node.manage", result)
	Assert.eq(player.name, &"Hero", "renamed")
	Assert.is_true(_context.edits.undo(), "undo")
	Assert.eq(player.name, &"Player", "name restored")
	var taken := _call("node.manage", {"action": "rename", "node_path": "Player", "new_name": "Enemy"})
	Assert.eq(taken["code"], "ALREADY_EXISTS", "sibling name taken")
	Assert.eq(_call("node.manage", {"action": "rename", "node_path": "Player", "new_name": "a/b"})["code"],
		"INVALID_PARAMS", "bad name")
	Assert.eq(_call("node.manage", {"action": "rename", "node_path": "Player"})["code"],
		"INVALID_PARAMS", "no new_name")


func test_reparent_keeps_owners_global_position_and_saves() -> void:
	var sprite := _root.get_node("Player/Sprite") as Sprite2D
	sprite.position = Vector2(1, 1)
	var result := _call("node.manage", ResultExamples.params("node", "node.manage", 1))
	ResultExamples.check("node", "node.manage", result, 1)
	Assert.eq(sprite.get_parent(), _root.get_node("Enemy"), "moved")
	Assert.eq(sprite.owner, _root, "owner kept")
	Assert.eq(sprite.global_position, Vector2(11, 21), "global position kept")
	Assert.eq(sprite.position, Vector2(-89, 21), "local position adjusted")
	var reloaded := _save_and_reload()
	Assert.is_true(reloaded.get_node_or_null("Enemy/Sprite") != null, "the saved scene has it under Enemy")
	Assert.is_true(reloaded.get_node_or_null("Player/Sprite") == null, "and not under Player")
	Assert.is_true(_context.edits.undo(), "undo")
	Assert.eq(sprite.get_parent(), _root.get_node("Player"), "back")
	Assert.eq([sprite.owner, sprite.position], [_root, Vector2(1, 1)], "owner and position back")
	Assert.is_true(_context.edits.redo(), "redo")
	Assert.eq([sprite.get_parent(), sprite.owner], [_root.get_node("Enemy"), _root], "redo keeps the owner")


func test_reparent_refusals_and_name_clash() -> void:
	var loop := _call("node.manage", {"action": "reparent", "node_path": "Player", "new_parent_path": "Player/Sprite"})
	Assert.eq(loop["code"], "INVALID_PATH", "not under its own child")
	var gone := _call("node.manage", {"action": "reparent", "node_path": "Player", "new_parent_path": "Nope"})
	Assert.eq(gone["code"], "PARENT_NOT_FOUND", "missing parent")
	_add(_root.get_node("Enemy"), Sprite2D.new(), "Sprite")
	var clash := _call("node.manage", {"action": "reparent", "node_path": "Player/Sprite", "new_parent_path": "Enemy",
		"keep_global_transform": false})
	Assert.eq([clash["node_path"], clash["name"]], ["Enemy/Sprite2", "Sprite2"], "renamed on a clash")
	Assert.eq(clash["warnings"].size(), 1, "and says so")
	Assert.is_true(_context.edits.undo(), "undo")
	Assert.is_true(_root.get_node_or_null("Player/Sprite") != null, "original name and place back")


func test_reorder_and_undo() -> void:
	var result := _call("node.manage", ResultExamples.params("node", "node.manage", 2))
	ResultExamples.check("node", "node.manage", result, 2)
	Assert.eq(_child_names(_root), ["UI", "Player", "Enemy"], "moved first")
	Assert.is_true(_context.edits.undo(), "undo")
	Assert.eq(_child_names(_root), ["Player", "Enemy", "UI"], "order restored")
	Assert.eq(_call("node.manage", {"action": "reorder", "node_path": "UI", "new_index": 3})["code"],
		"INVALID_PARAMS", "out of range")


func test_duplicate_saves_the_copy_and_undoes() -> void:
	var result := _call("node.manage", ResultExamples.params("node", "node.manage", 3))
	ResultExamples.check("node", "node.manage", result, 3)
	var copy := _root.get_node_or_null("Player2") as Node2D
	Assert.is_true(copy != null, "copy added")
	Assert.eq(copy.position, Vector2(50, 60), "properties applied to the copy")
	Assert.eq([copy.owner, copy.get_node("Sprite").owner], [_root, _root], "copy and its child are owned")
	var reloaded := _save_and_reload()
	Assert.is_true(reloaded.get_node_or_null("Player2/Sprite") != null, "the saved scene has the copy")
	Assert.is_true(_context.edits.undo(), "undo")
	Assert.is_true(_root.get_node_or_null("Player2") == null, "copy removed")
	Assert.is_true(_context.edits.redo(), "redo")
	Assert.is_true(_root.get_node_or_null("Player2/Sprite") != null, "copy back")
	var elsewhere := _call("node.manage", {"action": "duplicate", "node_path": "Enemy", "parent_path": "Player",
		"new_name": "Shadow"})
	Assert.eq([elsewhere["node_path"], elsewhere["status"]], ["Player/Shadow", "created"], "copied under another parent")
	Assert.eq((_root.get_node("Player/Shadow") as Node2D).owner, _root, "owned there too")
	var inside := _call("node.manage", {"action": "duplicate", "node_path": "Player", "parent_path": "Player/Sprite"})
	Assert.eq(inside["code"], "INVALID_PATH", "not inside itself")
	Assert.eq(_call("node.manage", {"action": "duplicate", "node_path": "."})["code"], "INVALID_PARAMS", "not the root")
	Assert.eq(_call("node.manage", {"action": "duplicate", "node_path": "Enemy", "new_name": "Player"})["code"],
		"ALREADY_EXISTS", "name taken")


func test_manage_refuses_unknown_action_and_node() -> void:
	Assert.eq(_call("node.manage", {"action": "explode", "node_path": "Player"})["code"], "INVALID_PARAMS", "action")
	Assert.eq(_call("node.manage", {"action": "rename", "node_path": "Nope", "new_name": "X"})["code"],
		"NOT_FOUND", "node")
	Assert.eq(_context.runtime_scenes.modified_count, 0, "nothing changed")


# --- groups --------------------------------------------------------------------------------------

func test_groups_add_list_remove_persist_and_undo() -> void:
	var enemy := _root.get_node("Enemy")
	var added := _call("node.groups", ResultExamples.params("node", "node.groups"))
	ResultExamples.check("node", "node.groups", added)
	Assert.is_true(enemy.is_in_group("enemies"), "added")
	var listed := _call("node.groups", ResultExamples.params("node", "node.groups", 1))
	ResultExamples.check("node", "node.groups", listed, 1)
	Assert.is_true(_save_and_reload().get_node("Enemy").is_in_group("enemies"), "persistent: saved in the .tscn")
	Assert.is_true(_context.edits.undo(), "undo")
	Assert.is_false(enemy.is_in_group("enemies"), "undo removes")
	Assert.is_true(_context.edits.redo(), "redo")
	var removed := _call("node.groups", {"action": "remove", "node_path": "Enemy", "group": "enemies"})
	Assert.eq(removed["status"], "removed", "removed")
	Assert.is_false(enemy.is_in_group("enemies"), "gone")
	Assert.is_true(_context.edits.undo(), "undo the removal")
	Assert.eq(_call("node.groups", {"action": "list", "node_path": "Enemy"})["groups"],
		[{"group": "enemies", "persistent": true}], "restored as persistent as it was")


func test_groups_entries_and_scene_list() -> void:
	var result := _call("node.groups", ResultExamples.params("node", "node.groups", 2))
	ResultExamples.check("node", "node.groups", result, 2)
	var scene := _call("node.groups", {"action": "list"})
	Assert.eq(scene["groups"], [{"group": "actors", "nodes": ["Player", "Enemy"]}], "scene-wide list")
	Assert.is_true(_context.edits.undo(), "one undo")
	Assert.is_false(_root.get_node("Player").is_in_group("actors") or _root.get_node("Enemy").is_in_group("actors"),
		"both undone")
	var transient := _call("node.groups", {"action": "add", "node_path": "Player", "group": "tmp", "persistent": false})
	Assert.eq(transient["persistent"], false, "non-persistent")
	var again := _call("node.groups", {"action": "add", "node_path": "Player", "group": "tmp", "persistent": false})
	Assert.eq(again["status"], "unchanged", "adding an existing membership changes nothing")
	Assert.eq(_call("node.groups", {"action": "list", "node_path": "Player"})["groups"],
		[{"group": "tmp", "persistent": false}], "listed as not saved")
	var upgraded := _call("node.groups", {"action": "add", "node_path": "Player", "group": "tmp"})
	Assert.eq([upgraded["status"], upgraded["persistent"]], ["updated", true], "made persistent")
	Assert.is_true(_context.edits.undo(), "undo the upgrade")
	Assert.eq(_call("node.groups", {"action": "list", "node_path": "Player"})["groups"],
		[{"group": "tmp", "persistent": false}], "back to not saved")
	Assert.is_false(_save_and_reload().get_node("Player").is_in_group("tmp"), "not saved")
	var bad := _call("node.groups",
		{"action": "add", "entries": [{"node_path": "Player", "group": "x"}, {"node_path": "Nope", "group": "x"}]})
	Assert.eq(bad["code"], "NOT_FOUND", "one bad entry refuses all")
	Assert.is_false(_root.get_node("Player").is_in_group("x"), "nothing added")
	Assert.eq(_call("node.groups", {"action": "add", "node_path": "Player"})["code"], "INVALID_PARAMS", "no group")


# --- control.set_layout --------------------------------------------------------------------------

func test_set_layout_full_rect_with_margins_and_undo() -> void:
	var panel := _root.get_node("UI/Panel") as Control
	var result := _call("control.set_layout", ResultExamples.params("node", "control.set_layout"))
	ResultExamples.check("node", "control.set_layout", result)
	Assert.eq([panel.anchor_left, panel.anchor_right, panel.offset_left, panel.offset_right],
		[0.0, 1.0, 10.0, -10.0], "applied")
	Assert.eq(panel.size, Vector2(180, 80), "fills the parent minus the margins")
	Assert.is_true(_context.edits.undo(), "undo")
	Assert.eq([panel.anchor_right, panel.offset_left, panel.size], [0.0, 0.0, Vector2.ZERO], "restored")
	Assert.is_true(_context.edits.redo(), "redo")
	Assert.eq(panel.size, Vector2(180, 80), "redo")


func test_set_layout_refusals() -> void:
	var not_control := _call("control.set_layout", ResultExamples.params("node", "control.set_layout", 1))
	ResultExamples.check("node", "control.set_layout", not_control, 1)
	Assert.eq(_call("control.set_layout", {"node_path": "UI", "preset": "middle"})["code"],
		"INVALID_PARAMS", "bad preset")
	Assert.eq(_call("control.set_layout", {"node_path": "UI", "preset": "center", "margins": {"up": 1}})["code"],
		"INVALID_PARAMS", "bad margin edge")
	Assert.eq(_context.runtime_scenes.modified_count, 0, "nothing changed")
