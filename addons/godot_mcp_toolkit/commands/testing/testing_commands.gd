@tool
extends RefCounted
## The project's own tests: test.list finds GUT / gdUnit4 and their suites; test.run runs
## all suites, one suite or one test, each suite in its own headless Godot process (the editor's
## binary), and returns per-test results parsed from the framework's JUnit XML report. The run polls
## the process once per frame (never blocking the editor), kills it when the run's time is up or the
## call is cancelled, and reports progress after each suite. Processes go through the context, so
## this file is runtime-safe and testable with a fake process.
##
## One process per suite: Godot 4.2 offers no pipe to a child's output (OS.execute_with_pipe is
## 4.3+), so a finished suite is the finest progress every supported version can see.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const ToolkitSuccess := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_success.gd")
const AnswerBudget := preload("res://addons/godot_mcp_toolkit/contract/answer_budget.gd")
const Params := preload("res://addons/godot_mcp_toolkit/contract/params.gd")
const Frameworks := preload("res://addons/godot_mcp_toolkit/commands/testing/test_frameworks.gd")
const JUnitReport := preload("res://addons/godot_mcp_toolkit/commands/testing/junit_report.gd")
const RunOutput := preload("res://addons/godot_mcp_toolkit/commands/testing/run_output.gd")
# Reports live under user:// (never journalled), but every file change goes through one layer.
const ProjectWrites := preload("res://addons/godot_mcp_toolkit/checkpoints/project_writes.gd")
const Folders := preload("res://addons/godot_mcp_toolkit/base/folders.gd")

const SELF_PATH := "res://addons/godot_mcp_toolkit/commands/testing/testing_commands.gd"
const DEFAULT_TIMEOUT_MS := 300000
const MAX_TIMEOUT_MS := 1800000
const TESTS_HINT := "%d of %d test results fit one answer (those that did not pass first); run one suite " \
	+ "(suite_path) or one test (test_name) for the rest."
## Where the test processes write their reports (removed after reading).
const REPORT_DIR := "user://godot_mcp_toolkit/test_runs"


static func register(registry: RefCounted, context: RefCounted) -> void:
	var script: Script = load(SELF_PATH)
	registry.register_command("test.list", Callable(script, "_cmd_list").bind(context),
		registry.create_options()
		.read_only().scene_independent())
	# On the read lane although the tests run project code: the editor itself is not changed, and a
	# run of minutes must not hold the mutation lock. Its timeout is the longest allowed run + 10 s (C5).
	registry.register_command("test.run", Callable(script, "_cmd_run").bind(context),
		registry.create_options()
		.read_only().scene_independent().cancellable().with_timeout_ms(MAX_TIMEOUT_MS + 10000))


static func _cmd_list(params: Dictionary, context: RefCounted) -> Dictionary:
	var chosen := _frameworks(params, context.project.project_root())
	if not chosen["ok"]:
		return chosen["error"]
	var installed: Array[Dictionary] = chosen["frameworks"]
	if installed.is_empty():
		return ToolkitSuccess.ok({"frameworks": [], "suites": [], "total_suites": 0, "total_tests": 0,
			"hint": "No test framework in this project. " + Frameworks.HOW_TO_ADD})
	var suites: Array[Dictionary] = []
	var total_tests := 0
	for framework: Dictionary in installed:
		for suite: Dictionary in Frameworks.suites(context.project.project_root(), framework["name"]):
			suite["tests"] = Array(suite["tests"])
			total_tests += (suite["tests"] as Array).size()
			suites.append(suite)
	var result := {"frameworks": installed, "suites": suites, "total_suites": suites.size(), "total_tests": total_tests}
	if suites.is_empty():
		result["hint"] = "No suites found: put test scripts in res://test (see each framework's naming rules)."
	return ToolkitSuccess.ok(result)


