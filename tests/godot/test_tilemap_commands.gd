extends RefCounted
## The tilemap domain (commands/tilemap/tilemap_commands.gd) through the command registry over a runtime
## context: cells set in one undo step (undo and redo), region-limited and capped reads, the
## legacy TileMap's layer API, and the painted layer saved to a .tscn and loaded back.
##
## Not covered here (only an editor shows it): the TileMap editor panel redrawing, Ctrl+Z in the
## editor's own history. The textures are ImageTextures built in memory (an imported PNG needs
## the editor's importer).

const Assert := preload("assert.gd")
const AnswerBudget := preload("res://addons/godot_mcp_toolkit/contract/answer_budget.gd")
const DomainFixture := preload("domain_fixture.gd")
const ResultExamples := preload("result_examples.gd")
const DOMAIN_PATH := "res://addons/godot_mcp_toolkit/commands/tilemap/tilemap_commands.gd"

const DOMAIN := "tilemap"
const SCRATCH := "res://tmp_tests/tilemap"

var _root: Node2D = null
var _layer: Node2D = null
var _fx: DomainFixture = null


## The scene of tests/fixtures/toolkit/results/tilemap.json: Node2D "Main" > TileMapLayer
## "Ground" whose tile set has one 4x1 atlas source (id 0, 16 px tiles).
func _init() -> void:
	_root = Node2D.new()
	_root.name = "Main"
	_layer = ClassDB.instantiate("TileMapLayer")
	_layer.name = "Ground"
	_layer.set("tile_set", _tile_set())
	_root.add_child(_layer)
	_layer.owner = _root
	var domains: Array[String] = [DOMAIN_PATH]
	_fx = DomainFixture.new(domains, DOMAIN, _root, SCRATCH)


func cleanup() -> void:
	_fx.cleanup()


static func _tile_set() -> TileSet:
	var tile_set := TileSet.new()
	tile_set.tile_size = Vector2i(16, 16)
	var source := TileSetAtlasSource.new()
	source.texture = ImageTexture.create_from_image(Image.create(64, 16, false, Image.FORMAT_RGBA8))
	source.texture_region_size = Vector2i(16, 16)
	for x: int in 4:
		source.create_tile(Vector2i(x, 0))
	tile_set.add_source(source, 0)
	return tile_set


func _source_at(x: int, y: int) -> int:
	return _layer.call("get_cell_source_id", Vector2i(x, y))


func test_flags() -> void:
	Assert.is_true(_fx.registry.dispatch_info("tilemap.read_cells")["read_only"], "read is a read")
	Assert.is_false(_fx.registry.dispatch_info("tilemap.set_cells")["read_only"], "set mutates")


func test_set_cells_is_one_undo_step() -> void:
	_layer.call("set_cell", Vector2i(5, 3), 0, Vector2i(3, 0), 0)
	_fx.example("tilemap.set_cells")
	Assert.eq(_layer.call("get_cell_atlas_coords", Vector2i(1, 0)), Vector2i(1, 0), "region painted")
	Assert.eq(_layer.call("get_cell_atlas_coords", Vector2i(5, 3)), Vector2i(2, 0), "cell painted")
	Assert.is_true(_fx.context.edits.undo(), "undo")
	Assert.eq(_source_at(0, 0), -1, "region cleared again")
	Assert.eq(_layer.call("get_cell_atlas_coords", Vector2i(5, 3)), Vector2i(3, 0), "previous tile back")
	Assert.is_true(_fx.context.edits.redo(), "redo")
	Assert.eq(_source_at(1, 0), 0, "redone")
	var again := _fx.invoke("tilemap.set_cells", ResultExamples.params(DOMAIN, "tilemap.set_cells"))
	Assert.eq([again["cells_set"], again["cells_unchanged"]], [0, 3], "nothing to change the second time")
	var erased := _fx.invoke("tilemap.set_cells", {"node_path": "Ground", "cells": [{"x": 0, "y": 0, "source_id": -1}]})
	Assert.eq(erased["cells_erased"], 1, "erased")
	Assert.eq(_source_at(0, 0), -1, "cell gone")


