@tool
extends RefCounted
## execute.code: evaluates one GDScript expression (Expression, not a script: no statements) on a
## scope node, which is `self` for the expression (get_node("Player").position), with `scene`
## bound to the scene root. Parse and run failures become PARSE_ERROR / EXECUTE_FAILED with the
## engine's own message; the value comes back JSON-safe (contract/coerce.gd). RUNTIME-REACHABLE:
## the editor and the game both run code through it.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const Coerce := preload("res://addons/godot_mcp_toolkit/contract/coerce.gd")

const INPUT_NAMES := ["scene"]
const MAX_CODE_CHARS := 10000


## {"ok": true, "value", "value_type"} or {"ok": false, "error": envelope}.
static func evaluate(code: Variant, scope: Object, scene_root: Node) -> Dictionary:
	if not code is String or (code as String).strip_edges().is_empty():
		return _refuse("INVALID_PARAMS", "code must be a non-empty GDScript expression", "")
	if (code as String).length() > MAX_CODE_CHARS:
		return _refuse("INVALID_PARAMS", "code is longer than %d characters" % MAX_CODE_CHARS, "")
	var expression := Expression.new()
	var parsed := expression.parse(code, PackedStringArray(INPUT_NAMES))
	if parsed != OK:
		return _refuse("PARSE_ERROR", "The expression does not parse: %s" % expression.get_error_text(),
			"Pass one expression (a call chain, arithmetic, a literal); statements, assignments, var, if and "
			+ "for are not supported.")
	var value: Variant = expression.execute([scene_root], scope, false)
	if expression.has_execute_failed():
		return _refuse("EXECUTE_FAILED", "The expression failed: %s" % expression.get_error_text(),
			"Check the node path and method names; `self` is the scope node, `scene` the scene root.")
	return {"ok": true, "value": Coerce.serialize_value(value), "value_type": type_string(typeof(value))}


static func _refuse(code: String, message: String, hint: String) -> Dictionary:
	return {"ok": false, "error": ToolkitError.fail(code, message, hint)}
