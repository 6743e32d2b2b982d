@tool
extends RefCounted
## control.set_layout: an anchor preset (plus per-edge insets) on a Control, as one undoable action.
## Runtime-safe: names no Editor* class.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const ToolkitSuccess := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_success.gd")
const Params := preload("res://addons/godot_mcp_toolkit/contract/params.gd")
const NodeTarget := preload("res://addons/godot_mcp_toolkit/commands/node/node_target.gd")

## See meta_commands.gd for why handlers are reached through the script path.
const SELF_PATH := "res://addons/godot_mcp_toolkit/commands/node/control_commands.gd"

const PRESETS := {
	"top_left": Control.PRESET_TOP_LEFT, "top_right": Control.PRESET_TOP_RIGHT,
	"bottom_left": Control.PRESET_BOTTOM_LEFT, "bottom_right": Control.PRESET_BOTTOM_RIGHT,
	"center_left": Control.PRESET_CENTER_LEFT, "center_top": Control.PRESET_CENTER_TOP,
	"center_right": Control.PRESET_CENTER_RIGHT, "center_bottom": Control.PRESET_CENTER_BOTTOM,
	"center": Control.PRESET_CENTER, "left_wide": Control.PRESET_LEFT_WIDE,
	"top_wide": Control.PRESET_TOP_WIDE, "right_wide": Control.PRESET_RIGHT_WIDE,
	"bottom_wide": Control.PRESET_BOTTOM_WIDE, "vcenter_wide": Control.PRESET_VCENTER_WIDE,
	"hcenter_wide": Control.PRESET_HCENTER_WIDE, "full_rect": Control.PRESET_FULL_RECT,
}
const RESIZE_MODES := {
	"set_to_anchors": Control.PRESET_MODE_MINSIZE,
	"keep_size": Control.PRESET_MODE_KEEP_SIZE,
}
const EDGES := ["left", "top", "right", "bottom"]
## Inset direction per edge: a positive margin moves that edge inwards.
const INWARD := {"left": 1.0, "top": 1.0, "right": -1.0, "bottom": -1.0}
## Editor-facing Control properties (4.x): the layout mode the inspector shows and the preset it names.
const LAYOUT_MODE_ANCHORS := 1


static func register(registry: RefCounted, context: RefCounted) -> void:
	var script: Script = load(SELF_PATH)
	registry.register_command("control.set_layout", Callable(script, "_cmd_set_layout").bind(context),
		registry.create_options())


static func _cmd_set_layout(params: Dictionary, context: RefCounted) -> Dictionary:
	var missing := Params.require(params, ["node_path", "preset"])
	if not missing.is_empty():
		return missing
	var preset_name: Variant = params["preset"]
	if not preset_name is String or not PRESETS.has(preset_name):
		return ToolkitError.fail("INVALID_PARAMS", "Unknown preset '%s'" % str(preset_name),
			"Use one of: %s" % ", ".join(PackedStringArray(PRESETS.keys())))
	var resize_name: Variant = params.get("resize_mode", "set_to_anchors")
	if not resize_name is String or not RESIZE_MODES.has(resize_name):
		return ToolkitError.fail("INVALID_PARAMS", "resize_mode must be keep_size or set_to_anchors")
	var margins := _margins(params.get("margins", {}))
	if margins.has("error"):
		return ToolkitError.fail("INVALID_PARAMS", margins["error"], margins.get("hint", ""))
	var found := NodeTarget.find(context, params["node_path"])
	if not found["ok"]:
		return found["error"]
	var root: Node = found["root"]
	var control := found["node"] as Control
	if control == null:
		return ToolkitError.fail("INVALID_CLASS", "%s is a %s, not a Control" % [found["path"], found["node"].get_class()],
			"Anchor presets apply to Control nodes; position a Node2D with node_set_property instead.")
	var in_container := control.get_parent() is Container
	# The inspector's layout fields go first: setting anchors_preset re-applies a preset, so the
	# exact anchors and offsets must come after it, on do and on undo alike.
	var before := {} if in_container else _editor_layout(control)
	var after := {}
	for property: String in before:
		after[property] = LAYOUT_MODE_ANCHORS if property == "layout_mode" else PRESETS[preset_name]
	before.merge(_layout(control))
	control.set_anchors_and_offsets_preset(PRESETS[preset_name], RESIZE_MODES[resize_name])
	for edge: String in EDGES:
		var property := "offset_" + edge
		control.set(property, float(control.get(property)) + INWARD[edge] * float(margins["value"].get(edge, 0.0)))
	after.merge(_layout(control))
	_restore(control, before)
	var action: RefCounted = context.edits.create_undo_action("MCP: Layout %s" % control.name, root)
	for property: String in after:
		action.add_do_property(control, StringName(property), after[property])
	for property: String in before:
		action.add_undo_property(control, StringName(property), before[property])
	action.commit()
	context.scenes.mark_modified()
	var result := {
		"node_path": found["path"], "preset": preset_name, "resize_mode": resize_name,
		"anchors": _edges(control, "anchor_"), "offsets": _edges(control, "offset_"),
	}
	if in_container:
		result["warnings"] = ["The parent is a Container: it places its children itself and overrides these anchors"]
	return ToolkitSuccess.ok(result)


## {"value": {edge: number}} or {"error": message}.
static func _margins(value: Variant) -> Dictionary:
	if not value is Dictionary:
		return {"error": "margins must be an object like {left, top, right, bottom}"}
	var unknown := Params.unknown_keys_message(value, EDGES, "margins")
	if not unknown.is_empty():
		return {"error": unknown, "hint": Params.unknown_keys_hint(value, EDGES)}
	for key: Variant in value:
		if not Params.is_number(value[key]):
			return {"error": "margins.%s must be a number" % key}
	return {"value": value}


## Anchors before offsets: setting an anchor moves the offset of its edge, so offsets are set last.
static func _layout(control: Control) -> Dictionary:
	var values := {}
	for prefix: String in ["anchor_", "offset_"]:
		for edge: String in EDGES:
			values[prefix + edge] = control.get(prefix + edge)
	return values


## The inspector's own layout fields (layout_mode, anchors_preset) where this Godot has them, so
## the saved scene and the inspector agree that the Control is anchored with this preset.
static func _editor_layout(control: Control) -> Dictionary:
	var values := {}
	for property: Dictionary in control.get_property_list():
		var name: String = property["name"]
		if name == "layout_mode" or name == "anchors_preset":
			values[name] = control.get(name)
	return values


static func _restore(control: Control, values: Dictionary) -> void:
	for property: String in values:
		control.set(property, values[property])


static func _edges(control: Control, prefix: String) -> Dictionary:
	var out := {}
	for edge: String in EDGES:
		out[edge] = control.get(prefix + edge)
	return out
