extends RefCounted
## commands/project/input_map_commands.gd through the command registry with a runtime context: actions and
## their events written to ProjectSettings (saved to the engine's in-memory project.godot) and to
## InputMap, and undo/redo of each change. Every action touched is erased in cleanup().
## Not covered here (editor only): the Project Settings dialog's Input Map tab redrawing.

const Assert := preload("assert.gd")
const DomainFixture := preload("domain_fixture.gd")
const ResultExamples := preload("result_examples.gd")
const CommandDomains := preload("res://addons/godot_mcp_toolkit/commands/command_domains.gd")

const DOMAIN := "res://addons/godot_mcp_toolkit/commands/project/input_map_commands.gd"
const ACTIONS := ["mcp_test_jump", "mcp_test_fire"]

var _fx: DomainFixture = null


func _init() -> void:
	var domains: Array[String] = [DOMAIN]
	_fx = DomainFixture.new(domains, "input_map", null, "", "4.6.0")


func cleanup() -> void:
	for name: String in ACTIONS:
		ProjectSettings.set_setting("input/" + name, null)
		if InputMap.has_action(name):
			InputMap.erase_action(name)
	ProjectSettings.save()
	_fx.cleanup()


func test_registered_with_the_reference_lanes() -> void:
	Assert.is_true(DOMAIN in CommandDomains.DOMAINS, "listed in command_domains.gd")
	for method: String in ["input_map.action", "input_map.event"]:
		Assert.is_false(_fx.registry.dispatch_info(method)["read_only"], "%s mutates" % method)
		Assert.is_true(_fx.registry.dispatch_info(method)["scene_independent"], "%s needs no scene" % method)


func test_add_action_saves_and_undoes() -> void:
	var result := _fx.invoke("input_map.action", ResultExamples.params("input_map", "input_map.action", 0))
	ResultExamples.check("input_map", "input_map.action", result, 0)
	Assert.is_true(InputMap.has_action("mcp_test_jump"), "in InputMap at once")
	Assert.eq(InputMap.action_get_deadzone("mcp_test_jump"), 0.2, "with the deadzone")
	Assert.contains(_project_file(), "mcp_test_jump={", "saved to project.godot")
	var again := _fx.invoke("input_map.action", {"action": "add", "name": "mcp_test_jump", "deadzone": 0.7})
	Assert.eq(again["status"], "returned", "a second add returns the existing action")
	Assert.contains(again["warnings"][0], "0.7", "and says the deadzone was not applied")
	Assert.is_true(_fx.context.edits.undo(), "undo")
	Assert.is_false(ProjectSettings.has_setting("input/mcp_test_jump") or InputMap.has_action("mcp_test_jump"),
		"undo removes it")
	Assert.is_false(_project_file().contains("mcp_test_jump="), "and saves")
	Assert.is_true(_fx.context.edits.redo(), "redo")
	Assert.is_true(InputMap.has_action("mcp_test_jump"), "redo adds it again")
	var plain := _fx.invoke("input_map.action", {"action": "add", "name": "mcp_test_fire"})
	Assert.eq(plain["deadzone"], InputMap.action_get_deadzone("mcp_test_fire"), "no deadzone: the engine's default")
	Assert.is_true(plain["deadzone"] > 0.0 and not InputMap.has_action("__mcp_toolkit_deadzone_probe"), "probe removed")