static func _cmd_run(params: Dictionary, tool_ctx: RefCounted, context: RefCounted) -> Dictionary:
	var timeout: Variant = params.get("timeout_ms", DEFAULT_TIMEOUT_MS)
	if not Params.is_number(timeout) or float(timeout) <= 0 or float(timeout) > MAX_TIMEOUT_MS:
		return ToolkitError.fail("INVALID_PARAMS", "timeout_ms must be a number of milliseconds in 1..%d" % MAX_TIMEOUT_MS)
	var include_passed: Variant = params.get("include_passed", false)
	if not include_passed is bool:
		return ToolkitError.fail("INVALID_PARAMS", "include_passed must be true or false")
	var planned := _plan(params, context.project.project_root())
	if not planned["ok"]:
		return planned["error"]
	var runs: Array[Dictionary] = planned["runs"]
	var run := {"started": Time.get_ticks_msec(), "deadline": Time.get_ticks_msec() + int(timeout),
		"dir": "%s/run_%d_%d" % [REPORT_DIR, Time.get_ticks_usec(), randi()], "tests": [], "suites": []}
	ProjectWrites.make_dir(run["dir"])
	var stop := ""
	for index in runs.size():
		var unit: Dictionary = runs[index]
		if not stop.is_empty():
			run["suites"].append({"framework": unit["framework"], "path": unit["path"], "status": "not_run"})
			continue
		var outcome: Dictionary = await _run_suite(unit, index, run, tool_ctx, context)
		run["suites"].append(outcome["suite"])
		run["tests"].append_array(outcome["tests"])
		stop = outcome["stop"]
		tool_ctx.report_progress(index + 1, runs.size(), _progress_text(outcome["suite"], outcome["tests"]))
	ProjectWrites.remove_tree(run["dir"])
	return ToolkitSuccess.ok(_summary(run, stop, int(timeout), include_passed, planned))


## Which suites to run: {"ok", "runs": [{framework, path, tests, test}], "frameworks"} or an error.
static func _plan(params: Dictionary, root: String) -> Dictionary:
	var chosen := _frameworks(params, root)
	if not chosen["ok"]:
		return chosen
	var installed: Array[Dictionary] = chosen["frameworks"]
	if installed.is_empty():
		return _refuse("NOT_FOUND", "No test framework (GUT or gdUnit4) in this project", Frameworks.HOW_TO_ADD)
	var suite: Variant = params.get("suite_path", "")
	var test: Variant = params.get("test_name", "")
	if not suite is String or not test is String:
		return _refuse("INVALID_PARAMS", "suite_path and test_name must be strings")
	if not (test as String).is_empty() and (suite as String).is_empty():
		return _refuse("INVALID_PARAMS", "test_name needs suite_path (the suite that holds the test)")
	var runs: Array[Dictionary] = []
	for framework: Dictionary in installed:
		for found: Dictionary in Frameworks.suites(root, framework["name"]):
			if (suite as String).is_empty() or found["path"] == suite:
				runs.append({"framework": found["framework"], "path": found["path"], "tests": found["tests"], "test": test})
	if runs.is_empty():
		if (suite as String).is_empty():
			return _refuse("NOT_FOUND", "No test suites found", "Add test scripts under res://test; test_list shows "
				+ "what each framework finds.")
		return _refuse("NOT_FOUND", "%s is not a test suite of %s" % [suite, ", ".join(_names(installed))],
			"test_list shows the suites and their tests.")
	if not (test as String).is_empty() and not test in (runs[0]["tests"] as PackedStringArray):
		return _refuse("NOT_FOUND", "%s has no test %s" % [suite, test], "test_list shows the suites and their tests.")
	return {"ok": true, "runs": runs, "frameworks": _names(installed), "installed": installed}


## The installed frameworks, narrowed to params.framework when given.
static func _frameworks(params: Dictionary, root: String) -> Dictionary:
	var wanted: Variant = params.get("framework", "")
	if not wanted is String or not (wanted == "" or wanted in Frameworks.NAMES):
		return _refuse("INVALID_PARAMS", "framework must be one of: %s" % ", ".join(Frameworks.NAMES))
	var installed := Frameworks.detect(root)
	if wanted == "":
		return {"ok": true, "frameworks": installed}
	for framework: Dictionary in installed:
		if framework["name"] == wanted:
			return {"ok": true, "frameworks": [framework] as Array[Dictionary]}
	return _refuse("NOT_FOUND", "%s is not installed in this project" % wanted, Frameworks.HOW_TO_ADD)


