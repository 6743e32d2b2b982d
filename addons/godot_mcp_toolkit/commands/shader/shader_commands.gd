@tool
extends RefCounted
## Shaders: shader.check (the engine compiles a file or code, commands/shader/shader_compile.gd,
## and answers valid or its errors) and shader.get_uniforms (a shader's material uniforms, with
## their values on a node's ShaderMaterial). Both read only. Runtime-safe: reaches the edited scene
## only through the context.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const ToolkitSuccess := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_success.gd")
const Params := preload("res://addons/godot_mcp_toolkit/contract/params.gd")
const AnswerBudget := preload("res://addons/godot_mcp_toolkit/contract/answer_budget.gd")
const Pagination := preload("res://addons/godot_mcp_toolkit/contract/pagination.gd")
const FileGuard := preload("res://addons/godot_mcp_toolkit/security/file_guard.gd")
const ShaderText := preload("res://addons/godot_mcp_toolkit/commands/shader/shader_text.gd")
const ShaderCompile := preload("res://addons/godot_mcp_toolkit/commands/shader/shader_compile.gd")
const ShaderIncludes := preload("res://addons/godot_mcp_toolkit/commands/shader/shader_includes.gd")
const ShaderUniforms := preload("res://addons/godot_mcp_toolkit/commands/shader/shader_uniforms.gd")
const MaterialSlots := preload("res://addons/godot_mcp_toolkit/commands/shader/material_slots.gd")

const SELF_PATH := "res://addons/godot_mcp_toolkit/commands/shader/shader_commands.gd"
const CHECK_EXTENSIONS := ["gdshader", "gdshaderinc"]
const UNIFORM_EXTENSIONS := ["gdshader", "tres", "res"]
const PAGE_HINT := "One answer holds about %d KB; continue with offset %d."


static func register(registry: RefCounted, context: RefCounted) -> void:
	var script: Script = load(SELF_PATH)
	registry.register_command("shader.check", Callable(script, "_cmd_check").bind(context),
		registry.create_options()
		.read_only().scene_independent())
	registry.register_command("shader.get_uniforms", Callable(script, "_cmd_get_uniforms").bind(context),
		registry.create_options()
		.read_only())


static func _cmd_check(params: Dictionary, _context: RefCounted) -> Dictionary:
	var source := _one_of(params, "file_path", "code")
	if source.has("error"):
		return source["error"]
	if not ShaderCompile.renderer_compiles():
		return ShaderCompile.no_compiler()
	var type: Variant = params.get("shader_type")
	if type != null and not (type is String and type in ShaderText.SHADER_TYPES):
		return ToolkitError.fail("INVALID_PARAMS", "shader_type must be one of %s" % ", ".join(
			PackedStringArray(ShaderText.SHADER_TYPES)))
	var report := _check_code(params["code"], type) if source["key"] == "code" \
		else _check_file(params["file_path"], type)
	if ToolkitError.is_failure(report):
		return report
	return ToolkitSuccess.ok(report)


## {"key": the one of `first`/`second` params has} or {"error"} when it has both or neither.
static func _one_of(params: Dictionary, first: String, second: String) -> Dictionary:
	var has_first: bool = params.get(first) != null
	if has_first == (params.get(second) != null):
		return {"error": ToolkitError.fail("INVALID_PARAMS", "Pass %s or %s (%s)" % [first, second,
			"not both" if has_first else "neither was given"])}
	return {"key": first if has_first else second}


static func _check_code(code: Variant, type: Variant) -> Dictionary:
	if not code is String or (code as String).strip_edges().is_empty():
		return ToolkitError.fail("INVALID_PARAMS", "code must be a non-empty string of shader code")
	var text: String = code
	var declared := ShaderText.declaration(text)
	if type != null and declared.is_empty():
		text = ShaderText.with_declaration(text, type)
	elif type != null and declared["type"] != type:
		return ToolkitError.fail("INVALID_PARAMS", "code declares shader_type %s but shader_type is %s" % [
			declared["type"], type], "Leave shader_type out: the code's own declaration counts.")
	return ShaderCompile.check(text, "")


