extends RefCounted
## context/runtime_context.gd and edits/undo_action.gd: the seam commands use, over a plain
## UndoRedo and scene tree. Steps replay in the order they were added, methods and properties
## interleaved, on do, undo and redo; editor-only requests are recorded or refused clearly.

const Assert := preload("assert.gd")
const RuntimeContext := preload("res://addons/godot_mcp_toolkit/context/runtime_context.gd")
const UndoAction := preload("res://addons/godot_mcp_toolkit/edits/undo_action.gd")
const CommandRegistry := preload("res://addons/godot_mcp_toolkit/transport/mcp_toolkit_command_registry.gd")
const CommandDomains := preload("res://addons/godot_mcp_toolkit/commands/command_domains.gd")
const SCRATCH := "user://test_context"


## Logs every method call and every write of `value`, so order is observable.
class Recorder:
	extends RefCounted
	var log: Array[String] = []
	var value := "":
		set(new_value):
			value = new_value
			log.append("set " + new_value)

	func mark(what: String) -> void:
		log.append("call " + what)


func cleanup() -> void:
	if DirAccess.dir_exists_absolute(SCRATCH):
		for file_name: String in DirAccess.get_files_at(SCRATCH):
			DirAccess.remove_absolute(SCRATCH.path_join(file_name))
		DirAccess.remove_absolute(SCRATCH)


func test_steps_replay_in_the_order_added() -> void:
	var context := RuntimeContext.new()
	var recorder := Recorder.new()
	var action := context.edits.create_undo_action("Ordered")
	action.add_do_method(recorder, &"mark", ["a"])
	action.add_do_property(recorder, &"value", "b")
	action.add_do_method(recorder, &"mark", ["c"])
	action.add_undo_property(recorder, &"value", "undo-1")
	action.add_undo_method(recorder, &"mark", ["undo-2"])
	Assert.is_true(action.is_recording(), "the runtime context records history")
	Assert.is_true(action.commit(), "committed")
	Assert.eq(recorder.log, ["call a", "set b", "call c"], "do: one ordered list")
	recorder.log.clear()
	Assert.is_true(context.edits.undo(), "undo")
	Assert.eq(recorder.log, ["set undo-1", "call undo-2"], "undo: one ordered list")
	recorder.log.clear()
	Assert.is_true(context.edits.redo(), "redo")
	Assert.eq(recorder.log, ["call a", "set b", "call c"], "redo replays the do list")


func test_apply_without_history_keeps_the_order() -> void:
	var recorder := Recorder.new()
	var action := UndoAction.new(null, "No history")
	action.add_do_property(recorder, &"value", "first").add_do_method(recorder, &"mark", ["second"])
	Assert.is_false(action.is_recording(), "no manager")
	Assert.is_true(action.commit(), "applied")
	Assert.eq(recorder.log, ["set first", "call second"], "do side in the order added")


func test_add_child_then_owner_and_undo() -> void:
	var root := Node.new()
	var context := RuntimeContext.new(root)
	var child := Node2D.new()
	child.name = "Player"
	var action := context.edits.create_undo_action("Add Player")
	action.add_do_method(root, &"add_child", [child])
	action.add_do_property(child, &"owner", root)
	action.add_do_reference(child)
	action.add_undo_property(child, &"owner", null)
	action.add_undo_method(root, &"remove_child", [child])
	Assert.is_true(action.commit(), "committed")
	Assert.eq(child.get_parent(), root, "added")
	Assert.eq(child.owner, root, "owner set after the node entered the scene")
	Assert.is_true(context.edits.undo(), "undo")
	Assert.is_true(child.get_parent() == null, "removed")
	Assert.is_true(child.owner == null, "owner cleared")
	Assert.is_false(context.edits.undo(), "nothing left to undo")
	Assert.is_true(context.edits.redo(), "redo")
	Assert.eq(child.owner, root, "redo sets the owner again")
	Assert.eq(root.get_node_or_null("Player"), child, "and the child is back")
	root.free()


func test_scene_root_and_the_edited_path() -> void:
	var context := RuntimeContext.new()
	Assert.is_true(context.scenes.scene_root() == null, "no scene")
	Assert.eq(context.scenes.edited_scene_path(), "", "no path")
	var root := Node.new()
	root.scene_file_path = "res://levels/a.tscn"
	context.runtime_scenes.set_scene_root(root)
	Assert.eq(context.scenes.scene_root(), root, "the given root")
	Assert.eq(context.scenes.edited_scene_path(), "res://levels/a.tscn", "its path")
	Assert.eq(context.scenes.open_scene_paths(), PackedStringArray(["res://levels/a.tscn"]), "and it counts as open")
	Assert.is_false(context.host.is_editor(), "not the editor")
	root.free()


