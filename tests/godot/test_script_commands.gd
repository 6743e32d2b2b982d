extends RefCounted
## commands/script/script_commands.gd through the command registry with a runtime context: files written
## in the engine's res://, undo/redo of writes and edits, parse diagnostics, byte-exact pages.
## Not covered here (editor only): the FileSystem dock picking the file up (refresh_files is
## asserted as requested), and the script editor showing the reloaded text.

const Assert := preload("assert.gd")
const DomainFixture := preload("domain_fixture.gd")
const ResultExamples := preload("result_examples.gd")
const CommandDomains := preload("res://addons/godot_mcp_toolkit/commands/command_domains.gd")
const Settings := preload("res://addons/godot_mcp_toolkit/settings/settings_registration.gd")
const GDScriptCheck := preload("res://addons/godot_mcp_toolkit/commands/script/gdscript_check.gd")

const DOMAIN := "res://addons/godot_mcp_toolkit/commands/script/script_commands.gd"
const DIR := "res://tmp_tests/script"
const PLAYER := DIR + "/player.gd"

var _fx: DomainFixture = null


func _init() -> void:
	var domains: Array[String] = [DOMAIN]
	_fx = DomainFixture.new(domains, "script", null, DIR, "4.6.0")


func cleanup() -> void:
	if ProjectSettings.has_setting(Settings.SCRIPT_READ_CAP_KB):
		ProjectSettings.set_setting(Settings.SCRIPT_READ_CAP_KB, null)
	_fx.cleanup()


func test_registered_in_the_editor_domains_with_the_reference_lanes() -> void:
	Assert.is_true(DOMAIN in CommandDomains.DOMAINS, "listed in command_domains.gd")
	for method: String in ["script.read", "script.check"]:
		Assert.is_true(_fx.registry.dispatch_info(method)["read_only"], "%s is a read" % method)
	for method: String in ["script.write", "script.edit"]:
		Assert.is_false(_fx.registry.dispatch_info(method)["read_only"], "%s mutates" % method)
	for method: String in ["script.read", "script.write", "script.edit", "script.check"]:
		Assert.is_true(_fx.registry.dispatch_info(method)["scene_independent"], "%s needs no scene" % method)


func test_write_creates_and_undo_deletes_redo_recreates() -> void:
	var params := ResultExamples.params("script", "script.write", 0)
	var result := _fx.invoke("script.write", params)
	ResultExamples.check("script", "script.write", result, 0)
	Assert.eq(FileAccess.get_file_as_string(PLAYER), params["content"], "written")
	Assert.eq(_fx.context.runtime_project.refreshed_files, PackedStringArray([PLAYER]),
		"the editor is told about the file")
	Assert.is_true(_fx.context.edits.undo(), "undo")
	Assert.is_false(FileAccess.file_exists(PLAYER), "undo deletes the created file")
	Assert.is_true(_fx.context.edits.redo(), "redo")
	Assert.eq(FileAccess.get_file_as_string(PLAYER), params["content"], "redo writes it again")


func test_overwrite_reports_parse_errors_and_undo_restores() -> void:
	var original: String = ResultExamples.params("script", "script.write", 0)["content"]
	_write(PLAYER, original)
	var params := ResultExamples.params("script", "script.write", 1)
	var result := _fx.invoke("script.write", params)
	ResultExamples.check("script", "script.write", result, 1)
	Assert.contains(str(result["errors"][0]["message"]), "Expected", "the parser's own message")
	Assert.eq(FileAccess.get_file_as_string(PLAYER), params["content"], "written even though it does not parse")
	Assert.is_true(_fx.context.edits.undo(), "undo")
	Assert.eq(FileAccess.get_file_as_string(PLAYER), original, "undo restores the previous text")
	Assert.is_false(_fx.context.edits.undo(), "one write, one history entry")


