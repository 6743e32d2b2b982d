extends RefCounted
## The spriteframes domain (commands/spriteframes/spriteframes_commands.gd) through the command registry over a
## runtime context: the .tres files it writes, loaded back as a game would load them, every edit
## action, undo/redo of the file, and bad input that leaves the file as it was.
##
## Not covered here (only an editor shows it): PNG sheets (their import needs the editor: the
## test's texture is an ImageTexture saved as .tres), the SpriteFrames bottom panel refreshing,
## Ctrl+Z in the editor's own history.

const Assert := preload("assert.gd")
const DomainFixture := preload("domain_fixture.gd")
const ResultExamples := preload("result_examples.gd")
const DOMAIN_PATH := "res://addons/godot_mcp_toolkit/commands/spriteframes/spriteframes_commands.gd"

const DOMAIN := "spriteframes"
const SCRATCH := "res://tmp_tests/spriteframes"
const HERO := SCRATCH + "/hero.tres"
const SHEET := SCRATCH + "/sheet.tres"

var _root: Node = null
var _fx: DomainFixture = null


func _init() -> void:
	_root = Node.new()
	var domains: Array[String] = [DOMAIN_PATH]
	_fx = DomainFixture.new(domains, DOMAIN, _root)
	DirAccess.make_dir_recursive_absolute(SCRATCH)
	var sheet := ImageTexture.create_from_image(Image.create(64, 32, false, Image.FORMAT_RGBA8))
	ResourceSaver.save(sheet, SHEET)


func cleanup() -> void:
	if DirAccess.dir_exists_absolute(SCRATCH):
		for file_name: String in DirAccess.get_files_at(SCRATCH):
			if file_name != "sheet.tres":
				DirAccess.remove_absolute(SCRATCH.path_join(file_name))
	_fx.cleanup()


## The last test's cleanup: the folder goes too (the runner calls cleanup after every method; the
## fixture's cleanup then removes res://tmp_tests once empty).
func _remove_scratch() -> void:
	DomainFixture.remove_tree(SCRATCH)


func _load(path: String) -> SpriteFrames:
	return ResourceLoader.load(path, "", ResourceLoader.CACHE_MODE_IGNORE) as SpriteFrames


func test_flags() -> void:
	for method: String in ["spriteframes.create", "spriteframes.edit", "spriteframes.from_spritesheet"]:
		Assert.is_true(_fx.registry.dispatch_info(method)["scene_independent"], "%s needs no scene" % method)


func test_create_writes_a_loadable_file_and_undo_removes_it() -> void:
	_fx.example("spriteframes.create")
	var frames := _load(HERO)
	Assert.eq(frames.get_animation_names(), PackedStringArray(["walk"]), "no leftover default animation")
	Assert.eq(frames.get_animation_speed("walk"), 8.0, "fps")
	Assert.eq(frames.get_frame_duration("walk", 1), 2.0, "duration")
	var cut := frames.get_frame_texture("walk", 1) as AtlasTexture
	Assert.eq(cut.region, Rect2(32, 0, 32, 32), "atlas region kept")
	Assert.eq(cut.atlas.resource_path, SHEET, "refers to the sheet file, not a copy")
	Assert.is_true(_fx.context.edits.undo(), "undo")
	Assert.is_false(FileAccess.file_exists(HERO), "the created file is gone")
	Assert.is_true(_fx.context.edits.redo(), "redo")
	Assert.eq(_load(HERO).get_frame_count("walk"), 2, "back")
	var again := _fx.invoke("spriteframes.create", {"file_path": HERO, "animations": [{"name": "run", "frames": []}]})
	Assert.eq(again["status"], "replaced", "a second create replaces")
	Assert.is_true(_fx.context.edits.undo(), "undo the replace")
	Assert.is_true(_load(HERO).has_animation("walk"), "the old file is back")
	var kept := _fx.invoke("spriteframes.create", {"file_path": HERO, "if_exists": "return",
		"animations": [{"name": "x", "frames": []}]})
	Assert.eq(kept["status"], "returned", "if_exists return")
	Assert.is_false(_load(HERO).has_animation("x"), "nothing applied")


func test_create_bad_input_writes_nothing() -> void:
	_fx.example("spriteframes.create", 1)
	Assert.is_false(FileAccess.file_exists(HERO), "no file")
	Assert.eq(_fx.invoke("spriteframes.create", {"file_path": "res://tmp_tests/nofolder/a.tres", "animations": [
		{"name": "a", "frames": []}]})["code"], "PARENT_NOT_FOUND", "no folder")
	Assert.eq(_fx.invoke("spriteframes.create", {"file_path": SCRATCH + "/a.png", "animations": [
		{"name": "a", "frames": []}]})["code"], "UNSUPPORTED_FILE_TYPE", "not a .tres")
	Assert.eq(_fx.invoke("spriteframes.create", {"file_path": "user://a.tres", "animations": [
		{"name": "a", "frames": []}]})["code"], "PATH_DENIED", "outside res://")
	Assert.eq(_fx.invoke("spriteframes.create", {"file_path": HERO, "animations": [{"name": "a", "frames": [
		{"texture_path": SHEET, "atlas": {"x": 60, "y": 0, "width": 32, "height": 32}}]}]})["code"], "INVALID_PARAMS",
		"atlas outside the texture")
	Assert.is_false(FileAccess.file_exists(HERO), "still no file")


