extends RefCounted
## The tileset domain (commands/tileset/tileset_commands.gd) through the command registry over a runtime
## context: the TileSet .tres files it writes, loaded back as a game would, undo/redo of each
## write, and bad input that leaves the file as it was.
##
## Not covered here (only an editor shows it): PNG textures (their import needs the editor: the
## test's texture is an ImageTexture saved as .tres), the TileSet editor panel refreshing, Ctrl+Z
## in the editor's own history.

const Assert := preload("assert.gd")
const DomainFixture := preload("domain_fixture.gd")
const ResultExamples := preload("result_examples.gd")
const DOMAIN_PATH := "res://addons/godot_mcp_toolkit/commands/tileset/tileset_commands.gd"

const DOMAIN := "tileset"
const SCRATCH := "res://tmp_tests/tileset"
const WORLD := SCRATCH + "/world.tres"
const TEXTURE := SCRATCH + "/terrain.tres"

var _root: Node = null
var _fx: DomainFixture = null


func _init() -> void:
	_root = Node.new()
	var domains: Array[String] = [DOMAIN_PATH]
	_fx = DomainFixture.new(domains, DOMAIN, _root)
	DirAccess.make_dir_recursive_absolute(SCRATCH)
	ResourceSaver.save(ImageTexture.create_from_image(Image.create(64, 32, false, Image.FORMAT_RGBA8)), TEXTURE)


func cleanup() -> void:
	if DirAccess.dir_exists_absolute(SCRATCH):
		DirAccess.remove_absolute(WORLD)
	_fx.cleanup()


func _load() -> TileSet:
	return ResourceLoader.load(WORLD, "", ResourceLoader.CACHE_MODE_IGNORE) as TileSet


func test_create_with_physics() -> void:
	_fx.example("tileset.create", 1)
	Assert.is_false(FileAccess.file_exists(WORLD), "bad tile size writes nothing")
	_fx.example("tileset.create")
	var tile_set := _load()
	var source := tile_set.get_source(0) as TileSetAtlasSource
	Assert.eq(source.texture.resource_path, TEXTURE, "the texture file is referenced")
	Assert.eq(source.get_tiles_count(), 8, "every tile")
	Assert.eq(tile_set.get_physics_layer_collision_layer(0), 5, "layers 1 and 3")
	var data := source.get_tile_data(Vector2i(3, 1), 0)
	Assert.eq(data.get_collision_polygon_points(0, 0), PackedVector2Array([Vector2(-8, -8), Vector2(8, -8),
		Vector2(8, 8), Vector2(-8, 8)]), "full-tile collision")
	Assert.is_true(_fx.context.edits.undo(), "undo")
	Assert.is_false(FileAccess.file_exists(WORLD), "created file gone")
	Assert.is_true(_fx.context.edits.redo(), "redo")
	Assert.eq(_load().get_source_count(), 1, "back")
	var plain := _fx.invoke("tileset.create", {"file_path": WORLD, "texture_path": TEXTURE, "collision_mask": 2})
	Assert.eq(plain["status"], "replaced", "replaces")
	Assert.contains(str(plain["warnings"]), "physics is false", "says the mask was not applied")
	Assert.eq(_load().get_physics_layers_count(), 0, "no physics layer")
	Assert.eq(_fx.invoke("tileset.create", {"file_path": WORLD, "texture_path": TEXTURE, "collision_layer": ["nope"],
		"physics": true})["code"], "INVALID_PARAMS", "unknown layer name")
	Assert.eq(_fx.invoke("tileset.create", {"file_path": WORLD, "texture_path": SCRATCH + "/none.png"})["code"],
		"NOT_FOUND", "missing texture")


