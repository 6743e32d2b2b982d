@tool
extends RefCounted
## Where a node is on the game window, for click_node: a Control's centre, a Node2D's origin, a
## Node3D's origin as the current camera sees it. In window pixels (the root viewport's final
## transform applied), which is what Input.parse_input_event expects. RUNTIME-REACHABLE.


## {"position": Vector2} or {"error": "why there is nowhere to click"}.
static func screen_point(node: Node) -> Dictionary:
	if not is_instance_valid(node) or not node.is_inside_tree():
		return {"error": "the node left the scene before it could be clicked"}
	var viewport := node.get_viewport()
	if viewport != node.get_tree().root:
		return {"error": "the node is inside a SubViewport; click its position on screen with a click event instead"}
	if node is CanvasItem and not (node as CanvasItem).is_visible_in_tree():
		return {"error": "the node is hidden, so a click cannot reach it"}
	var in_viewport: Vector2
	if node is Control:
		var control := node as Control
		in_viewport = control.get_global_transform_with_canvas() * (control.size / 2.0)
	elif node is Node2D:
		in_viewport = (node as Node2D).get_global_transform_with_canvas().origin
	elif node is Node3D:
		var camera := viewport.get_camera_3d()
		var origin := (node as Node3D).global_position
		if camera == null:
			return {"error": "no current Camera3D to see the node through"}
		if camera.is_position_behind(origin):
			return {"error": "the node is behind the current camera"}
		in_viewport = camera.unproject_position(origin)
	else:
		return {"error": "a %s has no position to click" % node.get_class()}
	return {"position": viewport.get_final_transform() * in_viewport}
