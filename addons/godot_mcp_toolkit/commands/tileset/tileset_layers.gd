@tool
extends RefCounted
## TileSet layers for the tileset domain: tileset.setup_layers (terrain sets, custom data,
## physics/navigation/occlusion layer counts), collision masks given as a bitmask or layer
## numbers/names, colors, and full-tile collision. Checks everything before adding anything.
## Runtime-safe.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const Params := preload("res://addons/godot_mcp_toolkit/contract/params.gd")
const TileSetAccess := preload("res://addons/godot_mcp_toolkit/commands/tileset/tileset_access.gd")

const TERRAIN_MODES := {
	"match_corners_and_sides": TileSet.TERRAIN_MODE_MATCH_CORNERS_AND_SIDES,
	"match_corners": TileSet.TERRAIN_MODE_MATCH_CORNERS,
	"match_sides": TileSet.TERRAIN_MODE_MATCH_SIDES,
}
const DATA_TYPES := {
	"int": TYPE_INT, "float": TYPE_FLOAT, "bool": TYPE_BOOL, "string": TYPE_STRING, "vector2": TYPE_VECTOR2,
	"vector2i": TYPE_VECTOR2I, "vector3": TYPE_VECTOR3, "color": TYPE_COLOR,
}
## Terrain colors, cycled, so the terrains tell apart in the TileSet editor.
const TERRAIN_COLORS := [Color(0.9, 0.3, 0.3), Color(0.3, 0.7, 0.3), Color(0.3, 0.5, 0.9), Color(0.9, 0.8, 0.2),
	Color(0.7, 0.4, 0.9), Color(0.3, 0.8, 0.8)]
const MAX_LAYERS := 32


## {"mask": int or null (not given)} from a bitmask or a list of layer numbers (1-32) / names
## (Project Settings > Layer Names > 2D Physics), or {"error"}.
static func mask(value: Variant, key: String) -> Dictionary:
	if value == null:
		return {"mask": null}
	if Params.is_whole_number(value):
		if int(value) < 0 or int(value) > 0xFFFFFFFF:
			return _bad("%s must be a 32-bit bitmask" % key)
		return {"mask": int(value)}
	if not value is Array:
		return _bad("%s must be a bitmask, or a list of layer numbers (1-32) or names" % key)
	var bits := 0
	for item: Variant in value:
		var number := _layer_number(item)
		if number < 1:
			var message := "%s: %s is not a layer number 1-32 or a named 2D physics layer" % [key, str(item)]
			return {"error": ToolkitError.fail("INVALID_PARAMS", message,
				"Name layers in Project Settings > Layer Names > 2D Physics, or pass numbers.")}
		bits |= 1 << (number - 1)
	return {"mask": bits}


static func _layer_number(item: Variant) -> int:
	if Params.is_whole_number(item):
		return int(item) if int(item) >= 1 and int(item) <= MAX_LAYERS else -1
	if item is String:
		for number: int in range(1, MAX_LAYERS + 1):
			if ProjectSettings.get_setting("layer_names/2d_physics/layer_%d" % number, "") == item:
				return number
	return -1


## {"color": Color or null} from {r, g, b, a?}, or {"error"}.
static func color(value: Variant, key: String) -> Dictionary:
	if value == null:
		return {"color": null}
	if not value is Dictionary:
		return _bad("%s must be {r, g, b, a}" % key)
	var unknown := Params.reject_unknown_keys(value, ["r", "g", "b", "a", "type"], key)
	if not unknown.is_empty():
		return {"error": unknown}
	var parts: Array = []
	for channel: String in ["r", "g", "b", "a"]:
		var part: Variant = value.get(channel, 1.0)
		if not Params.is_number(part):
			return _bad("%s.%s must be a number (0-1)" % [key, channel])
		parts.append(float(part))
	return {"color": Color(parts[0], parts[1], parts[2], parts[3])}


## A full-tile collision polygon on physics layer 0 for every tile of `source`.
static func full_collision(source: TileSetAtlasSource, size: Vector2i) -> void:
	var full: PackedVector2Array = TileSetAccess.polygon(TileSetAccess.POLYGON_FULL, "", size)["points"]
	for index: int in source.get_tiles_count():
		var data := source.get_tile_data(source.get_tile_id(index), 0)
		data.set_collision_polygons_count(0, 1)
		data.set_collision_polygon_points(0, 0, full)


