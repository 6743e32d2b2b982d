extends RefCounted
## commands/checkpoints/checkpoint_commands.gd through the command registry with a runtime context: files
## written, created and deleted by real toolkit commands (script, scene, resource, project
## settings, file deletion) after a checkpoint come back byte-exact on restore; a file edited by
## hand since is reported as a conflict and left as the user made it; a journal read back from
## disk (a new journal object, as after an editor restart) still restores; the bounds drop the
## oldest checkpoints and say so; nesting; bad input.
## Each test journals into its own folder under user:// (not the project's .godot/).
## Not covered here (editor only): the editor reloading an open scene tab and the script editor
## (reload_scene and refresh_files are asserted as requested through the context).

const Assert := preload("assert.gd")
const DomainFixture := preload("domain_fixture.gd")
const ResultExamples := preload("result_examples.gd")
const CommandDomains := preload("res://addons/godot_mcp_toolkit/commands/command_domains.gd")
const ProjectWrites := preload("res://addons/godot_mcp_toolkit/checkpoints/project_writes.gd")
const FileJournal := preload("res://addons/godot_mcp_toolkit/checkpoints/file_journal.gd")

const DOMAIN := "res://addons/godot_mcp_toolkit/commands/checkpoints/checkpoint_commands.gd"
const OTHER_DOMAINS := [
	"res://addons/godot_mcp_toolkit/commands/script/script_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/scene/scene_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/editor/editor_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/resource/resource_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/project/project_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/filesystem/filesystem_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/save/save_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/asset/asset_commands.gd",
]
const DIR := "res://tmp_tests/checkpoint"
const JOURNAL_ROOT := "user://tmp_tests/checkpoint_journal"
const SETTING := "tmp_tests/checkpoint/level"
const PLAYER := DIR + "/player.gd"
const ENEMY := DIR + "/enemy.gd"
## A 2x1 PNG.
const PNG := "iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAIAAAB7QOjdAAAADUlEQVR4nGP4zwAE/wEHAAH/4iOeWQAAAABJRU5ErkJggg=="

var _fx: DomainFixture = null
var _journal: FileJournal = null


func _init() -> void:
	DomainFixture.remove_tree(JOURNAL_ROOT)
	_journal = FileJournal.new(JOURNAL_ROOT)
	ProjectWrites.install(_journal)
	var domains: Array[String] = [DOMAIN]
	for path: String in OTHER_DOMAINS:
		domains.append(path)
	_fx = DomainFixture.new(domains, "checkpoint", Node.new(), DIR, "4.6.0")


func cleanup() -> void:
	ProjectWrites.uninstall(_journal)
	if ProjectSettings.has_setting(SETTING):
		ProjectSettings.set_setting(SETTING, null)
		ProjectSettings.save()
	DomainFixture.remove_tree(JOURNAL_ROOT)
	DomainFixture.remove_tree("user://tmp_tests/checkpoint_saves")
	_fx.cleanup()


func test_registered_with_their_lanes() -> void:
	Assert.is_true(DOMAIN in CommandDomains.DOMAINS, "listed in command_domains.gd")
	for method: String in ["checkpoint.list", "checkpoint.diff"]:
		Assert.is_true(_fx.registry.dispatch_info(method)["read_only"], "%s is a read" % method)
	for method: String in ["checkpoint.create", "checkpoint.restore"]:
		Assert.is_false(_fx.registry.dispatch_info(method)["read_only"], "%s changes something" % method)
	Assert.is_true(ProjectWrites.journal() == _journal, "registering keeps a journal already installed")


func test_examples_round_trip() -> void:
	_write(PLAYER, "extends Node\n")
	_fx.example("checkpoint.create")
	_fx.example("checkpoint.create", 1)
	_fx.example("checkpoint.list")
	_fx.invoke("script.write", {"file_path": PLAYER, "content": "extends Node2D\n\nvar speed := 200.0\n"})
	_fx.invoke("script.write", {"file_path": ENEMY, "content": "extends Node\n"})
	_fx.example("checkpoint.diff")
	_fx.example("checkpoint.diff", 1)
	_fx.example("checkpoint.restore")
	_fx.example("checkpoint.restore", 1)
	Assert.eq(FileAccess.get_file_as_string(PLAYER), "extends Node\n", "player.gd as it was")
	Assert.is_false(FileAccess.file_exists(ENEMY), "enemy.gd gone")


