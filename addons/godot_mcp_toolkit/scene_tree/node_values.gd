@tool
extends RefCounted
## Node references as the project sees them, for properties typed as a node (an export like
## `@export var conductor: Conductor`, `@export var targets: Array[Node2D]`): the scene file stores
## a NodePath relative to the node holding the property, reads give that path (contract/coerce.gd
## with the holder as origin), and a write takes that path, a path from the scene root, or a
## NodePath tag, and stores the node itself. Runtime-safe.

## The hint_string of an Array[Node...] property starts "<TYPE_OBJECT>/<PROPERTY_HINT_NODE_TYPE>:".
const NODE_ARRAY_PREFIX := "24/34:"


## An export typed as a node (PROPERTY_HINT_NODE_TYPE), or an engine property of a Node class
## (Node.owner).
static func is_node_property(entry: Dictionary) -> bool:
	if int(entry["type"]) != TYPE_OBJECT:
		return false
	var named := str(entry.get("class_name", ""))
	return int(entry["hint"]) == PROPERTY_HINT_NODE_TYPE \
		or (not named.is_empty() and ClassDB.class_exists(named) and ClassDB.is_parent_class(named, "Node"))


## The class a node-typed property takes: its hint's, else the property's declared class.
static func wanted_class(entry: Dictionary) -> String:
	var hinted := str(entry["hint_string"])
	return hinted if not hinted.is_empty() else str(entry.get("class_name", ""))


## A script's Array[Node2D] export says so with PROPERTY_HINT_TYPE_STRING and "24/34:Node2D".
static func is_node_array(entry: Dictionary) -> bool:
	return int(entry["type"]) == TYPE_ARRAY \
		and int(entry["hint"]) in [PROPERTY_HINT_ARRAY_TYPE, PROPERTY_HINT_TYPE_STRING] \
		and str(entry["hint_string"]).begins_with(NODE_ARRAY_PREFIX)


## {"value": the node (or null, or the array of nodes)} or {"error"} for a coerced `value`
## written to the node-typed property `entry` of `holder`.
static func resolve(holder: Object, entry: Dictionary, value: Variant) -> Dictionary:
	var name: String = entry["name"]
	if is_node_property(entry):
		return _one(holder, name, wanted_class(entry), value)
	if not value is Array:
		return {"error": "%s takes a list of node paths" % name}
	var wanted := str(entry["hint_string"]).trim_prefix(NODE_ARRAY_PREFIX)
	var current: Variant = holder.get(name)
	var nodes: Array = (current as Array).duplicate() if current is Array else []
	nodes.clear()
	for index in (value as Array).size():
		var one := _one(holder, "%s[%d]" % [name, index], wanted, value[index])
		if one.has("error"):
			return one
		nodes.append(one["value"])
	return {"value": nodes}


static func _one(holder: Object, name: String, wanted: String, value: Variant) -> Dictionary:
	if value == null or (value is Object and not is_instance_valid(value)):
		return {"value": null}
	if value is Node:
		return _checked(name, wanted, value)
	if not (value is NodePath or value is String):
		return {"error": "%s takes a node: its path (\"../Player\"), or {\"type\": \"NodePath\", \"path\": ...}; got %s" % [
			name, JSON.stringify(value)]}
	if not holder is Node:
		return {"error": "%s holds a node, and only a node can point to one" % name}
	var path := NodePath(str(value))
	var node := find(holder as Node, path)
	if node == null:
		return {"error": "%s: no node at %s (from %s, or from the scene root)" % [name, str(path), (holder as Node).name]}
	return _checked(name, wanted, node)


## The node `path` names, read from `holder` (as the scene file stores it) and else from the root
## of the scene `holder` belongs to; null when neither has it. An absolute path counts only when
## it lands inside that scene.
static func find(holder: Node, path: NodePath) -> Node:
	var scene_root := holder.owner if holder.owner != null else holder
	var node := holder.get_node_or_null(path) if holder.is_inside_tree() or not path.is_absolute() else null
	if node == null and not path.is_absolute():
		node = scene_root.get_node_or_null(path)
	if node != null and node != scene_root and not scene_root.is_ancestor_of(node):
		return null
	return node


## `node` when it is of the class the property takes (an engine class or a script class_name).
static func _checked(name: String, wanted: String, node: Node) -> Dictionary:
	if wanted.is_empty() or node.is_class(wanted) or script_is(node, wanted):
		return {"value": node}
	return {"error": "%s takes a %s; %s is a %s" % [name, wanted, node.name, _class_of(node)]}


## Whether `object`'s script is (or extends) the script class `type_name`. Script.get_global_name
## is 4.3+: the project's global class list answers the same on 4.2.
static func script_is(object: Object, type_name: String) -> bool:
	var script: Variant = object.get_script()
	while script is Script:
		for entry: Dictionary in ProjectSettings.get_global_class_list():
			if String(entry["class"]) == type_name and entry["path"] == (script as Script).resource_path:
				return true
		script = (script as Script).get_base_script()
	return false


static func _class_of(node: Node) -> String:
	var script: Variant = node.get_script()
	if script is Script:
		for entry: Dictionary in ProjectSettings.get_global_class_list():
			if entry["path"] == (script as Script).resource_path:
				return String(entry["class"])
	return node.get_class()