func test_write_refusals_leave_the_project_alone() -> void:
	var no_parent := _fx.invoke("script.write", ResultExamples.params("script", "script.write", 2))
	ResultExamples.check("script", "script.write", no_parent, 2)
	Assert.is_false(DirAccess.dir_exists_absolute(DIR + "/missing"), "no folder made")
	var cases := {
		"INVALID_PARAMS": {"file_path": PLAYER},
		"PATH_DENIED": {"file_path": "res://addons/godot_mcp_toolkit/plugin.gd", "content": "x"},
		"INVALID_PATH": {"file_path": DIR, "content": "x"},
	}
	for code: String in cases:
		Assert.eq(_fx.invoke("script.write", cases[code])["code"], code, code)
	var project := _fx.invoke("script.write", {"file_path": "res://project.godot", "content": ""})
	Assert.eq(project["code"], "PATH_DENIED", "project.godot goes through project_set_setting")
	Assert.contains(FileAccess.get_file_as_string("res://project.godot"), "config_version", "untouched")
	Assert.eq(_fx.invoke("script.write", {"file_path": "res://../x.gd", "content": ""})["code"], "PATH_DENIED", "..")
	Assert.is_false(FileAccess.file_exists(PLAYER), "nothing written")
	Assert.is_false(_fx.context.edits.undo(), "nothing recorded")


func test_unchanged_write_records_nothing() -> void:
	_write(PLAYER, "extends Node\n")
	var result := _fx.invoke("script.write", {"file_path": PLAYER, "content": "extends Node\n"})
	Assert.eq(result["status"], "unchanged", "said so")
	Assert.is_false(_fx.context.edits.undo(), "no history entry for a no-op")


func test_edit_replaces_once_and_undo_restores() -> void:
	var original: String = ResultExamples.params("script", "script.write", 0)["content"]
	_write(PLAYER, original)
	var result := _fx.invoke("script.edit", ResultExamples.params("script", "script.edit", 0))
	ResultExamples.check("script", "script.edit", result, 0)
	Assert.eq(FileAccess.get_file_as_string(PLAYER), original.replace("200.0", "320.0"), "edited")
	Assert.is_true(_fx.context.edits.undo(), "undo")
	Assert.eq(FileAccess.get_file_as_string(PLAYER), original, "undo restores the text")
	Assert.is_true(_fx.context.edits.redo(), "redo")
	Assert.contains(FileAccess.get_file_as_string(PLAYER), "320.0", "redo edits again")


func test_edit_match_failures_and_replace_all() -> void:
	var twice := "extends Node\n\nfunc a():\n\tpass\n\nfunc b():\n\tpass\n"
	_write(DIR + "/twice.gd", twice)
	_write(PLAYER, "extends Node\n")
	var not_unique := _fx.invoke("script.edit", ResultExamples.params("script", "script.edit", 1))
	ResultExamples.check("script", "script.edit", not_unique, 1)
	Assert.contains(not_unique["error"], "lines 4, 7", "says where the matches are")
	var absent := _fx.invoke("script.edit", ResultExamples.params("script", "script.edit", 2))
	ResultExamples.check("script", "script.edit", absent, 2)
	Assert.eq(FileAccess.get_file_as_string(DIR + "/twice.gd"), twice, "a refused edit writes nothing")
	Assert.is_false(_fx.context.edits.undo(), "and records nothing")
	var all := _fx.invoke("script.edit", {"file_path": DIR + "/twice.gd", "old_string": "\tpass",
		"new_string": "\treturn",
		"replace_all": true})
	Assert.eq(all["replacements"], 2, "both replaced")
	Assert.eq(all["changed_lines"], [4, 7], "where")
	Assert.eq(FileAccess.get_file_as_string(DIR + "/twice.gd"), twice.replace("\tpass", "\treturn"), "written")
	var same := {"file_path": PLAYER, "old_string": "Node", "new_string": "Node"}
	Assert.eq(_fx.invoke("script.edit", same)["code"], "INVALID_PARAMS", "a no-op edit is refused")
	Assert.eq(_fx.invoke("script.edit", {"file_path": PLAYER, "old_string": "", "new_string": "x"})["code"],
		"INVALID_PARAMS", "empty old_string")
	Assert.eq(_fx.invoke("script.edit", {"file_path": DIR + "/nope.gd", "old_string": "a", "new_string": "b"})["code"],
		"NOT_FOUND", "missing file")


