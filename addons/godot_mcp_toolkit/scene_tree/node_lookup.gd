@tool
extends RefCounted
## Resolves the node paths tools receive against a scene root, and turns a node back into the
## path form tools return. Runtime-safe (no Editor* names) and engine-agnostic: the root is
## whatever the caller's context says (the edited scene in the editor, the game's scene at
## runtime, a throwaway root in tests).
##
## API (all static):
##   find(root, path, code := "NOT_FOUND") -> Dictionary
##       {"ok": true, "node": Node} or {"ok": false, "error": <envelope>}: `code` lets a caller
##       report a missing parent as PARENT_NOT_FOUND; the hint lists the children of the deepest
##       node that does exist on the way, so a typo is fixed in one round trip.
##   resolve(root, path) -> Node          the node, or null (no envelope).
##   path_of(root, node) -> String        "." for the root, else "Player/Gun" (what `find` takes).
##   children_hint(node, limit := 20) -> String   "Children of 'X': a, b, c." for hints.
##
## Accepted path forms, all relative to the root: "" or "." (the root itself), "Player/Gun",
## "./Player/Gun", "%Unique" forms Godot itself resolves, the root's own name as a first segment
## ("Main/Player" when the root is "Main"), and the absolute "/root/Main/Player" form a running
## game prints. A child named like the root wins over the root-name shortcut.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")

const ROOT_PREFIX := "/root/"
const HINT_CHILD_LIMIT := 20


static func find(root: Node, path: String, code: String = "NOT_FOUND") -> Dictionary:
	if root == null or not is_instance_valid(root):
		return {"ok": false, "error": ToolkitError.fail("NO_SCENE", "No scene is open",
			"Open a scene with scene_open (or create one with scene_create) first.")}
	var node := resolve(root, path)
	if node != null:
		return {"ok": true, "node": node}
	var message := "No node at '%s' in scene '%s'" % [path, root.name]
	return {"ok": false, "error": ToolkitError.fail(code, message, _not_found_hint(root, path))}


static func resolve(root: Node, path: String) -> Node:
	if root == null or not is_instance_valid(root):
		return null
	var relative := _relative_form(root, path.strip_edges())
	if relative.is_empty() or relative == ".":
		return root
	var node := root.get_node_or_null(NodePath(relative))
	if node != null:
		return _inside(root, node)
	# "Main/Player" with the root named Main: only after the literal child lookup failed.
	var first := relative.get_slice("/", 0)
	if first == String(root.name):
		var rest := relative.substr(first.length() + 1)
		if rest.is_empty():
			return root
		return _inside(root, root.get_node_or_null(NodePath(rest)))
	return null


static func path_of(root: Node, node: Node) -> String:
	if node == root:
		return "."
	return String(root.get_path_to(node))


static func children_hint(node: Node, limit: int = HINT_CHILD_LIMIT) -> String:
	var names := _child_names(node, limit)
	if names.is_empty():
		return "'%s' has no children." % node.name
	return "Children of '%s': %s." % [node.name, ", ".join(names)]


## "/root/Main/Player" → "Player" when the root is Main; an absolute path that points into the
## root's subtree by its real tree path also works. Anything else is returned unchanged.
static func _relative_form(root: Node, path: String) -> String:
	var text := path
	if text.begins_with("./"):
		text = text.substr(2)
	if not text.begins_with("/"):
		return text
	if root.is_inside_tree():
		var own := String(root.get_path())
		if text == own:
			return "."
		if text.begins_with(own + "/"):
			return text.substr(own.length() + 1)
	var stripped := text.substr(ROOT_PREFIX.length()) if text.begins_with(ROOT_PREFIX) else text.substr(1)
	var first := stripped.get_slice("/", 0)
	if first == String(root.name):
		var rest := stripped.substr(first.length() + 1)
		return "." if rest.is_empty() else rest
	# Not the root's subtree: a path that can match nothing (kept readable in the error).
	return "/" + stripped


## Guards against "../Sibling" escaping the scene.
static func _inside(root: Node, node: Node) -> Node:
	if node == null:
		return null
	if node == root or root.is_ancestor_of(node):
		return node
	return null


## Names the deepest existing node along `path` and lists its children.
static func _not_found_hint(root: Node, path: String) -> String:
	var relative := _relative_form(root, path.strip_edges())
	var segments := relative.split("/", false)
	var leading_root_name := not segments.is_empty() and segments[0] == String(root.name)
	if leading_root_name and root.get_node_or_null(NodePath(segments[0])) == null:
		segments.remove_at(0)
	var deepest := root
	var walked := PackedStringArray()
	for segment: String in segments:
		var next := deepest.get_node_or_null(NodePath(segment))
		if next == null or not root.is_ancestor_of(next):
			break
		deepest = next
		walked.append(segment)
	var where := "the scene root" if deepest == root else "'%s'" % "/".join(walked)
	var names := _child_names(deepest, HINT_CHILD_LIMIT)
	var listing := "%s has no children" % where if names.is_empty() else "children of %s: %s" % [where, ", ".join(names)]
	return "Paths are relative to the scene root ('.' is the root); %s. scene_get_tree lists every path." % listing


static func _child_names(node: Node, limit: int) -> PackedStringArray:
	var names := PackedStringArray()
	for child: Node in node.get_children():
		if names.size() >= limit:
			names.append("… (%d more)" % (node.get_child_count() - limit))
			break
		names.append(String(child.name))
	return names
