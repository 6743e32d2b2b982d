@tool
extends RefCounted
## Parameter checks shared by every handler (contract C3, C13). Pure; runtime-safe.
##
## JSON has one number type, so a whole float (3.0) is accepted wherever an int is expected.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")

## The score (ranked()) from which a candidate counts as close.
const CLOSE_ENOUGH := 0.5


## {} when every name in `required` is present and not null, else an INVALID_PARAMS envelope
## naming all the missing ones at once (one round trip instead of one per missing name).
static func require(parameters: Dictionary, required: Array) -> Dictionary:
	var missing := PackedStringArray()
	for name: Variant in required:
		if parameters.get(name) == null:
			missing.append(str(name))
	if missing.is_empty():
		return {}
	return ToolkitError.fail("INVALID_PARAMS", "Missing required parameter(s): %s" % ", ".join(missing))


## True for an int, or a float with no fractional part.
static func is_whole_number(value: Variant) -> bool:
	if value is int:
		return true
	return value is float and is_finite(value) and (value as float) == floorf(value)


## True for an int or a finite float.
static func is_number(value: Variant) -> bool:
	return value is int or (value is float and is_finite(value))


## "" when every key of `value` is in `accepted`, else a message naming the unknown keys (and
## what `label` accepts). A nested object's misspelt key would otherwise be dropped and its
## default used in silence ({"atlas": [1, 0]} for atlas_x/atlas_y paints tile 0,0).
static func unknown_keys_message(value: Dictionary, accepted: Array, label: String) -> String:
	var unknown := PackedStringArray()
	for key: Variant in value:
		if not key in accepted:
			unknown.append(str(key))
	if unknown.is_empty():
		return ""
	return "%s has unknown key%s %s (accepted: %s)" % [label, "s" if unknown.size() > 1 else "",
		", ".join(Array(unknown).map(func(key: String) -> String: return "'%s'" % key)),
		", ".join(PackedStringArray(accepted))]


## {} or the INVALID_PARAMS envelope for unknown keys in `value`, with the closest accepted key
## as the hint.
static func reject_unknown_keys(value: Dictionary, accepted: Array, label: String) -> Dictionary:
	var message := unknown_keys_message(value, accepted, label)
	if message.is_empty():
		return {}
	return ToolkitError.fail("INVALID_PARAMS", message, unknown_keys_hint(value, accepted))


## "Did you mean atlas_x?" for each unknown key with a close accepted one, else the accepted list.
static func unknown_keys_hint(value: Dictionary, accepted: Array) -> String:
	var guesses := PackedStringArray()
	for key: Variant in value:
		if key in accepted:
			continue
		var close := closest(str(key), accepted)
		if not close.is_empty():
			guesses.append("'%s' for '%s'" % [close, key])
	if guesses.is_empty():
		return "Use only the accepted keys: %s." % ", ".join(PackedStringArray(accepted))
	return "Did you mean %s?" % ", ".join(guesses)


## The entry of `candidates` most like `word`, or "" when none is close (ranked()).
static func closest(word: String, candidates: Array) -> String:
	var best := ranked(word, candidates, 1)
	return best[0] if not best.is_empty() else ""


## Up to `limit` entries of `candidates` close to `word`, closest first (ties by name): the one
## "did you mean" ranking for keys, properties, items and class names. Case-insensitive; the same
## name in another case ("Sprite2d") ranks first; one spelled inside the other ("ctrl" in
## "control", "atlas" in "atlas_x") counts extra.
static func ranked(word: String, candidates: Array, limit: int) -> PackedStringArray:
	var wanted := word.to_lower()
	var scored: Array = []
	for candidate: Variant in candidates:
		var name := str(candidate).to_lower()
		var score := 2.0 if name == wanted else name.similarity(wanted)
		if _spelled_inside(name, wanted) or _spelled_inside(wanted, name):
			score += 0.3
		if score >= CLOSE_ENOUGH:
			scored.append([score, str(candidate)])
	scored.sort_custom(func(a: Array, b: Array) -> bool: return a[0] > b[0] or (a[0] == b[0] and a[1] < b[1]))
	var names := PackedStringArray()
	for pair: Array in scored.slice(0, limit):
		names.append(pair[1])
	return names


## True when every letter of `short` appears in `long`, in order.
static func _spelled_inside(short: String, long: String) -> bool:
	if short.is_empty():
		return false
	var at := 0
	for letter: String in long:
		if letter == short[at]:
			at += 1
			if at == short.length():
				return true
	return false
