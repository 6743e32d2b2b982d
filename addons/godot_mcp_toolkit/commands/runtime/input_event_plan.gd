@tool
extends RefCounted
## input.simulate, step 1: turns one event spec {event_type, event_data, delay_before_ms,
## delay_after_ms} into a plan of engine InputEvents, or a clear INVALID_PARAMS naming the event
## and field. The whole batch is planned before anything is sent, so bad input sends nothing.
## RUNTIME-REACHABLE.
##
## event_data per event_type (positions are game-window pixels, {x, y}):
##   key           keycode (int or a name: "A", "Enter", "Space", "Left"), pressed (omit = press
##                 then release), shift, ctrl, alt, meta, echo, unicode (int)
##   mouse_button  button_index (int or left|right|middle|wheel_up|wheel_down|wheel_left|
##                 wheel_right|xbutton1|xbutton2), position, pressed (omit = both), double_click
##   mouse_motion  position, relative (default: from the last position), button_mask (int)
##   action        action (an InputMap action), pressed (omit = both), strength (0..1)
##   click         position, button_index (default left), double_click: move, press, release
##   click_node    node_path (a Control, Node2D or Node3D seen by the current camera), button_index
##   send_text     text, node_path (a Control to focus first; default: the focused one), submit
##
## Plan: {index, event_type, delay_before_ms, delay_after_ms, events: Array[InputEvent]}, "tap"
## for a key or action pressed and released at once, plus, for
## click_node, {node, button_index, double_click} (its position is taken when it is sent) and, for
## send_text, {text, submit, target}.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const Params := preload("res://addons/godot_mcp_toolkit/contract/params.gd")
const NodeLookup := preload("res://addons/godot_mcp_toolkit/scene_tree/node_lookup.gd")

const EVENT_TYPES := ["key", "mouse_button", "mouse_motion", "action", "click", "click_node", "send_text"]
const SPEC_KEYS := ["event_type", "event_data", "delay_before_ms", "delay_after_ms"]
## What event_data holds per event_type (the table above); any other key is refused, not ignored.
const DATA_KEYS := {
	"key": ["keycode", "pressed", "shift", "ctrl", "alt", "meta", "echo", "unicode"],
	"mouse_button": ["button_index", "position", "pressed", "double_click"],
	"mouse_motion": ["position", "relative", "button_mask"],
	"action": ["action", "pressed", "strength"],
	"click": ["position", "button_index", "double_click"],
	"click_node": ["node_path", "button_index", "double_click"],
	"send_text": ["text", "node_path", "submit"],
}
## One delay may not exceed this; input_commands.gd also bounds the batch's sum.
const MAX_DELAY_MS := 25000
const BUTTONS := {
	"left": MOUSE_BUTTON_LEFT, "right": MOUSE_BUTTON_RIGHT, "middle": MOUSE_BUTTON_MIDDLE,
	"wheel_up": MOUSE_BUTTON_WHEEL_UP, "wheel_down": MOUSE_BUTTON_WHEEL_DOWN,
	"wheel_left": MOUSE_BUTTON_WHEEL_LEFT, "wheel_right": MOUSE_BUTTON_WHEEL_RIGHT,
	"xbutton1": MOUSE_BUTTON_XBUTTON1, "xbutton2": MOUSE_BUTTON_XBUTTON2,
}


## {"plan": Dictionary} or {"error": envelope}. `pointer` is the mouse position the batch has
## reached so far (a motion's default `relative` is measured from it); it is updated in place.
static func build(spec: Variant, index: int, root: Node, pointer: Array) -> Dictionary:
	if not spec is Dictionary:
		return _bad(index, "", "each event must be an object {event_type, event_data, ...}")
	var unknown := Params.reject_unknown_keys(spec, SPEC_KEYS, "event %d" % index)
	if not unknown.is_empty():
		return {"error": unknown}
	var kind: Variant = spec.get("event_type")
	if not (kind is String and kind in EVENT_TYPES):
		return _bad(index, "event_type", "must be one of %s" % ", ".join(PackedStringArray(EVENT_TYPES)))
	var data: Variant = spec.get("event_data", {})
	if not data is Dictionary:
		return _bad(index, "event_data", "must be an object")
	var unknown_data := Params.reject_unknown_keys(data, DATA_KEYS[kind], "event %d: event_data of a %s event" % [
		index, kind])
	if not unknown_data.is_empty():
		return {"error": unknown_data}
	var plan := {"index": index, "event_type": kind, "events": []}
	for key: String in ["delay_before_ms", "delay_after_ms"]:
		var delay: Variant = spec.get(key, 0)
		if not (Params.is_whole_number(delay) and int(delay) >= 0 and int(delay) <= MAX_DELAY_MS):
			return _bad(index, key, "must be a whole number of milliseconds from 0 to %d" % MAX_DELAY_MS)
		plan[key] = int(delay)
	var built := _build_kind(kind, data, index, root, pointer, plan)
	return built if built.has("error") else {"plan": plan}


