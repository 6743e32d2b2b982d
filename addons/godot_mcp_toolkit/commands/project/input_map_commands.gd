@tool
extends RefCounted
## The project's Input Map: input_map.action (add/remove an action) and input_map.event (bind/unbind
## an event). An action is the setting "input/<name>" = {deadzone, events}; each change is saved to
## project.godot at once and mirrored into InputMap, and undo/redo re-apply both. Runtime-safe.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const ToolkitSuccess := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_success.gd")
const Params := preload("res://addons/godot_mcp_toolkit/contract/params.gd")
const InputEvents := preload("res://addons/godot_mcp_toolkit/commands/project/input_events.gd")
const ProjectWrites := preload("res://addons/godot_mcp_toolkit/checkpoints/project_writes.gd")

const SELF_PATH := "res://addons/godot_mcp_toolkit/commands/project/input_map_commands.gd"
const PREFIX := "input/"
## Only a fallback: a new action gets the running engine's own default (see _engine_deadzone).
const DEFAULT_DEADZONE := 0.5
const PROBE_ACTION := &"__mcp_toolkit_deadzone_probe"
const SAVE_HINT := "Nothing was changed. Check that project.godot is writable."


static func register(registry: RefCounted, context: RefCounted) -> void:
	var script: Script = load(SELF_PATH)
	registry.register_command("input_map.action", Callable(script, "_cmd_action").bind(context),
		registry.create_options()
		.scene_independent())
	registry.register_command("input_map.event", Callable(script, "_cmd_event").bind(context),
		registry.create_options()
		.scene_independent())


# --- input_map.action ----------------------------------------------------------------------------

static func _cmd_action(params: Dictionary, context: RefCounted) -> Dictionary:
	var checked := _checked_name(params, ["add", "remove"])
	if not checked.is_empty():
		return checked
	var name: String = params["name"]
	var key := PREFIX + name
	if params["action"] == "remove":
		return _remove_action(name, key, context)
	var deadzone: Variant = params.get("deadzone", _engine_deadzone())
	if not Params.is_number(deadzone) or float(deadzone) < 0.0 or float(deadzone) > 1.0:
		return ToolkitError.fail("INVALID_PARAMS", "deadzone must be a number from 0 to 1, got %s" % JSON.stringify(deadzone))
	if ProjectSettings.has_setting(key):
		var current: Dictionary = ProjectSettings.get_setting(key)
		var result := {"action": "add", "name": name, "status": "returned",
			"deadzone": current.get("deadzone", DEFAULT_DEADZONE), "events": _events_json(current)}
		if params.has("deadzone") and not is_equal_approx(float(deadzone), float(result["deadzone"])):
			result["warnings"] = PackedStringArray(["%s already exists; deadzone %s was not applied (kept %s)" % [
				name, deadzone, result["deadzone"]]])
		return ToolkitSuccess.ok(result)
	var value := {"deadzone": float(deadzone), "events": []}
	var saved := _change(context, "MCP: add input action %s" % name, key, value, null)
	if not saved.is_empty():
		return saved
	return ToolkitSuccess.ok({"action": "add", "name": name, "status": "created", "deadzone": float(deadzone),
		"events": [], "saved": true})


static func _remove_action(name: String, key: String, context: RefCounted) -> Dictionary:
	if not ProjectSettings.has_setting(key):
		return ToolkitError.fail("NOT_FOUND", "No input action named %s" % name,
			"Action names are case-sensitive; project_get_settings with prefix \"input/\" lists them.")
	if ProjectSettings.property_can_revert(key):
		return ToolkitError.fail("INVALID_PARAMS", "%s is one of Godot's built-in ui_ actions and cannot be removed" % name,
			"Unbind its events with input_map_event instead.")
	var previous: Dictionary = ProjectSettings.get_setting(key)
	var saved := _change(context, "MCP: remove input action %s" % name, key, null, previous)
	if not saved.is_empty():
		return saved
	return ToolkitSuccess.ok({"action": "remove", "name": name, "status": "removed",
		"removed_events": _events_json(previous), "saved": true})


# --- input_map.event -----------------------------------------------------------------------------