static func _check_file(path_value: Variant, type: Variant) -> Dictionary:
	var target := FileGuard.param(path_value, "file_path", CHECK_EXTENSIONS)
	if target.has("error"):
		return target["error"]
	var path: String = target["path"]
	var read := _read(path)
	if read.has("error"):
		return read["error"]
	var report := {"file_path": path}
	if path.get_extension().to_lower() == "gdshaderinc":
		report.merge(ShaderIncludes.check(path, type if type != null else ""))
		return report
	if type != null:
		return ToolkitError.fail("INVALID_PARAMS",
			"%s declares its own shader_type; shader_type is for code or a .gdshaderinc" % path, "Leave shader_type out.")
	report.merge(ShaderCompile.check(read["text"], path))
	return report


static func _cmd_get_uniforms(params: Dictionary, context: RefCounted) -> Dictionary:
	var source := _one_of(params, "file_path", "node_path")
	if source.has("error"):
		return source["error"]
	var offset: Variant = params.get("offset", 0)
	if offset == null:
		offset = 0
	if not Params.is_whole_number(offset) or int(offset) < 0:
		return ToolkitError.fail("INVALID_PARAMS", "offset must be a whole number >= 0")
	if not ShaderCompile.renderer_compiles():
		return ShaderCompile.no_compiler()
	var found := _file_material(params["file_path"]) if source["key"] == "file_path" \
		else MaterialSlots.find(context, params["node_path"], params.get("property"))
	if found.has("error"):
		return found["error"]
	var check: Dictionary = found["report"]
	if not check["valid"]:
		var first: Dictionary = check["errors"][0]
		return ToolkitError.fail("COMPILATION_FAILED", "%s does not compile (line %d: %s), so it has no uniforms" % [
			found["label"], first["line"], first["message"]], "shader_check lists its errors.")
	var result: Dictionary = found["result"]
	result["shader_type"] = check["shader_type"]
	var uniforms := ShaderUniforms.describe(found["shader"], found["source"], found.get("material"))
	return ToolkitSuccess.ok(_page(result, uniforms, int(offset)))


## The uniforms from `offset` that fit one answer beside `result`, with the paging fields.
static func _page(result: Dictionary, uniforms: Array[Dictionary], offset: int) -> Dictionary:
	var start := mini(offset, uniforms.size())
	var rest := uniforms.slice(start)
	var shown := rest.slice(0, AnswerBudget.fitting(rest, AnswerBudget.room_beside(result)))
	result["uniforms"] = shown
	result.merge(Pagination.fields(shown.size(), uniforms.size(), "uniforms", start))
	if result["has_more"]:
		result["hint"] = PAGE_HINT % [AnswerBudget.BYTES / 1000, result["next_offset"]]
	return result


## MaterialSlots.find's answer for a file: a .gdshader (compiled from the file's text) or a .tres/
## .res holding a Shader or a ShaderMaterial; else {"error"}.
static func _file_material(path_value: Variant) -> Dictionary:
	var target := FileGuard.param(path_value, "file_path", UNIFORM_EXTENSIONS)
	if target.has("error"):
		return target
	var path: String = target["path"]
	if path.get_extension().to_lower() == "gdshader":
		var read := _read(path)
		if read.has("error"):
			return read
		var built := ShaderCompile.compile(read["text"], path)
		return {"shader": built["shader"], "source": read["text"], "report": built["report"], "label": path,
			"result": {"file_path": path}}
	if not FileAccess.file_exists(path):
		return {"error": ToolkitError.fail("NOT_FOUND", "No file at %s" % path)}
	var loaded := ResourceLoader.load(path)
	var material := loaded as ShaderMaterial
	var shader: Shader = material.shader if material != null else loaded as Shader
	if shader == null:
		var what := "nothing loadable" if loaded == null else "a %s" % loaded.get_class()
		return {"error": ToolkitError.fail("INVALID_PARAMS", "%s holds %s, not a Shader or a ShaderMaterial with one"
			% [path, what], "Pass the .gdshader, or a .tres of a ShaderMaterial that has a shader.")}
	var found := MaterialSlots.of(shader, material, path)
	found["result"] = {"file_path": path}
	return found


## {"text"} of the shader file at `path`, or {"error": NOT_FOUND}. (commands/script/ writes shaders
## and asks this domain whether they compile, so this domain reads its files itself.)
static func _read(path: String) -> Dictionary:
	if not FileAccess.file_exists(path):
		return {"error": ToolkitError.fail("NOT_FOUND", "No file at %s" % path,
			"Check the path (res://...); script_write creates shader files.")}
	return {"text": FileAccess.get_file_as_string(path)}
