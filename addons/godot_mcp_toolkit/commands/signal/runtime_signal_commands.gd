@tool
extends RefCounted
## Signals in the running game (Mode B, registered through runtime/runtime_domains.gd):
## signal.list, signal.connect, signal.disconnect, signal.emit on nodes of the game's current scene
## (context.scenes.scene_root()). Connections the assistant makes are remembered, so list and disconnect
## can tell them from the game's own. Nothing here is undoable: the game is not a saved scene.
## RUNTIME-REACHABLE: nothing here or below may name an Editor* class.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const ToolkitSuccess := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_success.gd")
const Coerce := preload("res://addons/godot_mcp_toolkit/contract/coerce.gd")
const NodeLookup := preload("res://addons/godot_mcp_toolkit/scene_tree/node_lookup.gd")
const SignalInfo := preload("res://addons/godot_mcp_toolkit/scene_tree/signal_info.gd")

const SELF_PATH := "res://addons/godot_mcp_toolkit/commands/signal/runtime_signal_commands.gd"
const LINK_PARAMS := ["signal_name", "target_path", "method_name"]


static func register(registry: RefCounted, context: RefCounted) -> void:
	var script: Script = load(SELF_PATH)
	# Shared by the four handlers: {"context", "made": {connection key: {source_id, signal, callable}}}.
	var state := {"context": context, "made": {}}
	registry.register_command("signal.list", Callable(script, "_cmd_list").bind(state),
		registry.create_options()
		.read_only())
	registry.register_command("signal.connect", Callable(script, "_cmd_connect").bind(state),
		registry.create_options()
		.idempotent())
	registry.register_command("signal.disconnect", Callable(script, "_cmd_disconnect").bind(state),
		registry.create_options())
	registry.register_command("signal.emit", Callable(script, "_cmd_emit").bind(state),
		registry.create_options())


static func _cmd_list(params: Dictionary, state: Dictionary) -> Dictionary:
	var path: Variant = params.get("node_path", ".")
	var include: Variant = params.get("include_connections", false)
	if not path is String:
		return ToolkitError.fail("INVALID_PARAMS", "node_path must be a string ('.' is the scene root)")
	if not include is bool:
		return ToolkitError.fail("INVALID_PARAMS", "include_connections must be true or false")
	var root := _root(state)
	var found := NodeLookup.find(root, path)
	if not found["ok"]:
		return found["error"]
	var node: Node = found["node"]
	_forget_gone(state)
	var signals := SignalInfo.list(node, root, include)
	if include:
		for entry: Dictionary in signals:
			_mark_made(state, node, entry)
	return ToolkitSuccess.ok({
		"node_path": NodeLookup.path_of(root, node),
		"class": node.get_class(),
		"signals": signals,
		"count": signals.size(),
	})


static func _cmd_connect(params: Dictionary, state: Dictionary) -> Dictionary:
	var link := _link(params, state)
	if not link["ok"]:
		return link["error"]
	var source: Node = link["source"]
	var callable: Callable = link["callable"]
	var result := _link_result(link)
	if source.is_connected(link["signal"], callable):
		result["status"] = "returned"
		result["by_assistant"] = state["made"].has(_key(source, link["signal"], callable))
		return ToolkitSuccess.ok(result)
	var error := source.connect(link["signal"], callable)
	if error != OK:
		return ToolkitError.fail("CONNECT_FAILED", "connect() failed: %s" % error_string(error))
	state["made"][_key(source, link["signal"], callable)] = {
		"source_id": source.get_instance_id(), "signal": link["signal"], "callable": callable}
	result["status"] = "created"
	var warning := _arity_warning(source, link)
	if not warning.is_empty():
		result["warning"] = warning
	return ToolkitSuccess.ok(result)


static func _cmd_disconnect(params: Dictionary, state: Dictionary) -> Dictionary:
	var link := _link(params, state)
	if not link["ok"]:
		return link["error"]
	var source: Node = link["source"]
	var callable: Callable = link["callable"]
	if not source.is_connected(link["signal"], callable):
		return ToolkitError.fail("NOT_FOUND", "'%s' of '%s' is not connected to %s.%s" % [
			link["signal"], link["source_path"], link["target_path"], link["method"]],
			"signal_list with include_connections shows the existing connections.")
	var key := _key(source, link["signal"], callable)
	var by_assistant: bool = state["made"].has(key)
	source.disconnect(link["signal"], callable)
	state["made"].erase(key)
	var result := _link_result(link)
	result["disconnected"] = true
	result["by_assistant"] = by_assistant
	if not by_assistant:
		result["warning"] = "This connection was made by the game itself, not through signal_connect."
	return ToolkitSuccess.ok(result)