func test_bad_input_changes_nothing() -> void:
	_fx.example("tilemap.set_cells", 1)
	var bad_tile := _fx.invoke("tilemap.set_cells", {"node_path": "Ground", "cells": [
		{"x": 0, "y": 0, "source_id": 0, "atlas_x": 0}, {"x": 1, "y": 0, "source_id": 0, "atlas_x": 9}]})
	Assert.eq(bad_tile["code"], "INVALID_PARAMS", "missing atlas tile")
	Assert.eq(_source_at(0, 0), -1, "the valid first cell was not written either")
	Assert.eq(_fx.invoke("tilemap.set_cells", {"node_path": "Ground"})["code"], "INVALID_PARAMS", "nothing to do")
	Assert.eq(_fx.invoke("tilemap.set_cells", {"node_path": "Nope", "cells": []})["code"], "NOT_FOUND", "no node")
	Assert.eq(_fx.invoke("tilemap.set_cells", {"node_path": "Ground", "regions": [
		{"x": 0, "y": 0, "width": 200, "height": 200, "source_id": 0}]})["code"], "INVALID_PARAMS", "over the cap")
	_layer.set("tile_set", null)
	Assert.eq(_fx.invoke("tilemap.set_cells",
		{"node_path": "Ground", "cells": [{"x": 0, "y": 0, "source_id": 0}]})["code"],
		"INVALID_STATE", "no tile set")


func test_a_misspelt_cell_key_is_refused_not_defaulted() -> void:
	var misspelt := _fx.invoke("tilemap.set_cells", {"node_path": "Ground",
		"cells": [{"x": 3, "y": 3, "source_id": 0, "atlas": [1, 0]}]})
	Assert.eq(misspelt["code"], "INVALID_PARAMS", "an unknown key in a cell is refused")
	Assert.contains(misspelt["error"], "cells[0] has unknown key 'atlas'", "naming the cell and the key")
	Assert.contains(misspelt["error"], "accepted: x, y, source_id, atlas_x, atlas_y, alternative", "and the accepted ones")
	Assert.contains(misspelt["hint"], "'atlas_x' for 'atlas'", "the hint names the close key")
	Assert.eq(_source_at(3, 3), -1, "tile (0,0) was not painted at 3,3")
	var region := _fx.invoke("tilemap.set_cells", {"node_path": "Ground",
		"regions": [{"x": 0, "y": 0, "w": 2, "h": 2, "width": 2, "height": 2, "source_id": 0}]})
	Assert.contains(region["error"], "regions[0] has unknown keys 'w', 'h'", "a region too")
	Assert.eq(_source_at(0, 0), -1, "nothing painted")
	var read := _fx.invoke("tilemap.read_cells", {"node_path": "Ground",
		"region": {"x": 0, "y": 0, "width": 4, "height": 1, "heigth": 2}})
	Assert.eq([read["code"], read["error"].contains("'heigth'")], ["INVALID_PARAMS", true], "and the read region")


func test_read_cells_region_and_filter() -> void:
	_fx.invoke("tilemap.set_cells", ResultExamples.params(DOMAIN, "tilemap.set_cells"))
	_fx.example("tilemap.read_cells")
	_fx.example("tilemap.read_cells", 1)
	var everything := _fx.invoke("tilemap.read_cells", {"node_path": "Ground"})
	Assert.eq(everything["total"], 3, "no region: the used rect")
	Assert.eq(_fx.invoke("tilemap.read_cells", {"node_path": "Ground", "source_id": 4})["total"], 0, "source filter")
	var layered := _fx.invoke("tilemap.read_cells", {"node_path": "Ground", "layer": 2})
	Assert.contains(str(layered["warnings"]), "layer ignored", "a TileMapLayer has no layers: said")
	Assert.eq(_fx.invoke("tilemap.read_cells", {"node_path": "Ground", "region": {"x": 0}})["code"], "INVALID_PARAMS",
		"malformed region")


