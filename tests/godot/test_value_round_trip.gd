extends "node_scene.gd"
## What node.get_property gives, node.set_property takes back: every kind of value a property holds
## (the engine types beyond the reference's 18 tags, packed arrays, node references, typed nulls,
## typed arrays), read, written back as read (and as the engine's text form), read again. A
## write of the value already held is "unchanged" with no undo step; a write the engine cannot
## keep says why and what it kept.

const EXPORTS_SCRIPT := DIR + "/exports.gd"
const SETTER_SCRIPT := DIR + "/setter.gd"


func _init() -> void:
	super()
	var world := _add(_root, Node3D.new(), "World") as Node3D
	world.quaternion = Quaternion(0, 0.70710677, 0, 0.70710677)
	var mesh := _add(world, MeshInstance3D.new(), "Mesh") as MeshInstance3D
	mesh.custom_aabb = AABB(Vector3(-1, -2, -3), Vector3(2, 4, 6))
	mesh.mesh = BoxMesh.new()
	var skeleton := _add(world, Skeleton3D.new(), "Skeleton") as Skeleton3D
	skeleton.add_bone("Hip")
	skeleton.set_bone_pose_rotation(0, Quaternion(0, 0.38268343, 0, 0.9238795))
	var layer := _add(_root, TileMapLayer.new(), "Ground") as TileMapLayer
	layer.tile_map_data = PackedByteArray([0, 0, 1, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0])


## Reads `property`, writes what it read back, reads again: the same value, and "unchanged".
func _round_trip(node_path: String, property: String) -> Dictionary:
	var read := _call("node.get_property", {"node_path": node_path, "property": property})
	Assert.is_true(read["success"], "%s:%s reads (%s)" % [node_path, property, read])
	var written := _call("node.set_property", {"node_path": node_path, "property": property, "value": read["value"]})
	Assert.is_true(written["success"], "%s:%s takes back what it read (%s)" % [node_path, property, written])
	Assert.eq(written.get("status"), "unchanged", "%s:%s was already that value" % [node_path, property])
	var again := _call("node.get_property", {"node_path": node_path, "property": property})
	Assert.eq(again["value"], read["value"], "%s:%s reads the same after the write" % [node_path, property])
	return read


func test_quaternion_basis_aabb_transforms_round_trip() -> void:
	var quaternion := _round_trip("World", "quaternion")
	Assert.eq(quaternion["value"]["type"], "Quaternion", "a tag, not text: %s" % [quaternion["value"]])
	Assert.eq(_round_trip("World", "basis")["value"]["type"], "Basis", "Basis")
	Assert.eq(_round_trip("World/Mesh", "custom_aabb")["value"], {"type": "AABB",
		"position": {"x": -1.0, "y": -2.0, "z": -3.0}, "size": {"x": 2.0, "y": 4.0, "z": 6.0}}, "AABB")
	_round_trip("World", "transform")
	Assert.eq(_round_trip("World/Skeleton", "bones/0/rotation")["value"]["type"], "Quaternion", "a bone's rotation")
	_round_trip("World/Skeleton", "bones/0/rest")
	_round_trip("World", "rotation")
	Assert.eq(_context.runtime_scenes.modified_count, 0, "writing what was there changes nothing")
	Assert.is_false(_context.edits.undo(), "and records no undo step")


func test_new_values_of_the_new_tags_are_stored() -> void:
	var world := _root.get_node("World") as Node3D
	var turned := _call("node.set_property", {"node_path": "World", "property": "quaternion",
		"value": {"type": "Quaternion", "x": 0, "y": 0, "z": 0, "w": 1}})
	Assert.eq([turned["success"], turned["status"]], [true, "updated"], "a new quaternion (%s)" % turned)
	Assert.is_true(world.quaternion.is_equal_approx(Quaternion.IDENTITY), "on the node")
	Assert.is_true(_context.edits.undo(), "undoable")
	Assert.is_true(world.quaternion.is_equal_approx(Quaternion(0, 0.70710677, 0, 0.70710677)), "undone")


func test_the_engine_text_form_is_accepted() -> void:
	var mesh := _root.get_node("World/Mesh") as MeshInstance3D
	var result := _call("node.set_property", {"node_path": "World/Mesh", "property": "custom_aabb",
		"value": "AABB(0, 0, 0, 1, 2, 3)"})
	Assert.eq([result["success"], result["status"]], [true, "updated"], "copied from a scene file (%s)" % result)
	Assert.eq(mesh.custom_aabb, AABB(Vector3.ZERO, Vector3(1, 2, 3)), "stored")
	var quaternion := _call("node.set_property", {"node_path": "World", "property": "quaternion",
		"value": "Quaternion(0, 0, 0, 1)"})
	Assert.is_true(quaternion["success"], "Quaternion text (%s)" % quaternion)
	var wrong := _call("node.set_property", {"node_path": "World/Mesh", "property": "custom_aabb",
		"value": "AABB(1, 2)"})
	Assert.eq(wrong["code"], "INVALID_VALUE", "text that does not parse is refused")
	var objects := _call("node.set_property", {"node_path": "World/Mesh", "property": "custom_aabb",
		"value": "AABB(Object(Node), 0, 0, 0, 0, 0)"})
	Assert.contains(objects["error"], "may not contain Object", "text naming an object is never parsed")


