extends RefCounted
## commands/save/save_commands.gd through the command registry with a runtime context: save files
## under the engine's user://, the read cap and paging, secret scrubbing, undo of writes and
## deletes, and the refusal of anything outside user://.
## Not covered here (editor only): nothing; these tools never touch the editor's file index.

const Assert := preload("assert.gd")
const DomainFixture := preload("domain_fixture.gd")
const ResultExamples := preload("result_examples.gd")
const CommandDomains := preload("res://addons/godot_mcp_toolkit/commands/command_domains.gd")
const Settings := preload("res://addons/godot_mcp_toolkit/settings/settings_registration.gd")
const Untrusted := preload("res://addons/godot_mcp_toolkit/security/untrusted.gd")

const DOMAIN := "res://addons/godot_mcp_toolkit/commands/save/save_commands.gd"
const ROOT := "user://tmp_tests"
const SLOT := ROOT + "/saves/slot1.json"

var _fx: DomainFixture = null


func _init() -> void:
	var domains: Array[String] = [DOMAIN]
	_fx = DomainFixture.new(domains, "user_data", null, "", "4.6.0")


func cleanup() -> void:
	DomainFixture.remove_tree(ROOT)
	if ProjectSettings.has_setting(Settings.SAVE_READ_CAP_KB):
		ProjectSettings.set_setting(Settings.SAVE_READ_CAP_KB, null)
	_fx.cleanup()


func test_registered_with_the_reference_lanes() -> void:
	Assert.is_true(DOMAIN in CommandDomains.DOMAINS, "listed in command_domains.gd")
	for method: String in ["save.read", "save.list"]:
		Assert.is_true(_fx.registry.dispatch_info(method)["read_only"], "%s is a read" % method)
	for method: String in ["save.write", "save.delete"]:
		Assert.is_false(_fx.registry.dispatch_info(method)["read_only"], "%s mutates" % method)
		Assert.is_true(_fx.registry.dispatch_info(method)["scene_independent"], "%s needs no scene" % method)


func test_write_read_list_delete_round_trip_with_undo() -> void:
	var params := ResultExamples.params("user_data", "save.write", 0)
	var written := _fx.invoke("save.write", params)
	ResultExamples.check("user_data", "save.write", written, 0)
	Assert.eq(FileAccess.get_file_as_string(SLOT), params["content"], "on disk as given")
	var read := _fx.invoke("save.read", ResultExamples.params("user_data", "save.read", 0))
	ResultExamples.check("user_data", "save.read", read, 0)
	var content: String = read["content"]
	Assert.is_true(content.begins_with("<untrusted-") and content.contains("kind=\"save_data\""), "wrapped")
	Assert.contains(content, "\"level\": 3", "the data")
	Assert.is_false(content.contains("abcdef123456"), "the credential is not handed back")
	var listed := _fx.invoke("save.list", ResultExamples.params("user_data", "save.list", 0))
	ResultExamples.check("user_data", "save.list", listed, 0)
	var root_list := _fx.invoke("save.list", {"path": ROOT})
	Assert.eq(root_list["folders"], [ROOT + "/saves"], "folders are listed apart")
	var deleted := _fx.invoke("save.delete", ResultExamples.params("user_data", "save.delete", 0))
	ResultExamples.check("user_data", "save.delete", deleted, 0)
	Assert.is_false(FileAccess.file_exists(SLOT), "deleted")
	Assert.is_true(_fx.context.edits.undo(), "undo the delete")
	Assert.eq(FileAccess.get_file_as_string(SLOT), params["content"], "the bytes are back")
	Assert.is_true(_fx.context.edits.redo(), "redo")
	Assert.is_false(FileAccess.file_exists(SLOT), "deleted again")
	Assert.is_true(_fx.context.edits.undo(), "undo the delete again")
	Assert.is_true(_fx.context.edits.undo(), "undo the write")
	Assert.is_false(FileAccess.file_exists(SLOT), "the created file is gone")


func test_replace_and_undo_restores_the_old_text() -> void:
	_fx.invoke("save.write", {"path": SLOT, "content": "old"})
	var result := _fx.invoke("save.write", {"path": SLOT, "content": "new"})
	Assert.eq(result["status"], "replaced", "status")
	Assert.is_true(_fx.context.edits.undo(), "undo")
	Assert.eq(FileAccess.get_file_as_string(SLOT), "old", "the old text is back")


