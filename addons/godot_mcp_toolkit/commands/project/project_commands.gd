@tool
extends RefCounted
## The project file: project.get_settings, project.set_setting and autoload.manage. Settings
## changes are saved to project.godot at once (as the editor's own Project Settings dialog does)
## and undo/redo re-saves. Runtime-safe.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const ToolkitSuccess := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_success.gd")
const Params := preload("res://addons/godot_mcp_toolkit/contract/params.gd")
const Coerce := preload("res://addons/godot_mcp_toolkit/contract/coerce.gd")
const Untrusted := preload("res://addons/godot_mcp_toolkit/security/untrusted.gd")
const StrictJson := preload("res://addons/godot_mcp_toolkit/contract/strict_json.gd")
const Autoloads := preload("res://addons/godot_mcp_toolkit/commands/project/autoloads.gd")
const ProjectWrites := preload("res://addons/godot_mcp_toolkit/checkpoints/project_writes.gd")
const InputEvents := preload("res://addons/godot_mcp_toolkit/commands/project/input_events.gd")
const Pagination := preload("res://addons/godot_mcp_toolkit/contract/pagination.gd")
const AnswerBudget := preload("res://addons/godot_mcp_toolkit/contract/answer_budget.gd")

const SELF_PATH := "res://addons/godot_mcp_toolkit/commands/project/project_commands.gd"
## A page that stops before the last setting says how to go on (next_offset, or a longer prefix).
const PAGE_HINT := "Settings up to %d of %d (by name) fit one answer; pass offset next_offset, or a longer prefix."
## Keys project.set_setting refuses, with where to go instead.
const REFUSED_PREFIXES := {
	"mcp_toolkit/": "The toolkit's own settings are changed in the editor (Project Settings, mcp_toolkit/); "
		+ "godot-bridge sets its limits from GODOT_MCP_WS_BUFFER_LIMIT and GODOT_MCP_SCRIPT_READ_LIMIT.",
	"mcp/": "Keys under mcp/ belong to the MCP tooling, not to the game.",
	"editor/": "editor/ keys configure the editor, not the project.",
	"autoload/": "Register or unregister autoloads with autoload_manage.",
}
const AUTOLOAD_ACTIONS := ["list", "register", "unregister"]


static func register(registry: RefCounted, context: RefCounted) -> void:
	var script: Script = load(SELF_PATH)
	registry.register_command("project.get_settings", Callable(script, "_cmd_get_settings").bind(context),
		registry.create_options()
		.read_only().scene_independent())
	registry.register_command("project.set_setting", Callable(script, "_cmd_set_setting").bind(context),
		registry.create_options()
		.scene_independent())
	registry.register_command("autoload.manage", Callable(script, "_cmd_autoload").bind(context),
		registry.create_options()
		.scene_independent())


# --- project.get_settings ------------------------------------------------------------------------

static func _cmd_get_settings(params: Dictionary, _context: RefCounted) -> Dictionary:
	var prefix: Variant = params.get("prefix", "")
	if prefix == null:
		prefix = ""
	if not prefix is String:
		return ToolkitError.fail("INVALID_PARAMS", "prefix must be a string, like \"display/window/\"")
	var window := Pagination.window(params, 1, 1)
	if not window["ok"]:
		return window["error"]
	var names := _setting_names(prefix)
	var offset := mini(int(window["offset"]), names.size())
	var result := {"prefix": prefix, "settings": Untrusted.wrap("{}", "project_settings", "res://project.godot")}
	result.merge(Pagination.fields(names.size(), names.size(), "settings", 0))
	result["next_offset"] = names.size()
	result["hint"] = PAGE_HINT % [names.size(), names.size()]
	var room := AnswerBudget.room_beside(result)
	var settings := {}
	var used := 2
	for name: String in names.slice(offset):
		var value: Variant = _setting_json(name, ProjectSettings.get_setting(name))
		var member := StrictJson.stringify({name: value})
		# The object travels as text inside a string, its quotes escaped once more: the member's
		# size as a JSON string, less its two quotes, plus a comma.
		var cost := AnswerBudget.size_of(member.substr(1, member.length() - 2)) - 1
		if used + cost > room and not settings.is_empty():
			break
		settings[name] = value
		used += cost
	result["settings"] = Untrusted.wrap(StrictJson.stringify(settings, true), "project_settings", "res://project.godot")
	result.erase("next_offset")
	result.erase("hint")
	result.merge(Pagination.fields(settings.size(), names.size(), "settings", offset), true)
	if result["has_more"]:
		result["hint"] = PAGE_HINT % [result["next_offset"], names.size()]
	return ToolkitSuccess.ok(result)


