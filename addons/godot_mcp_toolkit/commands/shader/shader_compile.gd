@tool
extends RefCounted
## Has the engine compile shader code and says what it answered. The code goes to a new Shader,
## whose code setter preprocesses it (#include, #define) and hands it to the RenderingServer: the
## project's renderer compiles it there with the compiler the game uses when it loads the shader
## (on the Compatibility renderer, WebGL2 included). Nothing of the project is touched: the copy
## is compiled without a path, its relative #includes made res:// paths (same lines). Runtime-safe.
##
## What the engine says: its shader compiler stops at the first error and prints it ("SHADER
## ERROR", with the file and line) through the error print, which only a Logger sees (Godot 4.5+,
## logs/error_capture.gd); a renderer that cannot take the shader at all (no shader_type, a type
## it lacks) prints a plain error instead, or nothing. Whether it compiled does not rest on those
## prints: a probe uniform is declared right after the shader_type (same line), and only a shader
## that compiled lists its uniforms. So every Godot 4.2+ says valid or not; before 4.5 without the
## message, which the answer then says.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const ErrorCapture := preload("res://addons/godot_mcp_toolkit/logs/error_capture.gd")
const ShaderText := preload("res://addons/godot_mcp_toolkit/commands/shader/shader_text.gd")

const PROBE := "mcp_compile_probe"
const MISSING_TYPE := "No shader_type declaration as the first statement: no renderer compiles the shader."
const UNKNOWN_TYPE := "shader_type %s is none of %s."
const NO_MESSAGE := "The renderer refused the shader without a message."
const NO_MESSAGE_BEFORE_4_5 := "The shader does not compile; Godot %s does not hand the compiler's message " \
	+ "to add-ons (4.5+ does): open it in the shader editor to see the error."
const FIRST_ERROR_HINT := "The compiler stops at its first error: fix that line and check again with shader_check."
const TYPE_HINT := "Start the shader with shader_type canvas_item, spatial, particles, sky or fog " \
	+ "(shader_check's shader_type adds it to code)."
const PREPROCESSOR_HINT := "A '#' line reached the compiler because the preprocessor refused it: a GLSL " \
	+ "directive Godot lacks (#version, #extension, #pragma), an #if without #endif, or an #include of a " \
	+ "file that is missing or does not preprocess."
const PREPROCESSOR_MARK := "Unknown character #35"
const CALIBRATION := "shader_type spatial; uniform float %s;\n" % PROBE

## Whether this engine's renderer compiles shaders at all (a headless editor's dummy renderer may
## not): null until asked.
static var _renderer_compiles: Variant = null


## True when the renderer compiles shaders, so that a shader's missing uniforms mean it did not
## compile; learnt once from a shader that cannot fail.
static func renderer_compiles() -> bool:
	if _renderer_compiles == null:
		_renderer_compiles = _build(CALIBRATION, false)["compiled"]
	return _renderer_compiles


## The refusal when renderer_compiles() is false (nothing could tell a good shader from a bad one).
static func no_compiler() -> Dictionary:
	var renderer := str(ProjectSettings.get_setting("rendering/renderer/rendering_method", ""))
	if DisplayServer.get_name() == "headless":
		renderer = "headless"
	return ToolkitError.fail("UNSUPPORTED", "This editor's renderer (%s) compiles no shaders, so none can be checked here"
		% renderer, "Run the editor with a window (not --headless) to check shaders.")


## {"valid", "errors": [{"line", "message"[, "column"][, "file"]}], "shader_type"[, "hint"]} for `text`,
## the code of the shader file at `path` ("" for code in no file). `messages` false compiles
## without listening (as before Godot 4.5), which the tests use to run that path.
static func check(text: String, path: String, messages: bool = true) -> Dictionary:
	return compile(text, path, messages)["report"]


## check()'s report plus the compiled Shader ({"report", "shader"}), for reading its uniforms
## (every uniform but PROBE is the code's).
static func compile(text: String, path: String, messages: bool = true) -> Dictionary:
	var declared := ShaderText.declaration(text)
	var source := ShaderText.absolute_includes(text, path.get_base_dir())
	if not declared.is_empty():
		source = ShaderText.after_declaration(source, declared, " uniform float %s;" % PROBE)
	var built := _build(source, messages)
	var report := _report(built, declared, text, "", messages)
	return {"report": report, "shader": built["shader"]}