static func _build_kind(kind: String, data: Dictionary, index: int, root: Node, pointer: Array,
		plan: Dictionary) -> Dictionary:
	match kind:
		"key":
			return _key(data, index, plan)
		"mouse_button":
			return _mouse_button(data, index, pointer, plan)
		"mouse_motion":
			return _mouse_motion(data, index, pointer, plan)
		"action":
			return _action(data, index, plan)
		"click":
			var at := _position(data, "position", index, true)
			if at.has("error"):
				return at
			var press := _press(data, index)
			if press.has("error"):
				return press
			plan["events"] = click_events(at["value"], pointer[0], press["button"], press["double"])
			pointer[0] = at["value"]
			return {}
		"click_node":
			return _click_node(data, index, root, plan)
	return _send_text(data, index, root, plan)


## A move to `at`, then press and release of `button` there.
static func click_events(at: Vector2, from: Vector2, button: int, double_click: bool) -> Array:
	var motion := InputEventMouseMotion.new()
	motion.position = at
	motion.global_position = at
	motion.relative = at - from
	var events: Array = [motion]
	for pressed: bool in [true, false]:
		events.append(_button_event(button, at, pressed, double_click and pressed))
	return events


static func _key(data: Dictionary, index: int, plan: Dictionary) -> Dictionary:
	var code := _keycode(data.get("keycode"))
	if code == KEY_NONE:
		return _bad(index, "keycode", "must be a key code or a key name such as \"A\", \"Enter\", \"Space\", \"Left\"")
	var flags := {}
	for key: String in ["shift", "ctrl", "alt", "meta", "echo"]:
		var value: Variant = data.get(key, false)
		if not value is bool:
			return _bad(index, key, "must be true or false")
		flags[key] = value
	var unicode: Variant = data.get("unicode", _default_unicode(data.get("keycode"), flags["shift"]))
	if not (Params.is_whole_number(unicode) and int(unicode) >= 0):
		return _bad(index, "unicode", "must be a character code (whole number)")
	var states := _press_states(data, index)
	if states.has("error"):
		return states
	plan["tap"] = (states["value"] as Array).size() == 2
	for pressed: bool in states["value"]:
		var event := InputEventKey.new()
		event.keycode = code
		event.physical_keycode = code
		event.pressed = pressed
		event.echo = flags["echo"]
		event.unicode = int(unicode) if pressed else 0
		event.shift_pressed = flags["shift"]
		event.ctrl_pressed = flags["ctrl"]
		event.alt_pressed = flags["alt"]
		event.meta_pressed = flags["meta"]
		plan["events"].append(event)
	return {}


static func _mouse_button(data: Dictionary, index: int, pointer: Array, plan: Dictionary) -> Dictionary:
	var at := _position(data, "position", index, false)
	if at.has("error"):
		return at
	var press := _press(data, index)
	if press.has("error"):
		return press
	var states := _press_states(data, index)
	if states.has("error"):
		return states
	var where: Vector2 = at["value"] if at.has("value") else pointer[0]
	for pressed: bool in states["value"]:
		plan["events"].append(_button_event(press["button"], where, pressed, press["double"] and pressed))
	pointer[0] = where
	return {}


static func _mouse_motion(data: Dictionary, index: int, pointer: Array, plan: Dictionary) -> Dictionary:
	var at := _position(data, "position", index, true)
	if at.has("error"):
		return at
	var relative := _position(data, "relative", index, false)
	if relative.has("error"):
		return relative
	var mask: Variant = data.get("button_mask", 0)
	if not (Params.is_whole_number(mask) and int(mask) >= 0):
		return _bad(index, "button_mask", "must be a whole number (1 left, 2 right, 4 middle; add to combine)")
	var event := InputEventMouseMotion.new()
	event.position = at["value"]
	event.global_position = at["value"]
	event.relative = relative["value"] if relative.has("value") else at["value"] - pointer[0]
	event.button_mask = int(mask)
	plan["events"].append(event)
	pointer[0] = at["value"]
	return {}


static func _action(data: Dictionary, index: int, plan: Dictionary) -> Dictionary:
	var action: Variant = data.get("action")
	if not action is String or (action as String).is_empty():
		return _bad(index, "action", "is required: the name of an InputMap action")
	if not InputMap.has_action(action):
		var names := PackedStringArray()
		for name: StringName in InputMap.get_actions():
			if not String(name).begins_with("ui_"):
				names.append(String(name))
		var listing := ", ".join(names) if not names.is_empty() else "none"
		return {"error": ToolkitError.fail("INVALID_PARAMS", "event %d: no input action '%s'" % [index, action],
			"The game's own actions: %s (plus the built-in ui_* ones)." % listing)}
	var strength: Variant = data.get("strength", 1.0)
	if not (Params.is_number(strength) and float(strength) >= 0.0 and float(strength) <= 1.0):
		return _bad(index, "strength", "must be a number from 0 to 1")
	var states := _press_states(data, index)
	if states.has("error"):
		return states
	plan["tap"] = (states["value"] as Array).size() == 2
	for pressed: bool in states["value"]:
		var event := InputEventAction.new()
		event.action = action
		event.pressed = pressed
		event.strength = float(strength) if pressed else 0.0
		plan["events"].append(event)
	return {}


