@tool
extends RefCounted
## The condition time.step_until waits for: a property of a node in the running game compared
## with a value (eq ne lt le gt ge), tested for truth (truthy falsy), or watched for any change
## (changed). Built from the request with every part checked first, so a bad request steps no
## frame. The property may be a sub-property path such as position:x. RUNTIME-REACHABLE.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const Coerce := preload("res://addons/godot_mcp_toolkit/contract/coerce.gd")
const Params := preload("res://addons/godot_mcp_toolkit/contract/params.gd")
const NodeLookup := preload("res://addons/godot_mcp_toolkit/scene_tree/node_lookup.gd")
const PropertyAccess := preload("res://addons/godot_mcp_toolkit/scene_tree/property_access.gd")

const OPERATORS := ["eq", "ne", "lt", "le", "gt", "ge", "truthy", "falsy", "changed"]
const ORDERING := ["lt", "le", "gt", "ge"]
const NEEDS_VALUE := ["eq", "ne", "lt", "le", "gt", "ge"]
## What check() answers.
const MET := "condition"
const NODE_GONE := "node_gone"

var node_path := ""
var property := ""
var operator := ""
var value: Variant = null
## The value read at the last check (the start value until the first check).
var last: Variant = null
var _node_id := 0
var _start: Variant = null


## {"ok": true, "condition"} or {"ok": false, "error": envelope}. Paths are absolute in the game
## tree (/root/Main/Player) or relative to the current scene.
static func build(params: Dictionary, context: RefCounted) -> Dictionary:
	var missing := Params.require(params, ["node_path", "property", "operator"])
	if not missing.is_empty():
		return {"ok": false, "error": missing}
	for key: String in ["node_path", "property", "operator"]:
		if not params[key] is String or (params[key] as String).strip_edges().is_empty():
			return _bad("%s must be a non-empty string" % key)
	var operator_name := str(params["operator"])
	if not operator_name in OPERATORS:
		return _bad("operator '%s' is not one of %s" % [operator_name, ", ".join(OPERATORS)])
	var found := _find(str(params["node_path"]), context)
	if not found["ok"]:
		return {"ok": false, "error": found["error"]}
	var node: Node = found["node"]
	var property_path := str(params["property"]).strip_edges()
	if not property_path.get_slice(":", 0) in node:
		return {"ok": false, "error": ToolkitError.fail("PROPERTY_NOT_FOUND",
			"%s (%s) has no property '%s'" % [node.get_path(), node.get_class(), property_path.get_slice(":", 0)],
			"Read the node's properties with runtime_get_node_state; sub-properties use a colon: position:x")}
	if property_path.contains(":"):
		# get_indexed answers null for a part that does not exist: the condition could never hold.
		var resolved := PropertyAccess.resolve(node, property_path)
		if resolved.has("error"):
			return {"ok": false, "error": ToolkitError.fail("PROPERTY_NOT_FOUND", resolved["error"], resolved["hint"])}
	var current: Variant = node.get_indexed(NodePath(property_path))
	var made: RefCounted = load("res://addons/godot_mcp_toolkit/commands/game_time/step_condition.gd").new()
	made.node_path = str(node.get_path())
	made.property = property_path
	made.operator = operator_name
	made._node_id = node.get_instance_id()
	made._start = current
	made.last = current
	if operator_name in NEEDS_VALUE:
		var checked := _checked_value(params, operator_name, current, property_path)
		if checked.has("error"):
			return {"ok": false, "error": checked["error"]}
		made.value = checked["value"]
	return {"ok": true, "condition": made}


## MET when the condition holds now, NODE_GONE when the node was freed, else "".
func check() -> String:
	var node := instance_from_id(_node_id) as Node
	if node == null or not node.is_inside_tree():
		return NODE_GONE
	last = node.get_indexed(NodePath(property))
	return MET if holds(last) else ""


func holds(current: Variant) -> bool:
	var result := false
	match operator:
		"eq", "ne":
			result = _equal(current, value) == (operator == "eq")
		"lt":
			result = float(current) < float(value)
		"le":
			result = float(current) <= float(value)
		"gt":
			result = float(current) > float(value)
		"ge":
			result = float(current) >= float(value)
		"truthy", "falsy":
			result = _truthy(current) == (operator == "truthy")
		"changed":
			result = not _equal(current, _start)
	return result


## The request's value as an engine value ({"type": "Vector2", ...} tags as elsewhere, C7).
static func _checked_value(params: Dictionary, operator_name: String, current: Variant,
		property_path: String) -> Dictionary:
	if not params.has("value") or params["value"] == null:
		return {"error": ToolkitError.fail("INVALID_PARAMS", "operator %s needs a value" % operator_name)}
	var coerced: Variant = Coerce.coerce_value(params["value"])
	var problem := Coerce.error_of(coerced)
	if not problem.is_empty():
		return {"error": ToolkitError.fail("INVALID_PARAMS", "value: %s" % problem)}
	if operator_name in ORDERING and not (Params.is_number(coerced) and Params.is_number(current)):
		return {"error": ToolkitError.fail("INVALID_PARAMS",
			"%s compares numbers, but %s is %s and value is %s" % [operator_name, property_path,
				type_string(typeof(current)), type_string(typeof(coerced))],
			"Compare one component, e.g. property position:x")}
	return {"value": coerced}


static func _equal(a: Variant, b: Variant) -> bool:
	if Params.is_number(a) and Params.is_number(b):
		return is_equal_approx(float(a), float(b))
	if (a is String or a is StringName) and (b is String or b is StringName):
		return str(a) == str(b)
	if typeof(a) != typeof(b):
		return false
	if a is Vector2 or a is Vector3 or a is Vector4 or a is Color or a is Rect2 or a is Transform2D \
			or a is Transform3D or a is Quaternion or a is Basis:
		return a.is_equal_approx(b)
	return a == b


static func _truthy(current: Variant) -> bool:
	if current == null:
		return false
	if current is Object:
		return is_instance_valid(current)
	return bool(current) if (current is bool or current is int or current is float) else not _is_empty_value(current)


static func _is_empty_value(current: Variant) -> bool:
	match typeof(current):
		TYPE_STRING, TYPE_STRING_NAME, TYPE_NODE_PATH:
			return str(current).is_empty()
		TYPE_ARRAY, TYPE_DICTIONARY:
			return current.is_empty()
		TYPE_VECTOR2, TYPE_VECTOR3, TYPE_VECTOR4, TYPE_VECTOR2I, TYPE_VECTOR3I:
			return current == current * 0
	return false


## Absolute paths reach anything in the game tree (autoloads too), others start at the scene.
static func _find(path: String, context: RefCounted) -> Dictionary:
	var wanted := path.strip_edges()
	var root: Node = context.scenes.scene_root()
	if wanted.begins_with("/"):
		var tree := root.get_tree() if root != null and root.is_inside_tree() else Engine.get_main_loop() as SceneTree
		return NodeLookup.find(tree.root, wanted)
	if root == null:
		return {"ok": false, "error": ToolkitError.fail("NO_SCENE", "The game has no current scene",
			"Use an absolute path such as /root/Main/Player.")}
	return NodeLookup.find(root, wanted)


static func _bad(message: String) -> Dictionary:
	return {"ok": false, "error": ToolkitError.fail("INVALID_PARAMS", message)}
