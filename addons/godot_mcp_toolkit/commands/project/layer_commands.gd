@tool
extends RefCounted
## Layer names: project.set_layer_names and project.get_layer_names over the settings
## "layer_names/<category>/layer_<n>" the inspector's layer grids show. Saved to project.godot at
## once through project_commands.gd's apply_settings; undo/redo re-save. Runtime-safe.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const ToolkitSuccess := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_success.gd")
const Params := preload("res://addons/godot_mcp_toolkit/contract/params.gd")
const Untrusted := preload("res://addons/godot_mcp_toolkit/security/untrusted.gd")
const StrictJson := preload("res://addons/godot_mcp_toolkit/contract/strict_json.gd")
const ProjectCommands := preload("res://addons/godot_mcp_toolkit/commands/project/project_commands.gd")

const SELF_PATH := "res://addons/godot_mcp_toolkit/commands/project/layer_commands.gd"
## How many layers each category has (render layers stop at 20 in Godot 4).
const CATEGORIES := {"2d_physics": 32, "2d_render": 20, "3d_physics": 32, "3d_render": 20}


static func register(registry: RefCounted, context: RefCounted) -> void:
	var script: Script = load(SELF_PATH)
	registry.register_command("project.set_layer_names", Callable(script, "_cmd_set").bind(context),
		registry.create_options()
		.scene_independent())
	registry.register_command("project.get_layer_names", Callable(script, "_cmd_get").bind(context),
		registry.create_options()
		.read_only().scene_independent())


static func _cmd_get(params: Dictionary, _context: RefCounted) -> Dictionary:
	var category := _category(params)
	if category.is_empty():
		return _bad_category(params)
	var named := {}
	for number in range(1, int(CATEGORIES[category]) + 1):
		var name := str(ProjectSettings.get_setting(key_of(category, number), ""))
		if not name.is_empty():
			named[str(number)] = name
	return ToolkitSuccess.ok({"category": category, "max_layers": CATEGORIES[category], "count": named.size(),
		"layers": Untrusted.wrap(StrictJson.stringify(named), "layer_names", "res://project.godot")})


static func _cmd_set(params: Dictionary, context: RefCounted) -> Dictionary:
	var category := _category(params)
	if category.is_empty():
		return _bad_category(params)
	var missing := Params.require(params, ["layers"])
	if not missing.is_empty():
		return missing
	var checked := _checked_layers(params["layers"], int(CATEGORIES[category]))
	if not checked["ok"]:
		return checked["error"]
	var done := {}
	var before := {}
	var changed := {}
	var unchanged := PackedStringArray()
	for number: int in checked["layers"]:
		var key := key_of(category, number)
		var previous := str(ProjectSettings.get_setting(key, ""))
		var name: String = checked["layers"][number]
		if previous == name:
			unchanged.append(str(number))
			continue
		done[key] = name
		before[key] = previous
		changed[str(number)] = {"from": previous, "to": name}
	var result := {"category": category, "changed": changed, "unchanged": unchanged, "saved": not done.is_empty()}
	if done.is_empty():
		return ToolkitSuccess.ok(result)
	var saved := ProjectCommands.apply_settings(done)
	if saved != OK:
		ProjectCommands.apply_settings(before)
		return ToolkitError.fail("SAVE_FAILED", "Could not save project.godot: %s" % error_string(saved),
			"Nothing was changed. Check that project.godot is writable.")
	var action: RefCounted = context.edits.create_undo_action("MCP: name %s layers" % category)
	action.add_do_method(ProjectCommands, &"apply_settings", [done, {}])
	action.add_undo_method(ProjectCommands, &"apply_settings", [before, {}])
	action.commit(false)
	return ToolkitSuccess.ok(result)


static func key_of(category: String, number: int) -> String:
	return "layer_names/%s/layer_%d" % [category, number]


## {"ok": true, "layers": {number: name}} or {"ok": false, "error"}; "" clears a name.
static func _checked_layers(layers: Variant, count: int) -> Dictionary:
	if not layers is Dictionary or (layers as Dictionary).is_empty():
		return _invalid("layers must be an object mapping layer numbers to names, like {\"1\": \"player\"}")
	var parsed := {}
	for number_text: Variant in layers:
		var text := str(number_text)
		if not text.is_valid_int() or int(text) < 1 or int(text) > count:
			return _invalid("layer %s is not a layer number from 1 to %d" % [JSON.stringify(number_text), count])
		var name: Variant = layers[number_text]
		if not name is String or (name as String).strip_edges() != name or (name as String).contains("\n"):
			return _invalid("the name of layer %s must be one line of text without surrounding spaces " % text
				+ "(\"\" clears it), got %s" % JSON.stringify(name))
		parsed[int(text)] = name
	return {"ok": true, "layers": parsed}


static func _category(params: Dictionary) -> String:
	var category: Variant = params.get("category")
	return category if category is String and CATEGORIES.has(category) else ""


static func _bad_category(params: Dictionary) -> Dictionary:
	return ToolkitError.fail("INVALID_PARAMS", "category must be one of %s, got %s" % [
		", ".join(PackedStringArray(CATEGORIES.keys())), JSON.stringify(params.get("category"))])


static func _invalid(text: String) -> Dictionary:
	return {"ok": false, "error": ToolkitError.fail("INVALID_PARAMS", text)}
