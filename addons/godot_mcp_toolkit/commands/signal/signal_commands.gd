@tool
extends RefCounted
## Signals in the edited scene: signal.list (a node's signals, optionally their connections) and
## signal.manage (connect/disconnect). Connections are made persistent (CONNECT_PERSIST), as the
## editor's Node dock makes them, so they are saved into the scene file. Runtime-safe.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const ToolkitSuccess := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_success.gd")
const Params := preload("res://addons/godot_mcp_toolkit/contract/params.gd")
const NodeLookup := preload("res://addons/godot_mcp_toolkit/scene_tree/node_lookup.gd")

const SELF_PATH := "res://addons/godot_mcp_toolkit/commands/signal/signal_commands.gd"
## signal.emit is one command in the editor and the game: the emitting logic lives once, there.
const EMITTER_PATH := "res://addons/godot_mcp_toolkit/commands/signal/runtime_signal_commands.gd"
const ACTIONS := ["connect", "disconnect"]
const LIST_HINT := "signal_list with include_connections shows a node's signals and connections."


static func register(registry: RefCounted, context: RefCounted) -> void:
	var script: Script = load(SELF_PATH)
	registry.register_command("signal.list", Callable(script, "_cmd_list").bind(context),
		registry.create_options()
		.read_only())
	registry.register_command("signal.manage", Callable(script, "_cmd_manage").bind(context),
		registry.create_options())
	# Emitting in the editor reaches @tool code of the edited scene; it is an event, so there is no undo.
	registry.register_command("signal.emit", Callable(load(EMITTER_PATH), "_cmd_emit").bind(
		{"context": context, "made": {}}),
		registry.create_options())


# --- signal.list ---------------------------------------------------------------------------------

static func _cmd_list(params: Dictionary, context: RefCounted) -> Dictionary:
	var root: Node = context.scenes.scene_root()
	var path: Variant = params.get("node_path", ".")
	if path == null:
		path = "."
	if not path is String:
		return ToolkitError.fail("INVALID_PARAMS", "node_path must be a string")
	var found := NodeLookup.find(root, path)
	if not found["ok"]:
		return found["error"]
	var node: Node = found["node"]
	var with_connections: Variant = params.get("include_connections", false)
	if not with_connections is bool:
		return ToolkitError.fail("INVALID_PARAMS", "include_connections must be true or false")
	var script_signals := _script_signal_names(node)
	var signals: Array[Dictionary] = []
	for info: Dictionary in node.get_signal_list():
		var entry := {"name": String(info["name"]), "args": _arguments(info["args"]),
			"source": "script" if String(info["name"]) in script_signals else node.get_class()}
		if with_connections:
			entry["connections"] = _connections(root, node, entry["name"])
		signals.append(entry)
	return ToolkitSuccess.ok({"node_path": NodeLookup.path_of(root, node), "class": node.get_class(),
		"signals": signals, "count": signals.size()})


static func _script_signal_names(node: Node) -> PackedStringArray:
	var names := PackedStringArray()
	var script := node.get_script() as Script
	if script != null:
		for info: Dictionary in script.get_script_signal_list():
			names.append(String(info["name"]))
	return names


static func _arguments(args: Array) -> Array[Dictionary]:
	var out: Array[Dictionary] = []
	for arg: Dictionary in args:
		var type_name := type_string(int(arg["type"]))
		if not String(arg.get("class_name", "")).is_empty():
			type_name = String(arg["class_name"])
		out.append({"name": String(arg["name"]), "type": type_name})
	return out


## The connections of `signal_name` whose target is a node of this scene; the editor's own
## listeners (not part of the scene) are left out.
static func _connections(root: Node, node: Node, signal_name: String) -> Array[Dictionary]:
	var out: Array[Dictionary] = []
	for connection: Dictionary in node.get_signal_connection_list(signal_name):
		var callable: Callable = connection["callable"]
		var target := callable.get_object() as Node
		if target == null or not (target == root or root.is_ancestor_of(target)):
			continue
		out.append({"target_path": NodeLookup.path_of(root, target), "method_name": String(callable.get_method()),
			"persistent": int(connection["flags"]) & CONNECT_PERSIST != 0})
	return out


# --- signal.manage -------------------------------------------------------------------------------

static func _cmd_manage(params: Dictionary, context: RefCounted) -> Dictionary:
	var checked := _checked_manage(params, context.scenes.scene_root())
	if not checked["ok"]:
		return checked["error"]
	var source: Node = checked["source"]
	var signal_name: String = params["signal_name"]
	var callable := Callable(checked["target"] as Node, StringName(params["method_name"]))
	var result := {"action": params["action"], "node_path": checked["source_path"], "signal_name": signal_name,
		"target_path": checked["target_path"], "method_name": params["method_name"], "persistent": true}
	var connected := source.is_connected(signal_name, callable)
	if params["action"] == "disconnect":
		if not connected:
			return ToolkitError.fail("NOT_FOUND", "%s.%s is not connected to %s.%s" % [
				result["node_path"], signal_name, result["target_path"], params["method_name"]], LIST_HINT)
		return _disconnect(context, source, signal_name, callable, result)
	if connected:
		result["status"] = "already_connected"
		return ToolkitSuccess.ok(result)
	return _connect(context, source, signal_name, callable, result, checked["warnings"])


