@tool
extends RefCounted
## What a shader's text says before the engine reads it: its shader_type declaration, its
## #include paths, its uniform declarations as written, and where a quoted name sits on a line.
## Every rewrite here keeps each line on its line, so the engine's line numbers stay the file's.
## Pure; runtime-safe.

const ResPaths := preload("res://addons/godot_mcp_toolkit/base/res_paths.gd")

## The shader types the engine's shading language knows (a renderer may still refuse one).
const SHADER_TYPES := ["canvas_item", "spatial", "particles", "sky", "fog"]

const DECLARATION := "^shader_type\\s+([A-Za-z_]\\w*)\\s*;"
const INCLUDE := "(?m)^([ \\t]*#[ \\t]*include[ \\t]*)\"([^\"\\n]+)\""
## uniform [precision] <type> <name>[[N]] [: hints] [= default];  (a global or instance uniform
## is no material parameter, so it is matched only to be told apart)
const UNIFORM := "(?:^|[;{}\\s])((?:global|instance)\\s+)?uniform\\s+(?:(?:lowp|mediump|highp)\\s+)?" \
	+ "([A-Za-z_]\\w*)\\s+([A-Za-z_]\\w*)\\s*(\\[\\s*\\d*\\s*\\])?\\s*(?::\\s*([^=;]+?))?\\s*(?:=[^;]*)?;"
const QUOTED := "'([^']+)'|\"([^\"]+)\""

static var _patterns := {}


## {"type", "line", "end"} for the code's `shader_type <type>;` when it is the first statement
## (comments, blank lines and preprocessor lines may come before it); "end" is the offset just
## past its ";", and "directive_line" the line of the first preprocessor line before it, if any.
## {} when there is none.
static func declaration(text: String) -> Dictionary:
	var start := _first_statement(text)
	var at: int = start["at"]
	if at < 0:
		return {}
	var found := _pattern(DECLARATION).search(text.substr(at))
	if found == null:
		return {}
	var declared := {"type": found.get_string(1), "line": text.substr(0, at).count("\n") + 1,
		"end": at + found.get_end()}
	if start["directive"] >= 0:
		declared["directive_line"] = text.substr(0, start["directive"]).count("\n") + 1
	return declared


## {"at": where the first statement starts, past whitespace, // and /* */ comments and # lines
## (-1 when the text holds nothing else, or ends inside a comment), "directive": where the first
## # line before it starts (-1 when none)}.
static func _first_statement(text: String) -> Dictionary:
	var at := 0
	var directive := -1
	while at < text.length():
		var ch := text[at]
		var is_directive := ch == "#" and _line_start(text, at)
		if ch in [" ", "\t", "\n", "\r"]:
			at += 1
		elif text.substr(at, 2) == "//" or is_directive:
			if is_directive and directive < 0:
				directive = at
			var eol := text.find("\n", at)
			at = text.length() if eol < 0 else eol + 1
		elif text.substr(at, 2) == "/*":
			var close := text.find("*/", at + 2)
			if close < 0:
				return {"at": -1, "directive": directive}
			at = close + 2
		else:
			return {"at": at, "directive": directive}
	return {"at": -1, "directive": directive}


static func _line_start(text: String, at: int) -> bool:
	var line_start := text.rfind("\n", at - 1) + 1 if at > 0 else 0
	return text.substr(line_start, at - line_start).strip_edges().is_empty()


## `text` with a `shader_type <type>;` put in front of its first line (same line count).
static func with_declaration(text: String, type: String) -> String:
	return "shader_type %s; %s" % [type, text]


## `text` with `extra` inserted right after its declaration's ";", on the same line.
static func after_declaration(text: String, found: Dictionary, extra: String) -> String:
	var end: int = found["end"]
	return text.substr(0, end) + extra + text.substr(end)


## `text` with each relative #include made a res:// path against `folder` (the preprocessor
## resolves them against the shader's own path, which a copy compiled without one lacks).
static func absolute_includes(text: String, folder: String) -> String:
	var out := ""
	var cursor := 0
	for found: RegExMatch in _pattern(INCLUDE).search_all(text):
		out += text.substr(cursor, found.get_start() - cursor) + found.get_string(1) \
			+ "\"%s\"" % ResPaths.resolved(found.get_string(2), folder)
		cursor = found.get_end()
	return out + text.substr(cursor)


## The res:// paths `text` (a shader file in `folder`) includes.
static func include_paths(text: String, folder: String) -> PackedStringArray:
	var paths := PackedStringArray()
	for found: RegExMatch in _pattern(INCLUDE).search_all(text):
		paths.append(ResPaths.resolved(found.get_string(2), folder))
	return paths


## name -> {"type" (as written, "[N]" added for an array), "hint" (the text after ":", "" when
## none)} for every material uniform `text` declares, comments left out.
static func uniforms(text: String) -> Dictionary:
	var found := {}
	for declared: RegExMatch in _pattern(UNIFORM).search_all(without_comments(text)):
		if not declared.get_string(1).is_empty():
			continue
		var name := declared.get_string(3)
		var array := declared.get_string(4).replace(" ", "").replace("\t", "")
		found[name] = {"type": declared.get_string(2) + array, "hint": declared.get_string(5).strip_edges()}
	return found


## `text` with every comment blanked out (newlines kept, so offsets and lines still match).
static func without_comments(text: String) -> String:
	var out := text
	var at := 0
	while at < out.length():
		var two := out.substr(at, 2)
		if two == "//":
			var eol := out.find("\n", at)
			var stop := out.length() if eol < 0 else eol
			out = out.substr(0, at) + " ".repeat(stop - at) + out.substr(stop)
			at = stop
		elif two == "/*":
			var close := out.find("*/", at + 2)
			var stop := out.length() if close < 0 else close + 2
			var blanked := ""
			for ch: String in out.substr(at, stop - at):
				blanked += "\n" if ch == "\n" else " "
			out = out.substr(0, at) + blanked + out.substr(stop)
			at = stop
		else:
			at += 1
	return out


## The 1-based column of what an engine message quotes ('ALBEDO', "vec4(float,float)"), found
## once on `line_text`; 0 when the message quotes nothing or it is not there exactly once.
static func column(line_text: String, message: String) -> int:
	for quoted: RegExMatch in _pattern(QUOTED).search_all(message):
		var token := quoted.get_string(1) if not quoted.get_string(1).is_empty() else quoted.get_string(2)
		var name := _pattern("^[A-Za-z_]\\w*").search(token)
		var needle := name.get_string() if name != null else token
		var at := _only_place(line_text, needle, name != null)
		if at >= 0:
			return at + 1
	return 0


## Where `needle` occurs in `text` when it occurs exactly once (as a whole word when `word`), else -1.
static func _only_place(text: String, needle: String, word: bool) -> int:
	var places: Array[int] = []
	if word:
		for found: RegExMatch in RegEx.create_from_string("\\b%s\\b" % needle).search_all(text):
			places.append(found.get_start())
	else:
		var at := text.find(needle)
		while at >= 0:
			places.append(at)
			at = text.find(needle, at + 1)
	return places[0] if places.size() == 1 else -1


## Line `number` (1-based) of `text`, "" past its end.
static func line_of(text: String, number: int) -> String:
	var lines := text.split("\n")
	return lines[number - 1] if number >= 1 and number <= lines.size() else ""


static func _pattern(source: String) -> RegEx:
	if not _patterns.has(source):
		_patterns[source] = RegEx.create_from_string(source)
	return _patterns[source]
