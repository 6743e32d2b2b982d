@tool
extends RefCounted
## One tile's edit per kind, for commands/tileset/tileset_edit_commands.gd. Each apply_<kind> takes the
## tile set copy, the atlas source, the found tile ({coords, alternative, data}), the request
## entry and its label, and returns what it set or {"error"}. Values the engine silently refuses
## (a terrain peering bit the tile shape does not have) are read back and reported as errors.
## Runtime-safe.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const Params := preload("res://addons/godot_mcp_toolkit/contract/params.gd")
const Coerce := preload("res://addons/godot_mcp_toolkit/contract/coerce.gd")
const TileSetAccess := preload("res://addons/godot_mcp_toolkit/commands/tileset/tileset_access.gd")
const TileSetLayers := preload("res://addons/godot_mcp_toolkit/commands/tileset/tileset_layers.gd")

const ONE_WAY := "one_way"
## Peering bit names, in TileSet.CellNeighbor order (0-15).
const PEERING_BITS := ["right_side", "right_corner", "bottom_right_side", "bottom_right_corner", "bottom_side",
	"bottom_corner", "bottom_left_side", "bottom_left_corner", "left_side", "left_corner", "top_left_side",
	"top_left_corner", "top_side", "top_corner", "top_right_side", "top_right_corner"]


static func apply_physics(tile_set: TileSet, source: TileSetAtlasSource, found: Dictionary, entry: Dictionary,
		label: String) -> Dictionary:
	var layer := TileSetAccess.layer(entry.get("physics_layer", 0), "physics_layer",
		tile_set.get_physics_layers_count(), "physics")
	if layer.has("error"):
		return layer
	var shape := TileSetAccess.polygon(entry.get("physics_polygon"), "%s.physics_polygon" % label,
		source.texture_region_size, [ONE_WAY])
	if shape.has("error"):
		return shape
	var data: TileData = found["data"]
	var points: PackedVector2Array = shape["points"]
	var index: int = layer["index"]
	var one_way: bool = entry.get("physics_polygon") is String and entry["physics_polygon"] == ONE_WAY
	data.set_collision_polygons_count(index, 0 if points.is_empty() else 1)
	if not points.is_empty():
		data.set_collision_polygon_points(index, 0, points)
		data.set_collision_polygon_one_way(index, 0, one_way)
	return {"physics_layer": index, "polygon_points": points.size(), "one_way": one_way}


static func apply_navigation(tile_set: TileSet, source: TileSetAtlasSource, found: Dictionary, entry: Dictionary,
		label: String) -> Dictionary:
	var layer := TileSetAccess.layer(entry.get("navigation_layer", 0), "navigation_layer",
		tile_set.get_navigation_layers_count(), "navigation")
	if layer.has("error"):
		return layer
	var shape := TileSetAccess.polygon(entry.get("navigation_polygon"), "%s.navigation_polygon" % label,
		source.texture_region_size)
	if shape.has("error"):
		return shape
	var points: PackedVector2Array = shape["points"]
	var navigation: NavigationPolygon = null
	if not points.is_empty():
		navigation = NavigationPolygon.new()
		navigation.vertices = points
		var indices := PackedInt32Array()
		for i: int in points.size():
			indices.append(i)
		navigation.add_polygon(indices)
		navigation.add_outline(points)
	(found["data"] as TileData).set_navigation_polygon(layer["index"], navigation)
	return {"navigation_layer": layer["index"], "polygon_points": points.size()}


