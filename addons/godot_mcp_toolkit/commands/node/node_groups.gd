@tool
extends RefCounted
## node.groups' work: add / remove group memberships as one undoable action, and list them.
## Runtime-safe: names no Editor* class.
##
## Godot has no getter for whether a membership is persistent (saved in the .tscn), yet undo must
## put back exactly what was there and `list` should say which groups save. The persistent groups
## of one node are read from a PackedScene of that node alone: packing records only persistent
## groups, and nodes the packed node does not own are skipped, so it stays cheap.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const ToolkitSuccess := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_success.gd")
const NodeLookup := preload("res://addons/godot_mcp_toolkit/scene/node_lookup.gd")

## Engine-internal groups (viewports, canvas items) start with "_" and are not the user's.
const INTERNAL_PREFIX := "_"


## Applies `add` or `remove` for each {node, group} in `items` as one undo action. Returns the
## per-item outcomes and how many changed; `persistent` applies to every added membership.
static func change(context: RefCounted, root: Node, action_name: String, items: Array, persistent: bool) -> Dictionary:
	var outcomes: Array = []
	var action: RefCounted = context.create_undo_action("MCP: %s group" % action_name.capitalize(), root)
	var changed := 0
	for item: Dictionary in items:
		var node: Node = item["node"]
		var group: String = item["group"]
		var outcome := {"node_path": NodeLookup.path_of(root, node), "group": group}
		var member := node.is_in_group(group)
		var was_persistent := member and group in persistent_groups(node)
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
		context.mark_modified()
	return {"results": outcomes, "changed": changed}


## The user groups of `node`, each {group, persistent}, sorted by name.
static func groups_of(node: Node) -> Array:
	var saved := persistent_groups(node)
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


## The names of the groups of `node` that are saved with the scene.
static func persistent_groups(node: Node) -> PackedStringArray:
	var packed := PackedScene.new()
	if packed.pack(node) != OK:
		return PackedStringArray()
	var state := packed.get_state()
	if state.get_node_count() == 0:
		return PackedStringArray()
	var found := PackedStringArray()
	for group: StringName in state.get_node_groups(0):
		found.append(String(group))
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
