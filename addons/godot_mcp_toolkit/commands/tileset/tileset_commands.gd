@tool
extends RefCounted
## The tileset domain: create TileSet .tres files from a texture, add and remove atlas sources and
## alternative tiles, and add terrain sets, custom data and physics/navigation/occlusion layers.
## Each command edits a private copy and saves it as one undo step
## (files/resource_file.gd); bad input leaves the file as it was. Runtime-safe.
##
## The catalogue's tileset_create schema has no if_exists: a create over an existing file
## replaces it (`status: replaced`, undo brings the old file back); if_exists is honoured when sent.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const ToolkitSuccess := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_success.gd")
const Params := preload("res://addons/godot_mcp_toolkit/contract/params.gd")
const Idempotency := preload("res://addons/godot_mcp_toolkit/contract/idempotency.gd")
const ResourceFile := preload("res://addons/godot_mcp_toolkit/files/resource_file.gd")
const TileSetAccess := preload("res://addons/godot_mcp_toolkit/commands/tileset/tileset_access.gd")
const TileSetLayers := preload("res://addons/godot_mcp_toolkit/commands/tileset/tileset_layers.gd")

const SELF_PATH := "res://addons/godot_mcp_toolkit/commands/tileset/tileset_commands.gd"
const DEFAULT_TILE_SIZE := Vector2i(16, 16)


static func register(registry: RefCounted, context: RefCounted) -> void:
	var script: Script = load(SELF_PATH)
	var size := {"type": "object", "properties": {"x": {"type": "integer"}, "y": {"type": "integer"}}}
	var mask := {"anyOf": [{"type": "integer"}, {"type": "array"}]}
	var tile := {"file_path": {"type": "string"}, "source_id": {"type": "integer"}, "atlas_x": {"type": "integer"},
		"atlas_y": {"type": "integer"}}
	_reg(registry, "tileset.create", Callable(script, "_cmd_create").bind(context),
		{"file_path": {"type": "string"}, "texture_path": {"type": "string"}, "tile_size": size,
			"physics": {"type": "boolean"}, "collision_layer": mask, "collision_mask": mask},
		["file_path", "texture_path"])
	_reg(registry, "tileset.add_source", Callable(script, "_cmd_add_source").bind(context),
		{"file_path": {"type": "string"}, "texture_path": {"type": "string"}, "tile_size": size},
		["file_path", "texture_path"])
	_reg(registry, "tileset.remove_source", Callable(script, "_cmd_remove_source").bind(context),
		{"file_path": {"type": "string"}, "source_id": {"type": "integer"}}, ["file_path", "source_id"])
	var alternative := tile.duplicate()
	alternative.merge({"flip_h": {"type": "boolean"}, "flip_v": {"type": "boolean"},
		"transpose": {"type": "boolean"}, "modulate": {"type": "object"}})
	_reg(registry, "tileset.add_alternative", Callable(script, "_cmd_add_alternative").bind(context),
		alternative, ["file_path", "atlas_x", "atlas_y"])
	var removal := tile.duplicate()
	removal["alternative_id"] = {"type": "integer"}
	_reg(registry, "tileset.remove_alternative", Callable(script, "_cmd_remove_alternative").bind(context),
		removal, ["file_path", "atlas_x", "atlas_y", "alternative_id"])
	_reg(registry, "tileset.setup_layers", Callable(script, "_cmd_setup_layers").bind(context),
		{"file_path": {"type": "string"}, "terrain_sets": {"type": "array"}, "custom_data": {"type": "array"},
			"navigation_layers": {"type": "integer"}, "occlusion_layers": {"type": "integer"},
			"physics_layers": {"type": "integer"}}, ["file_path"])


static func _reg(registry: RefCounted, method: String, handler: Callable, properties: Dictionary,
		required: Array) -> void:
	registry.register_command(method, handler,
		registry.create_options()
		.with_input_schema({"type": "object", "properties": properties, "required": required})
		.scene_independent())


# --- sources ---------------------------------------------------------------------------------------

