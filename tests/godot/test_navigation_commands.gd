extends RefCounted
## The navigation domain (commands/navigation/navigation_commands.gd): a NavigationRegion2D's polygon outlines
## set, added, removed, cleared and baked through the registry; undo/redo on the region's own
## polygon resource; refusals that change nothing; the scene saved to .tscn and reloaded.
##
## Not covered here (only an editor or a running game shows it): the navigation debug drawing, the
## editor's threaded "Bake NavigationPolygon" from scene geometry, and agents pathing over it.

const Assert := preload("assert.gd")
const DomainFixture := preload("domain_fixture.gd")

const DOMAIN := "navigation"
const SCRATCH := "res://tmp_tests/navigation"
const DOMAIN_PATH := "res://addons/godot_mcp_toolkit/commands/navigation/navigation_commands.gd"
const SQUARE := [{"x": 0, "y": 0}, {"x": 200, "y": 0}, {"x": 200, "y": 200}, {"x": 0, "y": 200}]

var _root: Node2D = null
var _floor: NavigationRegion2D = null
var _fx: DomainFixture = null


## Main (Node2D) > Floor (NavigationRegion2D, no polygon), Wall (StaticBody2D).
func _init() -> void:
	_root = Node2D.new()
	_root.name = "Main"
	_floor = NavigationRegion2D.new()
	_floor.name = "Floor"
	_root.add_child(_floor)
	var wall := StaticBody2D.new()
	wall.name = "Wall"
	_root.add_child(wall)
	_floor.owner = _root
	wall.owner = _root
	var domains: Array[String] = [DOMAIN_PATH]
	_fx = DomainFixture.new(domains, DOMAIN, _root, SCRATCH)


func cleanup() -> void:
	_fx.cleanup()


## Runs navigation.edit_polygon with `params`.
func _call(params: Dictionary) -> Dictionary:
	return _fx.invoke("navigation.edit_polygon", params)


## Example `index` of navigation.edit_polygon.
func _example(index: int = 0) -> Dictionary:
	return _fx.example("navigation.edit_polygon", index)


func test_set_bake_and_reload() -> void:
	_example()
	var polygon := _floor.navigation_polygon
	Assert.eq(polygon.get_outline(0), PackedVector2Array([Vector2(0, 0), Vector2(200, 0), Vector2(200, 200),
		Vector2(0, 200)]), "outline stored")
	var baked := _example(1)
	Assert.is_true(baked["polygon_count"] >= 1, "walkable polygons made")
	Assert.is_true(_floor.navigation_polygon == polygon, "same polygon resource")
	DirAccess.make_dir_recursive_absolute(SCRATCH)
	var packed := PackedScene.new()
	Assert.eq(packed.pack(_root), OK, "packs")
	Assert.eq(ResourceSaver.save(packed, SCRATCH.path_join("main.tscn")), OK, "saves")
	var copy := (ResourceLoader.load(SCRATCH.path_join("main.tscn"), "", ResourceLoader.CACHE_MODE_IGNORE)
		as PackedScene).instantiate()
	var saved := (copy.get_node("Floor") as NavigationRegion2D).navigation_polygon
	Assert.eq([saved.get_outline_count(), saved.get_polygon_count()], [1, baked["polygon_count"]], "saved baked")
	copy.free()
	Assert.is_true(_fx.context.edits.undo(), "undo bake")
	Assert.eq(polygon.get_polygon_count(), 0, "polygons gone")
	Assert.eq(polygon.get_outline_count(), 1, "outline kept")
	Assert.is_true(_fx.context.edits.redo(), "redo bake")
	Assert.eq(polygon.get_polygon_count(), baked["polygon_count"], "baked again")


func test_add_remove_clear_with_undo() -> void:
	_example()
	var polygon := _floor.navigation_polygon
	var hole := [{"x": 50, "y": 50}, {"x": 50, "y": 100}, {"x": 100, "y": 100}, {"x": 100, "y": 50}]
	Assert.eq(_call({"node_path": "Floor", "action": "add_outline", "outline": hole})["outline_count"], 2, "added")
	Assert.eq(_call({"node_path": "Floor", "action": "remove_outline", "index": 0})["outline_count"], 1, "removed")
	Assert.eq(polygon.get_outline(0)[0], Vector2(50, 50), "the hole is left")
	Assert.eq(_call({"node_path": "Floor", "action": "clear"})["outline_count"], 0, "cleared")
	Assert.is_true(_fx.context.edits.undo(), "undo clear")
	Assert.is_true(_fx.context.edits.undo(), "undo remove")
	Assert.eq(polygon.get_outline_count(), 2, "both outlines back")
	Assert.eq(polygon.get_outline(0)[0], Vector2(0, 0), "in order")
	Assert.is_true(_fx.context.edits.undo(), "undo add")
	Assert.is_true(_fx.context.edits.undo(), "undo set")
	Assert.is_true(_floor.navigation_polygon == null, "no polygon, as at first")


func test_refusals_change_nothing() -> void:
	_example(2)
	Assert.eq(_call({"node_path": "Gone", "action": "clear"})["code"], "NOT_FOUND", "missing node")
	Assert.eq(_call({"node_path": "Floor", "action": "bake"})["code"], "INVALID_PARAMS", "nothing to bake")
	_example()
	var bad := [
		{"node_path": "Floor", "action": "grow"},
		{"node_path": "Floor", "action": "set"},
		{"node_path": "Floor", "action": "set", "outlines": [[{"x": 0, "y": 0}, {"x": 1, "y": 1}]]},
		{"node_path": "Floor", "action": "add_outline", "outline": [{"x": 0}, {"x": 1, "y": 1}, {"x": 2, "y": 0}]},
		{"node_path": "Floor", "action": "remove_outline"},
		{"node_path": "Floor", "action": "remove_outline", "index": 3},
	]
	for params: Dictionary in bad:
		Assert.eq(_call(params)["code"], "INVALID_PARAMS", str(params))
	Assert.eq(_floor.navigation_polygon.get_outline_count(), 1, "untouched")
	_fx.context.runtime_scenes.set_scene_root(null)
	Assert.eq(_call({"node_path": "Floor", "action": "clear"})["code"], "NO_SCENE", "no scene")
