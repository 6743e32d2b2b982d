extends RefCounted
## The path_editing domain (commands/path/path_commands.gd): Path2D curve edits (set/add/remove/clear,
## undo keeps the same curve resource) and CollisionPolygon2D traced from a sprite's opaque pixels
## (placed in the parent's space), through the registry; scene saved to .tscn and reloaded.
##
## Not covered here (only an editor shows it): the path and polygon gizmos in the 2D viewport.

const Assert := preload("assert.gd")
const DomainFixture := preload("domain_fixture.gd")

const DOMAIN := "path_editing"
const SCRATCH := "res://tmp_tests/path_editing"
const DOMAIN_PATH := "res://addons/godot_mcp_toolkit/commands/path/path_commands.gd"

var _root: Node2D = null
var _body: CharacterBody2D = null
var _sprite: Sprite2D = null
var _fx: DomainFixture = null


## Main (Node2D) > Track (Path2D, no curve); Body (CharacterBody2D at 50,50) > Sprite (Sprite2D,
## 32x32, centered, an opaque 16x16 square in the middle, at 10,0 inside Body).
func _init() -> void:
	_root = Node2D.new()
	_root.name = "Main"
	var track := Path2D.new()
	track.name = "Track"
	_root.add_child(track)
	_body = CharacterBody2D.new()
	_body.name = "Body"
	_body.position = Vector2(50, 50)
	_root.add_child(_body)
	var image := Image.create(32, 32, false, Image.FORMAT_RGBA8)
	image.fill_rect(Rect2i(8, 8, 16, 16), Color.WHITE)
	_sprite = Sprite2D.new()
	_sprite.name = "Sprite"
	_sprite.texture = ImageTexture.create_from_image(image)
	_sprite.position = Vector2(10, 0)
	_body.add_child(_sprite)
	for node: Node in [track, _body, _sprite]:
		node.owner = _root
	var domains: Array[String] = [DOMAIN_PATH]
	_fx = DomainFixture.new(domains, DOMAIN, _root, SCRATCH)


func cleanup() -> void:
	_fx.cleanup()


func _reloaded() -> Node:
	DirAccess.make_dir_recursive_absolute(SCRATCH)
	var packed := PackedScene.new()
	Assert.eq(packed.pack(_root), OK, "scene packs")
	var path := SCRATCH.path_join("main.tscn")
	Assert.eq(ResourceSaver.save(packed, path), OK, "scene saves")
	return (ResourceLoader.load(path, "", ResourceLoader.CACHE_MODE_IGNORE) as PackedScene).instantiate()


func test_curve_set_add_remove_with_undo() -> void:
	var track := _root.get_node("Track") as Path2D
	_fx.example("path2d.edit_curve")
	var curve := track.curve
	Assert.eq(curve.point_count, 3, "three points")
	var added := _fx.invoke("path2d.edit_curve", {"node_path": "Track", "action": "add", "index": 1,
		"points": [{"position": {"x": 50, "y": -10}}]})
	Assert.eq(added["point_count"], 4, "inserted")
	Assert.eq(curve.get_point_position(1), Vector2(50, -10), "at index 1")
	Assert.is_true(track.curve == curve, "same curve resource")
	Assert.is_true(_fx.context.edits.undo(), "undo add")
	Assert.eq(curve.point_count, 3, "back to three")
	Assert.eq(curve.get_point_position(1), Vector2(100, 0), "old order")
	Assert.is_true(_fx.context.edits.redo(), "redo add")
	Assert.eq(curve.point_count, 4, "four again")
	Assert.eq(_fx.invoke("path2d.edit_curve", {"node_path": "Track", "action": "remove", "index": 0})["point_count"], 3,
		"removed")
	var copy := _reloaded()
	Assert.eq((copy.get_node("Track") as Path2D).curve.get_point_position(0), Vector2(50, -10), "saved with the scene")
	copy.free()
	Assert.eq(_fx.invoke("path2d.edit_curve", {"node_path": "Track", "action": "clear"})["point_count"], 0, "cleared")
	for i: int in 3:
		Assert.is_true(_fx.context.edits.undo(), "undo %d" % i)
	Assert.eq(curve.point_count, 3, "undo through clear/remove/add")
	Assert.is_true(_fx.context.edits.undo(), "undo the first set")
	Assert.is_true(track.curve == null, "no curve again, as before the first edit")


