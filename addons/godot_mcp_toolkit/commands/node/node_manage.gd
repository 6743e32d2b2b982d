@tool
extends RefCounted
## node.manage's four actions (rename, reparent, reorder, duplicate), each one undoable action.
## The handler in commands/node/node_commands.gd reads and checks the params; this file validates
## against the scene and builds the undo steps. Runtime-safe: names no Editor* class.
##
## Owners are what make a node part of the saved scene: a node leaving the tree loses an owner
## that is not its ancestor any more, so every move re-sets the owner of each node in the moved
## subtree that the scene root owned (on do and on undo), or the .tscn would silently drop them.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const ToolkitSuccess := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_success.gd")
const NodeLookup := preload("res://addons/godot_mcp_toolkit/scene_tree/node_lookup.gd")


static func rename(context: RefCounted, root: Node, node: Node, new_name: String) -> Dictionary:
	var problem := _name_problem(new_name)
	if not problem.is_empty():
		return ToolkitError.fail("INVALID_PARAMS", problem, "Node names cannot be empty or contain . : @ / \" %")
	var old_name := String(node.name)
	var previous_path := NodeLookup.path_of(root, node)
	if new_name == old_name:
		return ToolkitSuccess.ok({"action": "rename", "status": "unchanged", "node_path": previous_path,
			"name": old_name})
	var parent := node.get_parent()
	if parent != null and parent.has_node(NodePath(new_name)):
		return ToolkitError.fail("ALREADY_EXISTS", "%s already has a child named '%s'" % [
			NodeLookup.path_of(root, parent), new_name], "Pick another name, or rename the other node first.")
	var action: RefCounted = context.edits.create_undo_action("MCP: Rename %s" % old_name, root)
	action.add_do_property(node, &"name", new_name)
	action.add_undo_property(node, &"name", old_name)
	action.commit()
	context.scenes.mark_modified()
	return ToolkitSuccess.ok({"action": "rename", "status": "renamed", "node_path": NodeLookup.path_of(root, node),
		"previous_path": previous_path, "name": String(node.name), "previous_name": old_name})


static func reparent(context: RefCounted, root: Node, node: Node, new_parent: Node, keep_global: bool) -> Dictionary:
	if node == root:
		return ToolkitError.fail("INVALID_PARAMS", "The scene root cannot be reparented",
			"Reparent one of its descendants, or change the root with the editor.")
	if new_parent == node or node.is_ancestor_of(new_parent):
		return ToolkitError.fail("INVALID_PATH", "Cannot move %s under itself or its own descendant %s" % [
			NodeLookup.path_of(root, node), NodeLookup.path_of(root, new_parent)], "Pick a parent outside the node's subtree.")
	var old_parent := node.get_parent()
	var previous_path := NodeLookup.path_of(root, node)
	if old_parent == new_parent:
		return ToolkitSuccess.ok({"action": "reparent", "status": "unchanged", "node_path": previous_path,
			"new_parent_path": NodeLookup.path_of(root, new_parent)})
	var old_name := String(node.name)
	var new_name := unique_child_name(new_parent, old_name)
	var owned := owned_by(root, node)
	var transform_property := _transform_property(node)
	var kept := keep_global and not transform_property.is_empty()
	var action: RefCounted = context.edits.create_undo_action("MCP: Reparent %s" % old_name, root)
	action.add_do_method(old_parent, &"remove_child", [node])
	if new_name != old_name:
		action.add_do_property(node, &"name", new_name)
	action.add_do_method(new_parent, &"add_child", [node])
	_own(action, owned, root, true)
	if kept:
		action.add_do_property(node, transform_property, _local_keeping_global(node, new_parent))
	action.add_undo_method(new_parent, &"remove_child", [node])
	if new_name != old_name:
		action.add_undo_property(node, &"name", old_name)
	action.add_undo_method(old_parent, &"add_child", [node])
	action.add_undo_method(old_parent, &"move_child", [node, node.get_index()])
	_own(action, owned, root, false)
	if kept:
		action.add_undo_property(node, transform_property, node.get(transform_property))
	action.commit()
	context.scenes.mark_modified()
	var result := {"action": "reparent", "status": "reparented", "node_path": NodeLookup.path_of(root, node),
		"previous_path": previous_path, "new_parent_path": NodeLookup.path_of(root, new_parent),
		"kept_global_transform": kept}
	if new_name != old_name:
		result["name"] = new_name
		result["warnings"] = ["The new parent already had a child named '%s'; the node was renamed '%s'" % [
			old_name, new_name]]
	return ToolkitSuccess.ok(result)


static func reorder(context: RefCounted, root: Node, node: Node, new_index: int) -> Dictionary:
	var parent := node.get_parent()
	if parent == null or node == root:
		return ToolkitError.fail("INVALID_PARAMS", "The scene root has no siblings to reorder among")
	var count := parent.get_child_count()
	if new_index < -count or new_index >= count:
		return ToolkitError.fail("INVALID_PARAMS",
			"new_index %d is out of range: %s has %d children (0..%d, or -1 for last)" % [
			new_index, NodeLookup.path_of(root, parent), count, count - 1])
	var target := new_index if new_index >= 0 else count + new_index
	var old_index := node.get_index()
	var path := NodeLookup.path_of(root, node)
	if target == old_index:
		return ToolkitSuccess.ok({"action": "reorder", "status": "unchanged", "node_path": path, "index": old_index})
	var action: RefCounted = context.edits.create_undo_action("MCP: Move %s" % node.name, root)
	action.add_do_method(parent, &"move_child", [node, target])
	action.add_undo_method(parent, &"move_child", [node, old_index])
	action.commit()
	context.scenes.mark_modified()
	return ToolkitSuccess.ok({"action": "reorder", "status": "moved", "node_path": path,
		"index": node.get_index(), "previous_index": old_index})


