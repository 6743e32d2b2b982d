extends RefCounted
## commands/testing/testing_commands.gd (and its testing/ helpers) with a runtime context whose process
## table is a fake: detection and suite listing on scratch projects, the JUnit reports of GUT and
## gdUnit4 (tests/fixtures/testing: what GUT 9.6.0 and gdUnit4 6.0.3 wrote when run in Godot 4.6)
## parsed field by field, and runs that pass, fail, time out (the process is killed), write no
## report (the process's own output then explains it), or are cancelled.
## Not covered here (needs a second Godot process): the real OS.create_process / kill of the
## editor's binary, and the frameworks' own command-line tools writing those reports.

const Assert := preload("assert.gd")
const ResultExamples := preload("result_examples.gd")
const DomainFixture := preload("domain_fixture.gd")
const CommandDomains := preload("res://addons/godot_mcp_toolkit/commands/command_domains.gd")
const ToolContext := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_tool_context.gd")
const JUnitReport := preload("res://addons/godot_mcp_toolkit/commands/testing/junit_report.gd")
const Frameworks := preload("res://addons/godot_mcp_toolkit/commands/testing/test_frameworks.gd")
const RuntimeAutoload := preload("res://addons/godot_mcp_toolkit/runtime/mcp_runtime_autoload.gd")

const DOMAIN := "res://addons/godot_mcp_toolkit/commands/testing/testing_commands.gd"
const DIR := "res://tmp_tests/testing"
const GUT_PROJECT := DIR + "/gut_proj"
const GDUNIT_PROJECT := DIR + "/gdunit_proj"
const BARE_PROJECT := DIR + "/bare_proj"
const FIXTURES := "res://tests/fixtures/testing"
const AnswerBudget := preload("res://addons/godot_mcp_toolkit/contract/answer_budget.gd")
const GUT_SUITE := "res://test/unit/test_calc.gd"
const GDUNIT_SUITE := "res://test/CalcTest.gd"
## The tests of GUT's fixture suite test_calc.gd (one indented func: still found).
const GUT_TESTS := "func test_adds():\n\tpass\n\nfunc test_subtracts():\n\tpass\n\n" \
	+ "\tfunc test_not_ready_yet() -> void:\n\tpass\n\nfunc test_without_asserts():\n\tpass\n\n" \
	+ "func test_two_failures():\n\tpass\n\nfunc helper():\n\tpass\n"

var _fx: DomainFixture = null
## Every counted progress report: [progress, total, message].
var _progress: Array = []


func _init() -> void:
	var domains: Array[String] = [DOMAIN]
	_fx = DomainFixture.new(domains, "testing", null, DIR)
	_write(GUT_PROJECT, "addons/gut/gut_cmdln.gd", "extends SceneTree\n")
	_write(GUT_PROJECT, "addons/gut/plugin.cfg", "[plugin]\nname=\"Gut\"\nversion=\"9.6.0\"\n")
	_write(GUT_PROJECT, "test/unit/test_calc.gd", "extends GutTest\n\n" + GUT_TESTS)
	_write(GUT_PROJECT, "test/unit/player_helpers.gd", "extends RefCounted\n\nfunc test_not_a_suite():\n\tpass\n")
	_write(GUT_PROJECT, "test/integration/test_level.gd", "extends GutTest\n\nfunc test_loads():\n\tpass\n")
	_write(GUT_PROJECT, "test/unit/test_gd_style.gd",
		"class_name GdStyle extends GdUnitTestSuite\n\nfunc test_x():\n\tpass\n")
	_write(GDUNIT_PROJECT, "addons/gdUnit4/bin/GdUnitCmdTool.gd", "extends SceneTree\n")
	_write(GDUNIT_PROJECT, "addons/gdUnit4/plugin.cfg", "[plugin]\nname=\"gdUnit4\"\nversion=\"6.0.3\"\n")
	_write(GDUNIT_PROJECT, "test/CalcTest.gd", "extends GdUnitTestSuite\n\nfunc test_adds() -> void:\n\tpass\n\n"
		+ "func test_subtracts() -> void:\n\tpass\n\nfunc test_not_ready_yet(do_skip := true) -> void:\n\tpass\n\n"
		+ "func test_slow(timeout := 500) -> void:\n\tpass\n\nfunc test_pushes_an_error() -> void:\n\tpass\n")
	_write(GDUNIT_PROJECT, "test/fixtures/level_data.gd", "extends Resource\n")
	DirAccess.make_dir_recursive_absolute(BARE_PROJECT)