func test_open_and_play_are_recorded() -> void:
	var context := RuntimeContext.new()
	var path := _write_scene("b.tscn")
	Assert.eq(context.scenes.open_scene(path), OK, "open an existing scene")
	Assert.eq(context.scenes.edited_scene_path(), path, "it is now the edited one")
	Assert.eq(context.scenes.open_scene(SCRATCH.path_join("missing.tscn")), ERR_FILE_NOT_FOUND, "missing file")
	Assert.eq(context.scenes.open_scene_paths(), PackedStringArray([path]), "only the real one is open")
	context.scenes.open_script("res://x.gd", 12)
	Assert.eq(context.runtime_scenes.opened_scripts, [{"path": "res://x.gd", "line": 12}], "script request recorded")
	Assert.is_false(context.game.is_playing(), "not playing yet")
	Assert.eq(context.game.play_scene(path), OK, "play it")
	Assert.is_true(context.game.is_playing(), "playing")
	Assert.eq(context.runtime_game.played_scenes, PackedStringArray([path]), "play recorded")
	Assert.eq(context.game.play_scene(SCRATCH.path_join("nope.tscn")), ERR_FILE_NOT_FOUND, "missing scene is refused")
	context.game.stop_playing()
	Assert.is_false(context.game.is_playing(), "stopped")


func test_save_scene_writes_only_the_scene_asked_for() -> void:
	var context := RuntimeContext.new()
	var other := _write_scene("other.tscn")
	Assert.eq(context.scenes.open_scene(other), OK, "another scene is open")
	var root := Node.new()
	root.name = "Level"
	var kept := Node.new()
	kept.name = "Kept"
	root.add_child(kept)
	kept.owner = root
	root.scene_file_path = SCRATCH.path_join("level.tscn")
	context.runtime_scenes.set_scene_root(root)
	Assert.eq(context.scenes.save_scene(root.scene_file_path), OK, "the root's scene saves")
	var loaded := (load(root.scene_file_path) as PackedScene).instantiate()
	Assert.eq(loaded.get_node_or_null("Kept") != null, true, "written from the tree")
	loaded.free()
	var before := FileAccess.get_file_as_string(other)
	Assert.eq(context.scenes.save_scene(other), OK, "an open scene by path")
	Assert.eq(FileAccess.get_file_as_string(other), before, "not overwritten with the root")
	Assert.eq(context.scenes.save_scene("res://never_opened.tscn"), ERR_DOES_NOT_EXIST, "not open")
	Assert.eq(context.runtime_scenes.saved_scenes, PackedStringArray([root.scene_file_path, other]), "both recorded")
	root.free()


func test_settings_files_and_modified_flag() -> void:
	var context := RuntimeContext.new()
	Assert.eq(context.project.get_editor_setting("a/b", 7), 7, "default when unset")
	context.project.set_editor_setting("a/b", 3)
	Assert.eq(context.project.get_editor_setting("a/b", 7), 3, "kept")
	context.project.refresh_files(PackedStringArray(["res://a.gd", "res://b.tscn"]))
	Assert.eq(context.runtime_project.refreshed_files, PackedStringArray(["res://a.gd", "res://b.tscn"]),
		"refresh recorded")
	context.scenes.mark_modified()
	Assert.eq(context.runtime_scenes.modified_count, 1, "marked once")


func test_a_domain_registered_with_the_context_dispatches_and_undoes() -> void:
	var root := Node.new()
	root.name = "Level"
	var context := RuntimeContext.new(root)
	var registry := CommandRegistry.new()
	registry.configure("4.2.2", context)
	var domains: Array[String] = ["res://tests/godot/sample_domain.gd"]
	CommandDomains.register_all(registry, context, domains)
	var handler: Callable = registry.dispatch_info("sample.add_node")["handler"]
	Assert.eq(handler.callv([{"name": "Enemy"}]), {"success": true, "path": "Enemy"}, "dispatched with the context")
	var enemy := root.get_node_or_null("Enemy")
	Assert.is_true(enemy != null and enemy.owner == root, "added and owned (saved with the scene)")
	Assert.eq(context.runtime_scenes.modified_count, 1, "scene marked modified")
	Assert.is_true(context.edits.undo(), "undo")
	Assert.eq(root.get_child_count(), 0, "undo restores the scene")
	Assert.is_true(context.edits.redo(), "redo")
	Assert.eq(root.get_child_count(), 1, "and redo repeats it")
	root.free()


func _write_scene(file_name: String) -> String:
	DirAccess.make_dir_recursive_absolute(SCRATCH)
	var root := Node.new()
	root.name = file_name.get_basename()
	var packed := PackedScene.new()
	packed.pack(root)
	root.free()
	var path := SCRATCH.path_join(file_name)
	ResourceSaver.save(packed, path)
	return path
