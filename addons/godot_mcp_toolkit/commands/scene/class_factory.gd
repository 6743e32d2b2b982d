@tool
extends RefCounted
## Node classes by name for the scene commands: engine classes (ClassDB) and the project's script
## classes (`class_name`), instantiated and labelled the same way. Runtime-safe.
## Script classes come from ProjectSettings.get_global_class_list() (Script.get_global_name is
## 4.3+ only).

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const ClassNames := preload("res://addons/godot_mcp_toolkit/commands/classdb/class_names.gd")


## {"node": Node} or {"error": UNKNOWN_CLASS (no such class, close names as the hint) or
## INVALID_CLASS (not a Node, or abstract)}.
static func instantiate_node(type_name: String) -> Dictionary:
	if ClassDB.class_exists(type_name):
		if not ClassDB.is_parent_class(type_name, "Node"):
			return _invalid("%s is not a Node class" % type_name, "Nodes derive from Node; resources go in properties.")
		if not ClassDB.can_instantiate(type_name):
			return _invalid("%s is abstract and cannot be created" % type_name, "Pick one of its concrete subclasses.")
		return {"node": ClassDB.instantiate(type_name)}
	var script_path := script_class_path(type_name)
	if script_path.is_empty():
		return {"error": ClassNames.unknown(type_name, "Node")}
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
	return str(ClassNames.script_class(type_name).get("path", ""))


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
