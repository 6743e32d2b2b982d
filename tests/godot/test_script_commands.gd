extends RefCounted
## commands/script/script_commands.gd through the command registry with a runtime context: files written
## in the engine's res://, undo/redo of writes and edits, parse diagnostics, paging and the cap.
## Not covered here (editor only): the FileSystem dock picking the file up (refresh_files is
## asserted as requested), and the script editor showing the reloaded text.

const Assert := preload("assert.gd")
const DomainFixture := preload("domain_fixture.gd")
const ResultExamples := preload("result_examples.gd")
const CommandDomains := preload("res://addons/godot_mcp_toolkit/commands/command_domains.gd")
const Settings := preload("res://addons/godot_mcp_toolkit/core/settings_registration.gd")
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
	Assert.eq(_fx.context.refreshed_files, PackedStringArray([PLAYER]), "the editor is told about the file")
	Assert.is_true(_fx.context.undo(), "undo")
	Assert.is_false(FileAccess.file_exists(PLAYER), "undo deletes the created file")
	Assert.is_true(_fx.context.redo(), "redo")
	Assert.eq(FileAccess.get_file_as_string(PLAYER), params["content"], "redo writes it again")


func test_overwrite_reports_parse_errors_and_undo_restores() -> void:
	var original: String = ResultExamples.params("script", "script.write", 0)["content"]
	_write(PLAYER, original)
	var params := ResultExamples.params("script", "script.write", 1)
	var result := _fx.invoke("script.write", params)
	ResultExamples.check("script", "script.write", result, 1)
	Assert.contains(str(result["errors"][0]["message"]), "Expected", "the parser's own message")
	Assert.eq(FileAccess.get_file_as_string(PLAYER), params["content"], "written even though it does not parse")
	Assert.is_true(_fx.context.undo(), "undo")
	Assert.eq(FileAccess.get_file_as_string(PLAYER), original, "undo restores the previous text")
	Assert.is_false(_fx.context.undo(), "one write, one history entry")


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
	Assert.is_false(_fx.context.undo(), "nothing recorded")


func test_unchanged_write_records_nothing() -> void:
	_write(PLAYER, "extends Node\n")
	var result := _fx.invoke("script.write", {"file_path": PLAYER, "content": "extends Node\n"})
	Assert.eq(result["status"], "unchanged", "said so")
	Assert.is_false(_fx.context.undo(), "no history entry for a no-op")


func test_edit_replaces_once_and_undo_restores() -> void:
	var original: String = ResultExamples.params("script", "script.write", 0)["content"]
	_write(PLAYER, original)
	var result := _fx.invoke("script.edit", ResultExamples.params("script", "script.edit", 0))
	ResultExamples.check("script", "script.edit", result, 0)
	Assert.eq(FileAccess.get_file_as_string(PLAYER), original.replace("200.0", "320.0"), "edited")
	Assert.is_true(_fx.context.undo(), "undo")
	Assert.eq(FileAccess.get_file_as_string(PLAYER), original, "undo restores the text")
	Assert.is_true(_fx.context.redo(), "redo")
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
	Assert.is_false(_fx.context.undo(), "and records nothing")
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
	Assert.is_true(_fx.context.undo(), "undo")
	Assert.is_true(_has_function(loaded, "first"), "undo reloads it as well")


func test_read_whole_and_paged() -> void:
	_write(PLAYER, ResultExamples.params("script", "script.write", 0)["content"])
	var whole := _fx.invoke("script.read", ResultExamples.params("script", "script.read", 0))
	ResultExamples.check("script", "script.read", whole, 0)
	var content: String = whole["content"]
	Assert.is_true(content.begins_with("<untrusted-") and content.contains("kind=\"script\""), "wrapped")
	Assert.contains(content, "\nextends Node2D\n\nvar speed := 200.0\n</untrusted-", "the text inside")
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


func test_read_cap_refuses_whole_and_pages_ranges() -> void:
	var line := "# " + "x".repeat(98)
	var lines := PackedStringArray()
	for i in 30:
		lines.append(line)
	_write(PLAYER, "\n".join(lines) + "\n")
	ProjectSettings.set_setting(Settings.SCRIPT_READ_CAP_KB, 1)
	var whole := _fx.invoke("script.read", {"file_path": PLAYER})
	Assert.eq(whole["code"], "FILE_TOO_LARGE", "3 KB over a 1 KiB cap")
	Assert.contains(whole["hint"], "start_line", "says how to read it")
	var ranged := _fx.invoke("script.read", {"file_path": PLAYER, "start_line": 1, "end_line": 30})
	Assert.eq(ranged["returned"], 10, "ten 101-byte lines fit in 1024 bytes")
	Assert.eq([ranged["has_more"], ranged["next_start_line"]], [true, 11], "and it says where to go on")
	Assert.contains(ranged["hint"], "cap", "the truncation is named")


func test_a_line_longer_than_the_cap_reads_in_pieces() -> void:
	# A scene file's packed data is one line; with multi-byte characters across the cuts.
	var long_line := "data = \"" + "é".repeat(700) + "x".repeat(100) + "\""
	_write(PLAYER, "[gd_resource]\n" + long_line + "\n[end]\n")
	ProjectSettings.set_setting(Settings.SCRIPT_READ_CAP_KB, 1)
	var pieces := PackedStringArray()
	var offset := 0
	var reads := 0
	while reads < 10:
		reads += 1
		var read := _fx.invoke("script.read", {"file_path": PLAYER, "start_line": 2, "line_offset": offset})
		Assert.is_true(read["success"], "piece %d reads (%s)" % [reads, read])
		var content: String = read["content"]
		pieces.append(content.substr(content.find(">\n") + 2, content.rfind("\n</") - content.find(">\n") - 2))
		if not read.get("partial_line", false):
			# The rest of the line fits: it comes with the lines after it, as any page does.
			Assert.eq([read["line_offset"], read["end_line"], read["has_more"]], [offset, 3, false], "the rest")
			pieces[-1] = pieces[-1].get_slice("\n", 0)
			break
		Assert.eq([read["next_start_line"], read["line_bytes"]], [2, long_line.to_utf8_buffer().size()], "same line")
		Assert.contains(read["hint"], "line_offset", "says how to go on")
		offset = read["next_line_offset"]
	Assert.is_true(pieces.size() >= 2, "over the cap: more than one piece")
	Assert.eq("".join(pieces), long_line, "the pieces are the line, no character split")
	var inside := _fx.invoke("script.read", {"file_path": PLAYER, "start_line": 2, "line_offset": 9})
	Assert.eq(inside["code"], "INVALID_PARAMS", "an offset inside a 2-byte character is refused")
	Assert.eq(_fx.invoke("script.read", {"file_path": PLAYER, "start_line": 1, "line_offset": 99})["code"],
		"INVALID_PARAMS", "an offset past the line")


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
	Assert.is_false(_fx.context.undo(), "a check records nothing")
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


func _write(path: String, text: String) -> void:
	var file := FileAccess.open(path, FileAccess.WRITE)
	file.store_string(text)
	file.close()