func test_packed_byte_array_round_trips_as_base64() -> void:
	var read := _round_trip("Ground", "tile_map_data")
	Assert.eq(read["value"]["type"], "PackedByteArray", "tagged")
	Assert.is_true(read["value"].has("base64"), "as base64, not a list of numbers")
	var as_list := _call("node.set_property", {"node_path": "Ground", "property": "tile_map_data",
		"value": [0, 0, 1, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0]})
	Assert.eq([as_list["success"], as_list["status"]], [true, "unchanged"], "the same bytes as a list (%s)" % as_list)


func test_a_typed_null_is_the_null_asked_for() -> void:
	var cleared := _call("node.set_property", {"node_path": "Player/Sprite", "property": "texture", "value": null})
	Assert.eq([cleared["success"], cleared.get("status")], [true, "unchanged"],
		"texture: null on a fresh Sprite2D (%s)" % cleared)
	var mesh := _call("node.set_property", {"node_path": "World/Mesh", "property": "mesh", "value": null})
	Assert.eq([mesh["success"], mesh["status"]], [true, "updated"], "clearing a mesh (%s)" % mesh)
	var again := _call("node.set_property", {"node_path": "World/Mesh", "property": "mesh", "value": null})
	Assert.eq(again.get("status"), "unchanged", "and clearing it again")


func test_an_embedded_resource_comes_with_its_properties_and_goes_back_as_itself() -> void:
	var mesh := _root.get_node("World/Mesh") as MeshInstance3D
	var box := mesh.mesh
	var read := _call("node.get_property", {"node_path": "World/Mesh", "property": "mesh"})
	Assert.eq(read["value"]["class"], "BoxMesh", "its class")
	Assert.eq(read["value"]["properties"]["size"], {"type": "Vector3", "x": 1.0, "y": 1.0, "z": 1.0}, "and properties")
	var unchanged := _call("node.set_property", {"node_path": "World/Mesh", "property": "mesh", "value": read["value"]})
	Assert.eq(unchanged.get("status"), "unchanged", "the same properties: the same resource (%s)" % unchanged)
	Assert.is_true(mesh.mesh == box, "kept, not replaced by a copy")
	var edited: Dictionary = read["value"].duplicate(true)
	edited["properties"] = {"size": {"type": "Vector3", "x": 2, "y": 1, "z": 1}}
	var changed := _call("node.set_property", {"node_path": "World/Mesh", "property": "mesh", "value": edited})
	Assert.eq(changed.get("status"), "updated", "an edited copy (%s)" % changed)
	Assert.eq((mesh.mesh as BoxMesh).size, Vector3(2, 1, 1), "stored")


func test_node_typed_exports_read_and_write_relative_paths() -> void:
	_write_script("extends Node2D\n\n@export var target: Node2D\n@export var crowd: Array[Node2D] = []\n", EXPORTS_SCRIPT)
	var player := _root.get_node("Player") as Node2D
	player.set_script(load(EXPORTS_SCRIPT))
	var enemy := _root.get_node("Enemy")
	var by_scene_path := _call("node.set_property", {"node_path": "Player", "property": "target", "value": "Enemy"})
	Assert.eq([by_scene_path["success"], by_scene_path["status"]], [true, "updated"],
		"a scene-rooted path (%s)" % by_scene_path)
	Assert.is_true(player.get("target") == enemy, "stores the node")
	var read := _round_trip("Player", "target")
	Assert.eq(read["value"], {"type": "NodePath", "path": "../Enemy"},
		"read relative to the holder, as a .tscn stores it")
	var relative := _call("node.set_property", {"node_path": "Player", "property": "target", "value": "../Enemy"})
	Assert.eq(relative.get("status"), "unchanged", "the relative path names the same node")
	var crowd := _call("node.set_property", {"node_path": "Player", "property": "crowd",
		"value": [{"type": "NodePath", "path": "../Enemy"}, "Player"]})
	Assert.is_true(crowd["success"], "an Array[Node2D] of paths (%s)" % crowd)
	Assert.eq(player.get("crowd"), [enemy, player], "stores the nodes")
	_round_trip("Player", "crowd")
	var wrong := _call("node.set_property", {"node_path": "Player", "property": "target", "value": "UI"})
	Assert.eq(wrong["code"], "INVALID_VALUE", "a Control is not a Node2D")
	var nowhere := _call("node.set_property", {"node_path": "Player", "property": "target", "value": "../Ghost"})
	Assert.contains(nowhere["error"], "no node at ../Ghost", "a path to nothing is named")
	player.set_script(null)


func test_a_write_the_engine_does_not_keep_says_what_it_kept() -> void:
	_write_script("extends Node2D\n\nvar lives: int:\n\tget:\n\t\treturn 3\n\tset(value):\n\t\tpass\n", SETTER_SCRIPT)
	var player := _root.get_node("Player") as Node2D
	player.set_script(load(SETTER_SCRIPT))
	var result := _call("node.set_property", {"node_path": "Player", "property": "lives", "value": 5})
	Assert.eq(result["code"], "SET_FAILED", "the setter ignores it (%s)" % result)
	Assert.contains(result["error"], "asked for 5, the engine kept 3", "says what it asked and what it kept")
	var same := _call("node.set_property", {"node_path": "Player", "property": "lives", "value": 3})
	Assert.eq([same["success"], same["status"]], [true, "unchanged"], "the value it holds is a success (%s)" % same)
	player.set_script(null)
