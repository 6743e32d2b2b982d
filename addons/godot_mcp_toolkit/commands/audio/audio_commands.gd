@tool
extends RefCounted
## Audio buses: audiobus.list and audiobus.edit over AudioServer. After each edit the whole layout
## is saved to the project's default bus layout resource (setting audio/buses/default_bus_layout),
## which is what the editor's Audio panel edits and the game loads. Undo/redo put back the whole
## layout (and the file as it was). Runtime-safe.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const ToolkitSuccess := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_success.gd")
const Params := preload("res://addons/godot_mcp_toolkit/contract/params.gd")
const Coerce := preload("res://addons/godot_mcp_toolkit/contract/coerce.gd")
const ProjectWrites := preload("res://addons/godot_mcp_toolkit/checkpoints/project_writes.gd")

const SELF_PATH := "res://addons/godot_mcp_toolkit/commands/audio/audio_commands.gd"
const LAYOUT_SETTING := "audio/buses/default_bus_layout"
const DEFAULT_LAYOUT := "res://default_bus_layout.tres"
const ACTIONS := ["add_bus", "remove_bus", "set_bus", "add_effect", "remove_effect"]
const BUS_FIELDS := ["volume_db", "solo", "mute", "send_to"]


static func register(registry: RefCounted, context: RefCounted) -> void:
	var script: Script = load(SELF_PATH)
	registry.register_command("audiobus.list", Callable(script, "_cmd_list").bind(context),
		registry.create_options()
		.read_only().scene_independent())
	registry.register_command("audiobus.edit", Callable(script, "_cmd_edit").bind(context),
		registry.create_options()
		.scene_independent())


static func layout_path() -> String:
	var path := str(ProjectSettings.get_setting(LAYOUT_SETTING, DEFAULT_LAYOUT))
	return path if not path.is_empty() else DEFAULT_LAYOUT


# --- audiobus.list -------------------------------------------------------------------------------

static func _cmd_list(_params: Dictionary, _context: RefCounted) -> Dictionary:
	var buses: Array[Dictionary] = []
	for index in AudioServer.bus_count:
		buses.append(bus_entry(index))
	var path := layout_path()
	return ToolkitSuccess.ok({"buses": buses, "count": buses.size(), "layout_path": path,
		"layout_saved": FileAccess.file_exists(path)})


static func bus_entry(index: int) -> Dictionary:
	var effects: Array[Dictionary] = []
	for slot in AudioServer.get_bus_effect_count(index):
		var effect := AudioServer.get_bus_effect(index, slot)
		effects.append({"index": slot, "type": effect.get_class() if effect != null else "",
			"enabled": AudioServer.is_bus_effect_enabled(index, slot)})
	return {"index": index, "name": AudioServer.get_bus_name(index),
		"volume_db": snappedf(AudioServer.get_bus_volume_db(index), 0.001),
		"solo": AudioServer.is_bus_solo(index), "mute": AudioServer.is_bus_mute(index),
		"bypass_effects": AudioServer.is_bus_bypassing_effects(index),
		"send_to": String(AudioServer.get_bus_send(index)), "effects": effects}


# --- audiobus.edit -------------------------------------------------------------------------------

static func _cmd_edit(params: Dictionary, context: RefCounted) -> Dictionary:
	var missing := Params.require(params, ["action"])
	if not missing.is_empty():
		return missing
	var action: Variant = params["action"]
	if not action in ACTIONS:
		return _invalid("action must be one of %s, got %s" % [", ".join(PackedStringArray(ACTIONS)), JSON.stringify(action)])
	var checked := _checked_fields(params)
	if not checked.is_empty():
		return checked
	if action == "add_bus":
		return _add_bus(params, context)
	var bus := _bus_of(params)
	if bus.has("error"):
		return bus["error"]
	var index: int = bus["index"]
	match action:
		"remove_bus":
			if index == 0:
				return _invalid("The Master bus (index 0) cannot be removed")
			return _commit(context, "remove bus %s" % AudioServer.get_bus_name(index),
				func() -> void: AudioServer.remove_bus(index), {"removed": bus_entry(index)})
		"set_bus":
			if not BUS_FIELDS.any(func(field: String) -> bool: return params.has(field)):
				return _invalid("set_bus needs at least one of %s" % ", ".join(PackedStringArray(BUS_FIELDS)))
			var send := _checked_send(params, AudioServer.get_bus_name(index))
			if not send.is_empty():
				return send
			return _commit(context, "set bus %s" % AudioServer.get_bus_name(index),
				func() -> void: _apply_fields(index, params), {}, index)
		"add_effect":
			return _add_effect(params, index, context)
	return _remove_effect(params, index, context)


