@tool
extends RefCounted
## InputEvents from the JSON shapes input_map.event takes ({type: key|mouse_button|joypad_button|
## joypad_motion, ...}) and back, so a bound event can be found again and shown. Pure; runtime-safe.

const Params := preload("res://addons/godot_mcp_toolkit/contract/params.gd")

const TYPES := ["key", "mouse_button", "joypad_button", "joypad_motion"]
const MOUSE_BUTTONS := {"LEFT": MOUSE_BUTTON_LEFT, "RIGHT": MOUSE_BUTTON_RIGHT, "MIDDLE": MOUSE_BUTTON_MIDDLE,
	"WHEEL_UP": MOUSE_BUTTON_WHEEL_UP, "WHEEL_DOWN": MOUSE_BUTTON_WHEEL_DOWN,
	"WHEEL_LEFT": MOUSE_BUTTON_WHEEL_LEFT, "WHEEL_RIGHT": MOUSE_BUTTON_WHEEL_RIGHT,
	"XBUTTON1": MOUSE_BUTTON_XBUTTON1, "XBUTTON2": MOUSE_BUTTON_XBUTTON2}
const MODIFIERS := ["shift", "ctrl", "alt", "meta"]
## The keys each event type reads besides "type" and "text" (what to_json adds, so a listed
## event can be passed back as it is); any other key is refused, not ignored.
const KEYS := {"key": ["keycode", "key", "physical", "shift", "ctrl", "alt", "meta"],
	"mouse_button": ["button_index"], "joypad_button": ["button_index"], "joypad_motion": ["axis", "axis_value"]}
const EXAMPLES := {"key": "{\"type\": \"key\", \"keycode\": \"SPACE\", \"ctrl\": true}",
	"mouse_button": "{\"type\": \"mouse_button\", \"button_index\": \"LEFT\"}",
	"joypad_button": "{\"type\": \"joypad_button\", \"button_index\": 0}",
	"joypad_motion": "{\"type\": \"joypad_motion\", \"axis\": 0, \"axis_value\": 1}"}


## {"ok": true, "event": InputEvent} or {"ok": false, "error": text, "hint": text}.
static func from_json(spec: Variant) -> Dictionary:
	if not spec is Dictionary:
		return _bad("event must be an object like %s" % EXAMPLES["key"], "key")
	var type: Variant = spec.get("type")
	if not type in TYPES:
		return {"ok": false, "error": "event.type must be one of %s, got %s" % [", ".join(PackedStringArray(TYPES)),
			JSON.stringify(type)], "hint": "For example %s." % EXAMPLES["key"]}
	var accepted: Array = ["type", "text"] + KEYS[type]
	var unknown := Params.unknown_keys_message(spec, accepted, "A %s event" % type)
	if not unknown.is_empty():
		return {"ok": false, "error": unknown, "hint": Params.unknown_keys_hint(spec, accepted)}
	match type:
		"key":
			return _key(spec)
		"mouse_button":
			return _mouse_button(spec)
		"joypad_button":
			return _joypad_button(spec)
	return _joypad_motion(spec)


## The JSON shape of a bound event (what from_json reads back), with its readable text.
static func to_json(event: InputEvent) -> Dictionary:
	var shape := {}
	if event is InputEventKey:
		var key := event as InputEventKey
		var physical := key.keycode == KEY_NONE and key.physical_keycode != KEY_NONE
		shape = {"type": "key", "keycode": OS.get_keycode_string(key.physical_keycode if physical else key.keycode)}
		if physical:
			shape["physical"] = true
		for modifier: String in MODIFIERS:
			if key.get("%s_pressed" % modifier):
				shape[modifier] = true
	elif event is InputEventMouseButton:
		shape = {"type": "mouse_button", "button_index": int((event as InputEventMouseButton).button_index)}
	elif event is InputEventJoypadButton:
		shape = {"type": "joypad_button", "button_index": int((event as InputEventJoypadButton).button_index)}
	elif event is InputEventJoypadMotion:
		var motion := event as InputEventJoypadMotion
		shape = {"type": "joypad_motion", "axis": int(motion.axis), "axis_value": signf(motion.axis_value)}
	else:
		shape = {"type": event.get_class()}
	shape["text"] = event.as_text()
	return shape


