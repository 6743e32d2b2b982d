extends RefCounted
## The cleanup domain (commands/filesystem/filesystem_commands.gd) through the command registry over a runtime
## context whose edited scene is saved at res://tmp_tests/cleanup/main.tscn: each delete's result,
## the files really gone, undo writing the same bytes back (and redo removing them again), the
## refusals (protected, open, in use, not empty, wrong kind) leaving every file as it was, the
## dependents a delete names, and scene.close (4.5+: the web engine is 4.6).
##
## Not covered here (only an editor shows it): the FileSystem dock updating (context.project.refresh_files
## is asserted instead), EditorInterface.close_scene closing a real tab, scripts that preload() a
## deleted path (the dependency scan reads resource headers only, as the module says).

const Assert := preload("assert.gd")
const DomainFixture := preload("domain_fixture.gd")
const CommandDomains := preload("res://addons/godot_mcp_toolkit/commands/command_domains.gd")

const DOMAIN := "cleanup"
const SCRATCH := "res://tmp_tests/cleanup"
const MAIN := SCRATCH + "/main.tscn"
const METHODS := ["scene.close", "file.delete", "folder.delete", "resource.delete", "scene.delete", "script.delete"]

var _root: Node = null
var _fx: DomainFixture = null


## The examples in tests/fixtures/toolkit/results/cleanup.json run against this: the edited scene
## res://tmp_tests/cleanup/main.tscn (Node "Main"), and the files each test writes under
## res://tmp_tests/cleanup/ (named in the example's about line).
func _init() -> void:
	DirAccess.make_dir_recursive_absolute(SCRATCH)
	var main := Node.new()
	main.name = "Main"
	var packed := PackedScene.new()
	packed.pack(main)
	ResourceSaver.save(packed, MAIN)
	main.free()
	_root = (load(MAIN) as PackedScene).instantiate()
	_fx = DomainFixture.new(CommandDomains.DOMAINS, DOMAIN, _root, SCRATCH)


func cleanup() -> void:
	_fx.cleanup()


func _write(path: String, text: String) -> void:
	DirAccess.make_dir_recursive_absolute(path.get_base_dir())
	var handle := FileAccess.open(path, FileAccess.WRITE)
	handle.store_string(text)
	handle.close()


## A LabelSettings resource at `path` (font_size `size`) and a scene at `user` whose Label uses it.
func _resource_with_user(path: String, user: String, size: int) -> void:
	DirAccess.make_dir_recursive_absolute(path.get_base_dir())
	var settings := LabelSettings.new()
	settings.font_size = size
	ResourceSaver.save(settings, path)
	var label := Label.new()
	label.name = "Title"
	label.label_settings = ResourceLoader.load(path, "", ResourceLoader.CACHE_MODE_IGNORE)
	var packed := PackedScene.new()
	packed.pack(label)
	ResourceSaver.save(packed, user)
	label.free()


func test_registered_as_scene_independent_mutations() -> void:
	for method: String in METHODS:
		var info: Dictionary = _fx.registry.dispatch_info(method)
		Assert.is_false(info["read_only"], "%s mutates" % method)
		Assert.is_true(info["scene_independent"], "%s needs no scene" % method)


func test_file_delete_takes_the_sidecar_and_undo_restores_the_bytes() -> void:
	var icon := SCRATCH + "/files/icon.png"
	_write(icon, "not really a png \u00e9")
	_write(icon + ".import", "[remap]\nimporter=\"texture\"\n")
	var bytes := FileAccess.get_file_as_bytes(icon)
	_fx.example("file.delete")
	Assert.is_false(FileAccess.file_exists(icon), "the file is gone")
	Assert.is_false(FileAccess.file_exists(icon + ".import"), "and its sidecar")
	Assert.is_true(icon in _fx.context.runtime_project.refreshed_files, "the editor is told")
	Assert.is_true(_fx.context.edits.undo(), "undo")
	Assert.eq(FileAccess.get_file_as_bytes(icon), bytes, "undo writes the same bytes back")
	Assert.is_true(FileAccess.file_exists(icon + ".import"), "and the sidecar")
	Assert.is_true(_fx.context.edits.redo(), "redo")
	Assert.is_false(FileAccess.file_exists(icon), "redo deletes it again")
	DomainFixture.remove_tree(SCRATCH + "/files")


