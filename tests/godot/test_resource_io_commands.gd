extends RefCounted
## commands/resource/resource_commands.gd through the command registry with a runtime context: a
## LabelSettings .tres created, updated, read back (fresh from disk, as a user opening the project
## gets it), and undo/redo of both the loaded resource and the file.
## Not covered here (editor only): the inspector showing the reloaded resource and the FileSystem
## dock picking up the file (refresh_files is asserted as requested).

const Assert := preload("assert.gd")
const AnswerBudget := preload("res://addons/godot_mcp_toolkit/contract/answer_budget.gd")
const DomainFixture := preload("domain_fixture.gd")
const ResultExamples := preload("result_examples.gd")
const CommandDomains := preload("res://addons/godot_mcp_toolkit/commands/command_domains.gd")

const DOMAIN := "res://addons/godot_mcp_toolkit/commands/resource/resource_commands.gd"
const DIR := "res://tmp_tests/resource_io"
const TITLE := DIR + "/title.tres"
const FONT := DIR + "/pixel.tres"
const BLOBS := DIR + "/blobs.tres"
const BLOBS_SCRIPT := DIR + "/blobs.gd"
const Settings := preload("res://addons/godot_mcp_toolkit/settings/settings_registration.gd")

var _fx: DomainFixture = null


func _init() -> void:
	var domains: Array[String] = [DOMAIN]
	_fx = DomainFixture.new(domains, "resource_io", null, DIR, "4.6.0")


func cleanup() -> void:
	if ResourceLoader.has_cached(TITLE):
		load(TITLE).resource_path = ""
	_fx.cleanup()


func test_registered_with_the_reference_lanes() -> void:
	Assert.is_true(DOMAIN in CommandDomains.DOMAINS, "listed in command_domains.gd")
	Assert.is_true(_fx.registry.dispatch_info("resource.load")["read_only"], "load is a read")
	Assert.is_false(_fx.registry.dispatch_info("resource.write")["read_only"], "write mutates")


func test_create_saves_what_a_user_loads_and_undo_removes_it() -> void:
	var created := _fx.invoke("resource.write", ResultExamples.params("resource_io", "resource.write", 0))
	ResultExamples.check("resource_io", "resource.write", created, 0)
	Assert.eq(_fx.context.runtime_project.refreshed_files, PackedStringArray([TITLE]), "the editor is told")
	var fresh := ResourceLoader.load(TITLE, "", ResourceLoader.CACHE_MODE_IGNORE) as LabelSettings
	Assert.is_true(fresh != null, "loads from disk as a LabelSettings")
	Assert.eq([fresh.font_size, fresh.font_color, fresh.resource_name], [24, Color.RED, "Title"], "with the values")
	Assert.is_true(_fx.context.edits.undo(), "undo")
	Assert.is_false(FileAccess.file_exists(TITLE), "the created file is gone")
	Assert.is_false(ResourceLoader.has_cached(TITLE), "and no longer answers from the cache")
	Assert.is_true(_fx.context.edits.redo(), "redo")
	var again := ResourceLoader.load(TITLE, "", ResourceLoader.CACHE_MODE_IGNORE) as LabelSettings
	Assert.eq(again.font_size, 24, "redo writes it again")


func test_update_keeps_other_properties_and_undo_restores_memory_and_file() -> void:
	_fx.invoke("resource.write", ResultExamples.params("resource_io", "resource.write", 0))
	var original := FileAccess.get_file_as_bytes(TITLE)
	var live := load(TITLE) as LabelSettings
	var updated := _fx.invoke("resource.write", ResultExamples.params("resource_io", "resource.write", 1))
	ResultExamples.check("resource_io", "resource.write", updated, 1)
	Assert.eq(live.font_size, 32, "the loaded resource is the one updated")
	var fresh := ResourceLoader.load(TITLE, "", ResourceLoader.CACHE_MODE_IGNORE) as LabelSettings
	Assert.eq([fresh.font_size, fresh.font_color], [32, Color.RED], "saved; the colour kept")
	Assert.is_true(_fx.context.edits.undo(), "undo")
	Assert.eq(live.font_size, 24, "the loaded resource goes back")
	Assert.eq(FileAccess.get_file_as_bytes(TITLE), original, "and so does the file")
	Assert.is_true(_fx.context.edits.redo(), "redo")
	Assert.eq(live.font_size, 32, "redo")
	var same := _fx.invoke("resource.write", {"file_path": TITLE, "properties": {"font_size": 32}})
	Assert.eq(same["status"], "unchanged", "a write that changes nothing says so")
	Assert.is_true(_fx.context.edits.undo(), "the no-op recorded nothing: this undoes the update")
	Assert.eq(live.font_size, 24, "back to 24")