static func _cmd_event(params: Dictionary, context: RefCounted) -> Dictionary:
	var checked := _checked_name(params, ["bind", "unbind"])
	if not checked.is_empty():
		return checked
	if not params.has("event"):
		return ToolkitError.fail("INVALID_PARAMS", "Missing required parameter: event",
			"Pass event like {\"type\": \"key\", \"keycode\": \"SPACE\"}.")
	var built := InputEvents.from_json(params["event"])
	if not built["ok"]:
		return ToolkitError.fail("INVALID_PARAMS", built["error"], built["hint"])
	var name: String = params["name"]
	var key := PREFIX + name
	if not ProjectSettings.has_setting(key):
		return ToolkitError.fail("NOT_FOUND", "No input action named %s" % name,
			"Add it first with input_map_action (action \"add\").")
	var event: InputEvent = built["event"]
	var previous: Dictionary = ProjectSettings.get_setting(key)
	var events: Array = previous.get("events", []).duplicate()
	var found := _index_of(events, event)
	var shown := InputEvents.to_json(event)
	var result := {"action": params["action"], "name": name, "event": shown}
	if params["action"] == "bind":
		if found >= 0:
			result.merge({"status": "returned", "events": _events_json(previous)})
			return ToolkitSuccess.ok(result)
		events.append(event)
	else:
		if found < 0:
			return ToolkitError.fail("NOT_FOUND", "%s is not bound to %s" % [shown["text"], name],
				"The action's events are: %s" % ", ".join(_texts(previous)))
		events.remove_at(found)
	var value := previous.duplicate()
	value["events"] = events
	var verb := "bind" if params["action"] == "bind" else "unbind"
	var saved := _change(context, "MCP: %s %s on %s" % [verb, shown["text"], name], key, value, previous)
	if not saved.is_empty():
		return saved
	result.merge({"status": "bound" if verb == "bind" else "unbound", "events": _events_json(value), "saved": true})
	return ToolkitSuccess.ok(result)


# --- shared --------------------------------------------------------------------------------------

## An error envelope when `action` or `name` is wrong, else {}.
static func _checked_name(params: Dictionary, actions: Array) -> Dictionary:
	var missing := Params.require(params, ["action", "name"])
	if not missing.is_empty():
		return missing
	if not params["action"] in actions:
		return ToolkitError.fail("INVALID_PARAMS", "action must be one of %s, got %s" % [
			", ".join(PackedStringArray(actions)), JSON.stringify(params["action"])])
	var name: Variant = params["name"]
	if not name is String or (name as String).strip_edges().is_empty() or (name as String).strip_edges() != name \
			or (name as String).contains("/") or (name as String).contains("\""):
		return ToolkitError.fail("INVALID_PARAMS", "name must be an action name like \"jump\" (no slashes, quotes " \
			+ "or surrounding spaces), got %s" % JSON.stringify(name))
	return {}


## Applies key = value, saves, and records the undo step (back to `before`). An error envelope
## (with everything put back) when project.godot cannot be saved, else {}.
static func _change(context: RefCounted, description: String, key: String, value: Variant,
		before: Variant) -> Dictionary:
	var saved := apply_action(key, value)
	if saved != OK:
		apply_action(key, before)
		return ToolkitError.fail("SAVE_FAILED", "Could not save project.godot: %s" % error_string(saved), SAVE_HINT)
	var steps: Script = load(SELF_PATH)
	var action: RefCounted = context.edits.create_undo_action(description)
	action.add_do_method(steps, &"apply_action", [key, value])
	action.add_undo_method(steps, &"apply_action", [key, before])
	action.commit(false)
	return {}


## Sets "input/<name>" (null erases it), mirrors it into InputMap so the running editor sees it at
## once, and saves project.godot. Also the undo/redo step.
static func apply_action(key: String, value: Variant) -> Error:
	var name := StringName(key.trim_prefix(PREFIX))
	ProjectSettings.set_setting(key, value)
	# The editor's own UI runs on its ui_* actions: a project's changes to them must not reach it.
	if Engine.is_editor_hint() and ProjectSettings.property_can_revert(key):
		return ProjectWrites.save_project_settings()
	if InputMap.has_action(name):
		InputMap.erase_action(name)
	if value is Dictionary:
		InputMap.add_action(name, float(value.get("deadzone", DEFAULT_DEADZONE)))
		for event: Variant in value.get("events", []):
			if event is InputEvent:
				InputMap.action_add_event(name, event)
	return ProjectWrites.save_project_settings()


## The deadzone this Godot gives an action added without one (it changed between versions).
static func _engine_deadzone() -> float:
	if InputMap.has_action(PROBE_ACTION):
		return InputMap.action_get_deadzone(PROBE_ACTION)
	InputMap.add_action(PROBE_ACTION)
	var deadzone := InputMap.action_get_deadzone(PROBE_ACTION)
	InputMap.erase_action(PROBE_ACTION)
	return deadzone


static func _index_of(events: Array, event: InputEvent) -> int:
	for index in events.size():
		if events[index] is InputEvent and InputEvents.same(events[index], event):
			return index
	return -1


static func _events_json(value: Dictionary) -> Array[Dictionary]:
	var shown: Array[Dictionary] = []
	for event: Variant in value.get("events", []):
		if event is InputEvent:
			shown.append(InputEvents.to_json(event))
	return shown


static func _texts(value: Dictionary) -> PackedStringArray:
	var texts := PackedStringArray()
	for shown: Dictionary in _events_json(value):
		texts.append(shown["text"])
	return texts if not texts.is_empty() else PackedStringArray(["(none)"])
