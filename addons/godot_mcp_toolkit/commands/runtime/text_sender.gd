@tool
extends RefCounted
## input.simulate send_text: types a string as one key press per character (InputEventKey with
## its unicode) pushed into the game's viewport, so the focused Control edits its text as if a
## user typed; `submit` adds Enter. Reports which Control had focus, whether its text changed and
## what it reads now (through the secret scrubber: a typed password is not echoed back).
## RUNTIME-REACHABLE.

const Scrubber := preload("res://addons/godot_mcp_toolkit/security/scrubber.gd")
const NodeLookup := preload("res://addons/godot_mcp_toolkit/scene_tree/node_lookup.gd")


## {sent, chars_sent, focus_target, focus_source, text_changed, text_after, submitted, hint?}.
static func send(text: String, target: Control, submit: bool, root: Node) -> Dictionary:
	var viewport := root.get_viewport()
	var source := "focused"
	if target != null:
		source = "node_path"
		if is_instance_valid(target) and target.is_inside_tree():
			target.grab_focus()
			# A field inside a SubViewport takes keys from its own viewport, not the window's.
			viewport = target.get_viewport()
	var focused := viewport.gui_get_focus_owner()
	var before: Variant = _text_of(focused)
	for character: String in text:
		_push_key(viewport, character.unicode_at(0))
	if submit:
		_push_key(viewport, 0, KEY_ENTER)
	var after: Variant = _text_of(focused)
	var result := {
		"sent": text.length() * 2 + (2 if submit else 0),
		"chars_sent": text.length(),
		"submitted": submit,
		"focus_target": NodeLookup.path_of(root, focused) if focused != null and _inside(root, focused) else null,
		"focus_source": source if focused != null else "none",
		"text_changed": before != after,
		"text_after": Scrubber.scrub(str(after)) if after != null else null,
	}
	var hint := _hint(focused, target, before, after)
	if not hint.is_empty():
		result["hint"] = hint
	return result


static func _push_key(viewport: Viewport, unicode: int, keycode: Key = KEY_NONE) -> void:
	for pressed: bool in [true, false]:
		var event := InputEventKey.new()
		event.pressed = pressed
		event.unicode = unicode if pressed else 0
		var code := keycode
		if code == KEY_NONE and unicode > 0:
			code = OS.find_keycode_from_string(String.chr(unicode).to_upper()) as Key
		event.keycode = code
		event.physical_keycode = code
		viewport.push_input(event)


## The text of a LineEdit / TextEdit (anything with a String `text`); null for other Controls.
static func _text_of(control: Control) -> Variant:
	if control == null:
		return null
	var value: Variant = control.get("text")
	return value if value is String else null


static func _inside(root: Node, node: Node) -> bool:
	return node == root or root.is_ancestor_of(node)


static func _hint(focused: Control, target: Control, before: Variant, after: Variant) -> String:
	if focused == null:
		if target != null:
			return "The node could not take focus (hidden, or its focus_mode is None); the keys went to _input handlers only."
		return "No Control had focus; the keys went to _input/_unhandled_input handlers only. " \
			+ "Pass node_path to type into a field."
	if target != null and focused != target:
		return "The node did not keep focus; the text went to the focused Control instead."
	if before == null:
		return "The focused Control has no text to edit; it received the keys as input events."
	if before == after:
		return "The focused field's text did not change (read-only, not editable, or a length limit)."
	return ""
