@tool
extends RefCounted
## The test frameworks a project can use and their conventions, as each documents them:
##   GUT      addons/gut; suites are files named <prefix>*<suffix> ("test_", ".gd") in the dirs of
##            res://.gutconfig.json (include_subdirs), else in res://test and res://tests; run by
##            addons/gut/gut_cmdln.gd with -gtest, -gunit_test_name, -gjunit_xml_file, -gexit.
##   gdUnit4  addons/gdUnit4; suites are scripts extending GdUnitTestSuite under res://test or
##            res://tests; run by addons/gdUnit4/bin/GdUnitCmdTool.gd with -a, -i, -rd, -c and
##            --ignoreHeadlessMode, writing <report dir>/report_<n>/results.xml.
## `root` is the project folder as this process reads it (res:// in the editor); suite paths are
## always res:// paths as the test process sees them. Runtime-safe.

const Folders := preload("res://addons/godot_mcp_toolkit/base/folders.gd")

const GUT := "gut"
const GDUNIT := "gdunit4"
const NAMES := [GUT, GDUNIT]
const ENTRY := {
	GUT: "res://addons/gut/gut_cmdln.gd",
	GDUNIT: "res://addons/gdUnit4/bin/GdUnitCmdTool.gd",
}
const PLUGIN_CFG := {GUT: "res://addons/gut/plugin.cfg", GDUNIT: "res://addons/gdUnit4/plugin.cfg"}
const DEFAULT_DIRS := ["res://test", "res://tests"]
const GUT_CONFIG := "res://.gutconfig.json"
const HOW_TO_ADD := "Install GUT (Asset Library: \"Gut - Godot Unit Testing\", into addons/gut) or gdUnit4 " \
	+ "(Asset Library: \"gdUnit4\", into addons/gdUnit4), enable it under Project Settings > Plugins, and " \
	+ "put test scripts in res://test (GUT: files named test_*.gd extending GutTest; gdUnit4: scripts " \
	+ "extending GdUnitTestSuite)."


## The installed frameworks, each {"name", "version"} ("" when its plugin.cfg does not say).
static func detect(root: String) -> Array[Dictionary]:
	var found: Array[Dictionary] = []
	for name: String in NAMES:
		if FileAccess.file_exists(on_disk(root, ENTRY[name])):
			var config := ConfigFile.new()
			var version := ""
			if config.load(on_disk(root, PLUGIN_CFG[name])) == OK:
				version = str(config.get_value("plugin", "version", ""))
			found.append({"name": name, "version": version})
	return found


## The suites of one framework, each {"framework", "path", "tests": [test method names]}, by path.
static func suites(root: String, framework: String) -> Array[Dictionary]:
	var files := PackedStringArray()
	if framework == GUT:
		var rules := gut_rules(root)
		for dir: String in rules["dirs"]:
			_collect(root, dir, rules["include_subdirs"], files)
		files = _named(files, rules["prefix"], rules["suffix"])
		# A gdUnit4 suite may follow GUT's naming too; it is gdUnit4's to run.
		var foreign := _extending(root, files, "GdUnitTestSuite")
		files = PackedStringArray(Array(files).filter(func(path: String) -> bool: return not path in foreign))
	else:
		for dir: String in DEFAULT_DIRS:
			_collect(root, dir, true, files)
		files = _extending(root, files, "GdUnitTestSuite")
	files.sort()
	var found: Array[Dictionary] = []
	for path: String in files:
		found.append({"framework": framework, "path": path, "tests": test_names(on_disk(root, path))})
	return found