## A setting's JSON form. An input action ("input/<name>") lists each bound event in the shape
## input_map.event takes ({"type": "key", "keycode": "SPACE", ...}), so a binding can be read and
## passed back; every other value is the C7 form.
static func _setting_json(name: String, value: Variant) -> Variant:
	if not name.begins_with("input/") or not value is Dictionary or not (value as Dictionary).get("events") is Array:
		return Coerce.serialize_value(value)
	var action: Dictionary = (value as Dictionary).duplicate()
	var events := []
	for event: Variant in action["events"]:
		events.append(InputEvents.to_json(event) if event is InputEvent else Coerce.serialize_value(event))
	action.erase("events")
	var shown: Dictionary = Coerce.serialize_value(action)
	# Added after serializing: an event's own "type" key would read as a C7 tag.
	shown["events"] = events
	return shown


## Every setting (engine defaults included) whose name starts with `prefix`, sorted.
static func _setting_names(prefix: String) -> Array[String]:
	var names: Array[String] = []
	var skip := PROPERTY_USAGE_CATEGORY | PROPERTY_USAGE_GROUP | PROPERTY_USAGE_SUBGROUP
	for property: Dictionary in ProjectSettings.get_property_list():
		var name := str(property["name"])
		if int(property["usage"]) & skip or not name.begins_with(prefix) or not ProjectSettings.has_setting(name):
			continue
		names.append(name)
	names.sort()
	return names


# --- project.set_setting -------------------------------------------------------------------------

static func _cmd_set_setting(params: Dictionary, context: RefCounted) -> Dictionary:
	var checked := _checked_setting(params)
	if not checked["ok"]:
		return checked["error"]
	var name: String = checked["setting"]
	var value: Variant = checked["value"]
	var existed := ProjectSettings.has_setting(name)
	var previous: Variant = ProjectSettings.get_setting(name) if existed else null
	var saved := apply_settings({name: value})
	if saved != OK:
		apply_settings({name: previous})
		return ToolkitError.fail("SAVE_FAILED", "Could not save project.godot: %s" % error_string(saved),
			"Nothing was changed. Check that project.godot is writable.")
	_record_settings(context, "MCP: set %s" % name, {name: value}, {name: previous})
	var stored: Variant = ProjectSettings.get_setting(name)
	var result := {"setting": name, "value": Coerce.serialize_value(stored),
		"previous": Coerce.serialize_value(previous), "existed": existed, "saved": true}
	var warnings := PackedStringArray()
	if not checked["known"]:
		warnings.append("%s is not a setting this Godot version defines; it was added as a custom setting " % name
			+ "(check the spelling if you meant a built-in one)")
	if typeof(stored) != typeof(value) or stored != value:
		warnings.append("The engine stored %s instead of the value given" % JSON.stringify(result["value"]))
	if not warnings.is_empty():
		result["warnings"] = warnings
	return ToolkitSuccess.ok(result)


## {"ok": true, "setting", "value" (coerced to the setting's type), "known"} or {"ok": false, "error"}.
static func _checked_setting(params: Dictionary) -> Dictionary:
	var missing := Params.require(params, ["setting", "value"])
	if not missing.is_empty():
		return {"ok": false, "error": missing}
	var name: Variant = params["setting"]
	var problem := ""
	var hint := ""
	if not name is String or not (name as String).contains("/") or (name as String).strip_edges() != name:
		problem = "setting must be a full key like \"display/window/size/viewport_width\", got %s" % JSON.stringify(name)
	else:
		for prefix: String in REFUSED_PREFIXES:
			if (name as String).to_lower().begins_with(prefix):
				problem = "%s is under %s, which project_set_setting does not change" % [name, prefix]
				hint = REFUSED_PREFIXES[prefix]
	if not problem.is_empty():
		return {"ok": false, "error": ToolkitError.fail("INVALID_PARAMS", problem, hint)}
	var value: Variant = Coerce.coerce_value(params["value"])
	if not Coerce.error_of(value).is_empty():
		return {"ok": false, "error": ToolkitError.fail("INVALID_PARAMS", Coerce.error_of(value))}
	return _typed_value(name, value)


## The value converted to the type the setting declares (JSON numbers arrive as floats), or why
## it cannot be; a file setting must name an existing file.
static func _typed_value(name: String, value: Variant) -> Dictionary:
	var info := _property_info(name)
	var expected: int = info.get("type", TYPE_NIL)
	var typed: Variant = value
	if Params.is_whole_number(value) and (expected == TYPE_INT or (expected == TYPE_NIL and value is float)):
		typed = int(value)
	elif expected == TYPE_FLOAT and value is int:
		typed = float(value)
	elif expected == TYPE_PACKED_STRING_ARRAY and value is Array:
		typed = PackedStringArray(value)
	elif expected == TYPE_STRING_NAME and value is String:
		typed = StringName(value)
	if expected != TYPE_NIL and typeof(typed) != expected:
		return {"ok": false, "error": ToolkitError.fail("INVALID_PARAMS", "%s holds a %s, not a %s" % [
			name, type_string(expected), type_string(typeof(value))],
			"Pass a value of that type; vectors and colors use tagged objects like {\"type\": \"Vector2i\", ...}.")}
	var file_hint := int(info.get("hint", PROPERTY_HINT_NONE)) == PROPERTY_HINT_FILE
	if file_hint and typed is String and not (typed as String).is_empty() and not FileAccess.file_exists(typed):
		return {"ok": false, "error": ToolkitError.fail("INVALID_PATH", "%s names a file, and %s does not exist" % [
			name, typed])}
	return {"ok": true, "setting": name, "value": typed, "known": not info.is_empty()}


