extends RefCounted
## What the editor keeps in a scene's edit state and an instantiated scene outside the editor has
## not: its `[editable path="..."]` instances (Editable Children), whose insides it lists.


## Marks the file's `[editable path="..."]` instances of `scene_root` (loaded from `path`) editable.
static func mark(scene_root: Node, path: String) -> void:
	var editable := RegEx.create_from_string('(?m)^\\[editable path="([^"]*)"\\]')
	for found: RegExMatch in editable.search_all(FileAccess.get_file_as_string(path)):
		var instance := scene_root.get_node_or_null(NodePath(found.get_string(1)))
		if instance != null:
			scene_root.set_editable_instance(instance, true)