## Duplicates `node` under `parent` as one action; `apply_properties` (Callable(copy) ->
## Dictionary of outcome fields) runs on the copy before it enters the tree.
static func duplicate_node(context: RefCounted, root: Node, node: Node, parent: Node, new_name: String,
		apply_properties: Callable) -> Dictionary:
	if node == root:
		return ToolkitError.fail("INVALID_PARAMS", "The scene root cannot be duplicated",
			"Duplicate one of its children, or save the scene under another name.")
	if node == parent or node.is_ancestor_of(parent):
		return ToolkitError.fail("INVALID_PATH", "Cannot put a copy of %s inside itself" % NodeLookup.path_of(root, node))
	var name := new_name
	if name.is_empty():
		name = unique_child_name(parent, String(node.name))
	else:
		var problem := _name_problem(name)
		if not problem.is_empty():
			return ToolkitError.fail("INVALID_PARAMS", problem)
		if parent.has_node(NodePath(name)):
			return ToolkitError.fail("ALREADY_EXISTS", "%s already has a child named '%s'" % [
				NodeLookup.path_of(root, parent), name], "Pass another new_name, or omit it for a free one.")
	var copy := node.duplicate()
	if copy == null:
		return ToolkitError.fail("INTERNAL", "Godot could not duplicate %s" % NodeLookup.path_of(root, node))
	copy.name = name
	var outcome: Dictionary = apply_properties.call(copy) if apply_properties.is_valid() else {}
	var owned := _counterparts(owned_by(root, node), node, copy)
	var action: RefCounted = context.edits.create_undo_action("MCP: Duplicate %s" % node.name, root)
	action.add_do_method(parent, &"add_child", [copy, true])
	_own(action, owned, root, true)
	action.add_do_reference(copy)
	action.add_undo_method(parent, &"remove_child", [copy])
	action.commit()
	context.scenes.mark_modified()
	var result := {"action": "duplicate", "status": "created", "node_path": NodeLookup.path_of(root, copy),
		"source_path": NodeLookup.path_of(root, node), "name": String(copy.name), "class": copy.get_class()}
	result.merge(outcome)
	return ToolkitSuccess.ok(result)


## `base` itself when `parent` has no child of that name, else base2, base3, ... (as the editor does).
static func unique_child_name(parent: Node, base: String) -> String:
	if not parent.has_node(NodePath(base)):
		return base
	var stem := base
	var number := 2
	var digits := base.length()
	while digits > 0 and base[digits - 1] >= "0" and base[digits - 1] <= "9":
		digits -= 1
	if digits < base.length() and digits > 0:
		stem = base.substr(0, digits)
		number = base.substr(digits).to_int() + 1
	while parent.has_node(NodePath("%s%d" % [stem, number])):
		number += 1
	return "%s%d" % [stem, number]


## `node` and its descendants whose owner is `root`: the nodes the saved scene holds.
static func owned_by(root: Node, node: Node) -> Array[Node]:
	var found: Array[Node] = []
	if node.owner == root:
		found.append(node)
	for child: Node in node.get_children():
		found.append_array(owned_by(root, child))
	return found


static func _own(action: RefCounted, nodes: Array[Node], root: Node, do_side: bool) -> void:
	for owned: Node in nodes:
		if do_side:
			action.add_do_property(owned, &"owner", root)
		else:
			action.add_undo_property(owned, &"owner", root)


## The nodes of `copy` at the same relative paths as `originals` have under `source`.
static func _counterparts(originals: Array[Node], source: Node, copy: Node) -> Array[Node]:
	var found: Array[Node] = []
	for original: Node in originals:
		var twin := copy if original == source else copy.get_node_or_null(source.get_path_to(original))
		if twin != null:
			found.append(twin)
	return found


static func _name_problem(name: String) -> String:
	if name.strip_edges().is_empty():
		return "The node name is empty"
	if name.validate_node_name() != name:
		return "'%s' is not a valid node name (it may not contain . : @ / \" %%)" % name
	return ""


## The property that places a node relative to its parent; "" for nodes without a transform.
static func _transform_property(node: Node) -> StringName:
	if node is Node2D or node is Node3D:
		return &"transform"
	if node is Control:
		return &"position"
	return &""


## The local transform (position for a Control) that keeps `node` where it is under `parent`.
static func _local_keeping_global(node: Node, parent: Node) -> Variant:
	if node is Node3D:
		var global_3d: Transform3D = (node as Node3D).global_transform
		return (parent as Node3D).global_transform.affine_inverse() * global_3d if parent is Node3D else global_3d
	var global_2d: Transform2D = (node as CanvasItem).get_global_transform()
	var local := global_2d
	if parent is CanvasItem:
		local = (parent as CanvasItem).get_global_transform().affine_inverse() * global_2d
	if node is Control:
		return local.origin
	return local
