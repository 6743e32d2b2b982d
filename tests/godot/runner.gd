extends SceneTree
## Runs every tests/godot/test_*.gd: each is a RefCounted whose test_* methods are called in
## name order. Exit code 0 when every assertion held, 1 otherwise.
## Usage: godot --headless --path <project> --script res://tests/godot/runner.gd

const Assert := preload("assert.gd")
const TEST_DIR := "res://tests/godot"


func _init() -> void:
	Assert.reset()
	var ran := 0
	var files := DirAccess.get_files_at(TEST_DIR)
	files.sort()
	for file_name: String in files:
		if file_name.begins_with("test_") and file_name.ends_with(".gd"):
			ran += _run_file(TEST_DIR.path_join(file_name))
	for failure: String in Assert.failures:
		printerr("FAIL ", failure)
	print("godot tests: %d methods, %d checks, %d failures" % [ran, Assert.checks, Assert.failures.size()])
	quit(1 if not Assert.failures.is_empty() or ran == 0 else 0)


func _run_file(path: String) -> int:
	var script := load(path) as Script
	if script == null or not script.can_instantiate():
		Assert.failures.append("%s: does not load" % path)
		return 0
	var names: Array[String] = []
	for method: Dictionary in script.get_script_method_list():
		var method_name := String(method["name"])
		if method_name.begins_with("test_") and not method_name in names:
			names.append(method_name)
	names.sort()
	for method_name: String in names:
		var suite: Object = script.new()
		Assert.current = "%s::%s" % [path.get_file(), method_name]
		suite.call(method_name)
		if suite.has_method("cleanup"):
			suite.call("cleanup")
	return names.size()
