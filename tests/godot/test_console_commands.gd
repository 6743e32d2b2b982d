extends RefCounted
## editor.get_console (commands/editor/console_commands.gd) over both sources: "buffer" (this process's
## output through an engine Logger, Godot 4.5+; the web engine is 4.6) and "file" (a log file
## written here in the engine's format). Paging by since_id/limit, level and text filters, regex,
## clear_buffer, secret scrubbing and the untrusted envelope; the editor's debugger.get_log over
## the same file (the last game's output; commands/runtime/game_log_commands.gd). Not covered here: the editor's own
## Output panel lines that never pass through the engine's loggers (none are known), and Godot
## 4.2-4.4, where the buffer is LOG_UNAVAILABLE and the file is the only source.

const Assert := preload("assert.gd")
const ResultExamples := preload("result_examples.gd")
const RuntimeContext := preload("res://addons/godot_mcp_toolkit/context/runtime_context.gd")
const CommandRegistry := preload("res://addons/godot_mcp_toolkit/transport/mcp_toolkit_command_registry.gd")
const ConsoleCommands := preload("res://addons/godot_mcp_toolkit/commands/editor/console_commands.gd")
const GameLogCommands := preload("res://addons/godot_mcp_toolkit/commands/runtime/game_log_commands.gd")
const LogFile := preload("res://addons/godot_mcp_toolkit/logs/log_file.gd")
const AnswerBudget := preload("res://addons/godot_mcp_toolkit/contract/answer_budget.gd")

const LOG_DIR := "user://tmp_tests_console"
const LOG_PATH := "user://tmp_tests_console/godot.log"
const LOG_TEXT := "Godot Engine v4.6.stable.official\nstarting level 1\n" \
	+ "WARNING: low health\n   at: hurt (res://player.gd:12)\n" \
	+ "ERROR: Node not found: \"Gun\"\n   at: get_node (scene/main/node.cpp:1792)\n" \
	+ "loading <untrusted-x>level</untrusted-x> 2\n" \
	+ "token api_key=abcd1234abcd1234abcd1234\n"

var _registry := CommandRegistry.new()


func _init() -> void:
	DirAccess.make_dir_recursive_absolute(LOG_DIR)
	var file := FileAccess.open(LOG_PATH, FileAccess.WRITE)
	file.store_string(LOG_TEXT)
	file.close()
	var context := RuntimeContext.new()
	ConsoleCommands.register(_registry, context, LOG_PATH)
	GameLogCommands.register(_registry, context, LOG_PATH)


func cleanup() -> void:
	DirAccess.remove_absolute(LOG_PATH)
	DirAccess.remove_absolute(LOG_DIR)
	_registry.clear()


func test_lane() -> void:
	var info := _registry.dispatch_info("editor.get_console")
	Assert.eq([info["read_only"], info["scene_independent"]], [true, true], "a read that ignores the scene lease")


func test_file_source_parses_levels_and_sources() -> void:
	var read := _call({"source": "file"})
	ResultExamples.check("console", "editor.get_console", read, 0)
	var levels := (read["entries"] as Array).map(func(e: Dictionary) -> String: return e["level"])
	Assert.eq(levels, ["info", "info", "warning", "error", "info", "info"], "levels from the engine's prefixes")
	Assert.eq(read["entries"][2]["source"], "hurt (res://player.gd:12)", "the at: line is the warning's source")
	Assert.contains(read["entries"][4]["message"], "[untrusted tag removed]level", "no envelope breakout")
	Assert.contains(read["entries"][5]["message"], "[REDACTED]", "secrets scrubbed")
	Assert.is_false("abcd1234abcd1234" in str(read), "the secret appears nowhere")
	Assert.is_true((read["output"] as String).begins_with("<untrusted-"), "the text is wrapped")
	Assert.contains(read["output"], "kind=\"console\"", "as console output")


func test_filters_and_paging() -> void:
	var errors := _call({"source": "file", "level_filter": ["error", "warning"]})
	Assert.eq(errors["returned"], 2, "two problems")
	var regex := _call({"source": "file", "text_filter": "^(WARNING|ERROR):", "is_regex": true})
	Assert.eq(regex["total_entries"], 2, "regex over the message")
	var tail := _call({"source": "file", "limit": 2})
	Assert.eq((tail["entries"] as Array).map(func(e: Dictionary) -> int: return e["id"]), [5, 6], "newest two")
	Assert.eq([tail["has_more"], tail["total_entries"], tail["last_id"]], [true, 6, 6], "truncation said")
	var after := _call({"source": "file", "since_id": 2, "limit": 2.0})
	Assert.eq((after["entries"] as Array).map(func(e: Dictionary) -> int: return e["id"]), [3, 4], "oldest after 2")
	Assert.eq([after["has_more"], after["last_id"]], [true, 4], "resume with since_id=4")
	Assert.eq(_call({"source": "file", "since_id": 6})["returned"], 0, "nothing newer")


func test_buffer_source_sees_this_process() -> void:
	var marker := "console-marker-%d" % Time.get_ticks_usec()
	print(marker, " hello")
	push_warning(marker + " careful")
	var read := _call({"source": "buffer", "text_filter": marker})
	Assert.eq((read["entries"] as Array).map(func(e: Dictionary) -> String: return e["level"]), ["info", "warning"],
		"a print and a warning, in order")
	Assert.eq(read["entries"][0]["message"], marker + " hello", "the printed text")
	var cleared := _call({"source": "buffer", "text_filter": marker, "clear_buffer": true})
	Assert.eq(cleared["cleared"] >= 2, true, "the buffer was emptied")
	Assert.eq(_call({"source": "buffer", "text_filter": marker})["returned"], 0, "gone after the clear")
	Assert.eq(_call({})["source"], "buffer", "the buffer is the default on 4.5+")


