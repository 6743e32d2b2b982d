@tool
extends RefCounted
## The one paging envelope every read/cap tool returns (contract C8): `returned`, a canonical
## `total_<unit>`, `has_more` always, and `next_offset` whenever there is more to read.
## Pure; runtime-safe.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const Params := preload("res://addons/godot_mcp_toolkit/contract/params.gd")


## The paging fields for a window of `returned` items starting at `offset` out of `total`.
static func fields(returned: int, total: int, unit: String, offset: int = 0) -> Dictionary:
	var has_more := offset + returned < total
	var page := {"returned": returned, "total_%s" % unit: total, "has_more": has_more}
	if has_more:
		page["next_offset"] = offset + returned
	return page


## Slices `items` and returns {"items": slice} merged with the paging fields.
static func page(items: Array, offset: int, limit: int, unit: String) -> Dictionary:
	var start := clampi(offset, 0, items.size())
	var slice := items.slice(start, start + maxi(limit, 0))
	var result := {"items": slice}
	result.merge(fields(slice.size(), items.size(), unit, start))
	return result


## Reads `offset` / `limit` from params: {"ok": true, "offset", "limit"} or {"ok": false, "error":
## INVALID_PARAMS envelope}. A limit above `max_limit` is clamped, not refused, because the caller
## only wants "as much as allowed".
static func window(params: Dictionary, default_limit: int, max_limit: int) -> Dictionary:
	var offset: Variant = params.get("offset", 0)
	var limit: Variant = params.get("limit", default_limit)
	if not Params.is_whole_number(offset) or int(offset) < 0:
		return {"ok": false, "error": ToolkitError.fail("INVALID_PARAMS", "offset must be a whole number >= 0")}
	if not Params.is_whole_number(limit) or int(limit) < 1:
		return {"ok": false, "error": ToolkitError.fail("INVALID_PARAMS", "limit must be a whole number >= 1")}
	return {"ok": true, "offset": int(offset), "limit": mini(int(limit), max_limit)}