static func _add_bus(params: Dictionary, context: RefCounted) -> Dictionary:
	var name: Variant = params.get("bus_name")
	if not name is String or (name as String).strip_edges().is_empty() or (name as String).strip_edges() != name:
		return _invalid("add_bus needs bus_name, the new bus's name (no surrounding spaces)")
	var existing := AudioServer.get_bus_index(name)
	if existing >= 0:
		return ToolkitSuccess.ok({"action": "add_bus", "status": "returned", "bus": bus_entry(existing),
			"warnings": PackedStringArray(["A bus named %s exists; nothing was changed (use set_bus to change it)" % name])})
	var at: Variant = params.get("bus_index", -1)
	if not at is int and not (at is float and Params.is_whole_number(at)):
		return _invalid("bus_index must be a whole number")
	var position := int(at)
	if position == 0 or position > AudioServer.bus_count:
		return _invalid("bus_index for add_bus must be 1-%d (Master stays first) or omitted for the end"
			% AudioServer.bus_count)
	var send := _checked_send(params, name)
	if not send.is_empty():
		return send
	var slot := position if position > 0 else AudioServer.bus_count
	return _commit(context, "add bus %s" % name, func() -> void:
		AudioServer.add_bus(slot)
		AudioServer.set_bus_name(slot, name)
		if not params.has("send_to"):
			AudioServer.set_bus_send(slot, &"Master")
		_apply_fields(slot, params), {"status": "created"}, slot)


static func _add_effect(params: Dictionary, index: int, context: RefCounted) -> Dictionary:
	var spec: Variant = params.get("effect")
	if not spec is Dictionary or not spec.get("type") is String:
		return _invalid("add_effect needs effect {type: \"AudioEffectReverb\", properties?, index?, enabled?}")
	var unknown := Params.reject_unknown_keys(spec, ["type", "properties", "index", "enabled"], "effect")
	if not unknown.is_empty():
		return unknown
	var type: String = spec["type"]
	if not ClassDB.class_exists(type) or not ClassDB.is_parent_class(type, "AudioEffect") \
			or not ClassDB.can_instantiate(type):
		return _invalid("%s is not an AudioEffect class this Godot can create" % type,
			"classdb_search with base_class \"AudioEffect\" lists them.")
	var effect: AudioEffect = ClassDB.instantiate(type)
	var problem := _set_effect_properties(effect, spec.get("properties", {}))
	if not problem.is_empty():
		return _invalid(problem)
	var enabled: Variant = spec.get("enabled", true)
	var at: Variant = spec.get("index", -1)
	var count := AudioServer.get_bus_effect_count(index)
	if not enabled is bool or not Params.is_whole_number(at) or int(at) < -1 or int(at) > count:
		return _invalid("effect.enabled must be true/false and effect.index -1 (the end) to %d" % count)
	var slot := int(at) if int(at) >= 0 else count
	return _commit(context, "add %s to bus %s" % [type, AudioServer.get_bus_name(index)], func() -> void:
		AudioServer.add_bus_effect(index, effect, slot)
		AudioServer.set_bus_effect_enabled(index, slot, enabled), {"effect_index": slot}, index)


static func _remove_effect(params: Dictionary, index: int, context: RefCounted) -> Dictionary:
	var spec: Variant = params.get("effect")
	if not spec is Dictionary:
		return _invalid("remove_effect needs effect {type, index?}: the type, and which one when the bus has several")
	var type: Variant = spec.get("type")
	if not type is String:
		return _invalid("effect.type must name the effect class, like \"AudioEffectReverb\"")
	var slot := -1
	if spec.has("index"):
		slot = int(spec["index"]) if Params.is_whole_number(spec["index"]) else -2
	else:
		for candidate in AudioServer.get_bus_effect_count(index):
			if AudioServer.get_bus_effect(index, candidate).get_class() == type:
				slot = candidate
				break
	var name := AudioServer.get_bus_name(index)
	if slot < 0 or slot >= AudioServer.get_bus_effect_count(index) \
			or AudioServer.get_bus_effect(index, slot).get_class() != type:
		return ToolkitError.fail("NOT_FOUND", "Bus %s has no %s%s" % [name, type,
			" at effect index %s" % spec["index"] if spec.has("index") else ""],
			"audiobus_list shows each bus's effects with their index.")
	return _commit(context, "remove %s from bus %s" % [type, name],
		func() -> void: AudioServer.remove_bus_effect(index, slot), {"effect_index": slot}, index)


