extends RefCounted
## A command domain written against the editor seam, as every commands/*.gd is: used by
## test_context.gd to prove the pattern end to end (register with a context, dispatch, undo).

const SELF_PATH := "res://tests/godot/sample_domain.gd"


static func register(registry: RefCounted, context: RefCounted) -> void:
	var script: Script = load(SELF_PATH)
	registry.register_command("sample.add_node", Callable(script, "_cmd_add_node").bind(context),
		registry.create_options().with_description("Add a Node2D under the scene root."))


static func _cmd_add_node(params: Dictionary, context: RefCounted) -> Dictionary:
	var root: Node = context.scenes.scene_root()
	if root == null:
		return {"success": false, "code": "NO_SCENE", "error": "no scene is open"}
	var node := Node2D.new()
	node.name = str(params.get("name", "Node2D"))
	var action: RefCounted = context.edits.create_undo_action("Add %s" % node.name)
	action.add_do_method(root, &"add_child", [node, true])
	action.add_do_property(node, &"owner", root)
	action.add_do_reference(node)
	action.add_undo_method(root, &"remove_child", [node])
	action.commit()
	context.scenes.mark_modified()
	return {"success": true, "path": str(root.get_path_to(node))}