## Adds what `request` asks (see tileset.setup_layers); {what was added} or {"error"} with
## `tile_set` untouched.
static func setup(tile_set: TileSet, request: Dictionary) -> Dictionary:
	var checked := _check_setup(tile_set, request)
	if checked.has("error"):
		return checked
	var added := {"terrain_sets": [], "custom_data": [], "navigation_layers": 0, "occlusion_layers": 0,
		"physics_layers": 0}
	for entry: Dictionary in request["terrain_sets"]:
		var set_index := tile_set.get_terrain_sets_count()
		tile_set.add_terrain_set()
		tile_set.set_terrain_set_mode(set_index, TERRAIN_MODES[entry.get("mode", "match_corners_and_sides")])
		for terrain_name: String in entry.get("terrains", []):
			var terrain := tile_set.get_terrains_count(set_index)
			tile_set.add_terrain(set_index)
			tile_set.set_terrain_name(set_index, terrain, terrain_name)
			tile_set.set_terrain_color(set_index, terrain, TERRAIN_COLORS[terrain % TERRAIN_COLORS.size()])
		added["terrain_sets"].append({"index": set_index, "terrains": entry.get("terrains", [])})
	for entry: Dictionary in request["custom_data"]:
		var layer := tile_set.get_custom_data_layers_count()
		tile_set.add_custom_data_layer()
		tile_set.set_custom_data_layer_name(layer, entry["name"])
		tile_set.set_custom_data_layer_type(layer, DATA_TYPES[entry.get("type", "string")])
		added["custom_data"].append({"index": layer, "name": entry["name"], "type": entry.get("type", "string")})
	for kind: String in ["navigation", "occlusion", "physics"]:
		var wanted: Variant = request["%s_layers" % kind]
		if wanted == null:
			continue
		while int(tile_set.call("get_%s_layers_count" % kind)) < int(wanted):
			tile_set.call("add_%s_layer" % kind)
			added["%s_layers" % kind] += 1
	return added


static func _check_setup(tile_set: TileSet, request: Dictionary) -> Dictionary:
	if not request["terrain_sets"] is Array or not request["custom_data"] is Array:
		return _bad("terrain_sets and custom_data must be arrays")
	for index: int in (request["terrain_sets"] as Array).size():
		var entry: Variant = request["terrain_sets"][index]
		var unknown := Params.reject_unknown_keys(entry, ["mode", "terrains"], "terrain_sets[%d]" % index) \
			if entry is Dictionary else {}
		if not unknown.is_empty():
			return {"error": unknown}
		if not entry is Dictionary or not entry.get("mode", "match_corners_and_sides") in TERRAIN_MODES:
			return _bad("terrain_sets[%d].mode must be one of %s" % [index, ", ".join(PackedStringArray(TERRAIN_MODES.keys()))])
		var terrains: Variant = entry.get("terrains", [])
		if not terrains is Array or (terrains as Array).any(func(name: Variant) -> bool: return not name is String):
			return _bad("terrain_sets[%d].terrains must be a list of names" % index)
	var names := {}
	for index: int in (request["custom_data"] as Array).size():
		var entry: Variant = request["custom_data"][index]
		if not entry is Dictionary or not entry.get("name") is String or (entry["name"] as String).is_empty():
			return _bad("custom_data[%d] needs a name" % index)
		var unknown := Params.reject_unknown_keys(entry, ["name", "type"], "custom_data[%d]" % index)
		if not unknown.is_empty():
			return {"error": unknown}
		if not entry.get("type", "string") in DATA_TYPES:
			return _bad("custom_data[%d].type must be one of %s" % [index, ", ".join(PackedStringArray(DATA_TYPES.keys()))])
		if tile_set.get_custom_data_layer_by_name(entry["name"]) >= 0 or names.has(entry["name"]):
			return {"error": ToolkitError.fail("INVALID_PARAMS", "A custom data layer '%s' already exists" % entry["name"],
				"Layer names must be unique; pick another name.")}
		names[entry["name"]] = true
	for key: String in ["navigation_layers", "occlusion_layers", "physics_layers"]:
		var wanted: Variant = request[key]
		if wanted != null and (not Params.is_whole_number(wanted) or int(wanted) < 0 or int(wanted) > MAX_LAYERS):
			return _bad("%s is how many layers the tile set should have: a whole number 0-%d" % [key, MAX_LAYERS])
	return {}


## How many layers of each kind `tile_set` has.
static func counts(tile_set: TileSet) -> Dictionary:
	return {
		"terrain_sets": tile_set.get_terrain_sets_count(), "custom_data": tile_set.get_custom_data_layers_count(),
		"navigation_layers": tile_set.get_navigation_layers_count(),
		"occlusion_layers": tile_set.get_occlusion_layers_count(), "physics_layers": tile_set.get_physics_layers_count(),
	}


static func _bad(message: String) -> Dictionary:
	return {"error": ToolkitError.fail("INVALID_PARAMS", message)}