func cleanup() -> void:
	_fx.cleanup()


func test_registered_on_the_read_lane() -> void:
	Assert.is_true(DOMAIN in CommandDomains.DOMAINS, "listed in command_domains.gd")
	var run: Dictionary = _fx.registry.dispatch_info("test.run")
	Assert.eq([run["read_only"], run["scene_independent"], run["cancellable"]], [true, true, true],
		"a long run holds no mutation lock, needs no scene and can be cancelled")
	Assert.eq(run["timeout_ms"], 1810000, "the longest allowed run plus 10 s")
	Assert.is_true(_fx.registry.dispatch_info("test.list")["read_only"], "listing reads")


# --- JUnit reports ---------------------------------------------------------------------------------

func test_parses_gut_junit() -> void:
	var parsed := JUnitReport.parse(FileAccess.get_file_as_string(FIXTURES.path_join("gut_junit_dir.xml")))
	Assert.is_true(parsed["ok"], "parsed")
	var calc := "test/unit/test_calc.gd"
	var errors := "test/unit/test_errors.gd"
	Assert.eq(parsed["tests"], [
		{"name": "test_adds", "suite": calc, "status": "passed", "duration_s": 0.002},
		{"name": "test_subtracts", "suite": calc, "status": "failed", "duration_s": 0.006,
			"message": "[2] expected to equal [3]:  difference\n            at line -1"},
		{"name": "test_not_ready_yet", "suite": calc, "status": "skipped", "duration_s": 0.004,
			"message": "save format not settled"},
		{"name": "test_without_asserts", "suite": calc, "status": "risky", "duration_s": 0.004,
			"message": JUnitReport.RISKY_MESSAGE},
		{"name": "test_two_failures", "suite": calc, "status": "failed", "duration_s": 0.009,
			"message": "first\n            at line -1"},
		{"name": "test_pushes_an_error", "suite": errors, "status": "failed", "duration_s": 0.013,
			"message": "Unexpected Errors:\n      [1] <push_error>inventory is corrupt\n            at line -1"},
		{"name": "test_pending_and_failing", "suite": errors, "status": "skipped", "duration_s": 0.007,
			"message": "not finished"},
	], "status from GUT's status attribute (no asserts: risky), no line where GUT knew none (-1)")
	Assert.eq(JUnitReport.totals(parsed["tests"]), {"tests": 7, "passed": 1, "failed": 3, "errored": 0,
		"skipped": 2, "risky": 1, "duration_s": 0.045}, "totals: risky counted apart; a skipped script has no tests")


func test_parses_gdunit4_junit() -> void:
	var parsed := JUnitReport.parse(FileAccess.get_file_as_string(FIXTURES.path_join("gdunit4_results.xml")))
	Assert.is_true(parsed["ok"], "parsed")
	Assert.eq(parsed["tests"], [
		{"name": "test_adds", "suite": "CalcTest", "status": "passed", "duration_s": 0.059},
		{"name": "test_subtracts", "suite": "CalcTest", "status": "failed", "duration_s": 0.03,
			"message": "Expecting:\n '3'\n but was\n '2'", "file": GDUNIT_SUITE},
		{"name": "test_not_ready_yet", "suite": "CalcTest", "status": "skipped", "duration_s": 0.0,
			"message": "save format not settled", "file": GDUNIT_SUITE, "line": 12},
		{"name": "test_slow", "suite": "CalcTest", "status": "errored", "duration_s": 0.499,
			"message": "Timeout !\n 'Test timed out after 500ms'", "file": GDUNIT_SUITE, "line": 16},
		{"name": "test_pushes_an_error", "suite": "CalcTest", "status": "passed", "duration_s": 0.051},
	], "file kept and line dropped for :-1, a skip's reason as its message, a timeout (INTERUPTED) errored")
	Assert.eq(JUnitReport.totals(parsed["tests"])["errored"], 1, "the timeout is the one error")


