@tool
extends RefCounted
## animationtree.list and animationtree.edit (registered by commands/animation/animation_commands.gd): an
## AnimationTree's root (a state machine or a blend tree), its nodes and its state-machine
## transitions, each edit one undoable action recorded against the tree node. Nodes are read
## through the "states/<name>/node" / "nodes/<name>/node" properties, which every 4.x has
## (get_node_list on the roots is later). Runtime-safe.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const ToolkitSuccess := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_success.gd")
const Params := preload("res://addons/godot_mcp_toolkit/contract/params.gd")
const NodeLookup := preload("res://addons/godot_mcp_toolkit/scene_tree/node_lookup.gd")
const PropertyAccess := preload("res://addons/godot_mcp_toolkit/scene_tree/property_access.gd")

const SELF_PATH := "res://addons/godot_mcp_toolkit/commands/animation/animation_tree.gd"
const ACTIONS := ["set_root", "add_node", "remove_node", "add_transition", "remove_transition", "set_property"]
const ROOT_TYPES := ["AnimationNodeStateMachine", "AnimationNodeBlendTree"]
const SWITCH_MODES := {"immediate": 0, "sync": 1, "at_end": 2}
const ADVANCE_MODES := {"disabled": 0, "enabled": 1, "auto": 2}
const MODE_NAMES := {0: "immediate", 1: "sync", 2: "at_end"}
const ADVANCE_NAMES := {0: "disabled", 1: "enabled", 2: "auto"}
## Nodes a root makes itself; they cannot be added or removed.
const BUILT_IN := ["Start", "End", "output"]


static func register(registry: RefCounted, context: RefCounted) -> void:
	var script: Script = load(SELF_PATH)
	registry.register_command("animationtree.edit", Callable(script, "_cmd_edit").bind(context),
		registry.create_options())
	registry.register_command("animationtree.list", Callable(script, "_cmd_list").bind(context),
		registry.create_options()
		.read_only())


static func _cmd_list(params: Dictionary, context: RefCounted) -> Dictionary:
	var found := _tree(params, context)
	if not found["ok"]:
		return found["error"]
	return ToolkitSuccess.ok(_describe(found["tree"], found["node_path"]))


static func _describe(tree: AnimationTree, node_path: String) -> Dictionary:
	var root := tree.tree_root
	var result := {"node_path": node_path, "root_type": root.get_class() if root != null else null,
		"anim_player": str(tree.anim_player), "active": tree.active, "nodes": [], "transitions": []}
	if root == null:
		return result
	var nodes: Array[Dictionary] = []
	for name: String in _node_names(root):
		var node: AnimationNode = root.call("get_node", name)
		var entry := {"name": name, "type": node.get_class(), "position": _xy(root.call("get_node_position", name))}
		if node is AnimationNodeAnimation:
			entry["animation"] = str((node as AnimationNodeAnimation).animation)
		nodes.append(entry)
	result["nodes"] = nodes
	result["node_count"] = nodes.size()
	if root is AnimationNodeStateMachine:
		var machine := root as AnimationNodeStateMachine
		var transitions: Array[Dictionary] = []
		for index in machine.get_transition_count():
			var transition := machine.get_transition(index)
			transitions.append({"from": str(machine.get_transition_from(index)), "to": str(machine.get_transition_to(index)),
				"switch_mode": MODE_NAMES.get(transition.switch_mode, transition.switch_mode),
				"advance_mode": ADVANCE_NAMES.get(transition.advance_mode, transition.advance_mode),
				"advance_condition": str(transition.advance_condition)})
		result["transitions"] = transitions
	return result


static func _cmd_edit(params: Dictionary, context: RefCounted) -> Dictionary:
	var action: Variant = params.get("action")
	if not (action is String and action in ACTIONS):
		return ToolkitError.fail("INVALID_PARAMS", "action must be one of %s" % ", ".join(ACTIONS))
	var found := _tree(params, context)
	if not found["ok"]:
		return found["error"]
	var tree: AnimationTree = found["tree"]
	if action == "set_root":
		return _set_root(params, tree, found["node_path"], context)
	var root := tree.tree_root
	if root == null:
		return ToolkitError.fail("INVALID_STATE", "%s has no root yet" % found["node_path"],
			"Give it one with action=set_root (root_type AnimationNodeStateMachine or AnimationNodeBlendTree).")
	var summary := {"action": action, "node_path": found["node_path"], "root_type": root.get_class()}
	match action:
		"add_node":
			return _add_node(params, tree, root, summary, context)
		"remove_node":
			return _remove_node(params, tree, root, summary, context)
		"add_transition", "remove_transition":
			return _transition(params, tree, root, summary, context)
	return _set_property(params, tree, root, summary, context)