## {"ok": true, "source", "target", "source_path", "target_path", "warnings"} or {"ok": false, "error"}.
static func _checked_manage(params: Dictionary, root: Node) -> Dictionary:
	var request := params.duplicate()
	if request.get("node_path") == null and params.get("source_path") != null:
		request["node_path"] = params["source_path"]
	var missing := Params.require(request, ["action", "node_path", "signal_name", "target_path", "method_name"])
	var problem := "" if missing.is_empty() else str(missing["error"])
	for key: String in ["action", "node_path", "signal_name", "target_path", "method_name"]:
		if problem.is_empty() and not request[key] is String:
			problem = "%s must be a string" % key
	if problem.is_empty() and not request["action"] in ACTIONS:
		problem = "action must be connect or disconnect, got '%s'" % request["action"]
	if not problem.is_empty():
		return {"ok": false, "error": ToolkitError.fail("INVALID_PARAMS", problem)}
	var source := NodeLookup.find(root, request["node_path"])
	if not source["ok"]:
		return source
	var target := NodeLookup.find(root, request["target_path"])
	if not target["ok"]:
		return target
	return _checked_members(root, source["node"], target["node"], request)


static func _checked_members(root: Node, source: Node, target: Node, request: Dictionary) -> Dictionary:
	var signal_name: String = request["signal_name"]
	var method_name: String = request["method_name"]
	var error := {}
	if not source.has_signal(signal_name):
		error = ToolkitError.fail("NOT_FOUND", "%s (%s) has no signal '%s'" % [source.name, source.get_class(),
			signal_name], LIST_HINT)
	elif request["action"] == "connect" and _method_arguments(target, method_name).is_empty():
		error = ToolkitError.fail("NOT_FOUND", "%s (%s) has no method '%s'" % [target.name, target.get_class(),
			method_name], "Add the method to the target's script first (script_edit), then connect.")
	if not error.is_empty():
		return {"ok": false, "error": error}
	var warnings := PackedStringArray()
	for node: Node in [source, target]:
		if node != root and node.owner != root:
			warnings.append("%s is not saved with the scene (its owner is not the scene root), " % node.name
				+ "so neither is this connection")
	var arity := _arity_warning(source, signal_name, target, method_name)
	if not arity.is_empty():
		warnings.append(arity)
	return {"ok": true, "source": source, "target": target, "source_path": NodeLookup.path_of(root, source),
		"target_path": NodeLookup.path_of(root, target), "warnings": warnings}


## {"min": required argument count, "max": all of them} of a method the node or its script
## has; {} when it has none. A script method counts even when the editor holds the script as a
## placeholder (not a @tool script), where the node itself would not answer has_method.
static func _method_arguments(target: Node, method_name: String) -> Dictionary:
	var methods: Array[Dictionary] = []
	var script := target.get_script() as Script
	if script != null:
		methods.append_array(script.get_script_method_list())
	if target.has_method(method_name):
		methods.append_array(target.get_method_list())
	for info: Dictionary in methods:
		if String(info["name"]) == method_name:
			var total := (info["args"] as Array).size()
			var vararg := int(info.get("flags", 0)) & METHOD_FLAG_VARARG != 0
			return {"min": total - (info["default_args"] as Array).size(), "max": 1 << 30 if vararg else total}
	return {}


static func _arity_warning(source: Node, signal_name: String, target: Node, method_name: String) -> String:
	var bounds := _method_arguments(target, method_name)
	var sent := -1
	for info: Dictionary in source.get_signal_list():
		if String(info["name"]) == signal_name:
			sent = (info["args"] as Array).size()
	if bounds.is_empty() or sent < 0 or (sent >= int(bounds["min"]) and sent <= int(bounds["max"])):
		return ""
	return "%s sends %d argument(s) but %s takes %d to %d: the call will fail when the signal is emitted" % [
		signal_name, sent, method_name, bounds["min"], bounds["max"]]


static func _connect(context: RefCounted, source: Node, signal_name: String, callable: Callable,
		result: Dictionary, warnings: PackedStringArray) -> Dictionary:
	var action: RefCounted = context.edits.create_undo_action("MCP: connect %s" % signal_name, source)
	action.add_do_method(source, &"connect", [signal_name, callable, CONNECT_PERSIST])
	action.add_undo_method(source, &"disconnect", [signal_name, callable])
	action.commit()
	if not source.is_connected(signal_name, callable):
		return ToolkitError.fail("CONNECT_FAILED", "The engine refused to connect %s to %s" % [
			signal_name, callable], "Check the method's arguments against the signal's.")
	context.scenes.mark_modified()
	result["status"] = "connected"
	if not warnings.is_empty():
		result["warnings"] = warnings
	return ToolkitSuccess.ok(result)


## Undo reconnects with the flags the connection had, so a non-persistent one stays so.
static func _disconnect(context: RefCounted, source: Node, signal_name: String, callable: Callable,
		result: Dictionary) -> Dictionary:
	var flags := CONNECT_PERSIST
	for connection: Dictionary in source.get_signal_connection_list(signal_name):
		if connection["callable"] == callable:
			flags = int(connection["flags"])
	var action: RefCounted = context.edits.create_undo_action("MCP: disconnect %s" % signal_name, source)
	action.add_do_method(source, &"disconnect", [signal_name, callable])
	action.add_undo_method(source, &"connect", [signal_name, callable, flags])
	action.commit()
	context.scenes.mark_modified()
	result["status"] = "disconnected"
	result["persistent"] = flags & CONNECT_PERSIST != 0
	return ToolkitSuccess.ok(result)
