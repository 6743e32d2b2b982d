@tool
extends RefCounted
## Wire shapes for extensions.list / extensions.refresh / extensions.changed (contract C14). Pure.

## Optional descriptor fields, published only when they carry something.
const OPTIONAL_FIELDS := [
	"description", "input_schema", "annotations", "group", "timeout_ms",
	"min_godot_version", "max_godot_version",
]


## One command as the bridge reads it: `method` plus the optional fields that are set.
static func describe(descriptor: Dictionary) -> Dictionary:
	var out := {"method": String(descriptor.get("method", ""))}
	for field: String in OPTIONAL_FIELDS:
		var value: Variant = descriptor.get(field)
		if _is_set(value):
			out[field] = value
	return out


## Descriptors sorted by method, so the listing is stable between calls.
static func describe_all(descriptors: Array) -> Array:
	var by_method := {}
	for raw: Variant in descriptors:
		if raw is Dictionary:
			var shaped := describe(raw)
			if not String(shaped["method"]).is_empty():
				by_method[shaped["method"]] = shaped
	var methods := by_method.keys()
	methods.sort()
	var out: Array = []
	for method: String in methods:
		out.append(by_method[method])
	return out


## What changed between two listings (arrays from describe_all): new or modified commands in
## `commands`, vanished method names in `removed`. Both empty means nothing to broadcast.
static func diff(before: Array, after: Array) -> Dictionary:
	var old_by_method := {}
	for entry: Dictionary in before:
		old_by_method[entry["method"]] = entry
	var new_methods := {}
	var commands: Array = []
	for entry: Dictionary in after:
		new_methods[entry["method"]] = true
		if not old_by_method.has(entry["method"]) or old_by_method[entry["method"]] != entry:
			commands.append(entry)
	var removed: Array = []
	for method: String in old_by_method:
		if not new_methods.has(method):
			removed.append(method)
	removed.sort()
	return {"commands": commands, "removed": removed}


static func is_empty_diff(change: Dictionary) -> bool:
	return (change.get("commands", []) as Array).is_empty() and (change.get("removed", []) as Array).is_empty()


static func _is_set(value: Variant) -> bool:
	if value == null:
		return false
	if value is String or value is Dictionary or value is Array:
		return not value.is_empty()
	if value is int or value is float:
		return value > 0
	return true