## check() for the include file at `path`, compiled inside a shader of `type` that includes it:
## its errors are reported on its own lines; one the preprocessor met before reaching it has line 0.
static func check_include(path: String, type: String, messages: bool = true) -> Dictionary:
	var text := "shader_type %s;\n#include \"%s\"\n" % [type, path]
	var declared := ShaderText.declaration(text)
	var built := _build(ShaderText.after_declaration(text, declared, " uniform float %s;" % PROBE), messages)
	var own := FileAccess.get_file_as_string(path) if FileAccess.file_exists(path) else ""
	return _report(built, declared, own, path, messages)


## {"shader", "compiled", "entries"}: the engine's Shader for `source` and what it printed meanwhile.
static func _build(source: String, messages: bool) -> Dictionary:
	var logger: Object = ErrorCapture.start() if messages else null
	var shader := Shader.new()
	shader.code = source
	# Reading the uniform list waits for a renderer that compiles on its own thread.
	var listed := shader.get_shader_uniform_list()
	var entries := ErrorCapture.stop(logger)
	var compiled := false
	for uniform: Dictionary in listed:
		compiled = compiled or uniform["name"] == PROBE
	return {"shader": shader, "compiled": compiled, "entries": entries}


## The answer for one compile, with a hint when it did not compile. `own` is the file the
## answer is about ("" when it is the compiled text itself) and `own_text` its text, for columns.
static func _report(built: Dictionary, declared: Dictionary, own_text: String, own: String,
		messages: bool) -> Dictionary:
	var report := {"valid": bool(built["compiled"]), "errors": [], "shader_type": str(declared.get("type", ""))}
	if report["valid"]:
		return report
	var errors := _shader_errors(built["entries"], own_text, own)
	var hint := FIRST_ERROR_HINT
	for error: Dictionary in errors:
		if str(error["message"]).contains(PREPROCESSOR_MARK):
			hint = PREPROCESSOR_HINT
	if errors.is_empty():
		errors = _renderer_errors(built["entries"], declared)
		hint = PREPROCESSOR_HINT if declared.has("directive_line") else TYPE_HINT
	if errors.is_empty():
		var reason := _silent_reason(declared, messages)
		errors.append({"line": reason["line"], "message": reason["message"]})
		hint = reason["hint"]
	if declared.is_empty():
		hint = TYPE_HINT
	report["errors"] = errors
	if not hint.is_empty():
		report["hint"] = hint
	return report


## The shader compiler's own errors, on the lines it names; those of another file (an include)
## name it, and those of the shader compiled around an include (own set) have line 0.
static func _shader_errors(entries: Array, own_text: String, own: String) -> Array[Dictionary]:
	var errors: Array[Dictionary] = []
	for entry: Dictionary in entries:
		if int(entry["type"]) != ErrorCapture.TYPE_SHADER:
			continue
		var file := str(entry["file"])
		var item := {"line": int(entry["line"]), "message": ErrorCapture.message_of(entry)}
		var text := own_text
		if file != own:
			if file.is_empty():
				item["line"] = 0
				text = ""
			else:
				item["file"] = file
				text = FileAccess.get_file_as_string(file) if FileAccess.file_exists(file) else ""
		var at := ShaderText.column(ShaderText.line_of(text, item["line"]), item["message"])
		if at > 0:
			item["column"] = at
		errors.append(item)
	return errors


## A renderer's refusal of the whole shader, said on the shader_type line; or on the first
## preprocessor line before it, which is what leaves the renderer no type to read when the
## preprocessor refuses it (#version): the raw text reaches the renderer then.
static func _renderer_errors(entries: Array, declared: Dictionary) -> Array[Dictionary]:
	var line := int(declared.get("directive_line", declared.get("line", 1)))
	var errors: Array[Dictionary] = []
	for entry: Dictionary in entries:
		if int(entry["type"]) == ErrorCapture.TYPE_ERROR:
			errors.append({"line": line, "message": ErrorCapture.message_of(entry)})
	return errors


## {"line", "message", "hint"} for a shader the renderer refused without a word (or whose word
## this engine cannot hear): what the text itself shows, else that the message is unknown (line 0).
static func _silent_reason(declared: Dictionary, messages: bool) -> Dictionary:
	if declared.is_empty():
		return {"line": 1, "message": MISSING_TYPE, "hint": TYPE_HINT}
	if not str(declared["type"]) in ShaderText.SHADER_TYPES:
		return {"line": declared["line"], "message": UNKNOWN_TYPE % [declared["type"],
			", ".join(PackedStringArray(ShaderText.SHADER_TYPES))], "hint": TYPE_HINT}
	if not messages or not ErrorCapture.available():
		return {"line": 0, "message": NO_MESSAGE_BEFORE_4_5 % Engine.get_version_info()["string"], "hint": ""}
	return {"line": 0, "message": NO_MESSAGE, "hint": ""}
