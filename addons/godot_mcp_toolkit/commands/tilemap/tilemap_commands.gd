@tool
extends RefCounted
## The tilemap domain: read the cells of a tile map in a region (capped, says when it cuts) and
## set or erase many cells in one undo step. Works on a TileMapLayer (4.3+) and on one layer of
## the legacy TileMap (4.2's only kind). TileMapLayer is reached by name (is_class / call), so
## this file loads on 4.2 where that class does not exist. Runtime-safe.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const ToolkitSuccess := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_success.gd")
const Params := preload("res://addons/godot_mcp_toolkit/contract/params.gd")
const NodeLookup := preload("res://addons/godot_mcp_toolkit/scene_tree/node_lookup.gd")
const AnswerBudget := preload("res://addons/godot_mcp_toolkit/contract/answer_budget.gd")

const SELF_PATH := "res://addons/godot_mcp_toolkit/commands/tilemap/tilemap_commands.gd"
## A read that stops before the region's last row names the region of the rest.
const NEXT_HINT := "One answer holds part of the region; read the rest with region %s."
## Cells one set_cells call may touch (cells plus every cell of every region).
const WRITE_CAP := 10000
## The keys a cell and a region read besides their position (x, y) and size (width, height).
const TILE_KEYS := ["source_id", "atlas_x", "atlas_y", "alternative"]
const RECT_KEYS := ["x", "y", "width", "height"]
const CELL_SHAPE := ("A cell is {x, y, source_id, atlas_x, atlas_y, alternative} (source_id -1 erases); "
	+ "a region adds width and height.")
const REGION_SCHEMA := {
	"type": "object", "required": ["x", "y", "width", "height"],
	"properties": {"x": {"type": "integer"}, "y": {"type": "integer"}, "width": {"type": "integer"},
		"height": {"type": "integer"}},
}


static func register(registry: RefCounted, context: RefCounted) -> void:
	var script: Script = load(SELF_PATH)
	registry.register_command("tilemap.read_cells", Callable(script, "_cmd_read_cells").bind(context),
		registry.create_options()
		.with_input_schema({"type": "object", "required": ["node_path"], "properties": {
			"node_path": {"type": "string"}, "layer": {"type": "integer"}, "region": REGION_SCHEMA,
			"source_id": {"type": "integer"}}})
		.read_only())
	registry.register_command("tilemap.set_cells", Callable(script, "_cmd_set_cells").bind(context),
		registry.create_options()
		.with_input_schema({"type": "object", "required": ["node_path"], "properties": {
			"node_path": {"type": "string"}, "layer": {"type": "number"},
			"cells": {"type": "array", "items": {"type": "object"}},
			"regions": {"type": "array", "items": {"type": "object"}}}}))


# --- reads -----------------------------------------------------------------------------------------

static func _cmd_read_cells(params: Dictionary, context: RefCounted) -> Dictionary:
	var target := _target(params, context)
	if target.has("error"):
		return target["error"]
	var node: Node = target["node"]
	var prefix: Array = target["prefix"]
	var source_filter: Variant = params.get("source_id")
	if source_filter != null and not Params.is_whole_number(source_filter):
		return ToolkitError.fail("INVALID_PARAMS", "source_id must be a whole number")
	var region := _read_region(params.get("region"), node)
	if region.has("error"):
		return region["error"]
	var rect: Rect2i = region["rect"]
	var cells: Array = []
	for coords: Vector2i in node.callv("get_used_cells", prefix):
		if not rect.has_point(coords):
			continue
		var cell := _cell_at(node, prefix, coords)
		if source_filter == null or cell["source_id"] == int(source_filter):
			cells.append(cell)
	cells.sort_custom(_row_major)
	var result := {
		"node_path": target["path"], "class": node.get_class(), "total": cells.size(),
		"region": {"x": rect.position.x, "y": rect.position.y, "width": rect.size.x, "height": rect.size.y},
	}
	if not prefix.is_empty():
		result["layer"] = prefix[0]
	_cap_rows(cells, rect, result)
	if target.has("warning"):
		result["warnings"] = (result.get("warnings", []) as Array) + [target["warning"]]
	return ToolkitSuccess.ok(result)


