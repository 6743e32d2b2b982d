extends RefCounted
## commands/project/project_commands.gd through the command registry with a runtime context: settings read
## and written (saved to the engine's in-memory project.godot), autoloads, folders, and undo/redo of
## each change. Every setting touched is put back in cleanup().
## Not covered here (editor only): the Project Settings dialog and the Autoload tab showing the
## change, the FileSystem dock rescan after folder.create (refresh_files is asserted as requested).

const Assert := preload("assert.gd")
const DomainFixture := preload("domain_fixture.gd")
const ResultExamples := preload("result_examples.gd")
const CommandDomains := preload("res://addons/godot_mcp_toolkit/commands/command_domains.gd")

const DOMAIN := "res://addons/godot_mcp_toolkit/commands/project/project_commands.gd"
## folder.create, tested here beside the project file (filesystem domain).
const FILESYSTEM := "res://addons/godot_mcp_toolkit/commands/filesystem/filesystem_commands.gd"
const DIR := "res://tmp_tests/project"
const WIDTH := "display/window/size/viewport_width"
const AUTOLOAD := "autoload/McpTestGlobals"
## A real project's input map (audio/rhythm_game of godot-demo-projects, tests/fixtures/projects).
const REAL_PROJECT := "res://tests/fixtures/projects/roundtrip_rhythm_game/project.godot"
const REAL_ACTIONS := ["input/main_key", "input/pause", "input/restart"]
const PLATFORMER := "res://tests/fixtures/projects/platformer_3d/project.godot"
const AnswerBudget := preload("res://addons/godot_mcp_toolkit/contract/answer_budget.gd")
const TEST_KEYS := ["input/main_key", "input/pause", "input/restart",
	"tmp_tests/mcp/alpha", "tmp_tests/mcp/beta", "tmp_tests/mcp/custom", AUTOLOAD,
	"autoload/McpTestFirst", "autoload/McpTestSecond"]

var _width_before: Variant = ProjectSettings.get_setting(WIDTH)
var _fx: DomainFixture = null
## Settings a test replaced -> their values before (null: there was none), put back in cleanup().
var _restore := {}


func _init() -> void:
	var domains: Array[String] = [DOMAIN, FILESYSTEM]
	_fx = DomainFixture.new(domains, "project", null, DIR, "4.6.0")


func cleanup() -> void:
	for key: String in _restore:
		ProjectSettings.set_setting(key, _restore[key])
	ProjectSettings.set_setting(WIDTH, _width_before)
	for key: String in TEST_KEYS:
		ProjectSettings.set_setting(key, null)
	ProjectSettings.save()
	_fx.cleanup()


func test_the_input_map_reads_each_binding_in_input_map_events_shape() -> void:
	var real := ConfigFile.new()
	Assert.eq(real.load(REAL_PROJECT), OK, "the real project.godot parses")
	for key: String in REAL_ACTIONS:
		ProjectSettings.set_setting(key, real.get_value("input", key.trim_prefix("input/")))
	var result := _fx.invoke("project.get_settings", {"prefix": "input/"})
	var settings: Dictionary = JSON.parse_string(_body(result["settings"]))
	var pause: Dictionary = settings["input/pause"]
	Assert.eq(pause["deadzone"], 0.2, "the action's deadzone")
	var events: Array = pause["events"]
	Assert.eq(events.size(), 3, "every event of the action")
	Assert.eq(events[0]["type"], "key", "a key, not an empty Resource reference")
	Assert.eq([events[0]["keycode"], events[0].get("physical")], ["Escape", true], "its physical key")
	Assert.eq([events[1]["keycode"], events[2]["type"], events[2]["button_index"]], ["P", "joypad_button", 6],
		"the second key and the joypad button")
	# The shape input_map.event takes: each listed binding goes back as it is.
	var InputEvents: Script = load("res://addons/godot_mcp_toolkit/commands/project/input_events.gd")
	for event: Dictionary in events:
		var built: Dictionary = InputEvents.call("from_json", event)
		Assert.is_true(built["ok"], "%s is an event input_map.event takes (%s)" % [event, built])
		Assert.is_true(InputEvents.call("same", built["event"], _event_like(real, "pause", event)),
			"and the same binding as the file's")