static func _property_info(name: String) -> Dictionary:
	for property: Dictionary in ProjectSettings.get_property_list():
		if property["name"] == name:
			return property
	return {}


## Sets every name -> value (null erases the key) and saves project.godot. Undo/redo step too.
static func apply_settings(values: Dictionary, orders: Dictionary = {}) -> Error:
	for name: String in values:
		ProjectSettings.set_setting(name, values[name])
		if orders.has(name) and values[name] != null:
			ProjectSettings.set_order(name, orders[name])
	return ProjectWrites.save_project_settings()


## Records an already applied settings change: redo applies `done`, undo applies `before`
## (with the keys' former `orders`, so an autoload comes back in its place).
static func _record_settings(context: RefCounted, description: String, done: Dictionary, before: Dictionary,
		orders: Dictionary = {}) -> void:
	var steps: Script = load(SELF_PATH)
	var action: RefCounted = context.edits.create_undo_action(description)
	action.add_do_method(steps, &"apply_settings", [done, {}])
	action.add_undo_method(steps, &"apply_settings", [before, orders])
	action.commit(false)


# --- autoload.manage -----------------------------------------------------------------------------

static func _cmd_autoload(params: Dictionary, context: RefCounted) -> Dictionary:
	var action: Variant = params.get("action")
	if not action is String or not action in AUTOLOAD_ACTIONS:
		return ToolkitError.fail("INVALID_PARAMS", "action must be one of %s" % ", ".join(
			PackedStringArray(AUTOLOAD_ACTIONS)))
	if action == "list":
		var listed := Autoloads.list()
		return ToolkitSuccess.ok({"action": action, "autoloads": listed, "count": listed.size()})
	var name: Variant = params.get("name")
	if not name is String or (name as String).is_empty():
		return ToolkitError.fail("INVALID_PARAMS", "%s needs name, the autoload's name" % action)
	if action == "unregister":
		return _unregister_autoload(name, context)
	return _register_autoload(name, params.get("script_path"), params.get("enabled", true), context)


static func _register_autoload(name: String, path: Variant, enabled: Variant, context: RefCounted) -> Dictionary:
	var checked := Autoloads.check_registration(name, path, enabled)
	if not checked["ok"]:
		return checked["error"]
	var key := Autoloads.key_of(name)
	var value := Autoloads.value_of(checked["path"], enabled)
	var entry := {"action": "register", "name": name, "path": checked["path"], "enabled": enabled}
	if ProjectSettings.has_setting(key):
		return ToolkitSuccess.ok(Autoloads.returned(name, entry))
	var saved := apply_settings({key: value})
	if saved != OK:
		apply_settings({key: null})
		return ToolkitError.fail("SAVE_FAILED", "Could not save project.godot: %s" % error_string(saved),
			"Nothing was changed. Check that project.godot is writable.")
	_record_settings(context, "MCP: register autoload %s" % name, {key: value}, {key: null})
	entry["status"] = "created"
	entry["hint"] = "The autoload is created when the game starts; it does not run in the editor."
	return ToolkitSuccess.ok(entry)


static func _unregister_autoload(name: String, context: RefCounted) -> Dictionary:
	var key := Autoloads.key_of(name)
	if not ProjectSettings.has_setting(key):
		return ToolkitError.fail("NOT_FOUND", "No autoload named %s" % name,
			"autoload_manage with action \"list\" shows the registered ones.")
	var previous: Variant = ProjectSettings.get_setting(key)
	var order := ProjectSettings.get_order(key)
	var saved := apply_settings({key: null})
	if saved != OK:
		apply_settings({key: previous}, {key: order})
		return ToolkitError.fail("SAVE_FAILED", "Could not save project.godot: %s" % error_string(saved),
			"Nothing was changed. Check that project.godot is writable.")
	_record_settings(context, "MCP: unregister autoload %s" % name, {key: null}, {key: previous}, {key: order})
	var entry := Autoloads.entry_of(name, str(previous))
	entry.merge({"action": "unregister", "status": "removed"})
	return ToolkitSuccess.ok(entry)
