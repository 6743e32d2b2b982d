@tool
extends RefCounted
## Folds per-editor entries and per-game runtime overlays into projects.json (contract C16, C20).
##
## Pure and engine-free so it runs headless and is mirrored by the Python tests over
## tests/fixtures/toolkit/registry_projection.json. Rules:
## - an entry needs a non-empty string `_key`; anything else is skipped;
## - two entries for one key: the later `started_at` wins;
## - two entries on one editor port: only one can really be listening, so the later
##   `started_at` wins and the other (an editor that died without unregistering) is pruned;
##   on a tie the smaller key wins, so the result never depends on directory order;
## - a runtime overlay sets runtime_port/runtime_pid on its key's entry, or stands alone as a
##   runtime-only entry when no editor entry exists; an overlay without a usable port is ignored.

const RegistryEntry := preload("registry_entry.gd")
const NUMERIC_FIELDS := ["port", "pid", "runtime_port", "runtime_pid", "lsp_port"]


static func merge_by_path(entries: Array, overlays: Array = []) -> Dictionary:
	var by_key := _latest_per_key(entries)
	var by_path := _prune_port_conflicts(by_key)
	for raw: Variant in overlays:
		var overlay := _normalise(raw)
		if overlay.is_empty() or not _is_port(overlay.get("runtime_port")):
			continue
		var key := String(overlay["_key"])
		if not by_path.has(key):
			by_path[key] = RegistryEntry.runtime_only_entry(overlay)
		var entry: Dictionary = by_path[key]
		entry["runtime_port"] = overlay["runtime_port"]
		entry["runtime_pid"] = overlay.get("runtime_pid")
	return {"by_path": by_path}


static func _latest_per_key(entries: Array) -> Dictionary:
	var by_key := {}
	for raw: Variant in entries:
		var entry := _normalise(raw)
		if entry.is_empty():
			continue
		var shaped := {}
		for field: String in RegistryEntry.FIELDS:
			shaped[field] = entry.get(field)
		for field: String in RegistryEntry.OPTIONAL_FIELDS:
			if entry.get(field) is String and not String(entry[field]).is_empty():
				shaped[field] = entry[field]
		# Runtime fields belong to the game's overlay; a value left in an editor file is stale.
		for field: String in RegistryEntry.RUNTIME_FIELDS:
			shaped[field] = null
		var key := String(shaped["_key"])
		if not by_key.has(key) or _newer(shaped, by_key[key]):
			by_key[key] = shaped
	return by_key


static func _prune_port_conflicts(by_key: Dictionary) -> Dictionary:
	var owner_of_port := {}
	for key: String in by_key:
		var entry: Dictionary = by_key[key]
		var port: Variant = entry.get("port")
		if not _is_port(port):
			continue
		if not owner_of_port.has(port) or _newer(entry, by_key[owner_of_port[port]]):
			owner_of_port[port] = key
	var kept := {}
	var sorted_keys := by_key.keys()
	sorted_keys.sort()
	for key: String in sorted_keys:
		var entry: Dictionary = by_key[key]
		var port: Variant = entry.get("port")
		if _is_port(port) and owner_of_port[port] != key:
			continue
		kept[key] = entry
	return kept


## True when `a` should replace `b`: later started_at, or the same time and a smaller key.
static func _newer(a: Dictionary, b: Dictionary) -> bool:
	var ta := _time(a.get("started_at"))
	var tb := _time(b.get("started_at"))
	if ta != tb:
		return ta > tb
	return String(a["_key"]) < String(b["_key"])


## A shallow copy with whole-number floats turned back into ints: JSON parsing yields floats,
## and a port written back as 6550.0 would look odd to anyone reading the file.
static func _normalise(raw: Variant) -> Dictionary:
	if not raw is Dictionary:
		return {}
	var entry: Dictionary = (raw as Dictionary).duplicate()
	var key: Variant = entry.get("_key")
	if not key is String or (key as String).is_empty():
		return {}
	for field: String in NUMERIC_FIELDS:
		var value: Variant = entry.get(field)
		if value is float and is_equal_approx(value, roundf(value)):
			entry[field] = int(value)
	return entry


static func _is_port(value: Variant) -> bool:
	return value is int and value >= 1 and value <= 65535


static func _time(value: Variant) -> float:
	if value is int or value is float:
		return float(value)
	return 0.0
