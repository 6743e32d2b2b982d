extends RefCounted
## scene_tree/node_lookup.gd and scene_tree/property_access.gd: the path forms tools accept, and writes
## verified by reading them back (stored / adjusted / failed), recorded for undo.

const Assert := preload("assert.gd")
const NodeLookup := preload("res://addons/godot_mcp_toolkit/scene_tree/node_lookup.gd")
const PropertyAccess := preload("res://addons/godot_mcp_toolkit/scene_tree/property_access.gd")
const RuntimeContext := preload("res://addons/godot_mcp_toolkit/context/runtime_context.gd")

var _root: Node2D = null


func _scene() -> Node2D:
	_root = Node2D.new()
	_root.name = "Main"
	var player := Node2D.new()
	player.name = "Player"
	_root.add_child(player)
	var gun := Sprite2D.new()
	gun.name = "Gun"
	player.add_child(gun)
	var label := Label.new()
	label.name = "Label"
	_root.add_child(label)
	(Engine.get_main_loop() as SceneTree).root.add_child(_root)
	return _root


func cleanup() -> void:
	if is_instance_valid(_root):
		_root.get_parent().remove_child(_root)
		_root.free()


func test_path_forms_resolve_to_the_same_node() -> void:
	var root := _scene()
	var gun := root.get_node("Player/Gun")
	for path: String in ["Player/Gun", "./Player/Gun", "Main/Player/Gun", "/root/Main/Player/Gun", String(gun.get_path())]:
		Assert.eq(NodeLookup.resolve(root, path), gun, "resolves %s" % path)
	for path: String in ["", ".", "Main", "/root/Main"]:
		Assert.eq(NodeLookup.resolve(root, path), root, "'%s' is the root" % path)
	Assert.eq(NodeLookup.path_of(root, gun), "Player/Gun", "path_of is relative")
	Assert.eq(NodeLookup.path_of(root, root), ".", "the root is '.'")


func test_a_child_named_like_the_root_wins() -> void:
	var root := _scene()
	var twin := Node.new()
	twin.name = "Main"
	root.add_child(twin)
	Assert.eq(NodeLookup.resolve(root, "Main"), twin, "literal child first")


func test_missing_node_names_the_nearest_children() -> void:
	var root := _scene()
	var found := NodeLookup.find(root, "Player/Gunn")
	Assert.is_false(found["ok"], "not found")
	Assert.eq(found["error"]["code"], "NOT_FOUND", "code")
	Assert.contains(found["error"]["error"], "Player/Gunn", "message names the path")
	Assert.contains(found["error"]["hint"], "children of 'Player': Gun", "hint lists Player's children")
	var parent := NodeLookup.find(root, "Nope/X", "PARENT_NOT_FOUND")
	Assert.eq(parent["error"]["code"], "PARENT_NOT_FOUND", "caller's code")
	Assert.contains(parent["error"]["hint"], "children of the scene root: Player, Label", "root listing")
	Assert.eq(NodeLookup.resolve(root, ".."), null, "cannot escape the scene")
	Assert.eq(NodeLookup.resolve(root, "/root/Other/Player"), null, "another root's path")
	Assert.eq(NodeLookup.find(null, ".")["error"]["code"], "NO_SCENE", "no scene")


func test_read_serializes_through_type_tags() -> void:
	var root := _scene()
	root.position = Vector2(3, 4)
	var read := PropertyAccess.read(root, "position")
	Assert.eq(read, {"ok": true, "value": {"type": "Vector2", "x": 3, "y": 4}, "type": "Vector2"}, "tagged read")
	var unknown := PropertyAccess.read(root, "positon")
	Assert.eq(unknown["error"]["code"], "PROPERTY_NOT_FOUND", "unknown property")
	Assert.contains(unknown["error"]["error"], "'positon'", "names it")
	Assert.contains(unknown["error"]["hint"], "position", "suggests the close name")


func test_write_stored_is_recorded_for_undo() -> void:
	var root := _scene()
	var context := RuntimeContext.new(root)
	var action := context.edits.create_undo_action("Set")
	var outcome := PropertyAccess.write(root, "position", {"type": "Vector2", "x": 1.1, "y": 2}, action)
	Assert.eq(outcome["status"], "stored", "stored")
	Assert.is_true(root.position.is_equal_approx(Vector2(1.1, 2)), "applied")
	action.commit(false)
	Assert.is_true(context.edits.undo(), "undo")
	Assert.eq(root.position, Vector2.ZERO, "undo restores")
	Assert.is_true(context.edits.redo(), "redo")
	Assert.is_true(root.position.is_equal_approx(Vector2(1.1, 2)), "redo re-applies")


func test_json_floats_and_enum_names_fit_int_properties() -> void:
	var root := _scene()
	Assert.eq(PropertyAccess.write(root, "z_index", 5.0)["status"], "stored", "whole float to int")
	Assert.eq(root.z_index, 5, "stored as int")
	Assert.eq(PropertyAccess.write(root, "process_mode", "disabled")["status"], "stored", "enum by name")
	Assert.eq(root.process_mode, Node.PROCESS_MODE_DISABLED, "enum value")
	var bad := PropertyAccess.write(root, "process_mode", "sometimes")
	Assert.eq(bad["code"], "INVALID_VALUE", "unknown enum name")
	Assert.contains(bad["error"], "Pausable", "lists the choices")
	Assert.contains(bad["hint"], "process_mode takes a whole number or one of its names", "and says what it takes")