## Keeps as many of `cells` (sorted by row) as fit one answer beside `result`, cut at a row
## boundary, and says which region holds the rest (next_region); a row that alone does not fit
## goes on from its next cell.
static func _cap_rows(cells: Array, rect: Rect2i, result: Dictionary) -> void:
	result.merge({"returned": 0, "truncated": true, "has_more": true,
		"next_region": {"x": rect.position.x, "y": rect.end.y, "width": rect.size.x, "height": rect.size.y}})
	result["hint"] = NEXT_HINT % JSON.stringify(result["next_region"])
	var fits := AnswerBudget.fitting(cells, AnswerBudget.room_beside(result))
	result.erase("hint")
	result.erase("next_region")
	if fits >= cells.size():
		result.merge({"cells": cells, "returned": cells.size(), "truncated": false, "has_more": false}, true)
		return
	var cut_row: int = cells[fits]["y"]
	var kept := cells.filter(func(cell: Dictionary) -> bool: return cell["y"] < cut_row)
	var next := {"x": rect.position.x, "y": cut_row, "width": rect.size.x, "height": rect.end.y - cut_row}
	if kept.is_empty():
		# One row alone is over an answer: the rest of that row comes next, then the rows after it.
		kept = cells.slice(0, fits)
		var resume_x := int(kept[-1]["x"]) + 1
		next = {"x": resume_x, "y": cut_row, "width": rect.end.x - resume_x, "height": 1}
		result["warnings"] = ["Row %d alone holds more cells than one answer: read next_region, then the rows from %d." % [
			cut_row, cut_row + 1]]
	result["cells"] = kept
	result["returned"] = kept.size()
	result["next_region"] = next
	result["hint"] = NEXT_HINT % JSON.stringify(next)


static func _row_major(a: Dictionary, b: Dictionary) -> bool:
	return a["y"] < b["y"] or (a["y"] == b["y"] and a["x"] < b["x"])


static func _cell_at(node: Node, prefix: Array, coords: Vector2i) -> Dictionary:
	var atlas: Vector2i = node.callv("get_cell_atlas_coords", prefix + [coords])
	return {
		"x": coords.x, "y": coords.y, "source_id": node.callv("get_cell_source_id", prefix + [coords]),
		"atlas_x": atlas.x, "atlas_y": atlas.y,
		"alternative": node.callv("get_cell_alternative_tile", prefix + [coords]),
	}


## {"rect"} from the region param, or the used rect when none is given; {"error"} when malformed.
static func _read_region(value: Variant, node: Node) -> Dictionary:
	if value == null:
		# The legacy TileMap's used rect spans all its layers: still a superset of this one.
		return {"rect": node.call("get_used_rect")}
	var unknown := _unknown_keys(value, RECT_KEYS, "region")
	if not unknown.is_empty():
		return unknown
	var parsed := _rect(value, "region")
	if parsed.has("error"):
		return parsed
	return {"rect": parsed["rect"]}


# --- writes ----------------------------------------------------------------------------------------

static func _cmd_set_cells(params: Dictionary, context: RefCounted) -> Dictionary:
	var target := _target(params, context)
	if target.has("error"):
		return target["error"]
	var node: Node = target["node"]
	var prefix: Array = target["prefix"]
	var tile_set: TileSet = node.get("tile_set")
	if tile_set == null:
		return ToolkitError.fail("INVALID_STATE", "%s has no tile_set" % target["path"],
			"Make one with tileset_create and assign it: node_set_property tile_set {\"type\":\"Resource\",\"path\":...}.")
	var cells: Variant = params.get("cells", [])
	var regions: Variant = params.get("regions", [])
	if not cells is Array or not regions is Array:
		return ToolkitError.fail("INVALID_PARAMS", "cells and regions must be arrays of objects")
	if (cells as Array).is_empty() and (regions as Array).is_empty():
		return ToolkitError.fail("INVALID_PARAMS", "Nothing to set: pass cells and/or regions",
			"cells: [{x, y, source_id, atlas_x, atlas_y}] (source_id -1 erases); regions add width and height.")
	var planned := _plan(cells, regions, tile_set)
	if planned.has("error"):
		return planned["error"]
	var writes: Dictionary = planned["writes"]
	var before: Array = []
	var after: Array = []
	var counts := {"cells_set": 0, "cells_erased": 0, "cells_unchanged": 0}
	for coords: Vector2i in writes:
		var wanted: Array = writes[coords]
		var current := _cell_at(node, prefix, coords)
		var was := [coords, current["source_id"], Vector2i(current["atlas_x"], current["atlas_y"]), current["alternative"]]
		if was == wanted:
			counts["cells_unchanged"] += 1
			continue
		before.append(was)
		after.append(wanted)
		counts["cells_erased" if wanted[1] == -1 else "cells_set"] += 1
	var result := {"node_path": target["path"], "class": node.get_class()}
	result.merge(counts)
	if not prefix.is_empty():
		result["layer"] = prefix[0]
	if target.has("warning"):
		result["warnings"] = [target["warning"]]
	if after.is_empty():
		return ToolkitSuccess.ok(result)
	var script: Script = load(SELF_PATH)
	var label := "Set %d tile map cells" % after.size()
	var action: RefCounted = context.edits.create_undo_action(label, context.scenes.scene_root())
	action.add_do_method(script, &"write_cells", [node, prefix, after])
	action.add_undo_method(script, &"write_cells", [node, prefix, before])
	action.commit()
	context.scenes.mark_modified()
	return ToolkitSuccess.ok(result)