func test_protected_and_open_files_are_refused() -> void:
	_fx.example("file.delete", 1)
	_fx.example("scene.delete")
	Assert.is_true(FileAccess.file_exists("res://project.godot"), "project.godot untouched")
	Assert.is_true(FileAccess.file_exists(MAIN), "the open scene untouched")
	var cases := [
		[{"file_path": "res://addons/godot_mcp_toolkit/plugin.cfg"}, "PATH_DENIED"],
		[{"file_path": "res://.godot/x.cfg"}, "PATH_DENIED"],
		[{"file_path": "user://x.txt"}, "PATH_DENIED"],
		[{"file_path": SCRATCH + "/none.txt"}, "NOT_FOUND"],
		[{"file_path": SCRATCH}, "INVALID_PARAMS"],
		[{}, "INVALID_PARAMS"],
		[{"file_path": 7}, "INVALID_PARAMS"],
		[{"file_path": MAIN}, "EDITED_SCENE"],
	]
	for case: Array in cases:
		var result := _fx.invoke("file.delete", case[0])
		Assert.eq(result.get("code"), case[1], "%s -> %s (%s)" % [case[0], case[1], result.get("error")])
	Assert.is_true(FileAccess.file_exists("res://addons/godot_mcp_toolkit/plugin.cfg"), "toolkit untouched")


func test_each_kind_refuses_the_other_kinds() -> void:
	var cases := [
		["scene.delete", SCRATCH + "/a.tres"], ["script.delete", SCRATCH + "/a.tscn"],
		["resource.delete", SCRATCH + "/a.gd"], ["resource.delete", SCRATCH + "/a.tscn"],
		["resource.delete", SCRATCH + "/a.txt"],
	]
	for case: Array in cases:
		Assert.eq(_fx.invoke(case[0], {"file_path": case[1]}).get("code"), "UNSUPPORTED_FILE_TYPE", "%s refuses %s" % case)


func test_resource_delete_names_its_dependents_and_undo_brings_it_back() -> void:
	var settings := SCRATCH + "/res/labels.tres"
	var user := SCRATCH + "/res/title.tscn"
	_resource_with_user(settings, user, 21)
	var result := _fx.example("resource.delete")
	Assert.contains(result["warnings"][0], user, "the warning names the dependent")
	Assert.is_false(FileAccess.file_exists(settings), "deleted")
	Assert.is_true(_fx.context.edits.undo(), "undo")
	var back := ResourceLoader.load(settings, "", ResourceLoader.CACHE_MODE_IGNORE) as LabelSettings
	Assert.eq(back.font_size if back != null else -1, 21, "the restored resource loads with its value")
	var title := (ResourceLoader.load(user, "", ResourceLoader.CACHE_MODE_IGNORE) as PackedScene).instantiate() as Label
	Assert.eq(title.label_settings.font_size, 21, "and its dependent loads it again")
	title.free()
	DomainFixture.remove_tree(SCRATCH + "/res")


func test_script_delete_refuses_a_script_the_edited_scene_uses() -> void:
	var path := SCRATCH + "/scripts/mover.gd"
	_write(path, "extends Node\n")
	_write(SCRATCH + "/scripts/unused.gd", "extends Node\n")
	var child := Node.new()
	child.name = "Mover"
	child.set_script(ResourceLoader.load(path, "", ResourceLoader.CACHE_MODE_IGNORE))
	_root.add_child(child)
	child.owner = _root
	var refused := _fx.invoke("script.delete", {"file_path": path})
	Assert.eq(refused.get("code"), "PATH_IN_USE", "in use: %s" % refused)
	Assert.contains(refused.get("error", ""), "Mover (script)", "names the node")
	Assert.is_true(FileAccess.file_exists(path), "left in place")
	_root.remove_child(child)
	child.free()
	_fx.example("script.delete")
	Assert.is_false(FileAccess.file_exists(SCRATCH + "/scripts/unused.gd"), "an unused script goes")
	Assert.eq(_fx.invoke("script.delete", {"file_path": path})["deleted"], path, "once nothing uses it, it goes too")
	DomainFixture.remove_tree(SCRATCH + "/scripts")