func test_read_cells_pages_at_a_row_and_says_where_to_resume() -> void:
	_fx.invoke("tilemap.set_cells", {"node_path": "Ground", "regions": [
		{"x": 0, "y": 0, "width": 100, "height": 30, "source_id": 0},
		{"x": 0, "y": 40, "width": 400, "height": 1, "source_id": 0}]})
	var whole := {"x": 0, "y": 0, "width": 100, "height": 30}
	var first := _fx.invoke("tilemap.read_cells", {"node_path": "Ground", "region": whole})
	Assert.eq([first["truncated"], first["has_more"]], [true, true], "3000 cells are more than one answer")
	Assert.eq(first["returned"] % 100, 0, "whole rows")
	var rows: int = first["returned"] / 100
	Assert.eq(first["next_region"], {"x": 0, "y": rows, "width": 100, "height": 30 - rows}, "the rest")
	Assert.contains(first["hint"], "region", "named in the hint")
	Assert.eq(_read_all(whole).size(), 3000, "every cell once, page by page")
	var row := _read_all({"x": 0, "y": 40, "width": 400, "height": 1})
	Assert.eq(row.size(), 400, "a row longer than an answer goes on from its next cell")


## Every cell of `region`, following next_region; each page within one answer.
func _read_all(region: Dictionary) -> Dictionary:
	var seen := {}
	var next: Variant = region
	var pages := 0
	while next != null and pages < 50:
		pages += 1
		var page := _fx.invoke("tilemap.read_cells", {"node_path": "Ground", "region": next})
		Assert.is_true(AnswerBudget.size_of(page) <= AnswerBudget.BYTES, "page %d fits one answer" % pages)
		for cell: Dictionary in page["cells"]:
			Assert.is_false(seen.has(Vector2i(cell["x"], cell["y"])), "(%d, %d) once" % [cell["x"], cell["y"]])
			seen[Vector2i(cell["x"], cell["y"])] = true
		next = page.get("next_region")
	return seen


func test_legacy_tilemap_layers() -> void:
	var legacy := TileMap.new()
	legacy.name = "Legacy"
	legacy.tile_set = _tile_set()
	legacy.add_layer(-1)
	_root.add_child(legacy)
	legacy.owner = _root
	var result := _fx.invoke("tilemap.set_cells", {"node_path": "Legacy", "layer": 1, "cells": [
		{"x": 2, "y": 2, "source_id": 0, "atlas_x": 3}]})
	Assert.eq([result["layer"], result["cells_set"], result["class"]], [1, 1, "TileMap"], "layer 1 painted")
	Assert.eq(legacy.get_cell_atlas_coords(1, Vector2i(2, 2)), Vector2i(3, 0), "on layer 1")
	Assert.eq(legacy.get_cell_source_id(0, Vector2i(2, 2)), -1, "not on layer 0")
	Assert.eq(_fx.invoke("tilemap.read_cells", {"node_path": "Legacy", "layer": 1})["cells"][0]["atlas_x"], 3, "read back")
	Assert.eq(_fx.invoke("tilemap.read_cells", {"node_path": "Legacy", "layer": 5})["code"], "INVALID_PARAMS",
		"no layer 5")
	Assert.is_true(_fx.context.edits.undo(), "undo")
	Assert.eq(legacy.get_cell_source_id(1, Vector2i(2, 2)), -1, "undone")


func test_painted_layer_survives_save_and_load() -> void:
	_fx.invoke("tilemap.set_cells", ResultExamples.params(DOMAIN, "tilemap.set_cells"))
	DirAccess.make_dir_recursive_absolute(SCRATCH)
	var packed := PackedScene.new()
	Assert.eq(packed.pack(_root), OK, "packs")
	var path := SCRATCH.path_join("painted.tscn")
	Assert.eq(ResourceSaver.save(packed, path), OK, "saved")
	var loaded := (ResourceLoader.load(path, "", ResourceLoader.CACHE_MODE_IGNORE) as PackedScene).instantiate()
	var ground := loaded.get_node("Ground")
	Assert.eq(ground.call("get_cell_atlas_coords", Vector2i(5, 3)), Vector2i(2, 0), "the cell is in the file")
	Assert.eq(ground.call("get_used_cells").size(), 3, "and only the painted ones")
	loaded.free()