static func _cmd_emit(params: Dictionary, state: Dictionary) -> Dictionary:
	var path: Variant = params.get("node_path", ".")
	var name: Variant = params.get("signal_name")
	var raw_args: Variant = params.get("args", [])
	if not path is String:
		return ToolkitError.fail("INVALID_PARAMS", "node_path must be a string ('.' is the scene root)")
	if not name is String or (name as String).is_empty():
		return ToolkitError.fail("INVALID_PARAMS", "signal_name is required")
	if not raw_args is Array:
		return ToolkitError.fail("INVALID_PARAMS", "args must be an array of JSON values (type tags allowed)")
	var root := _root(state)
	var found := NodeLookup.find(root, path)
	if not found["ok"]:
		return found["error"]
	var node: Node = found["node"]
	if not node.has_signal(name):
		return _no_signal(node, name)
	var args := _typed_args(node, name, raw_args, root)
	if args.has("error"):
		return args["error"]
	var values: Array = args["values"]
	var receivers := node.get_signal_connection_list(name).size()
	node.callv("emit_signal", [StringName(name)] + values)
	return ToolkitSuccess.ok({
		"node_path": NodeLookup.path_of(root, node),
		"signal_name": name,
		"args": Coerce.serialize_value(values),
		"receivers": receivers,
	})


# --- helpers -------------------------------------------------------------------------------------

static func _root(state: Dictionary) -> Node:
	return (state["context"] as RefCounted).scenes.scene_root()


## Validates a connect/disconnect request: {"ok": true, source, signal, target, method, callable,
## source_path, target_path} or {"ok": false, "error": envelope}. node_path and source_path are
## the same thing under two names (the reference accepts both).
static func _link(params: Dictionary, state: Dictionary) -> Dictionary:
	var source_path: Variant = params.get("node_path")
	if source_path == null:
		source_path = params.get("source_path")
	if not source_path is String or (source_path as String).is_empty():
		return _bad("node_path (or source_path) is required: the node whose signal is connected")
	for key: String in LINK_PARAMS:
		if not params.get(key) is String or (params[key] as String).is_empty():
			return _bad("%s is required" % key)
	_forget_gone(state)
	var root := _root(state)
	var source := NodeLookup.find(root, source_path)
	if not source["ok"]:
		return {"ok": false, "error": source["error"]}
	var target := NodeLookup.find(root, params["target_path"])
	if not target["ok"]:
		return {"ok": false, "error": target["error"]}
	var signal_name: String = params["signal_name"]
	var method: String = params["method_name"]
	if not (source["node"] as Node).has_signal(signal_name):
		return {"ok": false, "error": _no_signal(source["node"], signal_name)}
	if not (target["node"] as Node).has_method(method):
		return {"ok": false, "error": ToolkitError.fail("NOT_FOUND",
			"'%s' has no method '%s'" % [params["target_path"], method], _methods_hint(target["node"]))}
	return {
		"ok": true, "source": source["node"], "signal": signal_name, "target": target["node"], "method": method,
		"callable": Callable(target["node"], method),
		"source_path": NodeLookup.path_of(root, source["node"]),
		"target_path": NodeLookup.path_of(root, target["node"]),
	}


static func _link_result(link: Dictionary) -> Dictionary:
	return {
		"node_path": link["source_path"], "signal_name": link["signal"],
		"target_path": link["target_path"], "method_name": link["method"],
	}


static func _key(source: Node, signal_name: String, callable: Callable) -> String:
	return "%d|%s|%d|%s" % [source.get_instance_id(), signal_name, callable.get_object_id(), callable.get_method()]


## Drops remembered connections that no longer exist (the game disconnected them or freed a
## node), so a later identical connection made by the game is not taken for the assistant's.
static func _forget_gone(state: Dictionary) -> void:
	var made: Dictionary = state["made"]
	for key: String in made.keys():
		var entry: Dictionary = made[key]
		var source := instance_from_id(entry["source_id"])
		if source == null or not source.is_connected(entry["signal"], entry["callable"]):
			made.erase(key)