func test_bind_and_unbind_events() -> void:
	_fx.invoke("input_map.action", {"action": "add", "name": "mcp_test_jump", "deadzone": 0.2})
	var result := _fx.invoke("input_map.event", ResultExamples.params("input_map", "input_map.event", 0))
	ResultExamples.check("input_map", "input_map.event", result, 0)
	var bound := InputMap.action_get_events("mcp_test_jump")
	Assert.eq(bound.size(), 1, "one event in InputMap")
	Assert.eq((bound[0] as InputEventKey).keycode, KEY_SPACE, "the Space key")
	Assert.contains(_project_file(), "InputEventKey", "saved as an event object")
	var twice := _fx.invoke("input_map.event", ResultExamples.params("input_map", "input_map.event", 0))
	Assert.eq(twice["status"], "returned", "binding the same event again changes nothing")
	var mouse := _fx.invoke("input_map.event", {"action": "bind", "name": "mcp_test_jump",
		"event": {"type": "mouse_button", "button_index": "RIGHT"}})
	Assert.eq(mouse["events"].size(), 2, "a second event joins")
	var chord := _fx.invoke("input_map.event", {"action": "bind", "name": "mcp_test_jump",
		"event": {"type": "key", "keycode": "Ctrl+S"}})
	Assert.eq([chord["event"]["keycode"], chord["event"].get("ctrl")], ["S", true], "a chord keeps its modifier")
	Assert.is_true(_fx.context.edits.undo(), "undo the chord")
	var unbound := _fx.invoke("input_map.event", {"action": "unbind", "name": "mcp_test_jump",
		"event": {"type": "key", "keycode": "SPACE"}})
	Assert.eq(unbound["status"], "unbound", "unbound")
	Assert.eq(InputMap.action_get_events("mcp_test_jump").size(), 1, "the key is gone, the mouse button kept")
	Assert.is_true(_fx.context.edits.undo(), "undo the unbind")
	Assert.eq(InputMap.action_get_events("mcp_test_jump").size(), 2, "the key is back")
	var listed: Dictionary = mouse["events"][1]
	Assert.eq(_fx.invoke("input_map.event", {"action": "unbind", "name": "mcp_test_jump", "event": listed})["success"],
		true, "an event as the answer lists it (with its text) is taken back as it is")
	_fx.invoke("input_map.event", {"action": "bind", "name": "mcp_test_jump", "event": listed})
	var missing := _fx.invoke("input_map.event", {"action": "unbind", "name": "mcp_test_jump",
		"event": {"type": "joypad_button", "button_index": 3}})
	Assert.eq(missing["code"], "NOT_FOUND", "unbinding an unbound event is NOT_FOUND")


func test_refusals_change_nothing() -> void:
	var before := _project_file()
	ResultExamples.check("input_map", "input_map.action",
		_fx.invoke("input_map.action", ResultExamples.params("input_map", "input_map.action", 1)), 1)
	ResultExamples.check("input_map", "input_map.event",
		_fx.invoke("input_map.event", ResultExamples.params("input_map", "input_map.event", 1)), 1)
	Assert.eq(_fx.invoke("input_map.event", {"action": "bind", "name": "mcp_test_fire",
		"event": {"type": "key", "keycode": "SPACE"}})["code"], "NOT_FOUND", "binding to a missing action")
	Assert.eq(_fx.invoke("input_map.event", {"action": "bind", "name": "mcp_test_fire",
		"event": {"type": "key", "keycode": "NOPE"}})["code"], "INVALID_PARAMS", "an unknown key name")
	var control := _fx.invoke("input_map.event", {"action": "bind", "name": "mcp_test_fire",
		"event": {"type": "key", "keycode": "S", "control": true}})
	Assert.eq(control["code"], "INVALID_PARAMS", "an unknown key in the event is refused, not ignored")
	Assert.contains(control["error"], "'control'", "naming it")
	Assert.contains(control["error"], "accepted: type, text, keycode", "and the accepted keys")
	Assert.contains(control["hint"], "'ctrl' for 'control'", "the hint names the close one (an abbreviation counts)")
	var wheel := _fx.invoke("input_map.event", {"action": "bind", "name": "mcp_test_fire",
		"event": {"type": "mouse_button", "button": 2}})
	Assert.eq(wheel["code"], "INVALID_PARAMS", "button for button_index")
	Assert.contains(wheel["hint"], "'button_index' for 'button'", "suggested")
	var nope := _fx.invoke("input_map.event", {"action": "bind", "name": "mcp_test_fire",
		"event": {"type": "key", "keycode": "NOPE"}})
	Assert.contains(nope["hint"], "\"keycode\": \"SPACE\"", "a bad key name comes with an example")
	Assert.eq(_fx.invoke("input_map.action", {"action": "add", "name": "a/b"})["code"], "INVALID_PARAMS", "slash in name")
	Assert.eq(_fx.invoke("input_map.action", {"action": "add", "name": "mcp_test_fire", "deadzone": 2})["code"],
		"INVALID_PARAMS", "deadzone out of range")
	Assert.eq(_fx.invoke("input_map.action", {"action": "remove", "name": "ui_accept"})["code"], "INVALID_PARAMS",
		"built-in actions stay")
	Assert.eq(_project_file(), before, "project.godot untouched")
	Assert.is_false(InputMap.has_action("mcp_test_fire"), "nothing added")


func _project_file() -> String:
	return FileAccess.get_file_as_string("res://project.godot")