static func apply_terrain(tile_set: TileSet, _source: TileSetAtlasSource, found: Dictionary, entry: Dictionary,
		label: String) -> Dictionary:
	var data: TileData = found["data"]
	var terrain_set: Variant = entry.get("terrain_set", data.terrain_set if data.terrain_set >= 0 else 0)
	var sets := tile_set.get_terrain_sets_count()
	if not Params.is_whole_number(terrain_set) or int(terrain_set) < -1 or int(terrain_set) >= sets:
		return {"error": ToolkitError.fail("INVALID_PARAMS", "%s.terrain_set: the tile set has %d terrain set(s)" % [
			label, sets], "Add one with tileset_setup_layers (terrain_sets).")}
	var count := tile_set.get_terrains_count(int(terrain_set)) if int(terrain_set) >= 0 else 0
	var terrain: Variant = entry.get("terrain", -1)
	if not Params.is_whole_number(terrain) or int(terrain) < -1 or int(terrain) >= count:
		return _bad("%s.terrain must be -1 (none) or a terrain 0-%d of terrain set %d" % [
			label, count - 1, int(terrain_set)])
	var peering: Variant = entry.get("terrain_peering", {})
	if not peering is Dictionary:
		return _bad("%s.terrain_peering must be {bit name: terrain}" % label)
	for bit: Variant in peering:
		if not bit in PEERING_BITS:
			return _bad("%s.terrain_peering: unknown bit '%s'; the bits: %s" % [
				label, bit, ", ".join(PackedStringArray(PEERING_BITS))])
		var value: Variant = peering[bit]
		if not Params.is_whole_number(value) or int(value) < -1 or int(value) >= count:
			return _bad("%s.terrain_peering.%s must be -1 or a terrain 0-%d" % [label, bit, count - 1])
	if data.terrain_set != int(terrain_set):
		data.terrain_set = int(terrain_set)
	data.terrain = int(terrain)
	for bit: String in peering:
		var neighbor: int = PEERING_BITS.find(bit)
		data.set_terrain_peering_bit(neighbor, int(peering[bit]))
		if data.get_terrain_peering_bit(neighbor) != int(peering[bit]):
			var message := "%s.terrain_peering.%s does not apply to this tile set's shape and terrain mode" % [label, bit]
			return {"error": ToolkitError.fail("INVALID_PARAMS", message,
				"Square tiles in match_sides mode take *_side bits; match_corners takes *_corner bits.")}
	return {"terrain_set": data.terrain_set, "terrain": data.terrain, "peering_bits_set": (peering as Dictionary).size()}


static func apply_visuals(tile_set: TileSet, source: TileSetAtlasSource, found: Dictionary, entry: Dictionary,
		label: String) -> Dictionary:
	var data: TileData = found["data"]
	var done := {}
	if entry.has("occlusion_polygon"):
		var layer := TileSetAccess.layer(entry.get("occlusion_layer", 0), "occlusion_layer",
			tile_set.get_occlusion_layers_count(), "occlusion")
		if layer.has("error"):
			return layer
		var shape := TileSetAccess.polygon(entry["occlusion_polygon"], "%s.occlusion_polygon" % label,
			source.texture_region_size)
		if shape.has("error"):
			return shape
		var occluder: OccluderPolygon2D = null
		if not (shape["points"] as PackedVector2Array).is_empty():
			occluder = OccluderPolygon2D.new()
			occluder.polygon = shape["points"]
		data.set_occluder(layer["index"], occluder)
		done["occlusion_points"] = (shape["points"] as PackedVector2Array).size()
	if entry.has("probability"):
		if not Params.is_number(entry["probability"]) or float(entry["probability"]) < 0.0:
			return _bad("%s.probability must be a number, 0 or more" % label)
		data.probability = float(entry["probability"])
		done["probability"] = data.probability
	if entry.has("z_index"):
		if not Params.is_whole_number(entry["z_index"]):
			return _bad("%s.z_index must be a whole number" % label)
		data.z_index = int(entry["z_index"])
		done["z_index"] = data.z_index
	if entry.has("modulate"):
		var tint := TileSetLayers.color(entry["modulate"], "%s.modulate" % label)
		if tint.has("error"):
			return tint
		data.modulate = tint["color"]
		done["modulate"] = true
	if entry.has("animation"):
		var animated := _animation(source, found, entry["animation"], label)
		if animated.has("error"):
			return animated
		done["animation_frames"] = animated["frames"]
	if done.is_empty():
		return _bad("%s sets nothing: give occlusion_polygon, probability, z_index, modulate or animation" % label)
	return done