## 3d/platformer of godot-demo-projects overrides the built-in ui_* actions with key and joypad
## events: its input map alone outgrows one answer. Each page fits one (as the model reads it),
## and the pages, following next_offset, hold every action once.
func test_a_real_input_map_pages_within_one_answer() -> void:
	var real := ConfigFile.new()
	Assert.eq(real.load(PLATFORMER), OK, "the real project.godot parses")
	for key: String in real.get_section_keys("input"):
		_set_for_test("input/" + key, real.get_value("input", key))
	var seen := {}
	var each := func(page: Dictionary, _number: int) -> void:
		var settings: Dictionary = JSON.parse_string(_body(page["settings"]))
		Assert.eq(settings.size(), page["returned"], "returned counts the page")
		for name: String in settings:
			Assert.is_false(seen.has(name), "%s only once" % name)
			seen[name] = settings[name]
	var pages := _fx.follow_pages("project.get_settings", {"prefix": "input/"}, each, 20)
	Assert.is_true(pages > 1, "more than one page")
	Assert.eq(seen.size(), _fx.invoke("project.get_settings", {"prefix": "input/"})["total_settings"], "every action")
	Assert.eq(seen["input/ui_accept"]["events"].size(), 4, "the platformer's own ui_accept, all four events")


func _set_for_test(key: String, value: Variant) -> void:
	if not _restore.has(key):
		_restore[key] = ProjectSettings.get_setting(key) if ProjectSettings.has_setting(key) else null
	ProjectSettings.set_setting(key, value)


func _event_like(real: ConfigFile, action: String, shown: Dictionary) -> InputEvent:
	for event: InputEvent in real.get_value("input", action)["events"]:
		if event.as_text() == shown["text"]:
			return event
	return null


## The JSON inside an untrusted envelope.
func _body(wrapped: String) -> String:
	return wrapped.substr(wrapped.find(">\n") + 2, wrapped.rfind("\n</") - wrapped.find(">\n") - 2)


func test_registered_with_the_reference_lanes() -> void:
	Assert.is_true(DOMAIN in CommandDomains.DOMAINS, "listed in command_domains.gd")
	Assert.is_true(_fx.registry.dispatch_info("project.get_settings")["read_only"], "get_settings is a read")
	for method: String in ["project.set_setting", "autoload.manage", "folder.create"]:
		Assert.is_false(_fx.registry.dispatch_info(method)["read_only"], "%s mutates" % method)
	for method: String in ["project.get_settings", "project.set_setting", "autoload.manage", "folder.create"]:
		Assert.is_true(_fx.registry.dispatch_info(method)["scene_independent"], "%s needs no scene" % method)


func test_get_settings_by_prefix_wrapped() -> void:
	ProjectSettings.set_setting("tmp_tests/mcp/alpha", 1)
	ProjectSettings.set_setting("tmp_tests/mcp/beta", "b")
	var result := _fx.invoke("project.get_settings", ResultExamples.params("project", "project.get_settings", 0))
	ResultExamples.check("project", "project.get_settings", result, 0)
	var body := _unwrapped(result["settings"])
	Assert.eq(JSON.parse_string(body), {"tmp_tests/mcp/alpha": 1.0, "tmp_tests/mcp/beta": "b"}, "the values")
	var all := _fx.invoke("project.get_settings", {})
	Assert.is_true(all["has_more"] and all["returned"] < all["total_settings"], "a whole read is one answer's page")
	Assert.eq(all["next_offset"], all["returned"], "with where the next page starts")
	Assert.is_true(AnswerBudget.size_of(all) <= AnswerBudget.BYTES, "and fits one answer")
	Assert.contains(all["hint"], "prefix", "and says how to narrow it")
	Assert.eq(_fx.invoke("project.get_settings", {"prefix": 3})["code"], "INVALID_PARAMS", "prefix must be text")


func test_set_setting_converts_saves_and_undoes() -> void:
	var params := ResultExamples.params("project", "project.set_setting", 0)
	var result := _fx.invoke("project.set_setting", params)
	ResultExamples.check("project", "project.set_setting", result, 0)
	Assert.eq(typeof(ProjectSettings.get_setting(WIDTH)), TYPE_INT, "the JSON number is stored as the int it holds")
	Assert.contains(FileAccess.get_file_as_string("res://project.godot"), "viewport_width=1280", "saved")
	Assert.is_true(_fx.context.edits.undo(), "undo")
	Assert.eq(ProjectSettings.get_setting(WIDTH), 1152, "undo restores the value")
	Assert.is_false(FileAccess.get_file_as_string("res://project.godot").contains("viewport_width=1280"), "and saves")
	Assert.is_true(_fx.context.edits.redo(), "redo")
	Assert.eq(ProjectSettings.get_setting(WIDTH), 1280, "redo sets it again")