func test_engine_adjusted_write_is_kept_and_warned() -> void:
	var root := _scene()
	var outcome := PropertyAccess.write(root, "z_index", 2.6)
	Assert.eq(outcome["status"], "adjusted", "truncated")
	Assert.eq(root.z_index, 2, "kept")
	Assert.contains(outcome["warning"], "z_index", "warning names the property")
	Assert.contains(outcome["warning"], "2.6", "and what was asked")


func test_wrong_type_is_failed_and_nothing_changes() -> void:
	var root := _scene()
	root.position = Vector2(7, 8)
	var outcome := PropertyAccess.write(root, "position", "10,20")
	Assert.eq(outcome["status"], "failed", "dropped write fails")
	Assert.eq(outcome["code"], "INVALID_VALUE", "a value of the wrong type is the caller's value: INVALID_VALUE")
	Assert.contains(outcome["error"], "expects Vector2", "says the expected type")
	Assert.contains(outcome["hint"], "{\"type\": \"Vector2\", \"x\": ..., \"y\": ...}", "the hint shows the tag")
	Assert.eq(root.position, Vector2(7, 8), "old value kept")
	var scalar := PropertyAccess.write(root, "rotation", {"angle": 1})
	Assert.eq([scalar["code"], scalar["hint"]], ["INVALID_VALUE", "rotation takes a number."], "a number property")
	var texture := PropertyAccess.write(root.get_node("Player/Gun"), "texture", "res://icon.svg")
	Assert.eq(texture["code"], "INVALID_VALUE", "bare res:// string refused")
	Assert.contains(texture["error"], "\"type\": \"Resource\"", "steers to the tagged form")
	var material_tag := {"type": "NewResource", "class": "StandardMaterial3D"}
	var material := PropertyAccess.write(root.get_node("Player/Gun"), "texture", material_tag)
	Assert.eq(material["code"], "INVALID_VALUE", "wrong resource class refused")
	Assert.contains(material["hint"], "\"class\": \"Texture2D\"", "the hint names the class it takes")
	Assert.is_true((root.get_node("Player/Gun") as Sprite2D).texture == null, "texture untouched")


func test_sub_paths_name_parts_that_exist() -> void:
	var root := _scene()
	root.position = Vector2(7, 8)
	var z := PropertyAccess.write(root, "position:z", 3)
	Assert.eq([z["status"], z["code"]], ["failed", "PROPERTY_NOT_FOUND"], "position:z refused")
	Assert.contains(z["error"], "a Vector2 has no 'z'", "says a Vector2 has no z")
	Assert.contains(z["hint"], "x, y", "and which parts it has")
	Assert.eq(root.position, Vector2(7, 8), "nothing changed")
	var read := PropertyAccess.read(root, "position:z")
	Assert.eq(read["error"]["code"], "PROPERTY_NOT_FOUND", "reading it is refused the same way")
	Assert.contains(read["error"]["error"], "no 'z'", "with the same reason")
	Assert.eq(PropertyAccess.write(root, "position:x", 3)["status"], "stored", "position:x still works")
	Assert.eq(root.position, Vector2(3, 8), "and lands")
	var text := PropertyAccess.write(root, "position:y", "up")
	Assert.eq([text["code"], text["hint"]], ["INVALID_VALUE", "position:y takes a number."],
		"a part has its part's type")
	Assert.eq(PropertyAccess.write(root, "modulate:alpha", 0.5)["code"], "PROPERTY_NOT_FOUND", "Color has no alpha")
	Assert.eq(PropertyAccess.write(root, "modulate:a", 0.5)["status"], "stored", "but has a")
	var deep := PropertyAccess.write(root, "z_index:x", 1)
	Assert.contains(deep["error"], "z_index is a int: it has no part 'x'", "a scalar has no parts")
	var gun := root.get_node("Player/Gun")
	var empty := PropertyAccess.write(gun, "texture:width", 4)
	Assert.contains(empty["error"], "texture is empty (null)", "an empty resource slot has no parts")


func test_write_many_reports_each_key() -> void:
	var root := _scene()
	var label := root.get_node("Label") as Label
	var result := PropertyAccess.write_many(label, {"text": "hi", "nope": 1, "visible": false, "size": "big"})
	Assert.eq(result["stored"], ["text", "visible"], "only stored keys count")
	Assert.eq(result["properties_set"], 2, "the count C3 reports")
	Assert.eq(result["properties_failed"].size(), 2, "two failures")
	Assert.eq(result["properties_failed"][0]["name"], "nope", "unknown key named")
	Assert.eq(result["properties_failed"][1]["name"], "size", "wrong type named")
	Assert.eq(label.text, "hi", "text stored")
	Assert.is_false(label.visible, "visible stored")
	Assert.eq(result["warnings"], [], "no adjustments")


func test_sub_paths_and_metadata_write_and_undo() -> void:
	var root := _scene()
	var context := RuntimeContext.new(root)
	var action := context.edits.create_undo_action("Set many")
	var result := PropertyAccess.write_many(root, {"position:x": 12.0, "metadata/team": "red"}, action)
	Assert.eq(result["stored"], ["position:x", "metadata/team"], "both stored")
	Assert.eq(root.position.x, 12.0, "sub-path written")
	Assert.eq(root.get_meta("team"), "red", "metadata written")
	action.commit(false)
	Assert.is_true(context.edits.undo(), "undo")
	Assert.eq(root.position.x, 0.0, "sub-path undone")
	Assert.is_false(root.has_meta("team") and root.get_meta("team") == "red", "metadata undone")
