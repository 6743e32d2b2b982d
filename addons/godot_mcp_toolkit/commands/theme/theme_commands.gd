@tool
extends RefCounted
## The theme domain: theme.edit creates or edits a Theme .tres with a batch of item edits (color,
## constant, font, font_size, icon, stylebox per control type; a null value clears the item). The
## whole batch is checked before anything changes, applied to a working copy, then saved and
## recorded for undo (files/resource_working_copy.gd): all of it lands or none of it does.
## An item the control class does not read (Button's "font_colour") is still stored (a script may
## ask for it by name) but answered with a warning naming the item the class has.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const ToolkitSuccess := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_success.gd")
const FileGuard := preload("res://addons/godot_mcp_toolkit/security/file_guard.gd")
const Args := preload("res://addons/godot_mcp_toolkit/contract/build_args.gd")
const FileParams := preload("res://addons/godot_mcp_toolkit/files/file_params.gd")
const Params := preload("res://addons/godot_mcp_toolkit/contract/params.gd")
const ResourceFile := preload("res://addons/godot_mcp_toolkit/files/resource_working_copy.gd")

const SELF_PATH := "res://addons/godot_mcp_toolkit/commands/theme/theme_commands.gd"
const PROPERTY_TYPES := ["color", "constant", "font", "font_size", "icon", "stylebox"]
## Theme.DataType of each property_type, for set/clear through the generic item API.
const DATA_TYPES := {"color": Theme.DATA_TYPE_COLOR, "constant": Theme.DATA_TYPE_CONSTANT,
	"font": Theme.DATA_TYPE_FONT, "font_size": Theme.DATA_TYPE_FONT_SIZE, "icon": Theme.DATA_TYPE_ICON,
	"stylebox": Theme.DATA_TYPE_STYLEBOX}
## The resource class a path value must load as.
const LOADED_CLASS := {"font": "Font", "icon": "Texture2D", "stylebox": "StyleBox"}
const MAX_EDITS := 500


static func register(registry: RefCounted, context: RefCounted) -> void:
	var script: Script = load(SELF_PATH)
	registry.register_command("theme.edit", Callable(script, "_cmd_edit").bind(context),
		registry.create_options()
		.with_input_schema({"type": "object", "required": ["file_path", "edits"], "properties": {
			"file_path": {"type": "string"}, "edits": {"type": "array", "items": {"type": "object",
				"required": ["type_name", "property_type", "property", "value"], "properties": {
					"type_name": {"type": "string"}, "property_type": {"type": "string", "enum": PROPERTY_TYPES},
					"property": {"type": "string"}, "value": {}}}}}}).scene_independent())


static func _cmd_edit(params: Dictionary, context: RefCounted) -> Dictionary:
	var path_read := FileParams.res_file(params, "file_path", ["tres", "res"])
	if path_read.has("error"):
		return path_read["error"]
	var raw: Variant = params.get("edits")
	if not raw is Array or (raw as Array).is_empty() or (raw as Array).size() > MAX_EDITS:
		return ToolkitError.fail("INVALID_PARAMS",
			"edits must be an array of 1..%d {type_name, property_type, property, value}" % MAX_EDITS)
	var planned: Array = []
	for i: int in (raw as Array).size():
		var edit := _plan(raw[i], i)
		if edit.has("error"):
			return edit["error"]
		planned.append(edit)
	var path: String = path_read["value"]
	var opened := ResourceFile.open(path, "Theme")
	if opened.has("error"):
		return opened["error"]
	var theme: Theme = opened["work"]
	var applied: Array = []
	var warnings: Array = []
	for index: int in planned.size():
		var warning := _item_warning(planned[index], theme, index)
		if not warning.is_empty():
			warnings.append(warning)
	for edit: Dictionary in planned:
		var data_type: int = DATA_TYPES[edit["property_type"]]
		if edit["value"] == null:
			theme.clear_theme_item(data_type, edit["property"], edit["type_name"])
		else:
			theme.set_theme_item(data_type, edit["property"], edit["type_name"], edit["value"])
		applied.append({"type_name": edit["type_name"], "property_type": edit["property_type"],
			"property": edit["property"], "cleared": edit["value"] == null})
	var saved := ResourceFile.commit(opened, path, context, "Edit theme %s" % path.get_file())
	if not saved.is_empty():
		return saved
	var result := {"path": path, "created": opened["created"], "applied": applied,
		"type_names": Array(theme.get_type_list())}
	if not warnings.is_empty():
		result["warnings"] = warnings
	return ToolkitSuccess.ok(result)


## "" when the control class `edit` names reads that item (per Godot's default theme, which
## defines every item a built-in control reads), else what is wrong and the close name. A
## type_name that is no engine class (a custom type) is checked through its variation base.
static func _item_warning(edit: Dictionary, theme: Theme, index: int) -> String:
	var type_name: String = edit["type_name"]
	var control_class := type_name
	if not ClassDB.class_exists(control_class):
		control_class = String(theme.get_type_variation_base(type_name))
		if not ClassDB.class_exists(control_class):
			return ""
	var default_theme := ThemeDB.get_default_theme()
	var name: String = edit["property"]
	var kind: String = edit["property_type"]
	var own := _items_read(default_theme, control_class, DATA_TYPES[kind])
	if name in own:
		return ""
	var where := "edits[%d]: %s" % [index, type_name]
	for other: String in PROPERTY_TYPES:
		if other != kind and name in _items_read(default_theme, control_class, DATA_TYPES[other]):
			return "%s reads '%s' as a %s item, not a %s; it was stored as a %s and %s nodes will not use it" % [
				where, name, other, kind, kind, control_class]
	if own.is_empty():
		return "%s reads no %s items; '%s' was stored but %s nodes will not use it" % [where, kind, name, control_class]
	var close := Params.closest(name, own)
	return "%s has no %s item '%s'%s; it was stored, but %s nodes will not use it (theirs: %s)" % [
		where, kind, name, " (did you mean %s?)" % close if not close.is_empty() else "", control_class,
		", ".join(PackedStringArray(own))]