func test_restore_is_byte_exact_for_writes_creates_and_deletes() -> void:
	_write(PLAYER, "extends Node\n# keep me\n")
	_write(DIR + "/unused.gd", "extends RefCounted\n")
	var scene := _saved_scene(DIR + "/level.tscn")
	var originals := {}
	for path: String in [PLAYER, DIR + "/unused.gd", scene, "res://project.godot"]:
		originals[path] = FileAccess.get_file_as_bytes(path)
	var made := _fx.invoke("checkpoint.create", {"label": "before"})
	var id: int = made["id"]
	# The assistant's work, through the real commands.
	_ok(_fx.invoke("script.write", {"file_path": PLAYER, "content": "extends Node2D\n"}), "script.write")
	_ok(_fx.invoke("script.write", {"file_path": ENEMY, "content": "extends Node\n"}), "script.write new")
	_ok(_fx.invoke("script.delete", {"file_path": DIR + "/unused.gd"}), "script.delete")
	_ok(_fx.invoke("scene.create", {"file_path": DIR + "/room.tscn", "root_type": "Node3D"}), "scene.create")
	_ok(_fx.invoke("resource.write", {"file_path": DIR + "/title.tres", "type": "LabelSettings",
		"properties": {"font_size": 24}}), "resource.write")
	_ok(_fx.invoke("project.set_setting", {"setting": SETTING, "value": 7}), "project.set_setting")
	_ok(_fx.invoke("save.write", {"path": "user://tmp_tests/checkpoint_saves/slot.json", "content": "{}"}), "save.write")
	var level := (load(scene) as PackedScene).instantiate()
	var added := Node2D.new()
	level.add_child(added)
	added.owner = level
	_fx.context.runtime_scenes.set_scene_root(level)
	_ok(_fx.invoke("editor.save_scene", {"file_path": scene}), "editor.save_scene")
	_fx.context.runtime_scenes.set_scene_root(null)
	level.free()
	Assert.ne(FileAccess.get_file_as_bytes(scene), originals[scene], "the scene file changed")

	var diff := _fx.invoke("checkpoint.diff", {"id": id})
	var statuses := {}
	for item: Dictionary in diff["files"]:
		statuses[item["path"]] = item["status"]
	Assert.eq(statuses, {PLAYER: "modified", ENEMY: "created", DIR + "/unused.gd": "deleted",
		DIR + "/room.tscn": "created", DIR + "/title.tres": "created", scene: "modified",
		"res://project.godot": "modified"}, "every change, and nothing outside res://")
	Assert.eq(diff["conflicts"], 0, "no hand edits")

	var restored := _fx.invoke("checkpoint.restore", {"id": id})
	Assert.eq(restored["conflicts"], [], "nothing in the way")
	Assert.eq(restored["failed"], [], "nothing failed")
	Assert.eq((restored["restored"] as Array).size(), 7, "seven files put back")
	for path: String in originals:
		Assert.eq(FileAccess.get_file_as_bytes(path), originals[path], "%s byte-exact" % path)
	for path: String in [ENEMY, DIR + "/room.tscn", DIR + "/title.tres"]:
		Assert.is_false(FileAccess.file_exists(path), "%s removed" % path)
	Assert.is_false(ProjectSettings.has_setting(SETTING), "the in-memory setting follows project.godot")
	Assert.eq(FileAccess.get_file_as_string("user://tmp_tests/checkpoint_saves/slot.json"), "{}",
		"user:// is never journalled nor restored")
	Assert.is_true(scene in _fx.context.runtime_scenes.reloaded_scenes, "the open scene was reloaded")
	Assert.is_true(PLAYER in _fx.context.runtime_project.refreshed_files, "the file index was told")
	var after := _fx.invoke("checkpoint.diff", {"id": id})
	Assert.eq(after["files"], [], "nothing left to restore")