func test_paging_and_the_cap() -> void:
	_fx.invoke("save.write", ResultExamples.params("user_data", "save.write", 0))
	var first := _fx.invoke("save.read", ResultExamples.params("user_data", "save.read", 1))
	ResultExamples.check("user_data", "save.read", first, 1)
	var rest := _fx.invoke("save.read", {"path": SLOT, "offset": first["next_offset"]})
	Assert.eq([rest["returned"], rest["has_more"]], [30, false], "the rest in one page")
	_fx.invoke("save.write", {"path": ROOT + "/big.txt", "content": "é".repeat(1000)})
	ProjectSettings.set_setting(Settings.SAVE_READ_CAP_KB, 1)
	var whole := _fx.invoke("save.read", {"path": ROOT + "/big.txt"})
	Assert.eq([whole["returned"], whole["has_more"], whole["next_offset"]], [1024, true, 1024],
		"2000 bytes over a 1 KiB cap: its first KiB")
	Assert.contains(whole["hint"], "offset", "says how to read the rest")
	var page := _fx.invoke("save.read", {"path": ROOT + "/big.txt", "offset": 0, "max_bytes": 4000})
	Assert.eq(page["returned"], 1024, "capped at 1 KiB, on a character boundary")
	Assert.contains(page["hint"], "cap", "the lowering is named")
	var odd := _fx.invoke("save.read", {"path": ROOT + "/big.txt", "max_bytes": 3})
	Assert.eq(odd["returned"], 2, "never half a character")
	Assert.eq(_fx.invoke("save.read", {"path": SLOT, "offset": 99})["code"], "INVALID_PARAMS", "past the end")
	Assert.eq(_fx.invoke("save.read", {"path": SLOT, "max_bytes": 0})["code"], "INVALID_PARAMS", "max_bytes >= 1")


## max_bytes 4 MiB asks for more than one answer holds, and so does a read without it: each page
## stops within one (after its last whole line), and the pages, following next_offset, are the file.
func test_a_large_max_bytes_pages_within_one_answer() -> void:
	var text := ""
	for index in 600:
		text += "{\"slot\": %d, \"name\": \"Zoë \\\"the\\\" brave\", \"tab\": \"\t\"}\n" % index
	var path := ROOT + "/saves/long.json"
	_fx.invoke("save.write", {"path": path, "content": text})
	var first := _fx.invoke("save.read", {"path": path})
	Assert.is_true(first["has_more"] and first["returned"] < text.to_utf8_buffer().size(),
		"a read without max_bytes: its first page")
	var parts: Array[PackedByteArray] = []  # an Array: the lambda adds to this one, not to a copy
	var each := func(page: Dictionary, _number: int) -> void:
		var body := Untrusted.unwrap(page["content"]).to_utf8_buffer()
		Assert.eq(body.size(), page["returned"], "returned counts the page's bytes")
		parts.append(body)
		if page["has_more"]:
			Assert.eq(body[body.size() - 1], 0x0a, "a cut page ends after a whole line")
	_fx.follow_pages("save.read", {"path": path, "max_bytes": 4194304}, each, 40)
	var joined := PackedByteArray()
	for part in parts:
		joined.append_array(part)
	Assert.eq(joined.get_string_from_utf8(), text, "the pages are the file")


func test_refusals_outside_user_and_missing_files() -> void:
	var outside := _fx.invoke("save.write", ResultExamples.params("user_data", "save.write", 1))
	ResultExamples.check("user_data", "save.write", outside, 1)
	Assert.is_false(FileAccess.file_exists("res://tmp_tests/slot1.json"), "nothing written in res://")
	Assert.eq(_fx.invoke("save.read", {"path": "user://../etc/passwd"})["code"], "PATH_DENIED", "..")
	Assert.eq(_fx.invoke("save.read", {"path": "/etc/hostname"})["code"], "PATH_DENIED", "absolute paths")
	Assert.eq(_fx.invoke("save.read", {"path": "user://addons/godot_mcp_toolkit/token"})["code"], "PATH_DENIED",
		"the toolkit's own user:// files (the auth token)")
	Assert.eq(_fx.invoke("save.list", {"path": "res://"})["code"], "INVALID_PARAMS", "res:// is not listed")
	var missing_read := _fx.invoke("save.read", ResultExamples.params("user_data", "save.read", 2))
	ResultExamples.check("user_data", "save.read", missing_read, 2)
	var missing_list := _fx.invoke("save.list", ResultExamples.params("user_data", "save.list", 1))
	ResultExamples.check("user_data", "save.list", missing_list, 1)
	var missing_delete := _fx.invoke("save.delete", ResultExamples.params("user_data", "save.delete", 1))
	ResultExamples.check("user_data", "save.delete", missing_delete, 1)
	Assert.eq(_fx.invoke("save.write", {"path": SLOT})["code"], "INVALID_PARAMS", "content is required")
	Assert.is_false(_fx.context.edits.undo(), "no refusal recorded anything")


func test_binary_files_are_named_not_garbled() -> void:
	DirAccess.make_dir_recursive_absolute(ROOT)
	var file := FileAccess.open(ROOT + "/slot.bin", FileAccess.WRITE)
	file.store_var({"level": 3})
	file.close()
	var read := _fx.invoke("save.read", {"path": ROOT + "/slot.bin"})
	Assert.eq(read["code"], "SAVE_READ_FAILED", "refused")
	Assert.contains(read["error"], "binary", "and says why")
	var over := _fx.invoke("save.write", {"path": ROOT + "/slot.bin", "content": "x"})
	Assert.eq(over["code"], "SAVE_WRITE_FAILED", "a binary save is not overwritten as text")
	Assert.eq(_fx.invoke("save.list", {"path": ROOT + "/slot.bin"})["code"], "INVALID_PATH", "a file is not a folder")