## The names of `data_type` items `control_class` and the classes it derives from read.
static func _items_read(default_theme: Theme, control_class: String, data_type: int) -> Array:
	var names: Array = []
	var current := control_class
	while not current.is_empty():
		for item: String in default_theme.get_theme_item_list(data_type, current):
			if not item in names:
				names.append(item)
		current = String(ClassDB.get_parent_class(current))
	names.sort()
	return names


## One edit checked and turned into {type_name, property_type, property, value (null = clear)}.
static func _plan(raw: Variant, i: int) -> Dictionary:
	var where := "edits[%d]" % i
	if not raw is Dictionary:
		return _bad("%s must be an object {type_name, property_type, property, value}" % where)
	var edit: Dictionary = raw
	var unknown := Args.keys(edit, ["type_name", "property_type", "property", "value"], where)
	if not unknown.is_empty():
		return unknown
	for key: String in ["type_name", "property"]:
		if not edit.get(key) is String or (edit[key] as String).is_empty():
			return _bad("%s.%s must be a non-empty string" % [where, key])
	var kind := Args.choice(edit, "property_type", "", PROPERTY_TYPES)
	if kind.has("error"):
		return Args.nested(where, kind)
	if not edit.has("value"):
		return _bad("%s.value is required (null clears the item)" % where)
	var planned := {"type_name": edit["type_name"], "property_type": kind["value"], "property": edit["property"],
		"value": null}
	if edit["value"] == null:
		return planned
	var value := _value(kind["value"], edit["value"], where)
	if value.has("error"):
		return value
	planned["value"] = value["value"]
	return planned


static func _value(kind: String, raw: Variant, where: String) -> Dictionary:
	match kind:
		"color":
			return Args.color_value(raw, where + ".value")
		"constant", "font_size":
			var number := Args.integer({"value": raw}, "value", 0, 0 if kind == "font_size" else -100000, 100000)
			return _bad("%s.%s" % [where, number["error"]["error"]]) if number.has("error") else number
		"stylebox":
			if raw is Dictionary:
				return _stylebox(raw, where)
	return _loaded(kind, raw, where)


## A Font / Texture2D / StyleBox resource from a res:// path.
static func _loaded(kind: String, raw: Variant, where: String) -> Dictionary:
	var checked := FileGuard.check(raw)
	if not checked["ok"]:
		return _bad("%s.value must be a res:// path to a %s: %s" % [where, LOADED_CLASS[kind], checked["error"]["error"]])
	var path: String = checked["path"]
	if not ResourceLoader.exists(path):
		return {"error": ToolkitError.fail("INVALID_PARAMS", "%s.value: no resource at %s" % [where, path],
			"Check the path with filesystem tools; import the file in the editor first.")}
	var resource := load(path)
	if resource == null or not resource.is_class(LOADED_CLASS[kind]):
		return _bad("%s.value: %s is a %s, not a %s" % [where, path,
			resource.get_class() if resource != null else "unloadable file", LOADED_CLASS[kind]])
	return {"value": resource}


## A StyleBoxFlat from {bg_color, border_color, border_width, corner_radius, content_margin}, or
## {"type": "StyleBoxEmpty"}.
static func _stylebox(spec: Dictionary, where: String) -> Dictionary:
	var unknown := Args.keys(spec, ["type", "bg_color", "border_color", "border_width", "corner_radius",
		"content_margin"], where + ".value")
	if not unknown.is_empty():
		return unknown
	var type_name: Variant = spec.get("type", "StyleBoxFlat")
	if type_name == "StyleBoxEmpty":
		return {"value": StyleBoxEmpty.new()}
	if type_name != "StyleBoxFlat":
		return _bad("%s.value.type must be StyleBoxFlat or StyleBoxEmpty (or pass a res:// path)" % where)
	var read := Args.collect([
		["bg", Args.color(spec, "bg_color", Color(0.6, 0.6, 0.6))],
		["border_color", Args.color(spec, "border_color", Color(0.8, 0.8, 0.8))],
		["border", Args.integer(spec, "border_width", 0, 0, 1000)],
		["radius", Args.integer(spec, "corner_radius", 0, 0, 1000)],
		["margin", Args.number(spec, "content_margin", -1.0, -1.0, 10000.0)],
	])
	if read.has("error"):
		return Args.nested(where + ".value", read)
	var values: Dictionary = read["values"]
	var box := StyleBoxFlat.new()
	box.bg_color = values["bg"]
	box.border_color = values["border_color"]
	box.set_border_width_all(values["border"])
	box.set_corner_radius_all(values["radius"])
	box.set_content_margin_all(values["margin"])
	return {"value": box}


static func _bad(message: String) -> Dictionary:
	return {"error": ToolkitError.fail("INVALID_PARAMS", message)}