## Applies [coords, source_id, atlas, alternative] entries (source_id -1 erases). Public: the
## undo history calls it.
static func write_cells(node: Node, prefix: Array, entries: Array) -> void:
	for entry: Array in entries:
		if entry[1] == -1:
			node.callv("erase_cell", prefix + [entry[0]])
		else:
			node.callv("set_cell", prefix + [entry[0], entry[1], entry[2], entry[3]])


## {"writes": {Vector2i: [coords, source, atlas, alternative]}} (regions first, then cells, later
## entries winning) or {"error"}; every entry checked against the tile set before anything is set.
static func _plan(cells: Array, regions: Array, tile_set: TileSet) -> Dictionary:
	var writes := {}
	for index: int in regions.size():
		var label := "regions[%d]" % index
		var region: Variant = regions[index]
		var unknown := _unknown_keys(region, RECT_KEYS + TILE_KEYS, label)
		if not unknown.is_empty():
			return unknown
		var rect := _rect(region, label)
		if rect.has("error"):
			return rect
		var tile := _tile(region, label, tile_set)
		if tile.has("error"):
			return tile
		var area: Rect2i = rect["rect"]
		if writes.size() + area.get_area() > WRITE_CAP:
			return _too_many()
		for y: int in range(area.position.y, area.end.y):
			for x: int in range(area.position.x, area.end.x):
				writes[Vector2i(x, y)] = [Vector2i(x, y)] + (tile["tile"] as Array)
	for index: int in cells.size():
		var label := "cells[%d]" % index
		var cell: Variant = cells[index]
		if not cell is Dictionary or not Params.is_whole_number(cell.get("x")) or not Params.is_whole_number(cell.get("y")):
			return {"error": ToolkitError.fail("INVALID_PARAMS", "%s needs whole-number x and y" % label, CELL_SHAPE)}
		var unknown := _unknown_keys(cell, ["x", "y"] + TILE_KEYS, label)
		if not unknown.is_empty():
			return unknown
		var tile := _tile(cell, label, tile_set)
		if tile.has("error"):
			return tile
		var coords := Vector2i(int(cell["x"]), int(cell["y"]))
		writes[coords] = [coords] + (tile["tile"] as Array)
		if writes.size() > WRITE_CAP:
			return _too_many()
	return {"writes": writes}


## {} or {"error"} naming keys a cell or region does not read: a misspelt "atlas" would otherwise
## leave atlas_x/atlas_y at 0 and paint another tile than the one meant.
static func _unknown_keys(entry: Variant, accepted: Array, label: String) -> Dictionary:
	if not entry is Dictionary:
		return {}
	var message := Params.unknown_keys_message(entry, accepted, label)
	if message.is_empty():
		return {}
	return {"error": ToolkitError.fail("INVALID_PARAMS", message,
		"%s %s" % [Params.unknown_keys_hint(entry, accepted), CELL_SHAPE])}


static func _too_many() -> Dictionary:
	return {"error": ToolkitError.fail("INVALID_PARAMS", "More than %d cells in one call" % WRITE_CAP,
		"Split the work into several tilemap_set_cells calls.")}