static func _cmd_create(params: Dictionary, context: RefCounted) -> Dictionary:
	var checked := ResourceFile.check_new_path(params.get("file_path"))
	if checked.has("error"):
		return checked["error"]
	var path: String = checked["path"]
	var mode := Idempotency.read_mode({"if_exists": params.get("if_exists", Idempotency.IF_EXISTS_REPLACE)})
	if not mode["ok"]:
		return mode["error"]
	var texture := ResourceFile.load_texture(params.get("texture_path"), "texture_path")
	if texture.has("error"):
		return texture["error"]
	var size := TileSetAccess.tile_size(params.get("tile_size"), DEFAULT_TILE_SIZE)
	if size.has("error"):
		return size["error"]
	var physics: Variant = params.get("physics", false)
	if not physics is bool:
		return ToolkitError.fail("INVALID_PARAMS", "physics must be true or false")
	var masks := {}
	for key: String in ["collision_layer", "collision_mask"]:
		var parsed := TileSetLayers.mask(params.get(key), key)
		if parsed.has("error"):
			return parsed["error"]
		masks[key] = parsed["mask"]
	var exists := FileAccess.file_exists(path)
	match Idempotency.decide(mode["mode"], exists):
		Idempotency.ACTION_FAIL:
			return Idempotency.already_exists(path)
		Idempotency.ACTION_RETURN:
			return _returned(path)
	var cut := TileSetAccess.atlas_from(texture["texture"], size["size"])
	if cut.has("error"):
		return cut["error"]
	var tile_set := TileSet.new()
	tile_set.tile_size = size["size"]
	var warnings: Array = []
	if physics:
		tile_set.add_physics_layer()
		for key: String in masks:
			if masks[key] != null:
				tile_set.call("set_physics_layer_%s" % key, 0, masks[key])
	elif masks.values().any(func(value: Variant) -> bool: return value != null):
		warnings.append("collision_layer/collision_mask ignored: physics is false, so there is no physics layer")
	var source: TileSetAtlasSource = cut["source"]
	var source_id := tile_set.add_source(source)
	var created := TileSetAccess.fill(source, cut["grid"])
	if physics:
		TileSetLayers.full_collision(source, size["size"])
	var saved := ResourceFile.save(tile_set, path, "Create TileSet", context)
	if saved.has("error"):
		return saved["error"]
	var result := {
		"status": Idempotency.STATUS_REPLACED if exists else Idempotency.STATUS_CREATED, "path": path,
		"source_id": source_id, "tile_size": {"x": size["size"].x, "y": size["size"].y},
		"grid": {"columns": cut["grid"].x, "rows": cut["grid"].y}, "tiles_created": created, "physics": physics,
	}
	if physics:
		result["collision_layer"] = tile_set.get_physics_layer_collision_layer(0)
		result["collision_mask"] = tile_set.get_physics_layer_collision_mask(0)
	if not warnings.is_empty():
		result["warnings"] = warnings
	return ToolkitSuccess.ok(result)


static func _returned(path: String) -> Dictionary:
	var loaded := TileSetAccess.load_tile_set(path)
	if loaded.has("error"):
		return loaded["error"]
	return ToolkitSuccess.ok({"status": Idempotency.STATUS_RETURNED, "path": path,
		"sources": TileSetAccess.source_ids(loaded["tile_set"]),
		"warnings": ["Not applied, the file already exists. Pass if_exists:'replace' to rebuild it."]})


static func _cmd_add_source(params: Dictionary, context: RefCounted) -> Dictionary:
	var loaded := TileSetAccess.load_tile_set(params.get("file_path"))
	if loaded.has("error"):
		return loaded["error"]
	var tile_set: TileSet = loaded["tile_set"]
	var texture := ResourceFile.load_texture(params.get("texture_path"), "texture_path")
	if texture.has("error"):
		return texture["error"]
	var size := TileSetAccess.tile_size(params.get("tile_size"), tile_set.tile_size)
	if size.has("error"):
		return size["error"]
	var cut := TileSetAccess.atlas_from(texture["texture"], size["size"])
	if cut.has("error"):
		return cut["error"]
	var source_id := tile_set.add_source(cut["source"])
	var created := TileSetAccess.fill(cut["source"], cut["grid"])
	var saved := ResourceFile.save(tile_set, loaded["path"], "Add TileSet source", context)
	if saved.has("error"):
		return saved["error"]
	return ToolkitSuccess.ok({"path": loaded["path"], "source_id": source_id, "tiles_created": created,
		"grid": {"columns": cut["grid"].x, "rows": cut["grid"].y}, "sources": TileSetAccess.source_ids(tile_set)})


static func _cmd_remove_source(params: Dictionary, context: RefCounted) -> Dictionary:
	var missing := Params.require(params, ["file_path", "source_id"])
	if not missing.is_empty():
		return missing
	var loaded := TileSetAccess.load_tile_set(params["file_path"])
	if loaded.has("error"):
		return loaded["error"]
	var tile_set: TileSet = loaded["tile_set"]
	var source_id: Variant = params["source_id"]
	if not Params.is_whole_number(source_id):
		return ToolkitError.fail("INVALID_PARAMS", "source_id must be a whole number")
	if not tile_set.has_source(int(source_id)):
		return ToolkitError.fail("NOT_FOUND", "The tile set has no source %d" % int(source_id),
			"Its sources: %s." % str(TileSetAccess.source_ids(tile_set)))
	var tiles := tile_set.get_source(int(source_id)).get_tiles_count()
	tile_set.remove_source(int(source_id))
	var saved := ResourceFile.save(tile_set, loaded["path"], "Remove TileSet source", context)
	if saved.has("error"):
		return saved["error"]
	return ToolkitSuccess.ok({"path": loaded["path"], "removed_source_id": int(source_id), "tiles_removed": tiles,
		"sources": TileSetAccess.source_ids(tile_set)})


# --- alternatives ----------------------------------------------------------------------------------

