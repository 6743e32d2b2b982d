@tool
extends RefCounted
## Node classes by name for the scene commands: engine classes (ClassDB) and the project's script
## classes (`class_name`), instantiated and labelled the same way. Runtime-safe.
## Script classes come from ProjectSettings.get_global_class_list() (Script.get_global_name is
## 4.3+ only).

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")

const SUGGESTION_LIMIT := 5


## {"node": Node} or {"error": INVALID_CLASS envelope with close names as the hint}.
static func instantiate_node(type_name: String) -> Dictionary:
	if ClassDB.class_exists(type_name):
		if not ClassDB.is_parent_class(type_name, "Node"):
			return _invalid("%s is not a Node class" % type_name, "Nodes derive from Node; resources go in properties.")
		if not ClassDB.can_instantiate(type_name):
			return _invalid("%s is abstract and cannot be created" % type_name, "Pick one of its concrete subclasses.")
		return {"node": ClassDB.instantiate(type_name)}
	var script_path := script_class_path(type_name)
	if script_path.is_empty():
		return _invalid("Unknown class '%s'" % type_name, _suggestions(type_name))
	var script := load(script_path) as Script
	if script == null or not script.can_instantiate():
		var message := "The script of class %s (%s) does not load" % [type_name, script_path]
		return {"error": ToolkitError.fail("LOAD_FAILED", message,
			"Fix its errors (script_check), then retry.")}
	if not ClassDB.is_parent_class(script.get_instance_base_type(), "Node"):
		return _invalid("%s (%s) is not a Node class" % [type_name, script_path], "")
	var node: Variant = script.new()
	if not node is Node:
		return _invalid("%s did not produce a Node" % type_name, "")
	return {"node": node}


## The res:// path of the script declaring `class_name type_name`, or "".
static func script_class_path(type_name: String) -> String:
	for entry: Dictionary in ProjectSettings.get_global_class_list():
		if String(entry["class"]) == type_name:
			return entry["path"]
	return ""


## True when `node` is exactly `type_name`: its engine class, or its script's class_name.
static func is_of_class(node: Node, type_name: String) -> bool:
	return node.get_class() == type_name or class_label(node) == type_name


## The script's class_name when it has one, else the engine class.
static func class_label(node: Object) -> String:
	var script: Variant = node.get_script()
	if script is Script:
		var path := (script as Script).resource_path
		for entry: Dictionary in ProjectSettings.get_global_class_list():
			if entry["path"] == path:
				return String(entry["class"])
	return node.get_class()


static func _invalid(message: String, hint: String) -> Dictionary:
	return {"error": ToolkitError.fail("INVALID_CLASS", message, hint)}


static func _suggestions(type_name: String) -> String:
	var wanted := type_name.to_lower()
	var scored: Array = []
	for candidate: String in ClassDB.get_inheriters_from_class("Node"):
		var score := candidate.to_lower().similarity(wanted)
		if score >= 0.5:
			scored.append([score, candidate])
	if scored.is_empty():
		return "Use an engine Node class (Node2D, Sprite2D, Label, ...) or a script class_name."
	scored.sort_custom(func(a: Array, b: Array) -> bool: return a[0] > b[0])
	var names := PackedStringArray()
	for pair: Array in scored.slice(0, SUGGESTION_LIMIT):
		names.append(pair[1])
	return "Did you mean: %s?" % ", ".join(names)