func test_refusals_leave_resource_and_file_alone() -> void:
	_fx.invoke("resource.write", ResultExamples.params("resource_io", "resource.write", 0))
	var live := load(TITLE) as LabelSettings
	var bytes := FileAccess.get_file_as_bytes(TITLE)
	var unknown := _fx.invoke("resource.write", ResultExamples.params("resource_io", "resource.write", 2))
	ResultExamples.check("resource_io", "resource.write", unknown, 2)
	Assert.contains(unknown["error"], "speed", "names the property")
	Assert.eq(live.font_size, 24, "font_size (written first) was put back")
	var not_resource := _fx.invoke("resource.write", ResultExamples.params("resource_io", "resource.write", 3))
	ResultExamples.check("resource_io", "resource.write", not_resource, 3)
	var cases := {
		"INVALID_CLASS": {"file_path": TITLE, "type": "Gradient"},
		"INVALID_PARAMS": {"file_path": DIR + "/new.tres"},
		"UNSUPPORTED_FILE_TYPE": {"file_path": DIR + "/title.txt", "type": "LabelSettings"},
		"PARENT_NOT_FOUND": {"file_path": DIR + "/missing/a.tres", "type": "LabelSettings"},
		"PATH_DENIED": {"file_path": "res://addons/godot_mcp_toolkit/x.tres", "type": "LabelSettings"},
	}
	for code: String in cases:
		Assert.eq(_fx.invoke("resource.write", cases[code])["code"], code, code)
	Assert.eq(_fx.invoke("resource.write", {"file_path": DIR + "/r.tres", "type": "Nope"})["code"], "UNKNOWN_CLASS",
		"unknown class")
	Assert.eq(_fx.invoke("resource.write", {"file_path": TITLE, "properties": {"font_size": "big"}})["code"],
		"INVALID_VALUE", "a value of the wrong type: the code node_set_property gives it")
	Assert.eq(_fx.invoke("resource.write", {"file_path": TITLE, "properties": {"resource_path": DIR + "/x.tres"}})["code"],
		"INVALID_PARAMS", "the path is file_path's")
	Assert.eq(FileAccess.get_file_as_bytes(TITLE), bytes, "the file is untouched")
	Assert.eq(DirAccess.get_files_at(DIR), PackedStringArray(["title.tres"]), "no other file made")
	Assert.is_true(_fx.context.edits.undo(), "only the first create is in the history")
	Assert.is_false(_fx.context.edits.undo(), "nothing else")


func test_load_reads_tagged_values_and_wraps_strings() -> void:
	_fx.invoke("resource.write", ResultExamples.params("resource_io", "resource.write", 0))
	var loaded := _fx.invoke("resource.load", ResultExamples.params("resource_io", "resource.load", 0))
	ResultExamples.check("resource_io", "resource.load", loaded, 0)
	var properties: Dictionary = loaded["properties"]
	Assert.eq(properties["font_size"], 24, "an int as is")
	Assert.eq(properties["font_color"], {"type": "Color", "r": 1.0, "g": 0.0, "b": 0.0, "a": 1.0}, "a Color tagged")
	var name: String = properties["resource_name"]
	Assert.is_true(name.begins_with("<untrusted-") and name.contains("\nTitle\n"), "a string wrapped")
	Assert.is_false(properties.has("resource_path"), "the path is file_path, not a property")
	Assert.eq(loaded["total_properties"], properties.size(), "counted")
	var missing := _fx.invoke("resource.load", ResultExamples.params("resource_io", "resource.load", 1))
	ResultExamples.check("resource_io", "resource.load", missing, 1)
	Assert.eq(_fx.invoke("resource.load", {"file_path": "res://../x.tres"})["code"], "PATH_DENIED", "..")
	_write(DIR + "/broken.tres", "[gd_resource type=\"LabelSettings\" format=3]\n[resource]\nfont_size = (\n")
	Assert.eq(_fx.invoke("resource.load", {"file_path": DIR + "/broken.tres"})["code"], "LOAD_FAILED", "a bad file")
	Assert.is_true(_fx.context.edits.undo(), "undo the create: the reads recorded nothing")
	Assert.is_false(_fx.context.edits.undo(), "nothing else")