## Runs one suite's process to its end, the run's deadline, or a cancel:
## {"suite": its summary, "tests": results, "stop": "" | "timeout" | "cancelled"}.
static func _run_suite(unit: Dictionary, index: int, run: Dictionary, tool_ctx: RefCounted,
		context: RefCounted) -> Dictionary:
	var framework: String = unit["framework"]
	# A user:// path: the test process runs the same project, so it resolves to the same folder, and
	# gdUnit4 would read an absolute "/..." report folder as res://.
	var report := "%s/%d_%s" % [run["dir"], index, framework]
	if framework == Frameworks.GUT:
		report += ".xml"
	# Everything the process prints, for a run that writes no report (an absolute path: the engine
	# reads --log-file as a file-system path).
	var log_file := ProjectSettings.globalize_path("%s/%d_%s.log" % [run["dir"], index, framework])
	var project := ProjectSettings.globalize_path(context.project.project_root()).trim_suffix("/")
	var args := Frameworks.command(framework, project, unit["path"], unit["test"], unit["tests"], report, log_file)
	var summary := {"framework": framework, "path": unit["path"]}
	var pid: int = context.game.start_process(context.game.executable_path(), args)
	if pid < 0:
		summary["status"] = "not_started"
		return {"suite": summary, "tests": [_suite_error(unit, "the test process could not be started")], "stop": ""}
	var started := Time.get_ticks_msec()
	var stop := ""
	while context.game.is_process_running(pid):
		if tool_ctx.is_cancelled():
			stop = "cancelled"
		elif Time.get_ticks_msec() >= int(run["deadline"]):
			stop = "timeout"
		if not stop.is_empty():
			context.game.kill_process(pid)
			break
		await context.host.wait_frame()
	summary["duration_s"] = snappedf((Time.get_ticks_msec() - started) / 1000.0, 0.001)
	if not stop.is_empty():
		summary["status"] = "killed"
		summary["reason"] = stop
		return {"suite": summary, "tests": [], "stop": stop}
	var exit_code: int = context.game.process_exit_code(pid)
	summary["exit_code"] = exit_code
	var parsed := _read_report(framework, report)
	if not parsed["ok"]:
		summary["status"] = "no_report"
		summary["output"] = RunOutput.excerpt(log_file)
		var why := "the test process exited (code %d) without a usable JUnit report: %s" % [exit_code, parsed["error"]]
		var printed: Array = summary["output"].get("errors", [])
		if not printed.is_empty():
			why += "; it printed: " + str(printed[0])
		return {"suite": summary, "tests": [_suite_error(unit, why)], "stop": ""}
	var tests: Array[Dictionary] = []
	for test: Dictionary in parsed["tests"]:
		# gdUnit4 lists the ignored tests of a one-test run as skipped; they were not asked for.
		if (unit["test"] as String).is_empty() or test["name"] == unit["test"]:
			test["suite"] = unit["path"]
			test["framework"] = framework
			if not test.has("file") and test["status"] != "passed":
				test["file"] = unit["path"]  # a test lives in its suite's script (GUT names no file)
			tests.append(test)
	summary["status"] = "finished"
	summary["test_count"] = tests.size()
	return {"suite": summary, "tests": tests, "stop": ""}


## GUT writes the file it was given; gdUnit4 a report_<n>/results.xml inside the folder it was given.
static func _read_report(framework: String, report: String) -> Dictionary:
	var path := report
	if framework == Frameworks.GDUNIT:
		path = ""
		if Folders.exists(report):
			var folders := DirAccess.get_directories_at(report)
			folders.sort()
			for folder: String in folders:
				if FileAccess.file_exists(report.path_join(folder).path_join("results.xml")):
					path = report.path_join(folder).path_join("results.xml")
	if path.is_empty() or not FileAccess.file_exists(path):
		return {"ok": false, "error": "no report was written"}
	return JUnitReport.parse(FileAccess.get_file_as_string(path))


