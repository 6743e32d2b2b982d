@tool
extends RefCounted
## Shared by the tileset and tileset_edit domains: load a TileSet file (a private copy, see
## files/resource_file.gd), pick an atlas source and a tile, cut a texture into
## tiles, and read polygons given as "full" / "none" / [{x, y}]. Runtime-safe.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const Params := preload("res://addons/godot_mcp_toolkit/contract/params.gd")
const ResourceFile := preload("res://addons/godot_mcp_toolkit/files/resource_file.gd")

const MAKER := "tileset_create"
const POLYGON_FULL := "full"
const POLYGON_NONE := "none"


## {"path", "tile_set"} or {"error"}.
static func load_tile_set(file_path: Variant) -> Dictionary:
	var loaded := ResourceFile.load_copy(file_path, "TileSet", MAKER)
	if loaded.has("error"):
		return loaded
	return {"path": loaded["path"], "tile_set": loaded["resource"]}


## {"source_id", "source"} for `source_id` (default: the first atlas source) or {"error"}.
static func atlas_source(tile_set: TileSet, source_id: Variant) -> Dictionary:
	if source_id == null:
		for index: int in tile_set.get_source_count():
			var id := tile_set.get_source_id(index)
			if tile_set.get_source(id) is TileSetAtlasSource:
				return {"source_id": id, "source": tile_set.get_source(id)}
		return {"error": ToolkitError.fail("NOT_FOUND", "The tile set has no atlas source",
			"Add one with tileset_add_source.")}
	if not Params.is_whole_number(source_id):
		return {"error": ToolkitError.fail("INVALID_PARAMS", "source_id must be a whole number")}
	if not tile_set.has_source(int(source_id)):
		return {"error": ToolkitError.fail("NOT_FOUND", "The tile set has no source %d" % int(source_id),
			"Its sources: %s." % str(source_ids(tile_set)))}
	var source := tile_set.get_source(int(source_id))
	if not source is TileSetAtlasSource:
		return {"error": ToolkitError.fail("INVALID_CLASS", "Source %d is a %s, not an atlas source" % [
			int(source_id), source.get_class()])}
	return {"source_id": int(source_id), "source": source}


static func source_ids(tile_set: TileSet) -> Array:
	var ids: Array = []
	for index: int in tile_set.get_source_count():
		ids.append(tile_set.get_source_id(index))
	return ids


## {"coords", "alternative", "data": TileData} for an entry's atlas_x/atlas_y/alternative, or {"error"}.
static func tile(source: TileSetAtlasSource, entry: Variant, label: String) -> Dictionary:
	if not entry is Dictionary:
		return {"error": ToolkitError.fail("INVALID_PARAMS", "%s must be an object {atlas_x, atlas_y, ...}" % label)}
	for key: String in ["atlas_x", "atlas_y"]:
		if not Params.is_whole_number(entry.get(key)):
			return {"error": ToolkitError.fail("INVALID_PARAMS", "%s.%s must be a whole number" % [label, key])}
	var alternative: Variant = entry.get("alternative", 0)
	if not Params.is_whole_number(alternative):
		return {"error": ToolkitError.fail("INVALID_PARAMS", "%s.alternative must be a whole number" % label)}
	var coords := Vector2i(int(entry["atlas_x"]), int(entry["atlas_y"]))
	if not source.has_tile(coords) or not source.has_alternative_tile(coords, int(alternative)):
		return {"error": ToolkitError.fail("NOT_FOUND", "%s: no tile at atlas %s alternative %d" % [
			label, coords, int(alternative)], "The source's grid is %s tiles; alternatives start at 0." % (
			source.get_atlas_grid_size()))}
	return {"coords": coords, "alternative": int(alternative), "data": source.get_tile_data(coords, int(alternative))}


