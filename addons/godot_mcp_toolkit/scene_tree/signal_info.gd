@tool
extends RefCounted
## A node's signals and their connections as JSON-safe data, for the signal tools in the editor
## and in the running game. Runtime-safe (names no Editor* class); paths are relative to the
## `root` the caller passes (the edited scene or the game's current scene).
##
## API (all static):
##   list(node, root, include_connections) -> Array[Dictionary]
##       [{name, args: [{name, type}], source: "script" or the node's class, connection_count,
##         connections?}]  (the entry shape the editor's signal.list also returns)
##   connections(node, signal_name, root) -> Array[Dictionary]
##       [{target_path, method_name, persistent}], every listener (autoloads and other
##       scenes included: target_path is then absolute; "" for a listener that is no node)
##   arg_info(node, signal_name) -> Array[Dictionary]   the declared args ({name, type: Variant.Type})
##   script_signal_names(node) -> PackedStringArray


static func list(node: Object, root: Node, include_connections: bool) -> Array[Dictionary]:
	var from_script := script_signal_names(node)
	var listed: Array[Dictionary] = []
	var seen := {}
	for info: Dictionary in node.get_signal_list():
		var name := String(info["name"])
		if seen.has(name):
			continue
		seen[name] = true
		var found := connections(node, name, root)
		var entry := {
			"name": name,
			"args": _args_out(info.get("args", [])),
			"source": "script" if name in from_script else node.get_class(),
			"connection_count": found.size(),
		}
		if include_connections:
			entry["connections"] = found
		listed.append(entry)
	listed.sort_custom(func(a: Dictionary, b: Dictionary) -> bool: return a["name"] < b["name"])
	return listed


static func connections(node: Object, signal_name: String, root: Node) -> Array[Dictionary]:
	var found: Array[Dictionary] = []
	if not node.has_signal(signal_name):
		return found
	for connection: Dictionary in node.get_signal_connection_list(signal_name):
		var callable: Callable = connection["callable"]
		found.append({
			"target_path": target_path(callable.get_object(), root),
			"method_name": String(callable.get_method()) if not callable.is_custom() else "<lambda>",
			"persistent": int(connection["flags"]) & CONNECT_PERSIST != 0,
		})
	return found


static func arg_info(node: Object, signal_name: String) -> Array[Dictionary]:
	for info: Dictionary in node.get_signal_list():
		if String(info["name"]) == signal_name:
			var args: Array[Dictionary] = []
			for arg: Dictionary in info.get("args", []):
				args.append({"name": String(arg.get("name", "")), "type": int(arg.get("type", TYPE_NIL))})
			return args
	return []


static func script_signal_names(node: Object) -> PackedStringArray:
	var names := PackedStringArray()
	var script := node.get_script() as Script
	while script != null:
		for info: Dictionary in script.get_script_signal_list():
			names.append(String(info["name"]))
		script = script.get_base_script()
	return names


## "." for the root, "Player/Gun" inside it, the absolute tree path for a node elsewhere, "" for
## a target that is not a node (a lambda's owner, a RefCounted).
static func target_path(target: Object, root: Node) -> String:
	if not target is Node:
		return ""
	var node := target as Node
	if root != null and is_instance_valid(root):
		if node == root:
			return "."
		if root.is_ancestor_of(node):
			return String(root.get_path_to(node))
	return String(node.get_path()) if node.is_inside_tree() else String(node.name)


static func _args_out(args: Array) -> Array[Dictionary]:
	var out: Array[Dictionary] = []
	for arg: Dictionary in args:
		var type := int(arg.get("type", TYPE_NIL))
		var type_name := "Variant" if type == TYPE_NIL else type_string(type)
		if not String(arg.get("class_name", "")).is_empty():
			type_name = String(arg["class_name"])
		out.append({"name": String(arg.get("name", "")), "type": type_name})
	return out