func test_edit_recompiles_a_loaded_script_and_undo_too() -> void:
	_write(PLAYER, "extends Node\n\nfunc first() -> int:\n\treturn 1\n")
	# Written behind the engine's back, and an earlier check may have loaded the old text: read it
	# from disk, as the editor's file watcher would.
	var loaded := ResourceLoader.load(PLAYER, "", ResourceLoader.CACHE_MODE_IGNORE) as GDScript
	Assert.is_true(loaded != null and _has_function(loaded, "first"), "loaded")
	var result := _fx.invoke("script.edit", {"file_path": PLAYER, "old_string": "func first()",
		"new_string": "func second()"})
	Assert.is_true(result["valid"], "compiles")
	Assert.is_true(_has_function(loaded, "second") and not _has_function(loaded, "first"),
		"the loaded script is reloaded")
	Assert.is_true(_fx.context.edits.undo(), "undo")
	Assert.is_true(_has_function(loaded, "first"), "undo reloads it as well")


func test_read_whole_and_paged() -> void:
	_write(PLAYER, ResultExamples.params("script", "script.write", 0)["content"])
	var whole := _fx.invoke("script.read", ResultExamples.params("script", "script.read", 0))
	ResultExamples.check("script", "script.read", whole, 0)
	var content: String = whole["content"]
	Assert.is_true(content.begins_with("<untrusted-") and content.contains("kind=\"script\""), "wrapped")
	Assert.contains(content, ">\nextends Node2D\n\nvar speed := 200.0\n\n</untrusted-",
		"the text inside is the file's, its last newline included")
	var page := _fx.invoke("script.read", ResultExamples.params("script", "script.read", 1))
	ResultExamples.check("script", "script.read", page, 1)
	Assert.is_false(page["content"].contains("speed"), "line 3 not in lines 1-2")
	var missing := _fx.invoke("script.read", ResultExamples.params("script", "script.read", 2))
	ResultExamples.check("script", "script.read", missing, 2)
	Assert.eq(_fx.invoke("script.read", {"file_path": PLAYER, "start_line": 9})["code"], "INVALID_PARAMS",
		"past the end")
	Assert.eq(_fx.invoke("script.read", {"file_path": PLAYER, "start_line": 3, "end_line": 2})["code"],
		"INVALID_PARAMS",
		"backwards range")
	var tail := _fx.invoke("script.read", {"file_path": PLAYER, "start_line": 3, "end_line": 50})
	Assert.eq([tail["end_line"], tail["has_more"]], [3, false], "an end past the file is clamped")


func test_a_file_larger_than_one_answer_reads_in_pages() -> void:
	var line := "# " + "x".repeat(98)
	var lines := PackedStringArray()
	for i in 30:
		lines.append(line)
	_write(PLAYER, "\n".join(lines) + "\n")
	ProjectSettings.set_setting(Settings.SCRIPT_READ_CAP_KB, 1)
	var first := _fx.invoke("script.read", {"file_path": PLAYER})
	Assert.is_true(first["success"], "a whole read answers its first page, not a refusal")
	Assert.eq([first["returned"], first["has_more"], first["next_start_line"]], [10, true, 11],
		"ten 101-byte lines (102 as JSON) fit in 1024 bytes, and it says where to go on")
	Assert.contains(first["hint"], "start_line 11", "the hint names the parameter and its value")
	var ranged := _fx.invoke("script.read", {"file_path": PLAYER, "start_line": 1, "end_line": 30})
	Assert.eq([ranged["returned"], ranged["next_start_line"]], [10, 11], "a range asking for more: the first page")
	var asked := _fx.invoke("script.read", {"file_path": PLAYER, "start_line": 1, "end_line": 4})
	Assert.eq([asked["end_line"], asked["has_more"], asked.has("hint")], [4, true, false],
		"a range that fits: no hint, has_more says the file goes on")
	ProjectSettings.set_setting(Settings.SCRIPT_READ_CAP_KB, null)
	var default := _fx.invoke("script.read", {"file_path": PLAYER})
	Assert.eq([default["returned"], default["has_more"]], [30, false], "3 KB is one answer by default")