func test_set_setting_refusals_change_nothing() -> void:
	var before := FileAccess.get_file_as_string("res://project.godot")
	for index in [1, 2]:
		var result := _fx.invoke("project.set_setting", ResultExamples.params("project", "project.set_setting", index))
		ResultExamples.check("project", "project.set_setting", result, index)
	for key: String in ["mcp/x/y", "editor/run/x", "autoload/Thing", "Editor/Run/x"]:
		Assert.eq(_fx.invoke("project.set_setting", {"setting": key, "value": 1})["code"], "INVALID_PARAMS", key)
	Assert.eq(_fx.invoke("project.set_setting", {"setting": "nokey", "value": 1})["code"], "INVALID_PARAMS", "no section")
	Assert.eq(_fx.invoke("project.set_setting", {"setting": WIDTH})["code"], "INVALID_PARAMS", "value missing")
	var bad_tag := {"setting": "tmp_tests/mcp/custom", "value": {"type": "Vector9"}}
	Assert.eq(_fx.invoke("project.set_setting", bad_tag)["code"], "INVALID_PARAMS", "unknown type tag")
	var missing_scene := {"setting": "application/run/main_scene", "value": DIR + "/nope.tscn"}
	Assert.eq(_fx.invoke("project.set_setting", missing_scene)["code"], "INVALID_PATH", "a file setting needs the file")
	Assert.eq(ProjectSettings.get_setting(WIDTH), 1152, "unchanged")
	Assert.is_false(ProjectSettings.has_setting("tmp_tests/mcp/custom"), "nothing added")
	Assert.eq(FileAccess.get_file_as_string("res://project.godot"), before, "project.godot untouched")
	Assert.is_false(_fx.context.edits.undo(), "nothing recorded")


func test_set_custom_setting_warns_and_undo_erases() -> void:
	var result := _fx.invoke("project.set_setting", {"setting": "tmp_tests/mcp/custom",
		"value": {"type": "Vector2i", "x": 3, "y": 4}})
	Assert.eq(ProjectSettings.get_setting("tmp_tests/mcp/custom"), Vector2i(3, 4), "tagged value coerced")
	Assert.eq(result["value"], {"type": "Vector2i", "x": 3, "y": 4}, "reported in tagged form")
	Assert.eq([result["existed"], result["previous"]], [false, null], "it is new")
	Assert.contains(result["warnings"][0], "custom setting", "an unknown key is flagged (typo guard)")
	Assert.is_true(_fx.context.edits.undo(), "undo")
	Assert.is_false(ProjectSettings.has_setting("tmp_tests/mcp/custom"), "undo removes the new key")


func test_autoload_register_list_unregister_and_undo() -> void:
	_write(DIR + "/globals.gd", "extends Node\n")
	var registered := _fx.invoke("autoload.manage", ResultExamples.params("project", "autoload.manage", 0))
	ResultExamples.check("project", "autoload.manage", registered, 0)
	Assert.eq(ProjectSettings.get_setting(AUTOLOAD), "*" + DIR + "/globals.gd", "stored with the global star")
	Assert.contains(FileAccess.get_file_as_string("res://project.godot"), "McpTestGlobals=", "saved")
	ResultExamples.check("project", "autoload.manage", _fx.invoke("autoload.manage", {"action": "list"}), 1)
	var again := _fx.invoke("autoload.manage", {"action": "register", "name": "McpTestGlobals",
		"script_path": DIR + "/globals.gd", "enabled": false})
	Assert.eq(again["status"], "returned", "registering again is a no-op")
	Assert.contains(again["warnings"][0], "enabled", "that names what was not applied")
	Assert.is_true(_fx.context.edits.undo(), "undo")
	Assert.is_false(ProjectSettings.has_setting(AUTOLOAD), "undo unregisters")
	Assert.is_true(_fx.context.edits.redo(), "redo")
	Assert.is_true(ProjectSettings.has_setting(AUTOLOAD), "redo registers again")
	var removed := _fx.invoke("autoload.manage", {"action": "unregister", "name": "McpTestGlobals"})
	Assert.eq([removed["status"], removed["path"]], ["removed", DIR + "/globals.gd"], "unregistered")
	Assert.is_false(ProjectSettings.has_setting(AUTOLOAD), "gone")
	Assert.is_true(_fx.context.edits.undo(), "undo the unregister")
	Assert.eq(ProjectSettings.get_setting(AUTOLOAD), "*" + DIR + "/globals.gd", "back as it was")


