extends RefCounted
## The tileset_edit domain (commands/tileset/tileset_edit_commands.gd) through the command registry over a
## runtime context: per-tile collision, terrain, navigation, visuals and custom data written to a
## TileSet .tres and read back from the file, undo/redo, and requests with one bad entry that
## leave the file exactly as it was.
##
## Not covered here (only an editor shows it): the TileSet editor's paint panels refreshing,
## PNG atlases (import needs the editor: the texture here is an ImageTexture saved as .tres),
## Ctrl+Z in the editor's own history.

const Assert := preload("assert.gd")
const DomainFixture := preload("domain_fixture.gd")
const DOMAIN_PATH := "res://addons/godot_mcp_toolkit/commands/tileset/tileset_edit_commands.gd"

const DOMAIN := "tileset_edit"
const SCRATCH := "res://tmp_tests/tileset_edit"
const WORLD := SCRATCH + "/world.tres"
const TEXTURE := SCRATCH + "/atlas.tres"

var _root: Node = null
## The tile set last loaded from the file (kept so its TileData stay alive while asserted on).
var _loaded: TileSet = null
var _fx: DomainFixture = null


func _init() -> void:
	_root = Node.new()
	var domains: Array[String] = [DOMAIN_PATH]
	_fx = DomainFixture.new(domains, DOMAIN, _root)
	DirAccess.make_dir_recursive_absolute(SCRATCH)
	ResourceSaver.save(ImageTexture.create_from_image(Image.create(64, 32, false, Image.FORMAT_RGBA8)), TEXTURE)
	_write_world()


func cleanup() -> void:
	_loaded = null
	_fx.cleanup()


## The tile set the examples' `about` describes, written fresh before every test.
func _write_world() -> void:
	var tile_set := TileSet.new()
	tile_set.add_physics_layer()
	tile_set.add_navigation_layer()
	tile_set.add_occlusion_layer()
	tile_set.add_terrain_set()
	tile_set.set_terrain_set_mode(0, TileSet.TERRAIN_MODE_MATCH_SIDES)
	for name: String in ["grass", "water"]:
		tile_set.add_terrain(0)
		tile_set.set_terrain_name(0, tile_set.get_terrains_count(0) - 1, name)
	tile_set.add_custom_data_layer()
	tile_set.set_custom_data_layer_name(0, "damage")
	tile_set.set_custom_data_layer_type(0, TYPE_INT)
	tile_set.add_custom_data_layer()
	tile_set.set_custom_data_layer_name(1, "tint")
	tile_set.set_custom_data_layer_type(1, TYPE_COLOR)
	var source := TileSetAtlasSource.new()
	source.texture = load(TEXTURE)
	source.texture_region_size = Vector2i(16, 16)
	tile_set.add_source(source, 0)
	for coords: Vector2i in [Vector2i(0, 0), Vector2i(1, 0), Vector2i(2, 0), Vector2i(0, 1)]:
		source.create_tile(coords)
	ResourceSaver.save(tile_set, WORLD)


## TileData of tile `coords` as saved in the file.
func _tile(coords: Vector2i) -> TileData:
	_loaded = ResourceLoader.load(WORLD, "", ResourceLoader.CACHE_MODE_IGNORE) as TileSet
	return (_loaded.get_source(0) as TileSetAtlasSource).get_tile_data(coords, 0)


func test_physics() -> void:
	_write_world()
	_fx.example("tileset.edit_physics")
	Assert.eq(_tile(Vector2i(0, 0)).get_collision_polygon_points(0, 0).size(), 4, "full square saved")
	Assert.is_true(_tile(Vector2i(1, 0)).is_collision_polygon_one_way(0, 0), "one way saved")
	Assert.eq(_tile(Vector2i(2, 0)).get_collision_polygon_points(0, 0)[2], Vector2(0, -8), "custom points saved")
	Assert.is_true(_fx.context.edits.undo(), "undo")
	Assert.eq(_tile(Vector2i(0, 0)).get_collision_polygons_count(0), 0, "undone in the file")
	Assert.is_true(_fx.context.edits.redo(), "redo")
	_fx.example("tileset.edit_physics", 1)
	var half_bad := _fx.invoke("tileset.edit_physics", {"file_path": WORLD, "tiles": [
		{"atlas_x": 0, "atlas_y": 0, "physics_polygon": "none"}, {"atlas_x": 1, "atlas_y": 0, "physics_polygon": "wavy"}]})
	Assert.eq(half_bad["code"], "INVALID_PARAMS", "bad polygon word")
	Assert.eq(_tile(Vector2i(0, 0)).get_collision_polygons_count(0), 1, "the good first entry was not saved either")
	Assert.eq(_fx.invoke("tileset.edit_physics", {"file_path": WORLD, "tiles": [
		{"atlas_x": 0, "atlas_y": 0, "physics_polygon": "full", "physics_layer": 3}]})["code"],
		"INVALID_PARAMS", "no layer 3")


