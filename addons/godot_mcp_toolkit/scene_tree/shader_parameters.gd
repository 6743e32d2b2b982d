@tool
extends RefCounted
## What to say about a ShaderMaterial's shader_parameter/<name> its shader does not declare: the
## engine would store it in silence and nothing would change on screen, so the write is refused
## with the shader's uniforms, the close ones first. Runtime-safe (used by scene_tree/property_access.gd).

const Params := preload("res://addons/godot_mcp_toolkit/contract/params.gd")

const PREFIX := "shader_parameter/"
const SUGGESTION_LIMIT := 3
const LISTED := 12


## True when `name` on `object` is a shader parameter path (the case unknown() words).
static func applies(object: Object, name: String) -> bool:
	return object is ShaderMaterial and name.begins_with(PREFIX)


## {"error", "hint"} for shader_parameter/<name> that `material` (reached as `reached`, e.g.
## "material") does not have.
static func unknown(material: ShaderMaterial, name: String, reached: String) -> Dictionary:
	var wanted := name.trim_prefix(PREFIX)
	var shader := material.shader
	if shader == null:
		return {"error": "%s is a ShaderMaterial without a shader, so it has no '%s'" % [reached, name],
			"hint": "Set its shader first (%s:shader, {\"type\": \"Resource\", \"path\": \"res://....gdshader\"})." % reached}
	var label := shader.resource_path if not shader.resource_path.is_empty() else "its shader"
	var uniforms := PackedStringArray()
	for entry: Dictionary in shader.get_shader_uniform_list():
		uniforms.append(str(entry["name"]))
	if uniforms.is_empty():
		return {"error": "%s is a ShaderMaterial whose shader (%s) declares no uniform '%s'" % [reached, label, wanted],
			"hint": "Its shader has no uniforms, or does not compile: shader_check %s says which." % label}
	var message := "%s is a ShaderMaterial whose shader (%s) declares no uniform '%s'" % [reached, label, wanted]
	var close := Params.ranked(wanted, Array(uniforms), SUGGESTION_LIMIT)
	var listed := ", ".join(uniforms.slice(0, LISTED)) + (", ..." if uniforms.size() > LISTED else "")
	if close.is_empty():
		return {"error": message, "hint": "Its uniforms: %s (shader_get_uniforms lists them with types)." % listed}
	var paths := PackedStringArray(Array(close).map(func(uniform: String) -> String: return PREFIX + uniform))
	return {"error": message, "hint": "Did you mean %s? Its uniforms: %s." % [", ".join(paths), listed]}