## {"size": Vector2i} from an optional {x, y} (positive), else `fallback`.
static func tile_size(value: Variant, fallback: Vector2i) -> Dictionary:
	if value == null:
		return {"size": fallback}
	if value is Dictionary:
		var unknown := Params.reject_unknown_keys(value, ["x", "y", "type"], "tile_size")
		if not unknown.is_empty():
			return {"error": unknown}
	var whole: bool = value is Dictionary and Params.is_whole_number(value.get("x")) \
		and Params.is_whole_number(value.get("y"))
	if not whole or int(value["x"]) <= 0 or int(value["y"]) <= 0:
		return {"error": ToolkitError.fail("INVALID_PARAMS", "tile_size must be {x, y} with whole numbers above 0")}
	return {"size": Vector2i(int(value["x"]), int(value["y"]))}


## A new atlas source over `texture` with a tile in every whole cell; {"source"} or {"error"}.
static func atlas_from(texture: Texture2D, size: Vector2i) -> Dictionary:
	var grid := Vector2i(texture.get_width() / size.x, texture.get_height() / size.y)
	if grid.x == 0 or grid.y == 0:
		return {"error": ToolkitError.fail("INVALID_PARAMS", "The %dx%d texture is smaller than one %dx%d tile" % [
			texture.get_width(), texture.get_height(), size.x, size.y], "Pass a smaller tile_size.")}
	var source := TileSetAtlasSource.new()
	source.texture = texture
	source.texture_region_size = size
	return {"source": source, "grid": grid}


## Creates every tile of a source already added to its tile set (so its TileData knows the set's
## layers); returns how many.
static func fill(source: TileSetAtlasSource, grid: Vector2i) -> int:
	for y: int in grid.y:
		for x: int in grid.x:
			source.create_tile(Vector2i(x, y))
	return grid.x * grid.y


## {"points": PackedVector2Array} ("full": the tile's rectangle around its center; "none": empty)
## or {"error"}; custom points are relative to the tile's center, 3 or more.
static func polygon(value: Variant, label: String, size: Vector2i, extra: Array = []) -> Dictionary:
	if value is String and (value == POLYGON_FULL or value in extra):
		var half := Vector2(size) / 2.0
		return {"points": PackedVector2Array([-half, Vector2(half.x, -half.y), half, Vector2(-half.x, half.y)])}
	if value is String and value == POLYGON_NONE:
		return {"points": PackedVector2Array()}
	if value is Array and (value as Array).size() >= 3:
		var points := PackedVector2Array()
		for point: Variant in value:
			if not point is Dictionary or not Params.is_number(point.get("x")) or not Params.is_number(point.get("y")):
				return _bad_polygon(label, extra)
			var unknown := Params.reject_unknown_keys(point, ["x", "y", "type"], "%s[%d]" % [label, points.size()])
			if not unknown.is_empty():
				return {"error": unknown}
			points.append(Vector2(float(point["x"]), float(point["y"])))
		return {"points": points}
	return _bad_polygon(label, extra)


static func _bad_polygon(label: String, extra: Array) -> Dictionary:
	var words := PackedStringArray([POLYGON_FULL, POLYGON_NONE] + extra)
	return {"error": ToolkitError.fail("INVALID_PARAMS",
		"%s must be %s, or 3+ points [{x, y}] around the tile's center" % [label, " | ".join(words)])}


## {"index"} for an optional layer index below `count`, or {"error"} naming how to add one.
static func layer(value: Variant, key: String, count: int, kind: String) -> Dictionary:
	if not Params.is_whole_number(value) or int(value) < 0:
		return {"error": ToolkitError.fail("INVALID_PARAMS", "%s must be a whole number, 0 or more" % key)}
	if int(value) >= count:
		return {"error": ToolkitError.fail("INVALID_PARAMS", "The tile set has %d %s layer(s), so no %s %d" % [
			count, kind, key, int(value)], "Add layers with tileset_setup_layers (%s_layers)." % kind)}
	return {"index": int(value)}