func _write(path: String, text: String) -> void:
	var file := FileAccess.open(path, FileAccess.WRITE)
	file.store_string(text)
	file.close()



func test_what_load_gives_write_takes_back_and_a_changed_value_is_stored() -> void:
	var font := FontFile.new()
	font.data = PackedByteArray([1, 2, 3, 250])
	font.resource_name = "Pixel"
	Assert.eq(ResourceSaver.save(font, FONT), OK, "a FontFile with data")
	var loaded := _fx.invoke("resource.load", {"file_path": FONT})
	Assert.eq(loaded["properties"]["data"], {"type": "PackedByteArray", "base64": "AQID+g=="}, "bytes as base64")
	var back := _fx.invoke("resource.write", {"file_path": FONT, "properties": loaded["properties"]})
	Assert.eq([back["success"], back.get("status")], [true, "unchanged"],
		"every property load gave, wrapped strings included, goes back as it was (%s)" % back)
	Assert.is_false(_fx.context.edits.undo(), "and nothing was recorded")
	var changed: Dictionary = loaded["properties"].duplicate()
	changed["data"] = {"type": "PackedByteArray", "base64": "BAU="}
	var written := _fx.invoke("resource.write", {"file_path": FONT, "properties": changed})
	Assert.eq([written["success"], written["status"]], [true, "updated"], "a changed value (%s)" % written)
	var fresh := ResourceLoader.load(FONT, "", ResourceLoader.CACHE_MODE_IGNORE) as FontFile
	Assert.eq([fresh.data, fresh.resource_name], [PackedByteArray([4, 5]), "Pixel"], "saved, the name unwrapped")


func test_load_pages_so_a_reply_fits_one_answer() -> void:
	var file := FileAccess.open(BLOBS_SCRIPT, FileAccess.WRITE)
	file.store_string("extends Resource\n\n@export var a: PackedByteArray\n@export var b: PackedByteArray\n"
		+ "@export var c: PackedByteArray\n@export var huge: PackedByteArray\n")
	file.close()
	var blobs: Resource = (load(BLOBS_SCRIPT) as Script).new()
	var chunk := PackedByteArray()
	chunk.resize(4000)
	for name: String in ["a", "b", "c"]:
		blobs.set(name, chunk)
	Assert.eq(ResourceSaver.save(blobs, BLOBS), OK, "three 4 KB properties (5.4 KB each as base64)")
	var first := _fx.invoke("resource.load", {"file_path": BLOBS})
	Assert.eq([first["success"], first["has_more"]], [true, true], "a page, not the whole (%s)" % str(first).left(300))
	Assert.contains(first["hint"], "offset", "says how to go on")
	Assert.is_true(AnswerBudget.size_of(first) <= AnswerBudget.BYTES, "the page fits one answer")
	var seen: Dictionary = first["properties"].duplicate()
	var offset: Variant = first.get("next_offset")
	var pages := 1
	while offset != null and pages < 10:
		var page := _fx.invoke("resource.load", {"file_path": BLOBS, "offset": offset})
		Assert.eq(page["total_properties"], first["total_properties"], "the same total on every page")
		seen.merge(page["properties"])
		offset = page.get("next_offset")
		pages += 1
	Assert.is_true(pages >= 2, "more than one page")
	Assert.eq(seen.size(), first["total_properties"], "every property, across the pages")
	var named := _fx.invoke("resource.load", {"file_path": BLOBS, "properties": ["b"]})
	Assert.eq(named["properties"].keys(), ["b"], "just the one named")
	Assert.eq(_fx.invoke("resource.load", {"file_path": BLOBS, "properties": ["nope"]})["code"], "PROPERTY_NOT_FOUND",
		"an unknown name")
	chunk.resize(60000)
	blobs.set("huge", chunk)
	Assert.eq(ResourceSaver.save(blobs, BLOBS), OK, "one 60 KB property")
	var alone := _fx.invoke("resource.load", {"file_path": BLOBS, "properties": ["huge"]})
	var huge: Dictionary = alone["properties"]["huge"]
	Assert.eq([huge["omitted"], huge["variant"]], [true, "PackedByteArray"], "a value over one answer: its kind")
	Assert.is_true(huge["json_bytes"] > 80000, "and its size, not a cut value")
	Assert.contains(alone["hint"], "script_read", "and where to read it")