func test_a_line_longer_than_a_page_reads_in_pieces() -> void:
	# A scene file's packed data is one line; with multi-byte characters across the cuts.
	var long_line := "data = \"" + "é".repeat(700) + "x".repeat(100) + "\""
	var text := "[gd_resource]\n" + long_line + "\n[end]\n"
	_write(PLAYER, text)
	ProjectSettings.set_setting(Settings.SCRIPT_READ_CAP_KB, 1)
	var first := _fx.invoke("script.read", {"file_path": PLAYER, "start_line": 2})
	Assert.eq([first["partial_line"], first["next_start_line"], first["end_line"]], [true, 2, 2], "a piece of line 2")
	Assert.contains(first["hint"], "line_offset %d" % first["next_line_offset"], "says how to go on")
	var read := _read_from(PLAYER, 2, 0)
	Assert.is_true(read["pages"] >= 2, "over a page: more than one piece")
	Assert.eq(read["text"], text.substr(text.find("\n") + 1), "the pieces and the rest are the file from line 2")
	var inside := _fx.invoke("script.read", {"file_path": PLAYER, "start_line": 2, "line_offset": 9})
	Assert.eq(inside["code"], "INVALID_PARAMS", "an offset inside a 2-byte character is refused")
	Assert.eq(_fx.invoke("script.read", {"file_path": PLAYER, "start_line": 1, "line_offset": 99})["code"],
		"INVALID_PARAMS", "an offset past the line")


## Issue: a 500 KB scene read in parts did not join back into the file. Files of random lines
## (long ones, multi-byte characters, "\r\n", quotes and tabs that JSON escapes), read page by
## page from where each answer says: the pages joined are the file, byte for byte, from line 1
## and from a line in the middle.
func test_pages_joined_are_the_file_byte_for_byte() -> void:
	ProjectSettings.set_setting(Settings.SCRIPT_READ_CAP_KB, 1)
	var random := RandomNumberGenerator.new()
	random.seed = 41
	var pieces := ["a", "Z", " ", "é", "€", "😀", "\"", "\\", "\t", "\r\n", "\n", "=", "\r"]
	for round_index in 6:
		var bytes := PackedByteArray()
		var length := random.randi_range(2000, 9000)
		while bytes.size() < length:
			var piece: String = pieces[random.randi() % pieces.size()]
			var run := random.randi_range(1, 400) if random.randf() < 0.1 else random.randi_range(1, 6)
			bytes.append_array(piece.repeat(run).to_utf8_buffer())
		if round_index % 2 == 1:
			bytes.append(0x0a)
		_write_bytes(PLAYER, bytes)
		var whole := _read_from(PLAYER, 1, 0)
		Assert.is_true(whole["pages"] > 2, "round %d: several pages" % round_index)
		Assert.eq(whole["text"].to_utf8_buffer(), bytes, "round %d: the pages are the file" % round_index)
		var middle := random.randi_range(2, maxi(2, bytes.count(0x0a)))
		var line_start := 0
		for i in middle - 1:
			line_start = bytes.find(0x0a, line_start) + 1
		Assert.eq(_read_from(PLAYER, middle, 0)["text"].to_utf8_buffer(), bytes.slice(line_start),
			"round %d: from line %d" % [round_index, middle])


