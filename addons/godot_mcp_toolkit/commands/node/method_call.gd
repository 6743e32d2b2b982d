@tool
extends RefCounted
## node.call_method's work: refuse what must not be called, check the arguments against the
## method's signature (a wrong count or type would make Godot print an error and return null,
## indistinguishable from a real null), call, and make what the call changed on the node undoable.
## Runtime-safe: names no Editor* class.
##
## Undo: the node's stored properties are compared before and after the call, and every one that
## changed becomes one undo action (the call itself is not replayed on redo; its effect on the
## node is). Changes elsewhere (other nodes, files) cannot be seen and are not undoable; the
## result says which properties changed so the caller knows what Ctrl+Z covers.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const ToolkitSuccess := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_success.gd")
const Coerce := preload("res://addons/godot_mcp_toolkit/contract/coerce.gd")

## Methods that free the node, change the tree or script behind undo's back, or call anything by
## name (which would bypass this list). Each has an undoable tool of its own.
const REFUSED := {
	"free": "node_manage or scene_delete_node", "queue_free": "scene_delete_node",
	"add_child": "scene_create_node", "remove_child": "scene_delete_node", "move_child": "node_manage (reorder)",
	"reparent": "node_manage (reparent)", "replace_by": "scene_delete_node + scene_create_node",
	"add_sibling": "scene_create_node", "set_owner": "node_manage", "set_script": "node_set_script",
	"set": "node_set_property", "set_indexed": "node_set_property", "set_deferred": "node_set_property",
	"call": "node_call_method itself", "callv": "node_call_method itself", "call_deferred": "node_call_method itself",
	"propagate_call": "node_call_method per node", "notification": "node_call_method with a named method",
	"propagate_notification": "node_call_method with a named method", "set_meta": "node_set_property",
	"remove_meta": "node_set_property", "emit_signal": "signal tools", "connect": "signal_manage",
	"disconnect": "signal_manage",
}


## {"ok": true, "args": coerced} or {"ok": false, "error": envelope}.
static func check(node: Node, method_name: String, args: Array) -> Dictionary:
	if REFUSED.has(method_name):
		return _refuse("INVALID_METHOD",
			"%s() is not callable through node_call_method: it changes the scene outside undo" % method_name,
			"Use %s instead." % REFUSED[method_name])
	if not node.has_method(method_name):
		return _refuse("INVALID_METHOD", "%s (%s) has no method '%s'" % [node.name, node.get_class(), method_name],
			"List what the class offers with classdb_get_info, or check the script's functions.")
	var coerced: Variant = Coerce.coerce_value(args)
	var problem := Coerce.error_of(coerced)
	if not problem.is_empty():
		return _refuse("INVALID_PARAMS", "args: %s" % problem)
	var signature := _signature(node, method_name)
	if signature.is_empty():
		return {"ok": true, "args": coerced}
	return _fit(method_name, signature, coerced)


## Calls and records what changed. Returns the result fields (result, result_type, changed).
static func invoke(context: RefCounted, root: Node, node: Node, method_name: String, args: Array) -> Dictionary:
	var before := _stored(node)
	var returned: Variant = node.callv(method_name, args)
	var changed := PackedStringArray()
	if is_instance_valid(node):
		var after := _stored(node)
		var action: RefCounted = context.edits.create_undo_action("MCP: Call %s.%s" % [node.name, method_name], root)
		for name: String in after:
			if before.has(name) and not _same(before[name], after[name]):
				changed.append(name)
				action.add_do_property(node, StringName(name), after[name])
				action.add_undo_property(node, StringName(name), before[name])
		if not changed.is_empty():
			action.commit(false)
			context.scenes.mark_modified()
	return {"result": Coerce.serialize_value(returned), "result_type": type_string(typeof(returned)),
		"changed_properties": changed}


static func _signature(node: Node, method_name: String) -> Dictionary:
	for method: Dictionary in node.get_method_list():
		if method["name"] == method_name:
			return method
	return {}


## Checks the count, then converts whole numbers where the signature wants int or float (JSON has
## one number type); any other mismatch is refused naming the argument.
static func _fit(method_name: String, signature: Dictionary, args: Array) -> Dictionary:
	var declared: Array = signature.get("args", [])
	var optional: int = (signature.get("default_args", []) as Array).size()
	var vararg := int(signature.get("flags", 0)) & METHOD_FLAG_VARARG != 0
	var fewest := declared.size() - optional
	if args.size() < fewest or (args.size() > declared.size() and not vararg):
		var names := PackedStringArray()
		for arg: Dictionary in declared:
			names.append(type_string(arg["type"]) if arg["type"] != TYPE_NIL else "Variant")
		return _refuse("INVALID_PARAMS", "%s(%s) takes %s argument(s), got %d" % [method_name, ", ".join(names),
			str(fewest) if optional == 0 else "%d to %d" % [fewest, declared.size()], args.size()])
	var fitted := args.duplicate()
	for i in mini(args.size(), declared.size()):
		var wanted: int = declared[i]["type"]
		var value: Variant = args[i]
		if wanted == TYPE_NIL or typeof(value) == wanted:
			continue
		if wanted == TYPE_INT and value is float and is_finite(value) and value == floorf(value):
			fitted[i] = int(value)
		elif wanted == TYPE_FLOAT and value is int:
			fitted[i] = float(value)
		elif wanted == TYPE_STRING_NAME and value is String:
			fitted[i] = StringName(value)
		elif wanted == TYPE_NODE_PATH and value is String:
			fitted[i] = NodePath(value)
		elif wanted == TYPE_OBJECT and value == null:
			continue
		else:
			return _refuse("INVALID_PARAMS", "%s argument %d%s must be %s, got %s" % [method_name, i + 1,
				_label(declared[i]), type_string(wanted), type_string(typeof(value))],
				"Pass engine types as tagged objects, e.g. {\"type\": \"Vector2\", \"x\": 1, \"y\": 2}.")
	return {"ok": true, "args": fitted}


## " (offset)" when the engine build keeps argument names (release builds may not), else "".
static func _label(arg: Dictionary) -> String:
	var name := str(arg.get("name", ""))
	return "" if name.is_empty() else " (%s)" % name


## The node's saved properties (what the .tscn would hold), copied so a later change is visible.
static func _stored(node: Node) -> Dictionary:
	var values := {}
	for property: Dictionary in node.get_property_list():
		if int(property["usage"]) & PROPERTY_USAGE_STORAGE:
			var value: Variant = node.get(property["name"])
			values[property["name"]] = value.duplicate(true) if value is Array or value is Dictionary else value
	return values


static func _same(a: Variant, b: Variant) -> bool:
	return typeof(a) == typeof(b) and a == b


static func _refuse(code: String, message: String, hint: String = "") -> Dictionary:
	return {"ok": false, "error": ToolkitError.fail(code, message, hint)}