## GUT's discovery rules: .gutconfig.json's dirs/prefix/suffix/include_subdirs over its defaults.
static func gut_rules(root: String) -> Dictionary:
	var rules := {"dirs": DEFAULT_DIRS.duplicate(), "prefix": "test_", "suffix": ".gd", "include_subdirs": true}
	var config_path := on_disk(root, GUT_CONFIG)
	if not FileAccess.file_exists(config_path):
		return rules
	var parsed: Variant = JSON.parse_string(FileAccess.get_file_as_string(config_path))
	if not parsed is Dictionary:
		return rules
	var config := parsed as Dictionary
	if config.get("dirs") is Array and not (config["dirs"] as Array).is_empty():
		rules["dirs"] = (config["dirs"] as Array).map(func(dir: Variant) -> String: return str(dir))
		# GUT only descends into a configured dir's subfolders when asked to.
		rules["include_subdirs"] = config.get("include_subdirs", false) == true
	for key: String in ["prefix", "suffix"]:
		if config.get(key) is String:
			rules[key] = config[key]
	return rules


## The `func test_*` methods of a script, in file order.
static func test_names(disk_path: String) -> PackedStringArray:
	var names := PackedStringArray()
	var pattern := RegEx.create_from_string("(?m)^\\s*func\\s+(test_\\w*)\\s*\\(")
	for found: RegExMatch in pattern.search_all(FileAccess.get_file_as_string(disk_path)):
		names.append(found.get_string(1))
	return names


## The command line that runs `suite` (one test of it when `test` is set) and writes the JUnit
## report to `report` (GUT: that file; gdUnit4: a folder it makes report_<n>/results.xml in) and
## everything it prints to `log_file` (an engine option, so it goes before the framework's script,
## whose own option parser never sees it).
## `tests` are the suite's test names (gdUnit4 selects one test by ignoring the others).
static func command(framework: String, project: String, suite: String, test: String, tests: PackedStringArray,
		report: String, log_file: String) -> PackedStringArray:
	var args := PackedStringArray(["--headless", "--path", project, "--log-file", log_file, "-s", ENTRY[framework]])
	if framework == GUT:
		# -gconfig= keeps .gutconfig.json's dirs out: with them, -gtest would not narrow the run.
		args.append_array(["-gconfig=", "-gtest=" + suite, "-gexit", "-gjunit_xml_file=" + report])
		if not test.is_empty():
			args.append("-gunit_test_name=" + test)
		return args
	args.append_array(["--ignoreHeadlessMode", "-c", "-a", suite, "-rd", report])
	if not test.is_empty():
		var suite_name := suite.get_file().get_basename()
		for other: String in tests:
			if other != test:
				args.append_array(["-i", "%s:%s" % [suite_name, other]])
	return args


## Where a res:// path of the project lives for this process (`root` is res:// in the editor).
static func on_disk(root: String, res_path: String) -> String:
	return root.path_join(res_path.trim_prefix("res://"))


static func _collect(root: String, res_dir: String, recursive: bool, into: PackedStringArray) -> void:
	var disk := on_disk(root, res_dir)
	if not Folders.exists(disk):
		return
	for file_name: String in DirAccess.get_files_at(disk):
		if file_name.ends_with(".gd"):
			into.append(res_dir.path_join(file_name))
	if recursive:
		for folder: String in DirAccess.get_directories_at(disk):
			if not folder.begins_with("."):
				_collect(root, res_dir.path_join(folder), true, into)


static func _named(paths: PackedStringArray, prefix: String, suffix: String) -> PackedStringArray:
	var kept := PackedStringArray()
	for path: String in paths:
		var file_name := path.get_file()
		if file_name.begins_with(prefix) and file_name.ends_with(suffix) and not path in kept:
			kept.append(path)
	return kept


static func _extending(root: String, paths: PackedStringArray, base: String) -> PackedStringArray:
	var kept := PackedStringArray()
	# "extends X", "extends \"res://.../X.gd\"" or "class_name Name extends X" at a line start.
	var pattern := RegEx.create_from_string("(?m)^(class_name\\s+\\w+\\s+)?extends\\s+[^\\n]*%s" % base)
	for path: String in paths:
		if pattern.search(FileAccess.get_file_as_string(on_disk(root, path))) != null and not path in kept:
			kept.append(path)
	return kept