func test_unreadable_reports_are_refused() -> void:
	Assert.eq(JUnitReport.parse(""), {"ok": false, "error": "the report is empty"}, "empty")
	Assert.eq(JUnitReport.parse("<html><body>no</body></html>")["ok"], false, "not JUnit")
	Assert.eq(JUnitReport.parse("<testsuites><testsuite name=\"a\"><testcase name=\"t\"></testsuite>"),
		{"ok": false, "error": "the report is cut off inside testcase t"}, "a report that stops inside a test")


# --- detection and listing -------------------------------------------------------------------------

func test_detects_frameworks_and_lists_suites_by_their_conventions() -> void:
	Assert.eq(Frameworks.detect(GUT_PROJECT), [{"name": "gut", "version": "9.6.0"}], "GUT and its version")
	Assert.eq(Frameworks.detect(GDUNIT_PROJECT), [{"name": "gdunit4", "version": "6.0.3"}], "gdUnit4")
	Assert.eq(Frameworks.detect(BARE_PROJECT), [], "neither")
	_fx.context.runtime_project.project_dir = GUT_PROJECT
	var listed := _fx.example("test.list", 0)
	Assert.eq((listed["suites"] as Array).map(func(s: Dictionary) -> String: return s["path"]),
		["res://test/integration/test_level.gd", GUT_SUITE],
		"test_*.gd under res://test; helpers and a gdUnit4 suite named like GUT's left out")
	_write(GUT_PROJECT, ".gutconfig.json", JSON.stringify({"dirs": ["res://test/unit"], "prefix": "test_"}))
	var configured := _fx.invoke("test.list", {})
	Assert.eq((configured["suites"] as Array).map(func(s: Dictionary) -> String: return s["path"]), [GUT_SUITE],
		".gutconfig.json dirs, without subfolders unless include_subdirs")
	# A dot file: the fixture's folder cleanup does not list it.
	DirAccess.remove_absolute(GUT_PROJECT.path_join(".gutconfig.json"))
	_fx.context.runtime_project.project_dir = GDUNIT_PROJECT
	var gdunit := _fx.invoke("test.list", {})
	Assert.eq(gdunit["suites"], [{"framework": "gdunit4", "path": GDUNIT_SUITE,
		"tests": ["test_adds", "test_subtracts", "test_not_ready_yet", "test_slow", "test_pushes_an_error"]}],
		"scripts extending GdUnitTestSuite")
	Assert.eq(_fx.invoke("test.list", {"framework": "gut"})["code"], "NOT_FOUND", "GUT is not installed there")
	Assert.eq(_fx.invoke("test.list", {"framework": "pytest"})["code"], "INVALID_PARAMS", "unknown framework")


func test_no_framework_says_how_to_add_one() -> void:
	_fx.context.runtime_project.project_dir = BARE_PROJECT
	var listed := _fx.example("test.list", 1)
	Assert.contains(listed["hint"], "addons/gut", "names GUT's folder")
	var run := _run(ResultExamples.params("testing", "test.run", 3))
	ResultExamples.check("testing", "test.run", run, 3)
	Assert.eq(_fx.context.runtime_game.started_processes, [], "nothing started")


# --- runs ------------------------------------------------------------------------------------------