func test_sources() -> void:
	_fx.invoke("tileset.create", ResultExamples.params(DOMAIN, "tileset.create"))
	_fx.example("tileset.add_source")
	Assert.eq((_load().get_source(1) as TileSetAtlasSource).texture_region_size, Vector2i(32, 32), "its own size")
	_fx.example("tileset.remove_source")
	Assert.is_false(_load().has_source(1), "removed from the file")
	Assert.is_true(_fx.context.edits.undo(), "undo")
	Assert.is_true(_load().has_source(1), "back after undo")
	Assert.is_true(_fx.context.edits.redo(), "redo")
	_fx.example("tileset.remove_source", 1)
	Assert.eq(_fx.invoke("tileset.add_source", {"file_path": SCRATCH + "/none.tres", "texture_path": TEXTURE})["code"],
		"NOT_FOUND", "no tile set file")
	Assert.eq(_fx.invoke("tileset.add_source", {"file_path": TEXTURE, "texture_path": TEXTURE})["code"], "INVALID_CLASS",
		"not a tile set")


func test_alternatives() -> void:
	_fx.invoke("tileset.create", ResultExamples.params(DOMAIN, "tileset.create"))
	_fx.example("tileset.add_alternative")
	var tile_set := _load()  # kept in a variable: the TileData dies with its tile set
	var data := (tile_set.get_source(0) as TileSetAtlasSource).get_tile_data(Vector2i(1, 0), 1)
	Assert.is_true(data.flip_h, "flipped in the file")
	Assert.eq(data.modulate.a, 0.5, "tinted")
	_fx.example("tileset.remove_alternative")
	Assert.is_false((_load().get_source(0) as TileSetAtlasSource).has_alternative_tile(Vector2i(1, 0), 1), "removed")
	Assert.is_true(_fx.context.edits.undo(), "undo")
	Assert.is_true((_load().get_source(0) as TileSetAtlasSource).has_alternative_tile(Vector2i(1, 0), 1), "back")
	var base := {"file_path": WORLD, "atlas_x": 1, "atlas_y": 0, "alternative_id": 0}
	Assert.eq(_fx.invoke("tileset.remove_alternative", base)["code"], "INVALID_PARAMS", "0 is the tile")
	base["alternative_id"] = 7
	Assert.eq(_fx.invoke("tileset.remove_alternative", base)["code"], "NOT_FOUND", "no alternative 7")
	Assert.eq(_fx.invoke("tileset.add_alternative", {"file_path": WORLD, "atlas_x": 9, "atlas_y": 0})["code"], "NOT_FOUND",
		"no tile 9,0")
	Assert.eq(_fx.invoke("tileset.add_alternative",
		{"file_path": WORLD, "atlas_x": 1, "atlas_y": 0, "flip_h": "yes"})["code"], "INVALID_PARAMS", "bad flag")


func test_setup_layers() -> void:
	_fx.invoke("tileset.create", ResultExamples.params(DOMAIN, "tileset.create"))
	_fx.example("tileset.setup_layers")
	var tile_set := _load()
	Assert.eq(tile_set.get_terrain_name(0, 1), "water", "terrain named")
	Assert.eq(tile_set.get_terrain_set_mode(0), TileSet.TERRAIN_MODE_MATCH_SIDES, "mode")
	Assert.eq(tile_set.get_custom_data_layer_type(0), TYPE_INT, "custom data typed")
	var again := _fx.invoke("tileset.setup_layers", {"file_path": WORLD, "custom_data": [{"name": "damage"}]})
	Assert.eq(again["code"], "INVALID_PARAMS", "duplicate custom data name")
	Assert.eq(_fx.invoke("tileset.setup_layers", {"file_path": WORLD, "terrain_sets": [{"mode": "diagonal"}],
		"navigation_layers": 3})["code"], "INVALID_PARAMS", "bad mode")
	Assert.eq(_load().get_navigation_layers_count(), 1, "the bad request added nothing")
	Assert.is_true(_fx.context.edits.undo(), "undo")
	Assert.eq(_load().get_terrain_sets_count(), 0, "layers gone after undo")


func test_zz_folder_removed() -> void:
	DirAccess.remove_absolute(TEXTURE)
	DirAccess.remove_absolute(WORLD)
	DirAccess.remove_absolute(SCRATCH)
	if DirAccess.get_directories_at("res://tmp_tests").is_empty():
		DirAccess.remove_absolute("res://tmp_tests")
	Assert.is_false(DirAccess.dir_exists_absolute(SCRATCH), "scratch folder removed")