func test_scene_delete_of_a_closed_scene() -> void:
	var old := SCRATCH + "/scenes/old.tscn"
	DirAccess.make_dir_recursive_absolute(old.get_base_dir())
	var node := Node2D.new()
	var packed := PackedScene.new()
	packed.pack(node)
	ResourceSaver.save(packed, old)
	node.free()
	_fx.example("scene.delete", 1)
	Assert.is_false(FileAccess.file_exists(old), "deleted")
	Assert.is_true(_fx.context.edits.undo(), "undo")
	Assert.is_true(ResourceLoader.load(old, "", ResourceLoader.CACHE_MODE_IGNORE) is PackedScene, "loads again")
	DomainFixture.remove_tree(SCRATCH + "/scenes")


func test_folder_delete_needs_recursive_and_undo_restores_the_tree() -> void:
	var junk := SCRATCH + "/junk"
	_write(junk + "/a.txt", "a")
	_write(junk + "/deep/b.txt", "b")
	_fx.example("folder.delete", 1)
	Assert.is_true(FileAccess.file_exists(junk + "/deep/b.txt"), "not recursive: nothing deleted")
	_fx.example("folder.delete")
	Assert.is_false(DirAccess.dir_exists_absolute(junk), "the folder is gone")
	Assert.is_true(_fx.context.edits.undo(), "undo")
	Assert.eq(FileAccess.get_file_as_string(junk + "/deep/b.txt"), "b", "undo restores nested files")
	Assert.is_true(_fx.context.edits.redo(), "redo")
	Assert.is_false(DirAccess.dir_exists_absolute(junk), "redo deletes it again")
	DirAccess.make_dir_recursive_absolute(SCRATCH + "/empty")
	Assert.eq(_fx.invoke("folder.delete", {"path": SCRATCH + "/empty"})["folders_deleted"], 1,
		"an empty folder needs no flag")


func test_folder_delete_refusals() -> void:
	var cases := [
		[{"path": "res://"}, "FOLDER_PROTECTED"],
		[{"path": "res://.godot"}, "FOLDER_PROTECTED"],
		[{"path": "res://addons"}, "FOLDER_PROTECTED"],
		[{"path": "res://addons/godot_mcp_toolkit/commands", "recursive": true}, "FOLDER_PROTECTED"],
		[{"path": SCRATCH, "recursive": true}, "PATH_IN_USE"],
		[{"path": SCRATCH + "/none"}, "NOT_FOUND"],
		[{"path": MAIN}, "INVALID_PARAMS"],
		[{"path": SCRATCH, "recursive": "yes"}, "INVALID_PARAMS"],
		[{}, "INVALID_PARAMS"],
	]
	for case: Array in cases:
		var result := _fx.invoke("folder.delete", case[0])
		Assert.eq(result.get("code"), case[1], "%s -> %s (%s)" % [case[0], case[1], result.get("error")])
	Assert.is_true(FileAccess.file_exists(MAIN), "nothing deleted")
	Assert.is_true(DirAccess.dir_exists_absolute("res://addons/godot_mcp_toolkit/commands"), "toolkit untouched")


func test_scene_close_forgets_the_open_scene() -> void:
	_fx.example("scene.close")
	Assert.eq(_fx.context.runtime_scenes.closed_scenes, PackedStringArray([MAIN]), "closed through the context")
	Assert.is_false(MAIN in _fx.context.scenes.open_scene_paths(), "no longer open")
	_fx.example("scene.close", 1)
	Assert.eq(_fx.invoke("scene.close", {"file_path": 3}).get("code"), "INVALID_PARAMS", "file_path must be a string")
	Assert.eq(_fx.invoke("scene.close", {"file_path": "res://../x.tscn"}).get("code"), "PATH_DENIED", "guarded")
	_fx.context.scenes.open_scene(MAIN)