## {"tile": [source_id, atlas, alternative]} checked against `tile_set`, or {"error"}.
static func _tile(entry: Dictionary, label: String, tile_set: TileSet) -> Dictionary:
	for key: String in ["source_id", "atlas_x", "atlas_y", "alternative"]:
		if entry.has(key) and not Params.is_whole_number(entry[key]):
			return {"error": ToolkitError.fail("INVALID_PARAMS", "%s.%s must be a whole number" % [label, key])}
	if not entry.has("source_id"):
		return {"error": ToolkitError.fail("INVALID_PARAMS", "%s needs source_id (-1 erases)" % label)}
	var source_id := int(entry["source_id"])
	if source_id == -1:
		return {"tile": [-1, Vector2i(-1, -1), -1]}
	var atlas := Vector2i(int(entry.get("atlas_x", 0)), int(entry.get("atlas_y", 0)))
	var alternative := int(entry.get("alternative", 0))
	if not tile_set.has_source(source_id):
		return {"error": ToolkitError.fail("INVALID_PARAMS", "%s: the tile set has no source %d" % [label, source_id],
			"Its sources: %s." % str(_source_ids(tile_set)))}
	var source := tile_set.get_source(source_id)
	if not source.has_tile(atlas) or not source.has_alternative_tile(atlas, alternative):
		return {"error": ToolkitError.fail("INVALID_PARAMS",
			"%s: source %d has no tile at atlas %s alternative %d" % [label, source_id, atlas, alternative],
			"The source holds %d tiles: pick atlas coordinates and an alternative it has." % source.get_tiles_count())}
	return {"tile": [source_id, atlas, alternative]}


static func _source_ids(tile_set: TileSet) -> Array:
	var ids: Array = []
	for index: int in tile_set.get_source_count():
		ids.append(tile_set.get_source_id(index))
	return ids


# --- shared ----------------------------------------------------------------------------------------

## {"node", "path", "prefix"} (prefix: the layer argument the legacy TileMap's methods take first,
## empty for a TileMapLayer) or {"error"}.
static func _target(params: Dictionary, context: RefCounted) -> Dictionary:
	var missing := Params.require(params, ["node_path"])
	if not missing.is_empty():
		return {"error": missing}
	if not params["node_path"] is String:
		return {"error": ToolkitError.fail("INVALID_PARAMS", "node_path must be a string")}
	var root: Node = context.scenes.scene_root()
	if root == null:
		return {"error": ToolkitError.fail("NO_SCENE", "No scene is open in the editor", "Open one with scene_open first.")}
	var found := NodeLookup.find(root, params["node_path"])
	if not found["ok"]:
		return {"error": found["error"]}
	var node: Node = found["node"]
	var layer: Variant = params.get("layer", 0)
	if not Params.is_whole_number(layer):
		return {"error": ToolkitError.fail("INVALID_PARAMS", "layer must be a whole number")}
	var target := {"node": node, "path": NodeLookup.path_of(root, node), "prefix": []}
	if node.is_class("TileMapLayer"):
		if int(layer) != 0:
			target["warning"] = "layer ignored: a TileMapLayer is one layer"
		return target
	if node is TileMap:
		var count: int = (node as TileMap).get_layers_count()
		if int(layer) < 0 or int(layer) >= count:
			return {"error": ToolkitError.fail("INVALID_PARAMS", "layer %d is out of range: the TileMap has %d layer(s)" % [
				int(layer), count], "Use a layer from 0 to %d." % (count - 1))}
		target["prefix"] = [int(layer)]
		return target
	return {"error": ToolkitError.fail("INVALID_CLASS", "%s is a %s, not a TileMapLayer or TileMap" % [
		target["path"], node.get_class()], "Point node_path at a TileMapLayer node.")}


## {"rect"} from {x, y, width, height} (positive sizes) or {"error"}.
static func _rect(value: Variant, label: String) -> Dictionary:
	if not value is Dictionary:
		return {"error": ToolkitError.fail("INVALID_PARAMS", "%s must be an object {x, y, width, height}" % label)}
	for key: String in ["x", "y", "width", "height"]:
		if not Params.is_whole_number(value.get(key)):
			return {"error": ToolkitError.fail("INVALID_PARAMS", "%s.%s must be a whole number" % [label, key])}
	if int(value["width"]) <= 0 or int(value["height"]) <= 0:
		return {"error": ToolkitError.fail("INVALID_PARAMS", "%s width and height must be above 0" % label)}
	return {"rect": Rect2i(int(value["x"]), int(value["y"]), int(value["width"]), int(value["height"]))}