## Runs `change` on AudioServer, saves the layout resource, and records undo/redo of the whole
## layout. The result names the action and the bus after the change (at `shown`, if any).
static func _commit(context: RefCounted, description: String, change: Callable, extra: Dictionary,
		shown: int = -1) -> Dictionary:
	var path := layout_path()
	var existed := FileAccess.file_exists(path)
	var before := AudioServer.generate_bus_layout()
	change.call()
	var after := AudioServer.generate_bus_layout()
	var saved := ProjectWrites.save_resource(after, path)
	if saved != OK:
		apply_layout(before, path, existed)
		return ToolkitError.fail("SAVE_FAILED", "Could not save the bus layout to %s: %s" % [path, error_string(saved)],
			"Nothing was changed. Check that the folder is writable.")
	var steps: Script = load(SELF_PATH)
	var action: RefCounted = context.edits.create_undo_action("MCP: %s" % description)
	action.add_do_method(steps, &"apply_layout", [after, path, true])
	action.add_undo_method(steps, &"apply_layout", [before, path, existed])
	action.commit(false)
	context.project.refresh_files(PackedStringArray([path]))
	var result := {"layout_path": path, "saved": true}
	result.merge(extra)
	if shown >= 0:
		result["bus"] = bus_entry(shown)
	return ToolkitSuccess.ok(result)


## Puts `layout` on AudioServer and saves it to `path` (or removes the file when there was none).
## The undo/redo step.
static func apply_layout(layout: AudioBusLayout, path: String, keep_file: bool) -> void:
	AudioServer.set_bus_layout(layout)
	if keep_file:
		ProjectWrites.save_resource(layout, path)
	else:
		ProjectWrites.remove_file(path)


static func _apply_fields(index: int, params: Dictionary) -> void:
	if params.has("volume_db"):
		AudioServer.set_bus_volume_db(index, float(params["volume_db"]))
	if params.has("solo"):
		AudioServer.set_bus_solo(index, params["solo"])
	if params.has("mute"):
		AudioServer.set_bus_mute(index, params["mute"])
	if params.has("send_to"):
		AudioServer.set_bus_send(index, StringName(params["send_to"]))


## The bus named by bus_name or bus_index: {"index"} or {"error"}.
static func _bus_of(params: Dictionary) -> Dictionary:
	var hint := "audiobus_list shows the buses."
	if params.get("bus_name") is String:
		var index := AudioServer.get_bus_index(params["bus_name"])
		if index < 0:
			return {"error": ToolkitError.fail("NOT_FOUND", "No audio bus named %s" % params["bus_name"], hint)}
		return {"index": index}
	if params.has("bus_index") and Params.is_whole_number(params["bus_index"]):
		var index := int(params["bus_index"])
		if index < 0 or index >= AudioServer.bus_count:
			return {"error": ToolkitError.fail("NOT_FOUND", "No audio bus at index %d (there are %d)" % [
				index, AudioServer.bus_count], hint)}
		return {"index": index}
	return {"error": _invalid("Name the bus with bus_name or bus_index")}


static func _checked_fields(params: Dictionary) -> Dictionary:
	if params.has("volume_db") and (not Params.is_number(params["volume_db"]) or float(params["volume_db"]) < -80.0
			or float(params["volume_db"]) > 24.0):
		return _invalid("volume_db must be a number from -80 to 24")
	for field: String in ["solo", "mute"]:
		if params.has(field) and not params[field] is bool:
			return _invalid("%s must be true or false" % field)
	return {}


## An error when send_to names no other bus, else {}.
static func _checked_send(params: Dictionary, own_name: String) -> Dictionary:
	if not params.has("send_to"):
		return {}
	var target: Variant = params["send_to"]
	if not target is String or target == own_name:
		return _invalid("send_to must name another bus")
	if AudioServer.get_bus_index(target) < 0:
		return ToolkitError.fail("NOT_FOUND", "send_to names no bus: %s" % target, "audiobus_list shows the buses.")
	return {}


## Sets each property on a new effect; why one cannot be set, or "".
static func _set_effect_properties(effect: AudioEffect, properties: Variant) -> String:
	if not properties is Dictionary:
		return "effect.properties must be an object of property names to values"
	var known := {}
	for property: Dictionary in effect.get_property_list():
		known[property["name"]] = true
	for name: Variant in properties:
		if not known.has(name):
			return "%s has no property %s" % [effect.get_class(), name]
		var value: Variant = Coerce.coerce_value(properties[name])
		if not Coerce.error_of(value).is_empty():
			return "effect property %s: %s" % [name, Coerce.error_of(value)]
		effect.set(name, value)
	return ""


static func _invalid(text: String, hint: String = "") -> Dictionary:
	return ToolkitError.fail("INVALID_PARAMS", text, hint)