static func _click_node(data: Dictionary, index: int, root: Node, plan: Dictionary) -> Dictionary:
	var path: Variant = data.get("node_path")
	if not path is String or (path as String).is_empty():
		return _bad(index, "node_path", "is required: the node to click, relative to the scene root")
	var found := NodeLookup.find(root, path)
	if not found["ok"]:
		return found
	var node: Node = found["node"]
	if not (node is Control or node is Node2D or node is Node3D):
		return _bad(index, "node_path", "'%s' is a %s: only a Control, Node2D or Node3D has a place to click" % [
			path, node.get_class()])
	var press := _press(data, index)
	if press.has("error"):
		return press
	plan["node"] = node
	plan["node_path"] = NodeLookup.path_of(root, node)
	plan["button_index"] = press["button"]
	plan["double_click"] = press["double"]
	return {}


static func _send_text(data: Dictionary, index: int, root: Node, plan: Dictionary) -> Dictionary:
	var text: Variant = data.get("text")
	if not text is String or (text as String).is_empty():
		return _bad(index, "text", "is required: the characters to type")
	var submit: Variant = data.get("submit", false)
	if not submit is bool:
		return _bad(index, "submit", "must be true or false (true presses Enter after the text)")
	plan["text"] = text
	plan["submit"] = submit
	plan["target"] = null
	var path: Variant = data.get("node_path")
	if path == null:
		return {}
	if not path is String:
		return _bad(index, "node_path", "must be a string")
	var found := NodeLookup.find(root, path)
	if not found["ok"]:
		return found
	if not found["node"] is Control:
		return _bad(index, "node_path", "'%s' is a %s: only a Control can take typed text" % [
			path, (found["node"] as Node).get_class()])
	plan["target"] = found["node"]
	return {}


# --- fields --------------------------------------------------------------------------------------

## {"button", "double"}: the button_index and double_click every press names, or the error.
static func _press(data: Dictionary, index: int) -> Dictionary:
	var button := _button(data, index)
	if button.has("error"):
		return button
	var double: Variant = data.get("double_click", false)
	if not double is bool:
		return _bad(index, "double_click", "must be true or false")
	return {"button": button["value"], "double": double}


static func _button_event(button: int, at: Vector2, pressed: bool, double_click: bool) -> InputEventMouseButton:
	var event := InputEventMouseButton.new()
	event.button_index = button as MouseButton
	event.position = at
	event.global_position = at
	event.pressed = pressed
	event.double_click = double_click
	if pressed and button <= MOUSE_BUTTON_MIDDLE:
		event.button_mask = 1 << (button - 1)
	return event


## [true, false] when `pressed` is omitted (a full press), else just the one state.
static func _press_states(data: Dictionary, index: int) -> Dictionary:
	if not data.has("pressed"):
		return {"value": [true, false]}
	if not data["pressed"] is bool:
		return _bad(index, "pressed", "must be true or false (omit it for a press and release)")
	return {"value": [data["pressed"]]}


## {"value": Vector2}, {} when optional and absent, or {"error"}.
static func _position(data: Dictionary, key: String, index: int, required: bool) -> Dictionary:
	var value: Variant = data.get(key)
	if value == null:
		return _bad(index, key, "is required: {\"x\": 10, \"y\": 20}") if required else {}
	if value is Dictionary and Params.is_number(value.get("x")) and Params.is_number(value.get("y")):
		var unknown := Params.reject_unknown_keys(value, ["x", "y", "type"], "event %d: %s" % [index, key])
		if not unknown.is_empty():
			return {"error": unknown}
		return {"value": Vector2(float(value["x"]), float(value["y"]))}
	return _bad(index, key, "must be {\"x\": number, \"y\": number}")


static func _button(data: Dictionary, index: int) -> Dictionary:
	var value: Variant = data.get("button_index", "left")
	if value is String and BUTTONS.has((value as String).to_lower()):
		return {"value": BUTTONS[(value as String).to_lower()]}
	if Params.is_whole_number(value) and int(value) >= MOUSE_BUTTON_LEFT and int(value) <= MOUSE_BUTTON_XBUTTON2:
		return {"value": int(value)}
	return _bad(index, "button_index", "must be 1..9 or one of %s" % ", ".join(PackedStringArray(BUTTONS.keys())))


static func _keycode(value: Variant) -> int:
	if Params.is_whole_number(value):
		return int(value)
	if value is String and not (value as String).is_empty():
		return OS.find_keycode_from_string(value)
	return KEY_NONE


## A single printable character named as the key types itself (letters follow shift).
static func _default_unicode(value: Variant, shift: bool) -> int:
	if not value is String or (value as String).length() != 1:
		return 0
	var text := value as String
	return (text.to_upper() if shift else text.to_lower()).unicode_at(0)


static func _bad(index: int, field: String, message: String) -> Dictionary:
	var where := "event %d" % index if field.is_empty() else "event %d: %s" % [index, field]
	return {"error": ToolkitError.fail("INVALID_PARAMS", "%s %s" % [where, message])}
