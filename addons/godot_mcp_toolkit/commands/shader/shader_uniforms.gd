@tool
extends RefCounted
## A compiled shader's material uniforms as a model sets them (ShaderMaterial's
## shader_parameter/<name>): the engine's list (names, order, groups, defaults) with each one's
## type and hints as the code writes them, and its value on a material. Runtime-safe.

const Coerce := preload("res://addons/godot_mcp_toolkit/contract/coerce.gd")
const AnswerBudget := preload("res://addons/godot_mcp_toolkit/contract/answer_budget.gd")
const ShaderText := preload("res://addons/godot_mcp_toolkit/commands/shader/shader_text.gd")
const ShaderCompile := preload("res://addons/godot_mcp_toolkit/commands/shader/shader_compile.gd")


## [{"name", "type", "hint"?, "group"?, "default", "value"?}] for `shader` (which compiled), in the
## engine's order. `source` is its code, for the declared types and hints; `material` (may be
## null) adds each uniform's "value" there: what the material holds, its default when it holds
## nothing (a ShaderMaterial fills in the defaults itself once its properties are listed, so an
## unset one is no state to report). A value larger than a write's echo shows as its size
## (node_get_property reads it).
static func describe(shader: Shader, source: String, material: ShaderMaterial = null) -> Array[Dictionary]:
	var declared := ShaderText.uniforms(source)
	var out: Array[Dictionary] = []
	var group := ""
	for entry: Dictionary in shader.get_shader_uniform_list(true):
		var name := str(entry["name"])
		if int(entry["usage"]) & PROPERTY_USAGE_GROUP:
			group = name.replace("::", ".")
			continue
		if name == ShaderCompile.PROBE:
			continue
		var written: Dictionary = declared.get(name, {})
		var item := {"name": name, "type": written.get("type", _engine_type(entry))}
		if not str(written.get("hint", "")).is_empty():
			item["hint"] = written["hint"]
		if not group.is_empty():
			item["group"] = group
		var default: Variant = RenderingServer.shader_get_parameter_default(shader.get_rid(), name)
		item["default"] = _shown(default)
		if material != null:
			var held: Variant = material.get_shader_parameter(name)
			item["value"] = _shown(held if held != null else default)
		out.append(item)
	return out


## The names `shader` takes as shader_parameter/<name>, in its order (empty when it did not compile).
static func names(shader: Shader) -> PackedStringArray:
	var found := PackedStringArray()
	for entry: Dictionary in shader.get_shader_uniform_list():
		if str(entry["name"]) != ShaderCompile.PROBE:
			found.append(str(entry["name"]))
	return found


## A uniform the code does not spell out (a macro made it): the engine's value type.
static func _engine_type(entry: Dictionary) -> String:
	var hint_string := str(entry.get("hint_string", ""))
	if int(entry["type"]) == TYPE_OBJECT and not hint_string.is_empty():
		return hint_string
	return type_string(int(entry["type"]))


static func _shown(value: Variant) -> Variant:
	return AnswerBudget.within(Coerce.serialize_value(value), AnswerBudget.ECHO_BYTES)