func test_curve_refusals_change_nothing() -> void:
	_fx.example("path2d.edit_curve", 1)
	_fx.example("path2d.edit_curve", 2)
	_fx.example("path2d.edit_curve")
	var bad := [
		{"node_path": "Track", "action": "reverse"},
		{"node_path": "Track", "action": "set"},
		{"node_path": "Track", "action": "set", "points": [{"x": 1, "y": 2}]},
		{"node_path": "Track", "action": "add", "points": [{"position": {"x": 1, "y": 2}}], "index": 9},
		{"node_path": "Track", "action": "remove"},
		{"node_path": "Track", "action": "remove", "index": -1},
		{"node_path": "Track", "action": "set", "points": [{"position": {"x": 1, "y": 2}, "in_handle": "left"}]},
	]
	for params: Dictionary in bad:
		Assert.eq(_fx.invoke("path2d.edit_curve", params)["code"], "INVALID_PARAMS", str(params))
	Assert.eq((_root.get_node("Track") as Path2D).curve.point_count, 3, "untouched")


func test_collision_traced_into_the_parent_space() -> void:
	_fx.example("node.collision_from_sprite")
	var shape := _body.get_node("CollisionPolygon2D") as CollisionPolygon2D
	var bounds := Rect2(shape.polygon[0], Vector2.ZERO)
	for point: Vector2 in shape.polygon:
		bounds = bounds.expand(point)
	# The square spans -8..8 around the sprite's centre; the sprite sits at (10, 0) in Body.
	Assert.eq(bounds, Rect2(2, -8, 16, 16), "polygon in Body's space")
	var copy := _reloaded()
	Assert.eq((copy.get_node("Body/CollisionPolygon2D") as CollisionPolygon2D).polygon.size(), 4, "saved")
	copy.free()
	Assert.is_true(_fx.context.edits.undo(), "undo")
	Assert.is_true(_body.get_node_or_null("CollisionPolygon2D") == null, "removed")
	var at_root := _fx.invoke("node.collision_from_sprite", {"sprite_path": "Body/Sprite", "parent_path": ".",
		"target_name": "Hitbox"})
	var hitbox := _root.get_node("Hitbox") as CollisionPolygon2D
	Assert.eq(at_root["parent_path"], ".", "parent as asked")
	var root_bounds := Rect2(hitbox.polygon[0], Vector2.ZERO)
	for point: Vector2 in hitbox.polygon:
		root_bounds = root_bounds.expand(point)
	Assert.eq(root_bounds, Rect2(52, 42, 16, 16), "Body's offset added in the root's space")


func test_collision_refusals() -> void:
	_fx.example("node.collision_from_sprite", 1)
	Assert.eq(_fx.invoke("node.collision_from_sprite", {"sprite_path": "Body"})["code"], "INVALID_CLASS", "not a sprite")
	Assert.eq(_fx.invoke("node.collision_from_sprite", {"sprite_path": "Body/Sprite", "simplification": -1})["code"],
		"INVALID_PARAMS", "negative simplification")
	Assert.eq(_fx.invoke("node.collision_from_sprite", {"sprite_path": "Body/Sprite", "parent_path": "Nowhere"})["code"],
		"NOT_FOUND", "missing parent")
	_sprite.texture = ImageTexture.create_from_image(Image.create(8, 8, false, Image.FORMAT_RGBA8))
	Assert.eq(_fx.invoke("node.collision_from_sprite", {"sprite_path": "Body/Sprite"})["code"], "INVALID_PARAMS",
		"nothing opaque")
	_sprite.texture = null
	Assert.eq(_fx.invoke("node.collision_from_sprite", {"sprite_path": "Body/Sprite"})["code"], "INVALID_PARAMS",
		"no texture")
	Assert.eq(_body.get_child_count(), 1, "nothing added")
