extends SceneTree
## Runs every tests/godot/test_*.gd: each is a RefCounted whose test_* methods are called in name
## order, on a fresh instance each, with cleanup() after each. Exit code 0 when every assertion
## held, 1 otherwise. One line per file and per method on stdout, which tests/support/gd_engine.py parses:
##   FILE test_x.gd                 (about to run it)
##   SKIP test_x.gd: <reason>       (its static skip_reason() returned a reason for this engine)
##   LOADFAIL test_x.gd             (it does not compile; the errors are printed just before)
##   PASS test_x.gd::test_y / FAIL test_x.gd::test_y
## Failure details go to stderr as "FAIL test_x.gd::test_y: <message>".
## Usage: godot --headless --path <project> --script res://tests/godot/runner.gd [-- test_x.gd ...]
## (file names after `--` run only those files; `python -m tests.support.gd_engine test_x.gd` does that).

const Assert := preload("assert.gd")
const TEST_DIR := "res://tests/godot"


func _init() -> void:
	Assert.reset()
	var ran := 0
	var load_failures := 0
	var files := DirAccess.get_files_at(TEST_DIR)
	files.sort()
	var only := OS.get_cmdline_user_args()
	for file_name: String in files:
		if file_name.begins_with("test_") and file_name.ends_with(".gd") and (only.is_empty() or file_name in only):
			var count := _run_file(TEST_DIR.path_join(file_name))
			if count < 0:
				load_failures += 1
			else:
				ran += count
	for failure: String in Assert.failures:
		printerr("FAIL ", failure)
	print("godot tests: %d methods, %d checks, %d failures, %d files not loading" % [
		ran, Assert.checks, Assert.failures.size(), load_failures])
	quit(1 if not Assert.failures.is_empty() or load_failures > 0 or ran == 0 else 0)


## The number of test methods run (0 when skipped), -1 when the file does not load.
func _run_file(path: String) -> int:
	var file_name := path.get_file()
	print("FILE %s" % file_name)
	var script := load(path) as Script
	if script == null or not script.can_instantiate():
		print("LOADFAIL %s" % file_name)
		return -1
	if _has_method(script, "skip_reason"):
		var reason := str(script.call("skip_reason"))
		if not reason.is_empty():
			print("SKIP %s: %s" % [file_name, reason])
			return 0
	var names: Array[String] = []
	for method: Dictionary in script.get_script_method_list():
		var method_name := String(method["name"])
		if method_name.begins_with("test_") and not method_name in names:
			names.append(method_name)
	names.sort()
	for method_name: String in names:
		var before := Assert.failures.size()
		var suite: Object = script.new()
		Assert.current = "%s::%s" % [file_name, method_name]
		suite.call(method_name)
		if suite.has_method("cleanup"):
			suite.call("cleanup")
		print("%s %s::%s" % ["PASS" if Assert.failures.size() == before else "FAIL", file_name, method_name])
	return names.size()


static func _has_method(script: Script, method_name: String) -> bool:
	for method: Dictionary in script.get_script_method_list():
		if String(method["name"]) == method_name:
			return true
	return false