func test_failing_gut_run_reports_each_test_and_progress() -> void:
	_fx.context.runtime_project.project_dir = GUT_PROJECT
	_fx.context.runtime_game.process_runner = _writes_report("gut_junit.xml", 3, 1)
	var run := _run(ResultExamples.params("testing", "test.run", 0))
	ResultExamples.check("testing", "test.run", run, 0)
	Assert.eq(_fx.context.runtime_game.started_processes.size(), 1, "one suite, one process")
	var args: PackedStringArray = _fx.context.runtime_game.started_processes[0]["args"]
	Assert.eq(_fx.context.runtime_game.started_processes[0]["path"], "/fake/godot", "the editor's own binary")
	Assert.eq(Array(args.slice(0, 3)), ["--headless", "--path", ProjectSettings.globalize_path(GUT_PROJECT)],
		"headless, on the project")
	Assert.eq(Array(args.slice(5, 7)), ["-s", "res://addons/gut/gut_cmdln.gd"], "GUT's command-line entry")
	Assert.eq(args[3], "--log-file", "the output goes to a file, an engine option before the script")
	Assert.is_true(args[4].is_absolute_path() and args[4].ends_with("0_gut.log"), "an absolute path: %s" % args[4])
	for expected: String in ["-gconfig=", "-gtest=" + GUT_SUITE, "-gexit"]:
		Assert.is_true(expected in args, "passes %s" % expected)
	Assert.is_true(args[-1].begins_with("-gjunit_xml_file=user://godot_mcp_toolkit/test_runs/"),
		"the report goes to user://, which the test process resolves to the same folder")
	Assert.eq(_progress, [[1.0, 1.0, GUT_SUITE + ": finished (1 passed, 2 failed, 0 errored, 1 skipped, 1 risky)"]],
		"progress after the suite")
	Assert.eq(DirAccess.get_directories_at("user://godot_mcp_toolkit/test_runs"), PackedStringArray(),
		"reports removed after reading")


func test_passing_run_of_one_gdunit4_test() -> void:
	_fx.context.runtime_project.project_dir = GDUNIT_PROJECT
	_fx.context.runtime_game.process_runner = _writes_report("gdunit4_one_test.xml", 2, 0)
	var run := _run(ResultExamples.params("testing", "test.run", 1))
	ResultExamples.check("testing", "test.run", run, 1)
	var args: PackedStringArray = _fx.context.runtime_game.started_processes[0]["args"]
	for expected: String in ["--ignoreHeadlessMode", "-c", "-a", GDUNIT_SUITE, "-rd"]:
		Assert.is_true(expected in args, "passes %s" % expected)
	Assert.is_true(args[args.find("-rd") + 1].begins_with("user://"), "gdUnit4 reads an absolute /path as res://")
	var ignored := PackedStringArray()
	for i in args.size():
		if args[i] == "-i":
			ignored.append(args[i + 1])
	Assert.eq(ignored, PackedStringArray(["CalcTest:test_subtracts", "CalcTest:test_not_ready_yet",
		"CalcTest:test_slow", "CalcTest:test_pushes_an_error"]), "the other tests of the suite are ignored")
	Assert.eq(_run({"framework": "gdunit4", "suite_path": GDUNIT_SUITE, "test_name": "test_nope"})["code"], "NOT_FOUND",
		"a test the suite does not have")
	Assert.eq(_run({"suite_path": "res://test/Missing.gd"})["code"], "NOT_FOUND", "a suite that is not one")
	Assert.eq(_run({"test_name": "test_adds"})["code"], "INVALID_PARAMS", "a test needs its suite")


## include_passed over a suite of 400 tests asks for more than one answer holds: the results that
## fit, the ones that did not pass first (wherever they ran), and how to see the rest.
func test_a_large_run_answers_within_one_answer_failures_first() -> void:
	_fx.context.runtime_project.project_dir = GUT_PROJECT
	var cases := ""
	for index in 400:
		var failed := index in [7, 398]
		cases += "<testcase name=\"test_case_number_%03d\" assertions=\"1\" status=\"%s\" " % [
			index, "fail" if failed else "pass"] + "classname=\"test/unit/test_calc.gd\" time=\"0.001\">"
		cases += "<failure message=\"failed\">expected %d</failure></testcase>\n" % index if failed else "</testcase>\n"
	var report := "<?xml version=\"1.0\"?>\n<testsuites name=\"GutTests\" failures=\"2\" tests=\"400\">" \
		+ "<testsuite name=\"test/unit/test_calc.gd\" tests=\"400\" failures=\"2\">\n%s</testsuite></testsuites>\n" % cases
	_fx.context.runtime_game.process_runner = func(_path: String, args: PackedStringArray) -> Dictionary:
		for arg: String in args:
			if arg.begins_with("-gjunit_xml_file="):
				_store(arg.trim_prefix("-gjunit_xml_file="), report)
		return {"polls": 1, "exit_code": 1}
	var run := _run({"suite_path": GUT_SUITE, "include_passed": true})
	Assert.is_true(run["success"], "the run answers (%s)" % run.get("error", ""))
	Assert.is_true(AnswerBudget.size_of(run) <= AnswerBudget.BYTES,
		"within one answer (%d bytes)" % AnswerBudget.size_of(run))
	Assert.eq([run["totals"]["tests"], run["totals"]["failed"], run["has_more"]], [400, 2, true], "the totals count all")
	var shown: Array = run["tests"]
	Assert.eq(run["returned"], shown.size(), "returned counts what is shown")
	Assert.eq([shown[0]["name"], shown[1]["name"]], ["test_case_number_007", "test_case_number_398"], "failures first")
	Assert.eq(shown[2]["status"], "passed", "then passed ones")
	Assert.contains(run["hint"], "test_name", "says how to see the rest")