static func _set_root(params: Dictionary, tree: AnimationTree, node_path: String, context: RefCounted) -> Dictionary:
	var root_type: Variant = params.get("root_type", "AnimationNodeStateMachine")
	if not (root_type is String and root_type in ROOT_TYPES):
		return ToolkitError.fail("INVALID_PARAMS", "root_type must be %s" % " or ".join(ROOT_TYPES))
	var old := tree.tree_root
	var fresh: AnimationRootNode = ClassDB.instantiate(root_type)
	var undo: RefCounted = context.edits.create_undo_action("MCP: AnimationTree root", tree)
	undo.add_do_property(tree, &"tree_root", fresh)
	undo.add_undo_property(tree, &"tree_root", old)
	undo.commit()
	context.scenes.mark_modified()
	return ToolkitSuccess.ok({"action": "set_root", "node_path": node_path, "root_type": root_type,
		"status": "replaced" if old != null else "created",
		"replaced_type": old.get_class() if old != null else null})


static func _add_node(params: Dictionary, tree: AnimationTree, root: AnimationRootNode, summary: Dictionary,
		context: RefCounted) -> Dictionary:
	var name := _name_param(params, "node_name")
	if name.is_empty():
		return ToolkitError.fail("INVALID_PARAMS", "node_name is required (a non-empty string without '/')")
	var node_type: Variant = params.get("node_type", "AnimationNodeAnimation")
	if not (node_type is String and ClassDB.class_exists(node_type) and ClassDB.can_instantiate(node_type)
			and ClassDB.is_parent_class(node_type, "AnimationRootNode")):
		return ToolkitError.fail("INVALID_CLASS", "node_type must be an AnimationRootNode class, e.g. "
			+ "AnimationNodeAnimation or AnimationNodeBlendSpace1D: %s" % str(node_type))
	if name in BUILT_IN or name in _node_names(root):
		return ToolkitError.fail("INVALID_PARAMS", "The tree already has a node named %s" % name,
			"animationtree_list shows the node names; pick another or remove it first.")
	var position := Vector2.ZERO
	if params.has("position"):
		var raw: Variant = params["position"]
		if not (raw is Dictionary and Params.is_number(raw.get("x")) and Params.is_number(raw.get("y"))):
			return ToolkitError.fail("INVALID_PARAMS", "position must be {x, y} numbers")
		var unknown := Params.reject_unknown_keys(raw, ["x", "y", "type"], "position")
		if not unknown.is_empty():
			return unknown
		position = Vector2(raw["x"], raw["y"])
	var node: AnimationNode = ClassDB.instantiate(node_type)
	if params.has("animation_name"):
		if not node is AnimationNodeAnimation:
			return ToolkitError.fail("INVALID_PARAMS", "animation_name applies to AnimationNodeAnimation nodes only")
		(node as AnimationNodeAnimation).animation = StringName(str(params["animation_name"]))
	var undo: RefCounted = context.edits.create_undo_action("MCP: AnimationTree add %s" % name, tree)
	undo.add_do_method(root, &"add_node", [name, node, position])
	undo.add_undo_method(root, &"remove_node", [name])
	undo.add_do_reference(node)
	undo.commit()
	context.scenes.mark_modified()
	summary.merge({"status": "created", "node_name": name, "node_type": node_type, "position": _xy(position)})
	if node is AnimationNodeAnimation:
		summary["animation"] = str((node as AnimationNodeAnimation).animation)
	return ToolkitSuccess.ok(summary)


