@tool
extends RefCounted
## The tileset_edit domain: per-tile collision, terrain, navigation, visuals (occlusion, tint,
## z index, probability, animation) and custom data of a TileSet file's atlas tiles. One request
## edits many tiles: each entry is {atlas_x, atlas_y, alternative?, ...}; the whole request is
## applied to a private copy and saved as one undo step (files/resource_file.gd),
## so one bad entry leaves the file as it was. The per-kind work is in
## commands/tileset/tile_edits.gd. Runtime-safe.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const ToolkitSuccess := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_success.gd")
const Params := preload("res://addons/godot_mcp_toolkit/contract/params.gd")
const ResourceFile := preload("res://addons/godot_mcp_toolkit/files/resource_file.gd")
const TileSetAccess := preload("res://addons/godot_mcp_toolkit/commands/tileset/tileset_access.gd")
const TileEdits := preload("res://addons/godot_mcp_toolkit/commands/tileset/tile_edits.gd")

const SELF_PATH := "res://addons/godot_mcp_toolkit/commands/tileset/tileset_edit_commands.gd"
const EDITS_PATH := "res://addons/godot_mcp_toolkit/commands/tileset/tile_edits.gd"
## The keys every tiles[] entry reads, and what each kind reads besides (tile_edits.gd apply_<kind>).
const TILE_KEYS := ["atlas_x", "atlas_y", "alternative"]
const KIND_KEYS := {
	"physics": ["physics_layer", "physics_polygon"], "navigation": ["navigation_layer", "navigation_polygon"],
	"terrain": ["terrain_set", "terrain", "terrain_peering"],
	"visuals": ["occlusion_layer", "occlusion_polygon", "probability", "z_index", "modulate", "animation"],
	"custom_data": ["custom_data"],
}
const SCHEMA := {"type": "object", "required": ["file_path", "tiles"], "properties": {
	"file_path": {"type": "string"}, "source_id": {"type": "integer"},
	"tiles": {"type": "array", "items": {"type": "object"}}}}


static func register(registry: RefCounted, context: RefCounted) -> void:
	var script: Script = load(SELF_PATH)
	registry.register_command("tileset.edit_physics", Callable(script, "_cmd_edit_physics").bind(context),
		registry.create_options()
		.with_input_schema(SCHEMA).scene_independent())
	registry.register_command("tileset.edit_terrain", Callable(script, "_cmd_edit_terrain").bind(context),
		registry.create_options()
		.with_input_schema(SCHEMA).scene_independent())
	registry.register_command("tileset.edit_navigation", Callable(script, "_cmd_edit_navigation").bind(context),
		registry.create_options()
		.with_input_schema(SCHEMA).scene_independent())
	registry.register_command("tileset.edit_visuals", Callable(script, "_cmd_edit_visuals").bind(context),
		registry.create_options()
		.with_input_schema(SCHEMA).scene_independent())
	registry.register_command("tileset.edit_custom_data", Callable(script, "_cmd_edit_custom_data").bind(context),
		registry.create_options()
		.with_input_schema(SCHEMA).scene_independent())


static func _cmd_edit_physics(params: Dictionary, context: RefCounted) -> Dictionary:
	return _edit(params, context, "physics")


static func _cmd_edit_terrain(params: Dictionary, context: RefCounted) -> Dictionary:
	return _edit(params, context, "terrain")


static func _cmd_edit_navigation(params: Dictionary, context: RefCounted) -> Dictionary:
	return _edit(params, context, "navigation")


static func _cmd_edit_visuals(params: Dictionary, context: RefCounted) -> Dictionary:
	return _edit(params, context, "visuals")


static func _cmd_edit_custom_data(params: Dictionary, context: RefCounted) -> Dictionary:
	return _edit(params, context, "custom_data")


## Applies TileEdits.apply_<kind> to every entry of `tiles`, then saves once.
static func _edit(params: Dictionary, context: RefCounted, kind: String) -> Dictionary:
	var loaded := TileSetAccess.load_tile_set(params.get("file_path"))
	if loaded.has("error"):
		return loaded["error"]
	var tiles: Variant = params.get("tiles")
	if not tiles is Array or (tiles as Array).is_empty():
		return ToolkitError.fail("INVALID_PARAMS", "tiles must be a non-empty array of {atlas_x, atlas_y, ...}")
	var tile_set: TileSet = loaded["tile_set"]
	var picked := TileSetAccess.atlas_source(tile_set, params.get("source_id"))
	if picked.has("error"):
		return picked["error"]
	var source: TileSetAtlasSource = picked["source"]
	var edits: Script = load(EDITS_PATH)
	var summaries: Array = []
	for index: int in (tiles as Array).size():
		var label := "tiles[%d]" % index
		if tiles[index] is Dictionary:
			var unknown := Params.reject_unknown_keys(tiles[index], TILE_KEYS + KIND_KEYS[kind], label)
			if not unknown.is_empty():
				return unknown
		var found := TileSetAccess.tile(source, tiles[index], label)
		if found.has("error"):
			return found["error"]
		var done: Dictionary = edits.call("apply_%s" % kind, tile_set, source, found, tiles[index], label)
		if done.has("error"):
			return done["error"]
		var summary := {"atlas_x": (found["coords"] as Vector2i).x, "atlas_y": (found["coords"] as Vector2i).y,
			"alternative": found["alternative"]}
		summary.merge(done)
		summaries.append(summary)
	var saved := ResourceFile.save(tile_set, loaded["path"], "Edit TileSet %s" % kind, context)
	if saved.has("error"):
		return saved["error"]
	return ToolkitSuccess.ok({"path": loaded["path"], "source_id": picked["source_id"],
		"tiles_changed": summaries.size(), "tiles": summaries})
