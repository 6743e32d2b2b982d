extends RefCounted
## commands/debug/debug_commands.gd through the command registry with a runtime context whose debugger
## state and breakpoint list the test sets: the checks, the shapes and the bookkeeping.
## Not covered here (editor only): the editor's own debugger (EditorDebuggerPlugin sessions,
## is_breaked, the "continue" message to the game) and the script editor's gutter breakpoints,
## which editor/editor_fx.context.gd reaches; the game pausing needs a second process.

const Assert := preload("assert.gd")
const ResultExamples := preload("result_examples.gd")
const CommandDomains := preload("res://addons/godot_mcp_toolkit/commands/command_domains.gd")
const DomainFixture := preload("domain_fixture.gd")

const DOMAIN := "res://addons/godot_mcp_toolkit/commands/debug/debug_commands.gd"
const DIR := "res://tmp_tests/debug"
const SCRIPT := "res://tmp_tests/debug/player.gd"

var _fx: DomainFixture = null


func _init() -> void:
	DirAccess.make_dir_recursive_absolute(DIR)
	var file := FileAccess.open(SCRIPT, FileAccess.WRITE)
	file.store_string("extends Node\n\nfunc hurt() -> void:\n\tpass\n")
	file.close()
	var note := FileAccess.open(DIR.path_join("notes.txt"), FileAccess.WRITE)
	note.store_string("x\n")
	note.close()
	var domains: Array[String] = [DOMAIN]
	_fx = DomainFixture.new(domains, "debug", null, DIR, "4.6.0")


func cleanup() -> void:
	_fx.cleanup()


func test_registered_with_the_reference_lanes() -> void:
	Assert.is_true(DOMAIN in CommandDomains.DOMAINS, "listed in command_domains.gd")
	for method: String in ["debug.state", "debug.list_breakpoints"]:
		Assert.is_true(_fx.registry.dispatch_info(method)["read_only"], "%s reads" % method)
	for method: String in ["debug.set_breakpoint", "debug.continue"]:
		Assert.is_false(_fx.registry.dispatch_info(method)["read_only"], "%s acts" % method)
	for method: String in ["debug.state", "debug.list_breakpoints", "debug.set_breakpoint", "debug.continue"]:
		Assert.is_true(_fx.registry.dispatch_info(method)["scene_independent"], "%s needs no scene" % method)


func test_set_list_and_clear_breakpoints() -> void:
	var result := _fx.invoke("debug.set_breakpoint", ResultExamples.params("debug", "debug.set_breakpoint", 0))
	ResultExamples.check("debug", "debug.set_breakpoint", result, 0)
	Assert.eq(_fx.context.debugger.breakpoints(), PackedStringArray([SCRIPT + ":2"]), "the context holds it")
	Assert.eq(_fx.invoke("debug.set_breakpoint", {"file_path": SCRIPT, "line": 2})["status"], "unchanged", "idempotent")
	Assert.eq(_fx.invoke("debug.set_breakpoint", {"file_path": SCRIPT, "line": 4.0})["status"], "set", "a whole float")
	ResultExamples.check("debug", "debug.list_breakpoints", _fx.invoke("debug.list_breakpoints", {}), 0)
	var cleared := _fx.invoke("debug.set_breakpoint", {"file_path": SCRIPT, "line": 4, "enabled": false})
	Assert.eq(cleared["status"], "cleared", "cleared")
	Assert.eq(_fx.invoke("debug.set_breakpoint", {"file_path": SCRIPT, "line": 4, "enabled": false})["status"],
		"unchanged", "clearing twice")
	Assert.eq(_fx.invoke("debug.list_breakpoints", {})["count"], 1, "one left")


func test_refusals_name_what_was_wrong_and_change_nothing() -> void:
	ResultExamples.check("debug", "debug.set_breakpoint",
		_fx.invoke("debug.set_breakpoint", ResultExamples.params("debug", "debug.set_breakpoint", 1)), 1)
	ResultExamples.check("debug", "debug.set_breakpoint",
		_fx.invoke("debug.set_breakpoint", ResultExamples.params("debug", "debug.set_breakpoint", 2)), 2)
	var cases := [
		[{"line": 2}, "INVALID_PARAMS"],
		[{"file_path": SCRIPT}, "INVALID_PARAMS"],
		[{"file_path": SCRIPT, "line": 0}, "INVALID_PARAMS"],
		[{"file_path": SCRIPT, "line": 1.5}, "INVALID_PARAMS"],
		[{"file_path": SCRIPT, "line": 1, "enabled": "yes"}, "INVALID_PARAMS"],
		[{"file_path": DIR.path_join("notes.txt"), "line": 1}, "UNSUPPORTED_FILE_TYPE"],
		[{"file_path": DIR.path_join("gone.gd"), "line": 1}, "NOT_FOUND"],
		[{"file_path": "res://../x.gd", "line": 1}, "PATH_DENIED"],
		[{"file_path": "user://x.gd", "line": 1}, "PATH_DENIED"],
		[{"file_path": "res://addons/godot_mcp_toolkit/plugin.gd", "line": 1}, "PATH_DENIED"],
	]
	for case: Array in cases:
		Assert.eq(_fx.invoke("debug.set_breakpoint", case[0])["code"], case[1], str(case[0]))
	_fx.context.project.set_editor_setting("text_editor/external/use_external_editor", true)
	Assert.eq(_fx.invoke("debug.set_breakpoint", {"file_path": SCRIPT, "line": 1})["code"], "EXTERNAL_EDITOR_ACTIVE",
		"an external editor holds the breakpoints")
	_fx.context.project.set_editor_setting("text_editor/external/use_external_editor", false)
	Assert.eq(_fx.context.debugger.breakpoints().size(), 0, "nothing was set")


func test_state_and_continue_follow_the_debugger() -> void:
	Assert.eq(_fx.invoke("debug.continue", {})["code"], "GAME_NOT_RUNNING", "no game")
	Assert.eq(_fx.invoke("debug.state", {})["game_running"], false, "no game")
	_fx.context.runtime_debugger.debugger["active"] = true
	ResultExamples.check("debug", "debug.continue", _fx.invoke("debug.continue", {}), 1)
	_fx.context.debugger.set_breakpoint(SCRIPT, 3, true)
	_fx.context.runtime_debugger.debugger["paused"] = true
	ResultExamples.check("debug", "debug.state", _fx.invoke("debug.state", {}), 0)
	ResultExamples.check("debug", "debug.continue", _fx.invoke("debug.continue", {}), 0)
	Assert.eq(_fx.context.runtime_debugger.continued, 1, "the context was asked to resume once")
	Assert.eq(_fx.invoke("debug.state", {})["paused"], false, "running again")
	_fx.context.debugger.set_breakpoint(SCRIPT, 3, false)