static func _summary(run: Dictionary, stop: String, timeout: int, include_passed: bool,
		planned: Dictionary) -> Dictionary:
	var tests: Array = run["tests"]
	var totals := JUnitReport.totals(tests)
	var shown := tests if include_passed else tests.filter(func(t: Dictionary) -> bool: return t["status"] != "passed")
	var result := {
		"frameworks": planned["frameworks"],
		"passed": stop.is_empty() and totals["failed"] == 0 and totals["errored"] == 0,
		"totals": totals,
		"suites": run["suites"],
		"tests": shown,
		"elapsed_ms": Time.get_ticks_msec() - int(run["started"]),
	}
	if stop == "timeout":
		result["timed_out"] = true
		result["hint"] = "The run passed timeout_ms (%d ms); its test process was killed and the remaining " % timeout \
			+ "suites did not run. Raise timeout_ms, or run one suite with suite_path."
	elif stop == "cancelled":
		result["cancelled"] = true
	elif _first_without_report(run["suites"]) >= 0:
		var silent: Dictionary = run["suites"][_first_without_report(run["suites"])]
		var version := ""
		for framework: Dictionary in planned["installed"]:
			if framework["name"] == silent["framework"]:
				version = framework["version"]
		result["hint"] = RunOutput.no_report_hint(silent["framework"], version, silent["output"])
	elif totals["tests"] == 0:
		result["hint"] = "No test ran: check the suites with test_list."
	return _within_one_answer(result)


## `result` with as many test results as fit one answer, the ones that did not pass first, and
## how to see the rest: a run cannot be paged, so a narrower run (one suite, one test).
static func _within_one_answer(result: Dictionary) -> Dictionary:
	var tests: Array = result["tests"]
	var hint := TESTS_HINT % [tests.size(), tests.size()]
	var beside := result.duplicate()
	beside.merge({"tests": [], "returned": tests.size(), "has_more": true,
		"hint": str(result.get("hint", "")) + " " + hint}, true)
	var room := AnswerBudget.room_beside(beside)
	if AnswerBudget.size_of(tests) <= room:
		return result
	var ranked := tests.filter(func(t: Dictionary) -> bool: return t["status"] != "passed")
	ranked.append_array(tests.filter(func(t: Dictionary) -> bool: return t["status"] == "passed"))
	var shown := ranked.slice(0, AnswerBudget.fitting(ranked, room))
	result["tests"] = shown
	result.merge({"returned": shown.size(), "has_more": true}, true)
	hint = TESTS_HINT % [shown.size(), tests.size()]
	result["hint"] = (str(result["hint"]) + " " + hint) if result.has("hint") else hint
	return result


static func _progress_text(suite: Dictionary, tests: Array) -> String:
	var counts := JUnitReport.totals(tests)
	var text := "%s: %s (%d passed, %d failed, %d errored, %d skipped" % [suite["path"], suite["status"],
		counts["passed"], counts["failed"], counts["errored"], counts["skipped"]]
	return text + (", %d risky)" % counts["risky"] if counts["risky"] > 0 else ")")


## The index of the first suite whose process wrote no report, or -1.
static func _first_without_report(suites: Array) -> int:
	for i in suites.size():
		if (suites[i] as Dictionary).get("status") == "no_report":
			return i
	return -1


## A suite that produced no per-test results still shows up as one errored entry.
static func _suite_error(unit: Dictionary, message: String) -> Dictionary:
	return {"name": unit["path"].get_file(), "suite": unit["path"], "framework": unit["framework"],
		"status": "errored", "message": message, "duration_s": 0.0}


static func _names(frameworks: Array[Dictionary]) -> Array:
	return frameworks.map(func(f: Dictionary) -> String: return f["name"])


static func _refuse(code: String, message: String, hint: String = "") -> Dictionary:
	return {"ok": false, "error": ToolkitError.fail(code, message, hint)}