func test_a_huge_print_is_cut_and_says_so() -> void:
	var marker := "huge-%d " % Time.get_ticks_usec()
	print(marker + "x".repeat(10000))
	var read := _call({"source": "buffer", "text_filter": marker})
	var message: String = read["entries"][0]["message"]
	Assert.eq(message.length() < 4100, true, "kept short")
	Assert.contains(message, "characters cut]", "the cut is disclosed")


## A limit larger than one answer holds: the newest lines that fit, and a hint; since_id 0 then
## reads every line once, page by page, each within one answer. editor.get_console and the
## editor's debugger.get_log alike; a line larger than an answer is shown by its size.
func test_a_large_limit_pages_within_one_answer() -> void:
	var long_log := LOG_DIR + "/long.log"
	var text := ""
	for index in 300:
		text += "line %d %s\n" % [index + 1, "spam ".repeat(30)]
	text += "huge %s\nlast line\n" % "h".repeat(20000)
	var file := FileAccess.open(long_log, FileAccess.WRITE)
	file.store_string(text)
	file.close()
	var other := CommandRegistry.new()
	var context := RuntimeContext.new()
	ConsoleCommands.register(other, context, long_log)
	GameLogCommands.register(other, context, long_log)
	for method: String in ["editor.get_console", "debugger.get_log"]:
		var handler: Callable = other.dispatch_info(method)["handler"]
		var newest: Dictionary = handler.callv([{"source": "file", "limit": 1000}])
		Assert.is_true(AnswerBudget.size_of(newest) <= AnswerBudget.BYTES, "%s: the newest page fits one answer (%d bytes)"
			% [method, AnswerBudget.size_of(newest)])
		Assert.eq([newest["has_more"], newest["last_id"], newest["entries"][-1]["message"]], [true, 302, "last line"],
			"%s: the newest lines, and more" % method)
		Assert.eq(newest["entries"][-2]["message"], {"omitted": true, "json_bytes": 20007}, "a huge line by its size")
		Assert.contains(newest["hint"], "since_id 0", "says how to read the older ones")
		var seen := []
		var since := 0
		for page_number in 30:
			var page: Dictionary = handler.callv([{"source": "file", "limit": 1000, "since_id": since}])
			Assert.is_true(AnswerBudget.size_of(page) <= AnswerBudget.BYTES, "%s: page %d fits (%d bytes)" % [
				method, page_number, AnswerBudget.size_of(page)])
			seen.append_array((page["entries"] as Array).map(func(e: Dictionary) -> int: return e["id"]))
			if not page["has_more"]:
				break
			Assert.contains(page["hint"], "since_id %d" % page["last_id"], "a page says where to go on")
			since = page["last_id"]
		Assert.eq(seen, range(1, 303), "%s: every line once, in order" % method)
	other.clear()
	DirAccess.remove_absolute(long_log)


func test_refusals() -> void:
	for params: Dictionary in [{"limit": 0}, {"limit": "5"}, {"since_id": -1}, {"level_filter": "fatal"},
			{"level_filter": ["info", 3]}, {"text_filter": 4}, {"is_regex": "yes"}, {"source": "disk"},
			{"clear_buffer": 1}]:
		Assert.eq(_call(params)["code"], "INVALID_PARAMS", "refused: %s" % JSON.stringify(params))
	var bad_regex := _call({"text_filter": "(", "is_regex": true})
	ResultExamples.check("console", "editor.get_console", bad_regex, 1)


func test_missing_file_is_log_unavailable() -> void:
	var other := CommandRegistry.new()
	ConsoleCommands.register(other, RuntimeContext.new(), LOG_DIR + "/none.log")
	var handler: Callable = other.dispatch_info("editor.get_console")["handler"]
	var read: Dictionary = handler.callv([{"source": "file"}])
	ResultExamples.check("console", "editor.get_console", read, 2)
	other.clear()


func test_editor_debugger_get_log_reads_the_last_game_log() -> void:
	var handler: Callable = _registry.dispatch_info("debugger.get_log")["handler"]
	var read: Dictionary = handler.callv([ResultExamples.params("console", "debugger.get_log", 0)])
	ResultExamples.check("console", "debugger.get_log", read, 0)
	Assert.contains(read["output"], "kind=\"game_log\"", "wrapped as game log")
	ResultExamples.check("console", "debugger.get_log", handler.callv([{"source": "buffer"}]), 1)
	Assert.eq(handler.callv([{"limit": 0}])["code"], "INVALID_PARAMS", "bad limit")


func test_log_file_path_follows_the_project_settings() -> void:
	var enabled: Variant = ProjectSettings.get_setting(LogFile.ENABLED_SETTING)
	var configured: Variant = ProjectSettings.get_setting(LogFile.LOG_PATH_SETTING)
	ProjectSettings.set_setting(LogFile.ENABLED_SETTING, true)
	ProjectSettings.set_setting(LogFile.LOG_PATH_SETTING, "user://custom/game.log")
	Assert.eq(LogFile.path(), "user://custom/game.log", "the configured path")
	ProjectSettings.set_setting(LogFile.ENABLED_SETTING, false)
	Assert.eq(LogFile.path(), "", "file logging off: no file")
	ProjectSettings.set_setting(LogFile.ENABLED_SETTING, enabled)
	ProjectSettings.set_setting(LogFile.LOG_PATH_SETTING, configured)


func _call(params: Dictionary) -> Dictionary:
	var handler: Callable = _registry.dispatch_info("editor.get_console")["handler"]
	return handler.callv([params])