## Flags each listed connection of `entry` with whether the assistant made it. SignalInfo lists
## connections in the engine's order, so the n-th entry is the n-th engine connection.
static func _mark_made(state: Dictionary, source: Node, entry: Dictionary) -> void:
	var engine_list := source.get_signal_connection_list(entry["name"])
	var listed: Array = entry["connections"]
	for i in mini(listed.size(), engine_list.size()):
		var callable: Callable = engine_list[i]["callable"]
		listed[i]["by_assistant"] = state["made"].has(_key(source, entry["name"], callable))


## The emit arguments, converted from JSON: type tags through contract/coerce.gd, then whole
## numbers to int (and numbers to float) where the signal declares that type, since JSON has one
## number type and a typed receiver would otherwise reject the call. An object argument (a body
## entering an Area2D) is given as the node's path.
static func _typed_args(node: Node, signal_name: String, raw: Array, root: Node) -> Dictionary:
	var coerced: Variant = Coerce.coerce_value(raw)
	var problem := Coerce.error_of(coerced)
	if not problem.is_empty():
		return {"error": ToolkitError.fail("INVALID_PARAMS", "args: %s" % problem)}
	var values: Array = coerced
	var declared := SignalInfo.arg_info(node, signal_name)
	if values.size() != declared.size():
		var names := PackedStringArray(declared.map(func(arg: Dictionary) -> String: return arg["name"]))
		return {"error": ToolkitError.fail("INVALID_PARAMS", "'%s' takes %d argument(s) (%s), got %d" % [
			signal_name, declared.size(), ", ".join(names), values.size()])}
	for i in values.size():
		var want: int = declared[i]["type"]
		var value: Variant = values[i]
		if want == TYPE_NIL or typeof(value) == want:
			continue
		if want == TYPE_INT and value is float and is_finite(value) and value == floorf(value):
			values[i] = int(value)
		elif want == TYPE_FLOAT and value is int:
			values[i] = float(value)
		elif want == TYPE_STRING_NAME and value is String:
			values[i] = StringName(value)
		elif want == TYPE_OBJECT and (value is String or value is NodePath):
			var named := NodeLookup.resolve(root, str(value))
			if named == null:
				return {"error": ToolkitError.fail("NOT_FOUND", "argument %d (%s): no node at '%s'" % [
					i + 1, declared[i]["name"], value], NodeLookup.children_hint(root))}
			values[i] = named
		else:
			return {"error": ToolkitError.fail("INVALID_PARAMS", "argument %d (%s) must be %s, got %s" % [
				i + 1, declared[i]["name"], type_string(want), type_string(typeof(value))],
				"Send engine types as type tags, e.g. {\"type\": \"Vector2\", \"x\": 1, \"y\": 2}.")}
	return {"values": values}


## A warning when the method needs more arguments than the signal passes: Godot accepts the
## connection but every emission will then fail.
static func _arity_warning(source: Node, link: Dictionary) -> String:
	var passed := SignalInfo.arg_info(source, link["signal"]).size()
	for info: Dictionary in (link["target"] as Node).get_method_list():
		if String(info["name"]) != link["method"]:
			continue
		var required: int = (info["args"] as Array).size() - (info["default_args"] as Array).size()
		if required > passed:
			return "%s takes %d argument(s) but '%s' passes %d: each emission will fail" % [
				link["method"], required, link["signal"], passed]
		return ""
	return ""


static func _no_signal(node: Node, name: String) -> Dictionary:
	var names := PackedStringArray()
	for info: Dictionary in node.get_signal_list():
		names.append(String(info["name"]))
	var own := SignalInfo.script_signal_names(node)
	var hint := "Its script's signals: %s." % ", ".join(own) if not own.is_empty() \
		else "Its signals: %s." % ", ".join(names.slice(0, 30))
	return ToolkitError.fail("NOT_FOUND", "%s '%s' has no signal '%s'" % [node.get_class(), node.name, name], hint)


static func _methods_hint(node: Node) -> String:
	var script := node.get_script() as Script
	if script == null:
		return "The node has no script; connect to one of its class methods or attach a script first."
	var names := PackedStringArray()
	for info: Dictionary in script.get_script_method_list():
		var name := String(info["name"])
		if not name in names:
			names.append(name)
	return "Methods of its script: %s." % ", ".join(names.slice(0, 30))


static func _bad(message: String) -> Dictionary:
	return {"ok": false, "error": ToolkitError.fail("INVALID_PARAMS", message)}