## Every page's text from (start_line, line_offset) on, as the answers say to go on:
## {"text": joined, "pages": count}.
func _read_from(path: String, start_line: int, line_offset: int) -> Dictionary:
	var joined := PackedByteArray()
	var pages := 0
	var args := {"file_path": path, "start_line": start_line, "line_offset": line_offset}
	while pages < 400:
		pages += 1
		var read := _fx.invoke("script.read", args)
		Assert.is_true(read.get("success", false), "page %d reads (%s)" % [pages, read])
		var content: String = read.get("content", "")
		var inner := content.substr(content.find(">\n") + 2, content.rfind("\n</") - content.find(">\n") - 2)
		joined.append_array(inner.to_utf8_buffer())
		if not read.get("has_more", false):
			break
		args = {"file_path": path, "start_line": read["next_start_line"], "line_offset": read.get("next_line_offset", 0)}
	return {"text": joined.get_string_from_utf8(), "pages": pages}


func test_check_reports_without_writing() -> void:
	_write(DIR + "/dep.gd", "extends RefCounted\nconst VALUE := 3\n")
	_write(PLAYER, ResultExamples.params("script", "script.write", 0)["content"])
	var valid := _fx.invoke("script.check", ResultExamples.params("script", "script.check", 0))
	ResultExamples.check("script", "script.check", valid, 0)
	var broken := "extends Node\n\nfunc f() -> int:\n\treturn undefined_name\n"
	_write(DIR + "/broken.gd", broken)
	var result := _fx.invoke("script.check", ResultExamples.params("script", "script.check", 1))
	ResultExamples.check("script", "script.check", result, 1)
	Assert.contains(str(result["errors"][0]["message"]), "undefined_name", "names the identifier")
	Assert.eq(FileAccess.get_file_as_string(DIR + "/broken.gd"), broken, "the file is untouched")
	Assert.is_false(_fx.context.edits.undo(), "a check records nothing")
	_write(DIR + "/uses_dep.gd", "extends Node\nconst Dep := preload(\"dep.gd\")\nvar v := Dep.VALUE\n")
	Assert.is_true(_fx.invoke("script.check", {"file_path": DIR + "/uses_dep.gd"})["valid"],
		"relative preload resolves")
	DirAccess.make_dir_recursive_absolute(DIR + "/sub")
	_write(DIR + "/sub/up.gd", "extends \"../dep.gd\"\nvar w := VALUE\n")
	Assert.is_true(_fx.invoke("script.check", {"file_path": DIR + "/sub/up.gd"})["valid"], "and so does ../ in extends")
	Assert.eq(_fx.invoke("script.check", {"file_path": DIR + "/dep.txt"})["code"], "UNSUPPORTED_FILE_TYPE", ".gd only")


func test_a_class_name_script_checks_clean_against_its_own_registration() -> void:
	var path := "res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd"
	var text := FileAccess.get_file_as_string(path)
	Assert.is_true(GDScriptCheck.check_source(text, path)["valid"], "its own class_name is not a clash")
	var elsewhere := GDScriptCheck.check_source(text, DIR + "/copy.gd")
	Assert.is_false(elsewhere["valid"], "another file declaring the same class_name is")
	Assert.contains(str(elsewhere["errors"][0]["message"]), "MCPToolkitError", "and the message names it")
	Assert.eq(GDScriptCheck.portable_copy(text, path).count("\n"), text.count("\n"), "line numbers kept")


func _has_function(script: Script, function_name: String) -> bool:
	for method: Dictionary in script.get_script_method_list():
		if method["name"] == function_name:
			return true
	return false


func _write_bytes(path: String, bytes: PackedByteArray) -> void:
	var file := FileAccess.open(path, FileAccess.WRITE)
	file.store_buffer(bytes)
	file.close()


func _write(path: String, text: String) -> void:
	var file := FileAccess.open(path, FileAccess.WRITE)
	file.store_string(text)
	file.close()

