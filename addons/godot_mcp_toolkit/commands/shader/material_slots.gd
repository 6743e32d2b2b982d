@tool
extends RefCounted
## The ShaderMaterial a node of the edited scene draws with: the property named, else the first of
## its material properties that holds one. Runtime-safe: reaches the scene through the context.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const NodeTarget := preload("res://addons/godot_mcp_toolkit/commands/node/node_target.gd")
const PropertyAccess := preload("res://addons/godot_mcp_toolkit/scene_tree/property_access.gd")
const ShaderCompile := preload("res://addons/godot_mcp_toolkit/commands/shader/shader_compile.gd")

## Looked in, in this order, when no property is named (then each surface's override).
const SLOTS := ["material_override", "material", "process_material"]


## {"shader", "material", "source", "report", "label", "result": {"node_path", "property",
## "shader_path"}} for the ShaderMaterial at `property` of the node at `node_path` (any of SLOTS
## when `property` is null), else {"error"}.
static func find(context: RefCounted, node_path: Variant, property: Variant) -> Dictionary:
	var target := NodeTarget.find(context, node_path)
	if not target["ok"]:
		return {"error": target["error"]}
	var node: Node = target["node"]
	if property != null and (not property is String or (property as String).is_empty()):
		return {"error": ToolkitError.fail("INVALID_PARAMS", "property must be a non-empty string")}
	var slot := str(property) if property != null else _first_shader_slot(node)
	if slot.is_empty():
		return {"error": ToolkitError.fail("NOT_FOUND", "%s holds no ShaderMaterial in %s" % [target["path"],
			", ".join(PackedStringArray(_slots(node)))],
			"Pass property: where its ShaderMaterial sits (e.g. \"mesh:surface_0/material\").")}
	var resolved := PropertyAccess.resolve(node, slot)
	if resolved.has("error"):
		return {"error": ToolkitError.fail("PROPERTY_NOT_FOUND", resolved["error"], resolved["hint"])}
	var held: Variant = node.get_indexed(NodePath(slot))
	if not held is ShaderMaterial or (held as ShaderMaterial).shader == null:
		var what := "nothing" if held == null else ("a %s" % (held as Object).get_class() if held is Object else str(held))
		if held is ShaderMaterial:
			what = "a ShaderMaterial without a shader"
		return {"error": ToolkitError.fail("INVALID_PARAMS", "%s of %s holds %s, not a ShaderMaterial with a shader"
			% [slot, target["path"], what], "node_get_property_list shows what the node's properties hold.")}
	var material: ShaderMaterial = held
	var found := of(material.shader, material, "The shader of %s (%s)" % [target["path"], slot])
	found["result"] = {"node_path": target["path"], "property": slot, "shader_path": material.shader.resource_path}
	return found


## find()'s answer for `shader` (and the `material` using it, may be null) without the "result":
## its code, and the engine's verdict on it.
static func of(shader: Shader, material: ShaderMaterial, label: String) -> Dictionary:
	var path := shader.resource_path.get_slice("::", 0)
	return {"shader": shader, "material": material, "source": shader.code,
		"report": ShaderCompile.check(shader.code, path), "label": label}


static func _first_shader_slot(node: Node) -> String:
	for slot: String in _slots(node):
		if node.get_indexed(NodePath(slot)) is ShaderMaterial:
			return slot
	return ""


## The node's material properties, SLOTS first, then each surface's override.
static func _slots(node: Node) -> Array[String]:
	var slots: Array[String] = []
	for slot: String in SLOTS:
		if not PropertyAccess.find_property(node, slot).is_empty():
			slots.append(slot)
	if node.has_method("get_surface_override_material_count"):
		for index in int(node.call("get_surface_override_material_count")):
			slots.append("surface_material_override/%d" % index)
	return slots