func test_hand_edited_file_is_a_conflict_and_left_alone() -> void:
	_write(PLAYER, "extends Node\n")
	var id: int = _fx.invoke("checkpoint.create", {"label": "before"})["id"]
	_fx.invoke("script.write", {"file_path": PLAYER, "content": "extends Node2D\n"})
	_fx.invoke("script.write", {"file_path": ENEMY, "content": "extends Node\n"})
	_write(PLAYER, "extends Node2D\n# the user's own line\n")
	var diff := _fx.invoke("checkpoint.diff", {"id": id})
	Assert.eq(diff["conflicts"], 1, "the diff warns")
	var restored := _fx.invoke("checkpoint.restore", {"id": id})
	Assert.eq(restored["conflicts"], [{"path": PLAYER, "reason": "changed by hand since the toolkit last wrote it"}],
		"reported")
	Assert.eq(FileAccess.get_file_as_string(PLAYER), "extends Node2D\n# the user's own line\n", "not overwritten")
	Assert.eq(restored["restored"], [{"path": ENEMY, "action": "removed"}], "the rest is restored")
	var listed := _fx.invoke("checkpoint.list", {})
	Assert.eq(listed["checkpoints"][0]["file_count"], 1, "the conflict stays journalled")
	_write(PLAYER, "extends Node2D\n")
	Assert.eq(_fx.invoke("checkpoint.restore", {"id": id})["restored"], [{"path": PLAYER, "action": "rewritten"}],
		"once the hand edit is gone, a second restore puts it back")
	Assert.eq(FileAccess.get_file_as_string(PLAYER), "extends Node\n", "as at the checkpoint")


func test_imported_asset_goes_with_the_sidecars_the_engine_wrote() -> void:
	_write(DIR + "/old.png", "not really a png")
	_write(DIR + "/old.png.import", "[remap]\nimporter=\"texture\"\n")
	var id: int = _fx.invoke("checkpoint.create", {"label": "before import"})["id"]
	_ok(_fx.invoke("asset.import", {"base64_data": PNG, "dest_path": DIR + "/dot.png"}), "asset.import")
	_ok(_fx.invoke("file.delete", {"file_path": DIR + "/old.png"}), "file.delete")
	# What the editor's importer writes beside a new asset, after the toolkit's write.
	_write(DIR + "/dot.png.import", "[remap]\n")
	var diff := _fx.invoke("checkpoint.diff", {"id": id})
	Assert.eq(diff["total_files"], 2, "sidecars are not listed as changes of their own")
	var restored := _fx.invoke("checkpoint.restore", {"id": id})
	Assert.eq(restored["conflicts"], [], "the engine's sidecar is not a hand edit")
	Assert.is_false(FileAccess.file_exists(DIR + "/dot.png"), "the imported file is removed")
	Assert.is_false(FileAccess.file_exists(DIR + "/dot.png.import"), "and the .import the editor made for it")
	Assert.eq(FileAccess.get_file_as_string(DIR + "/old.png"), "not really a png", "the deleted asset is back")
	Assert.eq(FileAccess.get_file_as_string(DIR + "/old.png.import"), "[remap]\nimporter=\"texture\"\n",
		"with its .import")


func test_a_removed_open_scene_is_closed() -> void:
	var id: int = _fx.invoke("checkpoint.create", {"label": "x"})["id"]
	_ok(_fx.invoke("scene.create", {"file_path": DIR + "/room.tscn", "root_type": "Node3D"}), "scene.create")
	Assert.eq(_fx.context.scenes.open_scene(DIR + "/room.tscn"), OK, "opened")
	var restored := _fx.invoke("checkpoint.restore", {"id": id})
	Assert.eq(restored["closed"], [DIR + "/room.tscn"], "closed")
	Assert.is_false(DIR + "/room.tscn" in _fx.context.scenes.open_scene_paths(), "no longer open")