## Whether two events are the same binding (same shape, ignoring the text).
static func same(a: InputEvent, b: InputEvent) -> bool:
	var left := to_json(a)
	var right := to_json(b)
	left.erase("text")
	right.erase("text")
	return left == right


static func _key(spec: Dictionary) -> Dictionary:
	var name: Variant = spec.get("keycode", spec.get("key"))
	if not name is String or (name as String).is_empty():
		return _bad("a key event needs keycode, a key name like \"SPACE\", \"W\" or \"Ctrl+S\"", "key")
	var code := OS.find_keycode_from_string(name)
	if code == KEY_NONE:
		return _bad("%s is not a key name Godot knows (try \"SPACE\", \"ENTER\", \"A\", \"F1\")" % name, "key")
	var event := InputEventKey.new()
	var modifiers := code & KEY_MODIFIER_MASK
	var key: Key = code & KEY_CODE_MASK
	if spec.get("physical", false) == true:
		event.physical_keycode = key
	else:
		event.keycode = key
	event.shift_pressed = spec.get("shift", false) == true or modifiers & KEY_MASK_SHIFT != 0
	event.ctrl_pressed = spec.get("ctrl", false) == true or modifiers & KEY_MASK_CTRL != 0
	event.alt_pressed = spec.get("alt", false) == true or modifiers & KEY_MASK_ALT != 0
	event.meta_pressed = spec.get("meta", false) == true or modifiers & KEY_MASK_META != 0
	return {"ok": true, "event": event}


static func _mouse_button(spec: Dictionary) -> Dictionary:
	var index: Variant = spec.get("button_index", "LEFT")
	if index is String and MOUSE_BUTTONS.has((index as String).to_upper()):
		index = MOUSE_BUTTONS[(index as String).to_upper()]
	if not _whole(index) or int(index) < 1 or int(index) > 9:
		return _bad("mouse_button needs button_index 1-9 or one of %s" % ", ".join(PackedStringArray(MOUSE_BUTTONS.keys())),
			"mouse_button")
	var event := InputEventMouseButton.new()
	event.button_index = int(index) as MouseButton
	return {"ok": true, "event": event}


static func _joypad_button(spec: Dictionary) -> Dictionary:
	var index: Variant = spec.get("button_index")
	if not _whole(index) or int(index) < 0 or int(index) >= JOY_BUTTON_MAX:
		return _bad("joypad_button needs button_index 0-%d (0 = A / cross)" % (JOY_BUTTON_MAX - 1), "joypad_button")
	var event := InputEventJoypadButton.new()
	event.button_index = int(index) as JoyButton
	return {"ok": true, "event": event}


static func _joypad_motion(spec: Dictionary) -> Dictionary:
	var axis: Variant = spec.get("axis")
	var value: Variant = spec.get("axis_value", 1.0)
	if not _whole(axis) or int(axis) < 0 or int(axis) >= JOY_AXIS_MAX:
		return _bad("joypad_motion needs axis 0-%d (0 = left stick x)" % (JOY_AXIS_MAX - 1), "joypad_motion")
	if not (value is float or value is int) or not float(value) in [-1.0, 1.0]:
		return _bad("joypad_motion axis_value must be -1 or 1 (the direction)", "joypad_motion")
	var event := InputEventJoypadMotion.new()
	event.axis = int(axis) as JoyAxis
	event.axis_value = float(value)
	return {"ok": true, "event": event}


static func _whole(value: Variant) -> bool:
	return value is int or (value is float and is_equal_approx(value, roundf(value)))


## A refusal whose hint is an example event of `type`.
static func _bad(text: String, type: String) -> Dictionary:
	return {"ok": false, "error": text, "hint": "For example %s." % EXAMPLES[type]}