func test_edit_actions() -> void:
	_fx.invoke("spriteframes.create", ResultExamples.params(DOMAIN, "spriteframes.create"))
	var shared := load(HERO) as SpriteFrames  # the cached copy scenes using the file hold
	_fx.example("spriteframes.edit")
	_fx.example("spriteframes.edit", 1)
	Assert.eq(_load(HERO).get_animation_speed("walk"), 12.0, "fps saved")
	Assert.eq(shared.get_animation_speed("walk"), 12.0, "the cached copy is reloaded in place")
	Assert.is_true(_fx.context.edits.undo(), "undo")
	Assert.eq(_load(HERO).get_animation_speed("walk"), 8.0, "fps back")
	_fx.example("spriteframes.edit", 2)
	var edit := func(params: Dictionary) -> Dictionary:
		params["file_path"] = HERO
		return _fx.invoke("spriteframes.edit", params)
	Assert.eq(edit.call({"action": "add_animation", "animation_name": "idle", "fps": 3, "loop": false,
		"frames": [{"texture_path": SHEET}]})["frames_added"], 1, "animation added")
	Assert.eq(edit.call({"action": "add_frame", "animation_name": "walk", "frame_index": 0, "frames": [
		{"texture_path": SHEET, "atlas": {"x": 0, "y": 0, "width": 16, "height": 16}}]})["inserted_at"], 0, "frame in front")
	Assert.eq(edit.call({"action": "reorder_frames", "animation_name": "walk", "frame_index": 0, "new_index": 2})["moved"],
		{"from": 0, "to": 2}, "moved to the end")
	var looped: Dictionary = edit.call({"action": "set_loop", "animation_name": "walk", "loop": false})
	Assert.eq(looped["animation"]["loop"], false, "loop")
	var removed: Dictionary = edit.call({"action": "remove_frame", "animation_name": "walk", "frame_index": 0})
	Assert.eq(removed["removed_index"], 0, "removed")
	var frames := _load(HERO)
	Assert.eq(frames.get_frame_count("walk"), 2, "walk: 3 frames then one removed")
	Assert.eq((frames.get_frame_texture("walk", 1) as AtlasTexture).region.size, Vector2(16, 16), "the moved frame last")
	Assert.is_false(frames.get_animation_loop("walk"), "loop saved")
	Assert.eq(frames.get_animation_speed("idle"), 3.0, "idle saved")
	Assert.eq(edit.call({"action": "remove_animation", "animation_name": "idle"})["removed"], true, "removed")
	Assert.is_false(_load(HERO).has_animation("idle"), "gone from the file")
	Assert.eq(edit.call({"action": "add_animation", "animation_name": "walk"})["code"], "INVALID_PARAMS", "exists")
	Assert.eq(edit.call({"action": "remove_frame", "animation_name": "walk", "frame_index": 9})["code"], "INVALID_PARAMS",
		"index out of range")
	Assert.eq(edit.call({"action": "explode"})["code"], "INVALID_PARAMS", "unknown action")
	Assert.eq(_fx.invoke("spriteframes.edit", {"file_path": SHEET, "action": "list"})["code"], "INVALID_CLASS",
		"not frames")
	Assert.eq(_fx.invoke("spriteframes.edit", {"file_path": SCRATCH + "/none.tres", "action": "list"})["code"],
		"NOT_FOUND", "no file")


func test_from_spritesheet_cuts_the_grid() -> void:
	_fx.example("spriteframes.from_spritesheet")
	var frames := _load(SCRATCH + "/grid.tres")
	Assert.eq((frames.get_frame_texture("idle", 0) as AtlasTexture).region, Rect2(16, 0, 16, 16), "row 0 col 1")
	Assert.eq((frames.get_frame_texture("jump", 1) as AtlasTexture).region, Rect2(0, 16, 16, 16), "wrapped to row 1")
	Assert.is_false(frames.get_animation_loop("jump"), "loop off")
	var past := _fx.invoke("spriteframes.from_spritesheet", {"file_path": SCRATCH + "/bad.tres", "texture_path": SHEET,
		"frame_size": {"x": 16, "y": 16}, "animations": [{"name": "a", "row": 1, "frame_count": 5}]})
	Assert.eq(past["code"], "INVALID_PARAMS", "past the sheet")
	Assert.contains(past["error"], "4 columns x 2 rows", "says the grid")
	Assert.eq(_fx.invoke("spriteframes.from_spritesheet", {"file_path": SCRATCH + "/bad.tres", "texture_path": SHEET,
		"frame_size": {"x": 0, "y": 16}, "animations": [{"name": "a", "frame_count": 1}]})["code"],
		"INVALID_PARAMS", "size 0")
	Assert.is_false(FileAccess.file_exists(SCRATCH + "/bad.tres"), "nothing written")


func test_zz_folder_removed() -> void:
	_remove_scratch()
	Assert.is_false(DirAccess.dir_exists_absolute(SCRATCH), "scratch folder removed")