func test_a_hand_edit_the_toolkit_wrote_over_is_still_a_conflict() -> void:
	_write(PLAYER, "extends Node\n")
	var id: int = _fx.invoke("checkpoint.create", {"label": "before"})["id"]
	_fx.invoke("script.write", {"file_path": PLAYER, "content": "extends Node2D\n"})
	_write(PLAYER, "extends Node2D\n# the user's line\n")
	_fx.invoke("script.edit", {"file_path": PLAYER, "old_string": "Node2D", "new_string": "Node3D"})
	Assert.eq(FileAccess.get_file_as_string(PLAYER), "extends Node3D\n# the user's line\n",
		"the edit kept the user's line")
	var restored := _fx.invoke("checkpoint.restore", {"id": id})
	Assert.eq((restored["conflicts"] as Array).size(), 1, "a conflict")
	Assert.eq(FileAccess.get_file_as_string(PLAYER), "extends Node3D\n# the user's line\n", "the user's line survives")


func test_journal_read_back_from_disk_still_restores() -> void:
	_write(PLAYER, "extends Node\n")
	var id: int = _fx.invoke("checkpoint.create", {"label": "before restart"})["id"]
	_fx.invoke("script.write", {"file_path": PLAYER, "content": "extends Control\n"})
	_fx.invoke("script.write", {"file_path": ENEMY, "content": "extends Node\n"})
	ProjectWrites.uninstall(_journal)
	_journal = FileJournal.new(JOURNAL_ROOT)
	ProjectWrites.install(_journal)
	var listed := _fx.invoke("checkpoint.list", {})
	Assert.eq(listed["total"], 1, "the checkpoint is still there")
	Assert.eq(listed["checkpoints"][0]["label"], "before restart", "with its label")
	var restored := _fx.invoke("checkpoint.restore", {"id": id})
	Assert.eq(restored["conflicts"], [], "its own writes are recognised after the reload")
	Assert.eq(FileAccess.get_file_as_string(PLAYER), "extends Node\n", "restored")
	Assert.is_false(FileAccess.file_exists(ENEMY), "created file removed")


func test_newer_checkpoints_are_undone_and_dropped_by_an_older_restore() -> void:
	_write(PLAYER, "v1\n")
	var first: int = _fx.invoke("checkpoint.create", {"label": "one"})["id"]
	_fx.invoke("script.write", {"file_path": PLAYER, "content": "extends Node # v2\n"})
	var second: int = _fx.invoke("checkpoint.create", {"label": "two"})["id"]
	_fx.invoke("script.write", {"file_path": PLAYER, "content": "extends Node # v3\n"})
	_fx.invoke("script.write", {"file_path": ENEMY, "content": "extends Node # new\n"})
	var restored := _fx.invoke("checkpoint.restore", {"id": first})
	Assert.eq(FileAccess.get_file_as_string(PLAYER), "v1\n", "back to the older checkpoint")
	Assert.is_false(FileAccess.file_exists(ENEMY), "the newer checkpoint's creation undone too")
	Assert.eq(restored["dropped"], [{"id": second, "label": "two", "reason": "newer than the restored checkpoint"}],
		"the newer checkpoint is dropped and said so")
	var listed := _fx.invoke("checkpoint.list", {})
	Assert.eq(listed["total"], 1, "the restored one stays")
	Assert.eq(listed["checkpoints"][0]["file_count"], 0, "empty again")
	_fx.invoke("script.write", {"file_path": PLAYER, "content": "extends Node # v4\n"})
	_fx.invoke("checkpoint.restore", {"id": first})
	Assert.eq(FileAccess.get_file_as_string(PLAYER), "v1\n", "it keeps journalling after a restore")