func test_timeout_kills_the_process() -> void:
	_fx.context.runtime_project.project_dir = GUT_PROJECT
	_fx.context.runtime_game.process_runner = func(_path: String, _args: PackedStringArray) -> Dictionary:
		return {"polls": -1, "exit_code": 0}
	var run := _run(ResultExamples.params("testing", "test.run", 2))
	ResultExamples.check("testing", "test.run", run, 2)
	Assert.eq(_fx.context.runtime_game.killed_processes.size(), 1, "the hung process was killed")
	Assert.eq(_fx.context.runtime_game.started_processes.size(), 1, "the next suite was not started")


func test_process_without_a_report_is_an_errored_suite() -> void:
	_fx.context.runtime_project.project_dir = GUT_PROJECT
	_fx.context.runtime_game.process_runner = func(_path: String, _args: PackedStringArray) -> Dictionary:
		return {"polls": 1, "exit_code": 1}
	var run := _run({"suite_path": GUT_SUITE})
	Assert.eq([run["success"], run["passed"], run["totals"]["errored"]], [true, false, 1], "counted as an error")
	Assert.eq(run["suites"][0]["status"], "no_report", "the suite says why")
	Assert.contains(run["tests"][0]["message"], "exited (code 1) without a usable JUnit report", "and the entry")
	Assert.contains(str(run["suites"][0]["output"].get("unavailable")), "no log file", "nothing printed to read")
	Assert.contains(run["hint"], "left no output to read", "the hint says so")
	_fx.context.runtime_game.process_runner = Callable()
	var unstartable := _run({"suite_path": GUT_SUITE})
	Assert.eq(unstartable["suites"][0]["status"], "not_started", "a process that cannot start")


func test_a_framework_that_does_not_compile_is_named_with_its_output() -> void:
	_fx.context.runtime_project.project_dir = GDUNIT_PROJECT
	# What gdUnit4 6.0.3's command-line tool printed on Godot 4.6: its own scripts fail to compile,
	# it still exits 0 and writes no report.
	_fx.context.runtime_game.process_runner = _prints_log("gdunit4_6.0.3_no_report.log", 0)
	var run := _run({"suite_path": GDUNIT_SUITE})
	Assert.eq([run["passed"], run["totals"]["tests"], run["totals"]["errored"]], [false, 1, 1],
		"not passed, and never 0 tests: the suite is one errored entry")
	var suite: Dictionary = run["suites"][0]
	Assert.eq([suite["status"], suite["exit_code"]], ["no_report", 0], "exit code 0, no report")
	var output: Dictionary = suite["output"]
	Assert.eq(output["errors"][0], "SCRIPT ERROR: Parse Error: Too many arguments for \"get_as_text()\" call. "
		+ "Expected at most 0 but received 1. (at GDScript::reload (res://addons/gdUnit4/src/core/GdUnitFileAccess.gd:199))",
		"the parse error first, with where it is")
	Assert.eq(output["last_lines"].slice(-2), ["Exit code: 0", "Finallize .. done"], "the last lines, colour codes gone")
	Assert.eq(output["last_lines"].size(), 10, "ten of them")
	Assert.contains(run["tests"][0]["message"], "it printed: SCRIPT ERROR: Parse Error: Too many arguments", "the entry")
	var engine := Engine.get_version_info()
	Assert.contains(run["hint"], "gdunit4 6.0.3 does not compile on Godot %d.%d" % [engine["major"], engine["minor"]],
		"the hint names the framework, its version and this Godot")
	Assert.contains(run["hint"], "Update gdunit4", "and what to do")