func test_terrain() -> void:
	_write_world()
	_fx.example("tileset.edit_terrain")
	var data := _tile(Vector2i(0, 0))
	Assert.eq([data.terrain_set, data.terrain], [0, 0], "terrain saved")
	Assert.eq(data.get_terrain_peering_bit(TileSet.CELL_NEIGHBOR_RIGHT_SIDE), 1, "water to the right")
	var corner := _fx.invoke("tileset.edit_terrain", {"file_path": WORLD, "tiles": [
		{"atlas_x": 1, "atlas_y": 0, "terrain_set": 0, "terrain": 1, "terrain_peering": {"top_left_corner": 1}}]})
	Assert.eq(corner["code"], "INVALID_PARAMS", "a corner bit in match_sides mode is refused, not dropped")
	Assert.eq(_tile(Vector2i(1, 0)).terrain, -1, "and nothing was saved")
	Assert.eq(_fx.invoke("tileset.edit_terrain", {"file_path": WORLD, "tiles": [
		{"atlas_x": 0, "atlas_y": 0, "terrain": 5}]})["code"], "INVALID_PARAMS", "no terrain 5")


func test_navigation() -> void:
	_write_world()
	_fx.example("tileset.edit_navigation")
	var navigation := _tile(Vector2i(0, 0)).get_navigation_polygon(0)
	Assert.eq(navigation.get_polygon_count(), 1, "one polygon saved")
	Assert.eq(navigation.vertices.size(), 4, "its corners")
	_fx.invoke("tileset.edit_navigation", {"file_path": WORLD, "tiles": [
		{"atlas_x": 0, "atlas_y": 0, "navigation_polygon": "none"}]})
	Assert.is_true(_tile(Vector2i(0, 0)).get_navigation_polygon(0) == null, "cleared")


func test_visuals() -> void:
	_write_world()
	_fx.example("tileset.edit_visuals")
	var data := _tile(Vector2i(0, 1))
	Assert.eq(data.get_occluder(0).polygon.size(), 4, "occluder saved")
	Assert.eq([data.probability, data.z_index], [0.25, 2], "probability and z index")
	var source := _loaded.get_source(0) as TileSetAtlasSource
	Assert.eq(source.get_tile_animation_frames_count(Vector2i(0, 1)), 2, "animated")
	Assert.eq(source.get_tile_animation_frame_duration(Vector2i(0, 1), 1), 0.5, "frame duration")
	var crowded := _fx.invoke("tileset.edit_visuals", {"file_path": WORLD, "tiles": [
		{"atlas_x": 0, "atlas_y": 0, "animation": {"frames_count": 2}}]})
	Assert.eq(crowded["code"], "INVALID_PARAMS", "tile (1,0) is in the way")
	Assert.eq(_fx.invoke("tileset.edit_visuals", {"file_path": WORLD, "tiles": [{"atlas_x": 0, "atlas_y": 0}]})["code"],
		"INVALID_PARAMS", "nothing to set")


func test_custom_data() -> void:
	_write_world()
	_fx.example("tileset.edit_custom_data")
	var data := _tile(Vector2i(2, 0))
	Assert.eq(data.get_custom_data("damage"), 5, "int saved")
	Assert.eq(data.get_custom_data("tint"), Color(1, 0, 0, 1), "color saved")
	_fx.example("tileset.edit_custom_data", 1)
	Assert.eq(_fx.invoke("tileset.edit_custom_data", {"file_path": WORLD, "tiles": [
		{"atlas_x": 2, "atlas_y": 0, "custom_data": {"damage": "lots"}}]})["code"], "INVALID_PARAMS", "wrong type")
	Assert.eq(_tile(Vector2i(2, 0)).get_custom_data("damage"), 5, "unchanged")
	Assert.is_true(_fx.context.edits.undo(), "undo")
	Assert.eq(_tile(Vector2i(2, 0)).get_custom_data("damage"), 0, "undone")


func test_zz_folder_removed() -> void:
	for path: String in [WORLD, TEXTURE, SCRATCH]:
		DirAccess.remove_absolute(path)
	if DirAccess.get_directories_at("res://tmp_tests").is_empty():
		DirAccess.remove_absolute("res://tmp_tests")
	Assert.is_false(DirAccess.dir_exists_absolute(SCRATCH), "scratch folder removed")