func test_bounds_drop_the_oldest_and_say_so() -> void:
	_use_journal(FileJournal.new(JOURNAL_ROOT, 2, 10))
	_write(PLAYER, "0123456789abcdef\n")
	_write(ENEMY, "fedcba9876543210\n")
	_fx.invoke("checkpoint.create", {"label": "a"})
	_fx.invoke("checkpoint.create", {"label": "b"})
	var third := _fx.invoke("checkpoint.create", {"label": "c"})
	Assert.eq(third["dropped"], [{"id": 1, "label": "a", "reason": "more than 2 checkpoints"}], "count bound")
	Assert.eq(third["checkpoints"], 2, "two kept")
	_fx.invoke("script.write", {"file_path": PLAYER, "content": "extends Node # x\n"})
	_fx.invoke("checkpoint.create", {"label": "d"})
	_fx.invoke("script.write", {"file_path": ENEMY, "content": "extends Node # y\n"})
	var listed := _fx.invoke("checkpoint.list", {})
	var labels: Array = []
	for checkpoint: Dictionary in listed["checkpoints"]:
		labels.append(checkpoint["label"])
	Assert.eq(labels, ["d"], "over the byte bound only the newest is kept")
	var reasons: Array = []
	for dropped: Dictionary in listed["dropped"]:
		reasons.append("%s: %s" % [dropped["label"], dropped["reason"]])
	Assert.eq(reasons, ["a: more than 2 checkpoints", "b: stored originals over 10 bytes",
		"c: stored originals over 10 bytes"], "every drop is listed")
	Assert.eq(listed["limits"], {"max_checkpoints": 2, "max_bytes": 10}, "limits shown")
	Assert.eq(DirAccess.get_files_at(JOURNAL_ROOT + "/blobs").size(), 1, "blobs of dropped checkpoints deleted")


func test_bad_input_is_refused() -> void:
	Assert.eq(_fx.invoke("checkpoint.create", {})["code"], "INVALID_PARAMS", "label required")
	Assert.eq(_fx.invoke("checkpoint.create", {"label": 5})["code"], "INVALID_PARAMS", "label is text")
	Assert.eq(_fx.invoke("checkpoint.restore", {"id": "one"})["code"], "INVALID_PARAMS", "id is a number")
	Assert.eq(_fx.invoke("checkpoint.diff", {"id": 3})["code"], "NOT_FOUND", "unknown id")
	Assert.eq(_fx.invoke("checkpoint.diff", {"id": 0})["code"], "INVALID_PARAMS", "ids start at 1")


func test_outside_res_and_engine_cache_never_journalled() -> void:
	_fx.invoke("checkpoint.create", {"label": "x"})
	Assert.eq(_journal.before_change("user://tmp_tests/x.json"), OK, "accepted")
	Assert.eq(_journal.before_change("res://.godot/editor/x.cfg"), OK, "accepted")
	Assert.eq(_fx.invoke("checkpoint.list", {})["checkpoints"][0]["file_count"], 0, "neither kept")


func test_a_journal_that_cannot_keep_the_original_refuses_the_write() -> void:
	_write(PLAYER, "extends Node\n")
	_fx.invoke("checkpoint.create", {"label": "x"})
	# A file where the blob folder must go: the original cannot be stored.
	DomainFixture.remove_tree(JOURNAL_ROOT + "/blobs")
	_write(JOURNAL_ROOT + "/blobs", "in the way")
	var written := _fx.invoke("script.write", {"file_path": PLAYER, "content": "extends Node2D\n"})
	Assert.eq(written.get("code", ""), "WRITE_FAILED", "refused")
	Assert.eq(FileAccess.get_file_as_string(PLAYER), "extends Node\n", "left as it was")
	DirAccess.remove_absolute(JOURNAL_ROOT + "/blobs")


func test_long_text_diff_is_cut() -> void:
	var lines := PackedStringArray()
	for i: int in 100:
		lines.append("line %d" % i)
	_write(PLAYER, "\n".join(lines) + "\n")
	var id: int = _fx.invoke("checkpoint.create", {"label": "x"})["id"]
	_fx.invoke("script.write", {"file_path": PLAYER, "content": "extends Node # changed\n"})
	var item: Dictionary = _fx.invoke("checkpoint.diff", {"id": id, "max_lines": 5})["files"][0]
	Assert.eq(item["diff"]["lines"], ["-line 0", "-line 1", "-line 2", "-line 3", "-line 4"], "first lines")
	Assert.is_true(item["diff"]["truncated"], "said so")


