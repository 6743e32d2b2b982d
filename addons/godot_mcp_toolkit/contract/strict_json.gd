@tool
extends RefCounted
## JSON text valid for any JSON reader (a frame, or JSON carried inside a string). Godot's JSON.stringify leaves the
## control characters U+0001-U+001F other than \b \t \n \f \r raw inside strings and writes
## U+000B as "\v"; JSON allows neither, and a strict reader (the bridge's, Python's json)
## drops such a frame, so the request it answers never gets a reply. A key name of an old
## project (keycode 16777221 reads "Ctrl+" followed by U+0005) is enough. Pure; runtime-safe.

## An escaped backslash (kept, so the "v" after it is not read as "\v"), "\v", or a raw
## control character; matched left to right, so each escape is seen from its backslash.
const _PATTERN := "\\\\\\\\|\\\\v|[\\x{01}-\\x{1f}]"

static var _unsafe: RegEx = null


## JSON.stringify(value, "", sort_keys) with every control character as a \u00XX escape.
static func stringify(value: Variant, sort_keys: bool = false) -> String:
	var text := JSON.stringify(value, "", sort_keys)
	if _unsafe == null:
		_unsafe = RegEx.create_from_string(_PATTERN)
	var found := _unsafe.search_all(text)
	if found.is_empty():
		return text
	var parts := PackedStringArray()
	var done := 0
	for match: RegExMatch in found:
		var piece := match.get_string()
		if piece == "\\\\":
			continue
		parts.append(text.substr(done, match.get_start() - done))
		parts.append("\\u%04x" % (0x0b if piece == "\\v" else piece.unicode_at(0)))
		done = match.get_end()
	parts.append(text.substr(done))
	return "".join(parts)
