@tool
extends RefCounted
## node.groups' work: add / remove group memberships as one undoable action, and list them.
## Runtime-safe: names no Editor* class.
##
## Godot has no getter for whether a membership is persistent (saved in the .tscn), yet undo must
## put back exactly what was there and `list` should say which groups save. They are read from a
## PackedScene of the scene root, once per call: packing records exactly the persistent groups of
## the nodes the scene saves (packing a node below the root instead makes the engine complain
## about every child the root owns).

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const ToolkitSuccess := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_success.gd")
const NodeLookup := preload("res://addons/godot_mcp_toolkit/scene_tree/node_lookup.gd")

## Engine-internal groups (viewports, canvas items) start with "_" and are not the user's.
const INTERNAL_PREFIX := "_"


## Applies `add` or `remove` for each {node, group} in `items` as one undo action. Returns the
## per-item outcomes and how many changed; `persistent` applies to every added membership.
static func change(context: RefCounted, root: Node, action_name: String, items: Array, persistent: bool) -> Dictionary:
	var outcomes: Array = []
	var action: RefCounted = context.edits.create_undo_action("MCP: %s group" % action_name.capitalize(), root)
	var changed := 0
	var saved := persistent_map(root)
	for item: Dictionary in items:
		var node: Node = item["node"]
		var group: String = item["group"]
		var outcome := {"node_path": NodeLookup.path_of(root, node), "group": group}
		var member := node.is_in_group(group)
		var node_saved: PackedStringArray = saved.get(NodeLookup.path_of(root, node), PackedStringArray())
		var was_persistent := member and group in node_saved
		if action_name == "add":
			if member and was_persistent == persistent:
				outcome["status"] = "unchanged"
			else:
				if member:
					action.add_do_method(node, &"remove_from_group", [group])
				action.add_do_method(node, &"add_to_group", [group, persistent])
				action.add_undo_method(node, &"remove_from_group", [group])
				if member:
					action.add_undo_method(node, &"add_to_group", [group, was_persistent])
				outcome["status"] = "added" if not member else "updated"
				outcome["persistent"] = persistent
				changed += 1
		elif not member:
			outcome["status"] = "unchanged"
		else:
			action.add_do_method(node, &"remove_from_group", [group])
			action.add_undo_method(node, &"add_to_group", [group, was_persistent])
			outcome["status"] = "removed"
			changed += 1
		outcomes.append(outcome)
	if changed > 0:
		action.commit()
		context.scenes.mark_modified()
	return {"results": outcomes, "changed": changed}


## The user groups of `node`, each {group, persistent}, sorted by name.
static func groups_of(root: Node, node: Node) -> Array:
	var saved: PackedStringArray = persistent_map(root).get(NodeLookup.path_of(root, node), PackedStringArray())
	var names := PackedStringArray()
	for group: StringName in node.get_groups():
		if not String(group).begins_with(INTERNAL_PREFIX):
			names.append(String(group))
	names.sort()
	var out: Array = []
	for group: String in names:
		out.append({"group": group, "persistent": group in saved})
	return out


## Every user group used in the scene under `root`: {group, nodes: [paths]} sorted by name.
static func scene_groups(root: Node) -> Array:
	var members := {}
	_collect(root, root, members)
	var names := PackedStringArray(members.keys())
	names.sort()
	var out: Array = []
	for group: String in names:
		out.append({"group": group, "nodes": members[group]})
	return out


## Scene path (as NodeLookup.path_of gives it) -> the names of that node's groups saved with the scene.
static func persistent_map(root: Node) -> Dictionary:
	var packed := PackedScene.new()
	if packed.pack(root) != OK:
		return {}
	var state := packed.get_state()
	var found := {}
	for index in state.get_node_count():
		var path := String(state.get_node_path(index))
		if path.begins_with("./"):
			path = path.substr(2)
		var names := PackedStringArray()
		for group: StringName in state.get_node_groups(index):
			names.append(String(group))
		found["." if path.is_empty() else path] = names
	return found


static func _collect(root: Node, node: Node, members: Dictionary) -> void:
	for group: StringName in node.get_groups():
		var name := String(group)
		if name.begins_with(INTERNAL_PREFIX):
			continue
		if not members.has(name):
			members[name] = []
		members[name].append(NodeLookup.path_of(root, node))
	for child: Node in node.get_children():
		_collect(root, child, members)