## max_lines 400 over 30 changed files asks for more than one answer holds: each page of files
## fits one, following next_offset lists every file once; a diff larger than an answer alone keeps
## its first lines (truncated), and a line larger than a page is shown by its size.
func test_a_large_diff_pages_within_one_answer() -> void:
	var before := PackedStringArray()
	var after := PackedStringArray()
	for i: int in 200:
		before.append("var old_value_%d := %d # the line as it was before the checkpoint" % [i, i])
		after.append("var new_value_%d := %d # the line as the assistant wrote it after it" % [i, i])
	var paths: Array = []
	for index: int in 30:
		paths.append(DIR + "/many/f%02d.gd" % index)
		_write(paths[-1], "\n".join(before.slice(0, 20)) + "\n")
	_write(DIR + "/many/long.gd", "\n".join(before) + "\n")
	_write(DIR + "/many/packed.tscn", "[gd_scene]\ndata = %s\n" % "1, ".repeat(8000))
	var id: int = _fx.invoke("checkpoint.create", {"label": "many"})["id"]
	for path: String in paths:
		_ok(_fx.invoke("script.write", {"file_path": path, "content": "\n".join(after.slice(0, 20)) + "\n"}), path)
	_ok(_fx.invoke("script.write", {"file_path": DIR + "/many/long.gd", "content": "\n".join(after) + "\n"}), "long")
	_ok(_fx.invoke("script.write", {"file_path": DIR + "/many/packed.tscn",
		"content": "[gd_scene]\ndata = %s\n" % "2, ".repeat(8000)}), "packed")
	var seen := {}
	var each := func(page: Dictionary, number: int) -> void:
		Assert.eq(page["returned"], page["files"].size(), "returned counts page %d" % number)
		for item: Dictionary in page["files"]:
			Assert.is_false(seen.has(item["path"]), "%s once" % item["path"])
			seen[item["path"]] = item
	var pages := _fx.follow_pages("checkpoint.diff", {"id": id, "max_lines": 400}, each, 30)
	Assert.eq(seen.size(), 32, "every changed file, over %d pages" % pages)
	Assert.eq(seen[paths[0]]["diff"]["lines"].size(), 40, "a small diff whole")
	var long: Dictionary = seen[DIR + "/many/long.gd"]["diff"]
	Assert.is_true(long["truncated"] and long["lines"].size() < 400 and long["lines"][0] == "-" + before[0],
		"a diff larger than an answer keeps its first lines (%d)" % long["lines"].size())
	var packed: Array = seen[DIR + "/many/packed.tscn"]["diff"]["lines"]
	Assert.eq(packed[0], {"omitted": true, "json_bytes": 24010}, "a line larger than a page by its size")


# --- helpers ------------------------------------------------------------------------------------

func _use_journal(journal: FileJournal) -> void:
	ProjectWrites.uninstall(_journal)
	DomainFixture.remove_tree(JOURNAL_ROOT)
	_journal = journal
	ProjectWrites.install(_journal)


## A file written by hand (not by the toolkit).
static func _write(path: String, text: String) -> void:
	DirAccess.make_dir_recursive_absolute(path.get_base_dir())
	var file := FileAccess.open(path, FileAccess.WRITE)
	file.store_string(text)
	file.close()


func _saved_scene(path: String) -> String:
	var root := Node2D.new()
	root.name = "Level"
	var packed := PackedScene.new()
	packed.pack(root)
	ResourceSaver.save(packed, path)
	root.free()
	return path


static func _ok(result: Dictionary, what: String) -> void:
	Assert.is_true(result.get("success", false), "%s: %s" % [what, JSON.stringify(result)])