## {frames_count, columns?, speed?, durations?} on the base tile of the source (animations belong
## to the tile, not to an alternative).
static func _animation(source: TileSetAtlasSource, found: Dictionary, value: Variant, label: String) -> Dictionary:
	if not value is Dictionary or not Params.is_whole_number(value.get("frames_count")) or int(value["frames_count"]) < 1:
		return _bad("%s.animation needs frames_count (1 or more); columns, speed and durations are optional" % label)
	var unknown := Params.reject_unknown_keys(value, ["frames_count", "columns", "speed", "durations"],
		"%s.animation" % label)
	if not unknown.is_empty():
		return {"error": unknown}
	var coords: Vector2i = found["coords"]
	var count := int(value["frames_count"])
	for key: String in ["columns", "speed"]:
		if value.has(key) and not Params.is_number(value[key]):
			return _bad("%s.animation.%s must be a number" % [label, key])
	var durations: Variant = value.get("durations", [])
	if not durations is Array or (durations as Array).any(func(d: Variant) -> bool: return not Params.is_number(d)):
		return _bad("%s.animation.durations must be a list of numbers" % label)
	if value.has("columns"):
		source.set_tile_animation_columns(coords, int(value["columns"]))
	if value.has("speed"):
		source.set_tile_animation_speed(coords, float(value["speed"]))
	source.set_tile_animation_frames_count(coords, count)
	if source.get_tile_animation_frames_count(coords) != count:
		var message := "%s.animation: the atlas has no room for %d frames after tile %s" % [label, count, coords]
		return {"error": ToolkitError.fail("INVALID_PARAMS", message,
			"Frames sit to the right of the tile (columns wraps them): those cells must be free.")}
	for index: int in mini((durations as Array).size(), count):
		source.set_tile_animation_frame_duration(coords, index, float(durations[index]))
	return {"frames": count}


static func apply_custom_data(tile_set: TileSet, _source: TileSetAtlasSource, found: Dictionary, entry: Dictionary,
		label: String) -> Dictionary:
	var values: Variant = entry.get("custom_data")
	if not values is Dictionary or (values as Dictionary).is_empty():
		return _bad("%s.custom_data must be {layer name: value}" % label)
	var data: TileData = found["data"]
	for name: Variant in values:
		var layer := tile_set.get_custom_data_layer_by_name(str(name))
		if layer < 0:
			return {"error": ToolkitError.fail("NOT_FOUND", "%s: no custom data layer '%s'" % [label, name],
				"Add it with tileset_setup_layers (custom_data).")}
		var wanted := tile_set.get_custom_data_layer_type(layer)
		var value := _typed(values[name], wanted)
		if value.has("error"):
			return _bad("%s.custom_data.%s: %s" % [label, name, value["error"]])
		data.set_custom_data(str(name), value["value"])
	return {"custom_data_set": (values as Dictionary).keys()}


## {"value"} of Variant type `wanted` from JSON (vectors and colors as {x, y, ...} / {r, g, b, a},
## tagged or not), or {"error": message}.
static func _typed(raw: Variant, wanted: int) -> Dictionary:
	var source: Variant = raw
	var structured: bool = wanted in [TYPE_VECTOR2, TYPE_VECTOR2I, TYPE_VECTOR3, TYPE_COLOR]
	if structured and raw is Dictionary and not (raw as Dictionary).has("type"):
		source = (raw as Dictionary).duplicate()
		source["type"] = type_string(wanted)
	var value: Variant = Coerce.coerce_value(source)
	if not Coerce.error_of(value).is_empty():
		return {"error": Coerce.error_of(value)}
	if wanted == TYPE_NIL or typeof(value) == wanted:
		return {"value": value}
	if wanted == TYPE_FLOAT and value is int:
		return {"value": float(value)}
	if wanted == TYPE_INT and Params.is_whole_number(value):
		return {"value": int(value)}
	return {"error": "the layer holds %s, got %s" % [type_string(wanted), type_string(typeof(value))]}


static func _bad(message: String) -> Dictionary:
	return {"error": ToolkitError.fail("INVALID_PARAMS", message)}