## Removing a state drops its transitions and a blend-tree node its connections: the undo puts
## them back (transitions one by one, connections through the root's node_connections list).
static func _remove_node(params: Dictionary, tree: AnimationTree, root: AnimationRootNode, summary: Dictionary,
		context: RefCounted) -> Dictionary:
	var name := _name_param(params, "node_name")
	if name.is_empty():
		return ToolkitError.fail("INVALID_PARAMS", "node_name is required")
	if name in BUILT_IN:
		return ToolkitError.fail("INVALID_PARAMS", "%s is made by the tree itself and cannot be removed" % name)
	if not name in _node_names(root):
		return ToolkitError.fail("NOT_FOUND", "No node %s in the tree" % name,
			"Nodes: %s" % ", ".join(_node_names(root)))
	var undo: RefCounted = context.edits.create_undo_action("MCP: AnimationTree remove %s" % name, tree)
	undo.add_do_method(root, &"remove_node", [name])
	undo.add_undo_method(root, &"add_node", [name, root.call("get_node", name), root.call("get_node_position", name)])
	var dropped := 0
	if root is AnimationNodeStateMachine:
		var machine := root as AnimationNodeStateMachine
		for index in machine.get_transition_count():
			var from := str(machine.get_transition_from(index))
			var to := str(machine.get_transition_to(index))
			if from == name or to == name:
				undo.add_undo_method(machine, &"add_transition", [from, to, machine.get_transition(index)])
				dropped += 1
	else:
		undo.add_undo_property(root, &"node_connections", root.get("node_connections"))
	undo.commit()
	context.scenes.mark_modified()
	summary.merge({"status": "removed", "node_name": name, "transitions_removed": dropped})
	return ToolkitSuccess.ok(summary)


static func _transition(params: Dictionary, tree: AnimationTree, root: AnimationRootNode, summary: Dictionary,
		context: RefCounted) -> Dictionary:
	var machine := root as AnimationNodeStateMachine
	if machine == null:
		return ToolkitError.fail("INVALID_STATE", "Transitions belong to a state machine; this root is a %s"
			% root.get_class(), "set_root with root_type AnimationNodeStateMachine first.")
	var from := _name_param(params, "from")
	var to := _name_param(params, "to")
	if from.is_empty() or to.is_empty():
		return ToolkitError.fail("INVALID_PARAMS", "from and to are required state names")
	for state: String in [from, to]:
		if not machine.has_node(state):
			return ToolkitError.fail("NOT_FOUND", "No state %s" % state, "States: %s" % ", ".join(_node_names(root)))
	summary.merge({"from": from, "to": to})
	var exists := machine.has_transition(from, to)
	if summary["action"] == "remove_transition":
		if not exists:
			return ToolkitError.fail("NOT_FOUND", "No transition %s -> %s" % [from, to])
		var index := _transition_index(machine, from, to)
		var undo: RefCounted = context.edits.create_undo_action("MCP: remove transition", tree)
		undo.add_do_method(machine, &"remove_transition", [from, to])
		undo.add_undo_method(machine, &"add_transition", [from, to, machine.get_transition(index)])
		undo.commit()
		context.scenes.mark_modified()
		summary["status"] = "removed"
		return ToolkitSuccess.ok(summary)
	var transition := AnimationNodeStateMachineTransition.new()
	var modes := _transition_modes(params, transition)
	if not modes.is_empty():
		return modes
	var action: RefCounted = context.edits.create_undo_action("MCP: add transition", tree)
	if exists:
		var old := machine.get_transition(_transition_index(machine, from, to))
		action.add_do_method(machine, &"remove_transition", [from, to])
		action.add_undo_method(machine, &"remove_transition", [from, to])
		action.add_undo_method(machine, &"add_transition", [from, to, old])
	action.add_do_method(machine, &"add_transition", [from, to, transition])
	if not exists:
		action.add_undo_method(machine, &"remove_transition", [from, to])
	action.commit()
	context.scenes.mark_modified()
	summary.merge({"status": "replaced" if exists else "created",
		"switch_mode": MODE_NAMES[transition.switch_mode], "advance_mode": ADVANCE_NAMES[transition.advance_mode],
		"advance_condition": str(transition.advance_condition)})
	return ToolkitSuccess.ok(summary)


