@tool
extends RefCounted
## JSON text to data without losing integers. Pure; no Editor* names.
##
## Godot's JSON parser turns every number into a float, and from 4.4 on JSON.stringify writes a
## whole float with ".0", so a file read, merged and written back would come out with `0`
## rewritten as `0.0` in entries that are not ours. parse() re-reads the
## number literals from the text, in document order, and gives back an int wherever the literal
## has no fraction or exponent (exactly, even past 2^53); literals with one stay floats. If the
## literals cannot be matched to the parsed values one for one (a duplicated key hides a value),
## the engine's floats are returned as they are rather than guessed at.

const NUMBER_CHARS := "0123456789+-.eE"
## int64 range as a float: past it a whole literal cannot be an int.
const INT_LIMIT := 9.2e18


## {"data": Variant, "error": String}; error is "" on success, else says where the text is wrong.
static func parse(text: String) -> Dictionary:
	var json := JSON.new()
	if json.parse(text) != OK:
		# The engine counts lines from 0; people count from 1.
		var line := json.get_error_line() + 1
		return {"data": null, "error": "invalid JSON at line %d: %s" % [line, json.get_error_message()]}
	var literals := number_literals(text)
	var cursor := {"at": 0, "ok": true}
	var restored: Variant = _restore(json.data, literals, cursor)
	if not cursor["ok"] or cursor["at"] != literals.size():
		return {"data": json.data, "error": ""}
	return {"data": restored, "error": ""}


## Every number literal outside strings, in the order it appears.
static func number_literals(text: String) -> PackedStringArray:
	var found := PackedStringArray()
	var i := 0
	var size := text.length()
	while i < size:
		var c := text[i]
		if c == "\"":
			i = _skip_string(text, i + 1)
		elif c == "-" or (c >= "0" and c <= "9"):
			var start := i
			while i < size and NUMBER_CHARS.contains(text[i]):
				i += 1
			found.append(text.substr(start, i - start))
		else:
			i += 1
	return found


## Index just past the string whose body starts at `i`.
static func _skip_string(text: String, i: int) -> int:
	while i < text.length():
		var c := text[i]
		if c == "\\":
			i += 2
		elif c == "\"":
			return i + 1
		else:
			i += 1
	return i


static func _restore(value: Variant, literals: PackedStringArray, cursor: Dictionary) -> Variant:
	if value is Dictionary:
		var out := {}
		for key: Variant in value:
			out[key] = _restore(value[key], literals, cursor)
		return out
	if value is Array:
		var items := []
		for item: Variant in value:
			items.append(_restore(item, literals, cursor))
		return items
	if value is float:
		return _number(value, literals, cursor)
	return value


## The number for the next literal, checked against the engine's float for that position.
static func _number(parsed: float, literals: PackedStringArray, cursor: Dictionary) -> Variant:
	var at: int = cursor["at"]
	if at >= literals.size():
		cursor["ok"] = false
		return parsed
	cursor["at"] = at + 1
	var literal := literals[at]
	var whole := not (literal.contains(".") or literal.contains("e") or literal.contains("E"))
	if whole and absf(parsed) < INT_LIMIT:
		var exact := literal.to_int()
		if is_equal_approx(float(exact), parsed):
			return exact
	elif is_equal_approx(literal.to_float(), parsed):
		return parsed
	cursor["ok"] = false
	return parsed