func test_autoload_unregister_undo_keeps_the_load_order() -> void:
	_write(DIR + "/globals.gd", "extends Node\n")
	for name: String in ["McpTestFirst", "McpTestSecond"]:
		_fx.invoke("autoload.manage", {"action": "register", "name": name, "script_path": DIR + "/globals.gd"})
	_fx.invoke("autoload.manage", {"action": "unregister", "name": "McpTestFirst"})
	Assert.is_true(_fx.context.edits.undo(), "undo")
	var names := []
	for entry: Dictionary in _fx.invoke("autoload.manage", {"action": "list"})["autoloads"]:
		names.append(entry["name"])
	Assert.eq(names, ["McpTestFirst", "McpTestSecond"], "the first autoload is first again")


func test_autoload_refusals() -> void:
	ResultExamples.check("project", "autoload.manage",
		_fx.invoke("autoload.manage", ResultExamples.params("project", "autoload.manage", 2)), 2)
	_write(DIR + "/data.gd", "extends Resource\n")
	var cases := [
		["INVALID_PARAMS", {"action": "rename"}],
		["INVALID_PARAMS", {"action": "register", "script_path": DIR + "/globals.gd"}],
		["INVALID_PARAMS", {"action": "register", "name": "Node", "script_path": DIR + "/globals.gd"}],
		["INVALID_PARAMS", {"action": "register", "name": "bad name", "script_path": DIR + "/globals.gd"}],
		["INVALID_PARAMS", {"action": "register", "name": "McpTestGlobals", "script_path": DIR + "/data.gd"}],
		["INVALID_PARAMS", {"action": "register", "name": "McpTestGlobals"}],
		["NOT_FOUND", {"action": "register", "name": "McpTestGlobals", "script_path": DIR + "/none.gd"}],
		["UNSUPPORTED_FILE_TYPE", {"action": "register", "name": "McpTestGlobals", "script_path": DIR + "/x.png"}],
		["PATH_DENIED", {"action": "register", "name": "McpTestGlobals", "script_path": "user://g.gd"}],
	]
	for case: Array in cases:
		Assert.eq(_fx.invoke("autoload.manage", case[1])["code"], case[0], JSON.stringify(case[1]))
	Assert.is_false(ProjectSettings.has_setting(AUTOLOAD), "nothing registered")
	Assert.is_false(_fx.context.edits.undo(), "nothing recorded")


func test_folder_create_is_idempotent_and_undoable() -> void:
	var params := ResultExamples.params("project", "folder.create", 0)
	ResultExamples.check("project", "folder.create", _fx.invoke("folder.create", params), 0)
	Assert.is_true(DirAccess.dir_exists_absolute(DIR + "/art/sprites"), "made")
	Assert.eq(_fx.context.runtime_project.refreshed_files, PackedStringArray([DIR + "/art/sprites/"]),
		"the editor is asked to rescan")
	ResultExamples.check("project", "folder.create", _fx.invoke("folder.create", params), 1)
	Assert.is_true(_fx.context.edits.undo(), "undo")
	Assert.is_false(DirAccess.dir_exists_absolute(DIR + "/art"), "undo removes both new folders")
	Assert.is_true(DirAccess.dir_exists_absolute(DIR), "but not the one that was there")
	Assert.is_true(_fx.context.edits.redo(), "redo")
	Assert.is_true(DirAccess.dir_exists_absolute(DIR + "/art/sprites"), "redo makes them again")
	_write(DIR + "/art/sprites/keep.txt", "mine")
	Assert.is_true(_fx.context.edits.undo(), "undo with a file added since")
	Assert.is_true(FileAccess.file_exists(DIR + "/art/sprites/keep.txt"), "a folder with content is never removed")


func test_folder_create_refusals() -> void:
	_write(DIR + "/taken", "x")
	Assert.eq(_fx.invoke("folder.create", {"path": DIR + "/taken"})["code"], "CREATE_DIR_FAILED", "a file is in the way")
	Assert.eq(_fx.invoke("folder.create", {"path": "res://addons/godot_mcp_toolkit/x"})["code"], "PATH_DENIED", "toolkit")
	Assert.eq(_fx.invoke("folder.create", {"path": "res://a/../../b"})["code"], "PATH_DENIED", "..")
	Assert.eq(_fx.invoke("folder.create", {})["code"], "INVALID_PARAMS", "path missing")
	Assert.is_false(_fx.context.edits.undo(), "nothing recorded")


## The body of an untrusted envelope.
func _unwrapped(text: String) -> String:
	var lines := text.split("\n")
	Assert.is_true(lines[0].begins_with("<untrusted-") and lines[0].contains("kind=\"project_settings\""), "wrapped")
	return "\n".join(lines.slice(1, lines.size() - 1))


func _write(path: String, text: String) -> void:
	var file := FileAccess.open(path, FileAccess.WRITE)
	file.store_string(text)
	file.close()