## Fills `transition` from switch_mode / advance_mode / advance_condition; {} or an error.
static func _transition_modes(params: Dictionary, transition: AnimationNodeStateMachineTransition) -> Dictionary:
	var switch_mode: Variant = params.get("switch_mode", "immediate")
	if not (switch_mode is String and SWITCH_MODES.has(switch_mode)):
		return ToolkitError.fail("INVALID_PARAMS", "switch_mode must be immediate, sync or at_end")
	var advance_mode: Variant = params.get("advance_mode", "enabled")
	if not (advance_mode is String and ADVANCE_MODES.has(advance_mode)):
		return ToolkitError.fail("INVALID_PARAMS", "advance_mode must be disabled, enabled or auto")
	var condition: Variant = params.get("advance_condition", "")
	if not condition is String:
		return ToolkitError.fail("INVALID_PARAMS", "advance_condition must be a string")
	transition.switch_mode = SWITCH_MODES[switch_mode]
	transition.advance_mode = ADVANCE_MODES[advance_mode]
	transition.advance_condition = StringName(condition)
	return {}


## target_node names a node of the tree root ("" or absent: the root itself).
static func _set_property(params: Dictionary, tree: AnimationTree, root: AnimationRootNode, summary: Dictionary,
		context: RefCounted) -> Dictionary:
	var property: Variant = params.get("property")
	if not property is String or (property as String).is_empty():
		return ToolkitError.fail("INVALID_PARAMS", "property is required, e.g. animation or xfade_time")
	if not params.has("value"):
		return ToolkitError.fail("INVALID_PARAMS", "value is required")
	var target_name: Variant = params.get("target_node", "")
	if not target_name is String:
		return ToolkitError.fail("INVALID_PARAMS", "target_node must be a node name of the tree")
	var target: Object = root
	if not (target_name as String).is_empty():
		if not target_name in _node_names(root):
			return ToolkitError.fail("NOT_FOUND", "No node %s in the tree" % target_name,
				"Nodes: %s" % ", ".join(_node_names(root)))
		target = root.call("get_node", target_name)
	var undo: RefCounted = context.edits.create_undo_action("MCP: AnimationTree %s" % property, tree)
	var outcome := PropertyAccess.write(target, property, params["value"], undo)
	if outcome["status"] == PropertyAccess.STATUS_FAILED:
		return PropertyAccess.failure_envelope(outcome)
	undo.commit()
	context.scenes.mark_modified()
	summary.merge({"status": outcome["status"], "target_node": target_name, "property": property,
		"value": outcome["value"]})
	if outcome.has("warning"):
		summary["warning"] = outcome["warning"]
	return ToolkitSuccess.ok(summary)


static func _tree(params: Dictionary, context: RefCounted) -> Dictionary:
	var path: Variant = params.get("node_path")
	if not path is String or (path as String).is_empty():
		return {"ok": false, "error": ToolkitError.fail("INVALID_PARAMS", "node_path is required")}
	var root: Node = context.scenes.scene_root()
	var found := NodeLookup.find(root, path)
	if not found["ok"]:
		return found
	var tree := found["node"] as AnimationTree
	if tree == null:
		return {"ok": false, "error": ToolkitError.fail("INVALID_CLASS", "%s is a %s, not an AnimationTree" % [
			path, (found["node"] as Node).get_class()])}
	return {"ok": true, "tree": tree, "node_path": NodeLookup.path_of(root, tree)}


static func _node_names(root: AnimationRootNode) -> PackedStringArray:
	var prefix := "states/" if root is AnimationNodeStateMachine else "nodes/"
	var names := PackedStringArray()
	for entry: Dictionary in root.get_property_list():
		var name: String = entry["name"]
		if name.begins_with(prefix) and name.ends_with("/node"):
			names.append(name.trim_prefix(prefix).trim_suffix("/node"))
	return names


static func _transition_index(machine: AnimationNodeStateMachine, from: String, to: String) -> int:
	for index in machine.get_transition_count():
		if str(machine.get_transition_from(index)) == from and str(machine.get_transition_to(index)) == to:
			return index
	return -1


static func _name_param(params: Dictionary, key: String) -> String:
	var value: Variant = params.get(key)
	if not value is String or "/" in value:
		return ""
	return (value as String).strip_edges()


static func _xy(value: Vector2) -> Dictionary:
	return {"x": value.x, "y": value.y}