static func _cmd_add_alternative(params: Dictionary, context: RefCounted) -> Dictionary:
	var picked := _pick(params)
	if picked.has("error"):
		return picked["error"]
	for key: String in ["flip_h", "flip_v", "transpose"]:
		if params.has(key) and not params[key] is bool:
			return ToolkitError.fail("INVALID_PARAMS", "%s must be true or false" % key)
	var tint := TileSetLayers.color(params.get("modulate"), "modulate")
	if tint.has("error"):
		return tint["error"]
	var source: TileSetAtlasSource = picked["source"]
	var coords: Vector2i = picked["coords"]
	var alternative_id := source.create_alternative_tile(coords)
	if alternative_id < 0:
		return ToolkitError.fail("FAILED", "The engine refused a new alternative for tile %s" % coords)
	var data := source.get_tile_data(coords, alternative_id)
	data.flip_h = params.get("flip_h", false)
	data.flip_v = params.get("flip_v", false)
	data.transpose = params.get("transpose", false)
	if tint["color"] != null:
		data.modulate = tint["color"]
	var saved := ResourceFile.save(picked["tile_set"], picked["path"], "Add alternative tile", context)
	if saved.has("error"):
		return saved["error"]
	return ToolkitSuccess.ok({"path": picked["path"], "source_id": picked["source_id"], "atlas_x": coords.x,
		"atlas_y": coords.y, "alternative_id": alternative_id,
		"flip_h": data.flip_h, "flip_v": data.flip_v, "transpose": data.transpose})


static func _cmd_remove_alternative(params: Dictionary, context: RefCounted) -> Dictionary:
	var missing := Params.require(params, ["alternative_id"])
	if not missing.is_empty():
		return missing
	var alternative: Variant = params["alternative_id"]
	if not Params.is_whole_number(alternative):
		return ToolkitError.fail("INVALID_PARAMS", "alternative_id must be a whole number")
	if int(alternative) == 0:
		return ToolkitError.fail("INVALID_PARAMS", "alternative_id 0 is the tile itself, not an alternative",
			"Remove the whole tile's source with tileset_remove_source, or pick an alternative from 1.")
	var picked := _pick(params)
	if picked.has("error"):
		return picked["error"]
	var source: TileSetAtlasSource = picked["source"]
	var coords: Vector2i = picked["coords"]
	if not source.has_alternative_tile(coords, int(alternative)):
		return ToolkitError.fail("NOT_FOUND", "Tile %s has no alternative %d" % [coords, int(alternative)],
			"It has %d alternative(s) besides the tile itself." % (source.get_alternative_tiles_count(coords) - 1))
	source.remove_alternative_tile(coords, int(alternative))
	var saved := ResourceFile.save(picked["tile_set"], picked["path"], "Remove alternative tile", context)
	if saved.has("error"):
		return saved["error"]
	return ToolkitSuccess.ok({"path": picked["path"], "source_id": picked["source_id"], "atlas_x": coords.x,
		"atlas_y": coords.y, "removed_alternative_id": int(alternative),
		"alternatives_left": source.get_alternative_tiles_count(coords) - 1})


## {"path", "tile_set", "source_id", "source", "coords"} for file_path/source_id/atlas_x/atlas_y.
static func _pick(params: Dictionary) -> Dictionary:
	var missing := Params.require(params, ["file_path", "atlas_x", "atlas_y"])
	if not missing.is_empty():
		return {"error": missing}
	var loaded := TileSetAccess.load_tile_set(params["file_path"])
	if loaded.has("error"):
		return loaded
	var picked := TileSetAccess.atlas_source(loaded["tile_set"], params.get("source_id"))
	if picked.has("error"):
		return picked
	var found := TileSetAccess.tile(picked["source"], {"atlas_x": params["atlas_x"], "atlas_y": params["atlas_y"]}, "tile")
	if found.has("error"):
		return found
	picked.merge(loaded)
	picked["coords"] = found["coords"]
	return picked


# --- layers ----------------------------------------------------------------------------------------

static func _cmd_setup_layers(params: Dictionary, context: RefCounted) -> Dictionary:
	var loaded := TileSetAccess.load_tile_set(params.get("file_path"))
	if loaded.has("error"):
		return loaded["error"]
	var request := {
		"terrain_sets": params.get("terrain_sets", []), "custom_data": params.get("custom_data", []),
		"navigation_layers": params.get("navigation_layers"), "occlusion_layers": params.get("occlusion_layers"),
		"physics_layers": params.get("physics_layers"),
	}
	var tile_set: TileSet = loaded["tile_set"]
	var added := TileSetLayers.setup(tile_set, request)
	if added.has("error"):
		return added["error"]
	var saved := ResourceFile.save(tile_set, loaded["path"], "Set up TileSet layers", context)
	if saved.has("error"):
		return saved["error"]
	return ToolkitSuccess.ok({"path": loaded["path"], "added": added, "layers": TileSetLayers.counts(tile_set)})