func test_cancel_kills_the_process() -> void:
	_fx.context.runtime_project.project_dir = GUT_PROJECT
	_fx.context.runtime_game.process_runner = func(_path: String, _args: PackedStringArray) -> Dictionary:
		return {"polls": -1, "exit_code": 0}
	var ctx := ToolContext.new(7, 1, "test.run")
	ctx.cancel()
	var handler: Callable = _fx.registry.dispatch_info("test.run")["handler"]
	var run: Dictionary = handler.callv([{"timeout_ms": 60000}, ctx])
	Assert.eq([run["success"], run["passed"], run.get("cancelled")], [true, false, true], "cancelled, not passed")
	Assert.eq(_fx.context.runtime_game.killed_processes.size(), 1, "killed")
	Assert.eq(run["suites"].map(func(s: Dictionary) -> String: return s["status"]), ["killed", "not_run"],
		"the rest did not run")


func test_bad_params_are_refused() -> void:
	_fx.context.runtime_project.project_dir = GUT_PROJECT
	for params: Dictionary in [{"timeout_ms": 0}, {"timeout_ms": "soon"}, {"timeout_ms": 1800001},
			{"include_passed": "yes"}, {"suite_path": 3}, {"framework": "jest"}]:
		Assert.eq(_run(params)["code"], "INVALID_PARAMS", JSON.stringify(params))
	Assert.eq(_fx.context.runtime_game.started_processes, [], "nothing started")


func test_a_test_process_serves_no_runtime_channel() -> void:
	var args := Frameworks.command(Frameworks.GUT, "/p", GUT_SUITE, "", PackedStringArray(), "/r.xml", "/r.log")
	Assert.is_true(RuntimeAutoload.is_script_run(args), "GUT's run is a --script run: no runtime server")
	Assert.is_true(RuntimeAutoload.is_script_run(PackedStringArray(["--script", "res://x.gd"])), "long form")
	Assert.is_false(RuntimeAutoload.is_script_run(PackedStringArray(["--path", "/p", "res://main.tscn"])),
		"a game the editor plays is served")


# --- helpers ---------------------------------------------------------------------------------------

func _run(params: Dictionary) -> Dictionary:
	var ctx := ToolContext.new(1, 1, "test.run")
	ctx.reporter = func(_peer: int, _id: Variant, progress: float, total: float, message: String) -> void:
		_progress.append([progress, total, message])
	var handler: Callable = _fx.registry.dispatch_info("test.run")["handler"]
	return handler.callv([params, ctx])


## A fake process that runs `polls` frames, writes fixture `fixture` where its framework would, and
## exits with `exit_code`.
func _writes_report(fixture: String, polls: int, exit_code: int) -> Callable:
	return func(_path: String, args: PackedStringArray) -> Dictionary:
		var text := FileAccess.get_file_as_string(FIXTURES.path_join(fixture))
		for i in args.size():
			if args[i].begins_with("-gjunit_xml_file="):
				_store(args[i].trim_prefix("-gjunit_xml_file="), text)
			elif args[i] == "-rd":
				DirAccess.make_dir_recursive_absolute(args[i + 1].path_join("report_1"))
				_store(args[i + 1].path_join("report_1").path_join("results.xml"), text)
		return {"polls": polls, "exit_code": exit_code}


## A fake process that prints fixture `fixture` into the log file it was given, writes no report
## and exits with `exit_code`.
func _prints_log(fixture: String, exit_code: int) -> Callable:
	return func(_path: String, args: PackedStringArray) -> Dictionary:
		_store(args[args.find("--log-file") + 1], FileAccess.get_file_as_string(FIXTURES.path_join(fixture)))
		return {"polls": 1, "exit_code": exit_code}


static func _store(path: String, text: String) -> void:
	var file := FileAccess.open(path, FileAccess.WRITE)
	file.store_string(text)
	file.close()


static func _write(project: String, relative: String, text: String) -> void:
	var path := project.path_join(relative)
	DirAccess.make_dir_recursive_absolute(path.get_base_dir())
	_store(path, text)
