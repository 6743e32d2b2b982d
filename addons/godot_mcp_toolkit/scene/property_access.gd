@tool
extends RefCounted
## Reads and writes object properties the way every tool reports them: values cross JSON through
## the C7 type tags (contract/coerce.gd), and a write is verified by reading it back (C3
## "scene.create_node inline-property outcomes"), so a result never claims a write that did not
## take. Runtime-safe (no Editor* names); used by scene.create_node, node.* and runtime.set_property.
##
## API (all static):
##   find_property(object, name) -> Dictionary
##       the property-list entry ({name, type, hint, hint_string, usage}), or {} when unknown.
##       "a:b" sub-paths and "metadata/x" are accepted (type NIL: any value).
##   read(object, name) -> Dictionary
##       {"ok": true, "value": <JSON-safe, tagged>, "type": "Vector2"} or
##       {"ok": false, "error": PROPERTY_NOT_FOUND envelope naming the property, hint: close names}.
##       A sub-path ("position:x") must name parts that exist: "position:z" on a Vector2 is
##       PROPERTY_NOT_FOUND saying a Vector2 has no z (and which parts it has).
##   write(object, name, raw_value, action = null) -> Dictionary   (one property)
##       raw_value is JSON (tags allowed). Outcome "status":
##         "stored"   the value read back is the one asked for;
##         "adjusted" the engine stored something else of the right type (clamp, truncate,
##                    normalise): kept, with "warning" saying asked → stored;
##         "failed"   nothing stored. "code" says why, one code per kind of mistake:
##                    PROPERTY_NOT_FOUND (no such property or part), INVALID_VALUE (bad tag,
##                    unknown enum name, a value of the wrong type: the caller's value is wrong),
##                    SET_FAILED (a value of the right type the engine dropped: read-only or
##                    refused; restored to the old value). Carries "error" and a "hint".
##       Every outcome has "name"; stored/adjusted add "value" (JSON form of what was stored).
##       When `action` (scene/undo_action.gd) is given, a stored/adjusted write adds its do/undo
##       property pair (the stored value / the old value) to it. The write has ALREADY been
##       applied (verification needs it); committing the action with execute=true re-applies the
##       same value, which is harmless; execute=false records without re-running setters.
##   write_many(object, properties: Dictionary, action = null) -> Dictionary
##       {"stored": [names stored or adjusted], "properties_set": <how many: the C3 count>,
##        "properties_failed": [{name, error, hint}], "warnings": [string], "outcomes": [each write()'s
##        outcome]}; keys applied in the dictionary's order, each independently (one failure
##       does not stop the others).
##   failure_envelope(outcome) -> Dictionary   the error envelope for a failed outcome.

const Coerce := preload("res://addons/godot_mcp_toolkit/contract/coerce.gd")
const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const Params := preload("res://addons/godot_mcp_toolkit/contract/params.gd")

const STATUS_STORED := "stored"
const STATUS_ADJUSTED := "adjusted"
const STATUS_FAILED := "failed"
const METADATA_PREFIX := "metadata/"
const SUGGESTION_LIMIT := 5
## The named parts a sub-path may reach inside a built-in value ("position:x", "modulate:a").
const PARTS := {
	TYPE_VECTOR2: ["x", "y"], TYPE_VECTOR2I: ["x", "y"], TYPE_VECTOR3: ["x", "y", "z"],
	TYPE_VECTOR3I: ["x", "y", "z"], TYPE_VECTOR4: ["x", "y", "z", "w"], TYPE_VECTOR4I: ["x", "y", "z", "w"],
	TYPE_COLOR: ["r", "g", "b", "a", "h", "s", "v", "r8", "g8", "b8", "a8"],
	TYPE_RECT2: ["position", "size", "end"], TYPE_RECT2I: ["position", "size", "end"],
	TYPE_TRANSFORM2D: ["x", "y", "origin"], TYPE_TRANSFORM3D: ["basis", "origin"], TYPE_BASIS: ["x", "y", "z"],
	TYPE_QUATERNION: ["x", "y", "z", "w"], TYPE_PLANE: ["normal", "d", "x", "y", "z"],
	TYPE_AABB: ["position", "size", "end"], TYPE_PROJECTION: ["x", "y", "z", "w"],
}


static func find_property(object: Object, name: String) -> Dictionary:
	return resolve(object, name).get("entry", {})


## {"entry": property-list entry} or {"error": message, "hint": advice}: find_property with the
## reason when there is none. A sub-path's entry carries the type of the part it reaches.
static func resolve(object: Object, name: String) -> Dictionary:
	if object == null or name.is_empty():
		return _not_found(object, name)
	var base := name.get_slice(":", 0)
	for entry: Dictionary in object.get_property_list():
		if entry["name"] == base:
			return {"entry": entry} if base == name else _part_entry(object, name, entry["usage"])
	if name.begins_with(METADATA_PREFIX) and name.length() > METADATA_PREFIX.length():
		return {"entry": _any_value_entry(name, PROPERTY_USAGE_STORAGE)}
	return _not_found(object, name)


static func _not_found(object: Object, name: String) -> Dictionary:
	return {"error": _unknown_message(object, name), "hint": _suggestion_hint(object, name)}


## Walks "base:part:part": each part must exist in the value it is read from (a Vector2 has x and
## y, an object its properties, a dictionary any key). Object.set_indexed ignores a part that
## does not exist, so without this "position:z" would be accepted and change nothing.
static func _part_entry(object: Object, name: String, usage: int) -> Dictionary:
	var parts := name.split(":")
	var value: Variant = object.get(StringName(parts[0]))
	for index: int in range(1, parts.size()):
		var part := parts[index]
		var reached := ":".join(parts.slice(0, index))
		var kind := typeof(value)
		if kind == TYPE_DICTIONARY:
			return {"entry": _any_value_entry(name, usage)}
		if kind == TYPE_OBJECT and value != null:
			if find_property(value, part).is_empty():
				return {"error": "%s is a %s: it has no property '%s'" % [reached, (value as Object).get_class(), part],
					"hint": _suggestion_hint(value, part)}
			value = (value as Object).get(StringName(part))
			continue
		if not PARTS.has(kind):
			var what := "empty (null)" if kind in [TYPE_NIL, TYPE_OBJECT] else "a %s" % type_string(kind)
			return {"error": "%s is %s: it has no part '%s'" % [reached, what, part],
				"hint": "Set %s itself; a sub-path reaches into vectors, colors, rects, transforms and resources." % reached}
		if not part in PARTS[kind]:
			return {"error": "%s is a %s: a %s has no '%s'" % [reached, type_string(kind), type_string(kind), part],
				"hint": "A %s has %s." % [type_string(kind), ", ".join(PackedStringArray(PARTS[kind]))]}
		value = value[part]
	var entry := _any_value_entry(name, usage)
	if value != null:
		entry["type"] = typeof(value)
	return {"entry": entry}


## A sub-path ("position:x") or a metadata key: no declared type, any value goes.
static func _any_value_entry(name: String, usage: int) -> Dictionary:
	return {"name": name, "type": TYPE_NIL, "hint": PROPERTY_HINT_NONE, "hint_string": "", "usage": usage}


static func read(object: Object, name: String) -> Dictionary:
	var resolved := resolve(object, name)
	if resolved.has("error"):
		return {"ok": false, "error": ToolkitError.fail("PROPERTY_NOT_FOUND", resolved["error"], resolved["hint"])}
	var entry: Dictionary = resolved["entry"]
	var value: Variant = _get(object, name)
	return {"ok": true, "value": Coerce.serialize_value(value), "type": _type_label(entry, value)}


static func write(object: Object, name: String, raw_value: Variant, action: RefCounted = null) -> Dictionary:
	var resolved := resolve(object, name)
	if resolved.has("error"):
		return _failed(name, "PROPERTY_NOT_FOUND", resolved["error"], resolved["hint"])
	var entry: Dictionary = resolved["entry"]
	var prepared := _prepare(entry, raw_value)
	if prepared.has("error"):
		return _failed(name, "INVALID_VALUE", prepared["error"], value_hint(entry))
	var wanted: Variant = prepared["value"]
	var old: Variant = _get(object, name)
	_set(object, name, wanted)
	var stored: Variant = _get(object, name)
	if same_value(stored, wanted):
		return _kept(object, name, old, stored, action, STATUS_STORED)
	if not _type_compatible(entry, wanted):
		# The engine dropped the value or replaced it with a default (e.g. a Resource of the wrong
		# class becomes null): put the old one back so nothing half-written is left.
		_set(object, name, old)
		return _failed(name, "INVALID_VALUE", _wrong_type_message(entry, name, wanted), value_hint(entry))
	if same_value(stored, old):
		return _failed(name, "SET_FAILED",
			"%s did not change: the engine kept its previous value (read-only, or the value was refused)" % name,
			"Check that %s is writable here (node_get_property_list shows it), or try a value in its range." % name)
	var outcome := _kept(object, name, old, stored, action, STATUS_ADJUSTED)
	outcome["warning"] = "%s: asked for %s, the engine stored %s" % [name, _show(wanted), _show(stored)]
	return outcome


static func write_many(object: Object, properties: Dictionary, action: RefCounted = null) -> Dictionary:
	var stored_names: Array = []
	var failed: Array = []
	var warnings: Array = []
	var outcomes: Array = []
	for key: Variant in properties:
		var outcome := write(object, str(key), properties[key], action)
		outcomes.append(outcome)
		if outcome["status"] == STATUS_FAILED:
			failed.append({"name": outcome["name"], "error": outcome["error"], "hint": outcome["hint"]})
			continue
		stored_names.append(outcome["name"])
		if outcome.has("warning"):
			warnings.append(outcome["warning"])
	return {
		"stored": stored_names, "properties_set": stored_names.size(), "properties_failed": failed,
		"warnings": warnings, "outcomes": outcomes,
	}


static func failure_envelope(outcome: Dictionary) -> Dictionary:
	return ToolkitError.fail(outcome.get("code", "SET_FAILED"), outcome.get("error", "The write did not take"),
		str(outcome.get("hint", "")))


## True when `a` and `b` are the same value up to float precision (engine properties are often
## 32-bit floats, so 1.1 reads back as 1.100000023841858).
static func same_value(a: Variant, b: Variant) -> bool:
	var type_a := typeof(a)
	var type_b := typeof(b)
	if _is_number(a) and _is_number(b):
		return is_equal_approx(float(a), float(b))
	if type_a != type_b:
		if _is_text(a) and _is_text(b):
			return str(a) == str(b)
		return false
	match type_a:
		TYPE_VECTOR2, TYPE_VECTOR3, TYPE_VECTOR4, TYPE_COLOR, TYPE_RECT2, TYPE_TRANSFORM2D, \
		TYPE_TRANSFORM3D, TYPE_BASIS, TYPE_QUATERNION, TYPE_PLANE, TYPE_AABB:
			return a.is_equal_approx(b)
		TYPE_ARRAY, TYPE_PACKED_FLOAT32_ARRAY, TYPE_PACKED_FLOAT64_ARRAY, TYPE_PACKED_VECTOR2_ARRAY, \
		TYPE_PACKED_VECTOR3_ARRAY, TYPE_PACKED_COLOR_ARRAY:
			return _same_list(a, b)
		TYPE_DICTIONARY:
			return _same_dictionary(a, b)
	return a == b


# --- preparation ---------------------------------------------------------------------------------

## {"value": engine value} or {"error": message}: tags decoded, JSON's floats made ints for int
## properties, enum names mapped to their values, and the bare "res://" string steered to its
## tagged form (Object.set would silently drop it).
static func _prepare(entry: Dictionary, raw_value: Variant) -> Dictionary:
	var name: String = entry["name"]
	var type: int = entry["type"]
	if type == TYPE_OBJECT and raw_value is String and (raw_value as String).begins_with("res://"):
		return {"error": "%s takes a resource, not a path string: pass {\"type\": \"Resource\", \"path\": \"%s\"}" % [
			name, raw_value]}
	var value: Variant = Coerce.coerce_value(raw_value)
	var coerce_error := Coerce.error_of(value)
	if not coerce_error.is_empty():
		return {"error": "%s: %s" % [name, coerce_error]}
	if type == TYPE_INT and value is float and is_finite(value) and (value as float) == floorf(value):
		value = int(value)
	if type == TYPE_INT and value is String and entry["hint"] in [PROPERTY_HINT_ENUM, PROPERTY_HINT_FLAGS]:
		var mapped := _enum_value(entry, value)
		if mapped.has("error"):
			return mapped
		value = mapped["value"]
	if type == TYPE_OBJECT and value is Object:
		var class_error := _resource_class_error(entry, value)
		if not class_error.is_empty():
			return {"error": class_error}
	return {"value": value}


## "Pausable" (or "Pausable:1") → its value for an enum property's hint_string "A,B:3,...".
static func _enum_value(entry: Dictionary, label: String) -> Dictionary:
	var choices := PackedStringArray()
	var implicit := 0
	for item: String in (entry["hint_string"] as String).split(","):
		var parts := item.split(":")
		var value := int(parts[1]) if parts.size() > 1 else implicit
		implicit = value + 1
		choices.append(parts[0].strip_edges())
		if parts[0].strip_edges().to_lower() == label.strip_edges().to_lower():
			return {"value": value}
	return {"error": "%s: '%s' is not one of %s (or pass the number)" % [entry["name"], label, ", ".join(choices)]}


## A Resource of the wrong class would be nulled by the engine: refuse it up front.
static func _resource_class_error(entry: Dictionary, value: Object) -> String:
	if entry["hint"] != PROPERTY_HINT_RESOURCE_TYPE or (entry["hint_string"] as String).is_empty():
		return ""
	var allowed := (entry["hint_string"] as String).split(",")
	for type_name: String in allowed:
		if value.is_class(type_name.strip_edges()) or _script_class_matches(value, type_name.strip_edges()):
			return ""
	return "%s takes a %s, got a %s" % [entry["name"], " or ".join(allowed), value.get_class()]


## Script.get_global_name is 4.3+: the project's global class list answers the same on 4.2.
static func _script_class_matches(value: Object, type_name: String) -> bool:
	var class_path := ""
	for entry: Dictionary in ProjectSettings.get_global_class_list():
		if String(entry["class"]) == type_name:
			class_path = entry["path"]
	if class_path.is_empty():
		return false
	var script: Variant = value.get_script()
	while script is Script:
		if (script as Script).resource_path == class_path:
			return true
		script = (script as Script).get_base_script()
	return false


## Can a value of this type be stored in the property at all (Variant conversion aside)?
static func _type_compatible(entry: Dictionary, value: Variant) -> bool:
	var type: int = entry["type"]
	var given := typeof(value)
	if type == TYPE_NIL or type == given:
		return true
	if _is_number(value) and type in [TYPE_INT, TYPE_FLOAT, TYPE_BOOL]:
		return true
	if _is_text(value) and type in [TYPE_STRING, TYPE_STRING_NAME, TYPE_NODE_PATH]:
		return true
	if given == TYPE_NIL and type == TYPE_OBJECT:
		return true
	if given == TYPE_ARRAY and type >= TYPE_PACKED_BYTE_ARRAY:
		return true
	return false


# --- outcomes ------------------------------------------------------------------------------------

static func _kept(object: Object, name: String, old: Variant, stored: Variant, action: RefCounted,
		status: String) -> Dictionary:
	if action != null:
		if name.contains(":"):
			action.add_do_method(object, &"set_indexed", [NodePath(name), stored])
			action.add_undo_method(object, &"set_indexed", [NodePath(name), old])
		else:
			action.add_do_property(object, StringName(name), stored)
			action.add_undo_property(object, StringName(name), old)
	return {"name": name, "status": status, "value": Coerce.serialize_value(stored)}


static func _failed(name: String, code: String, message: String, hint: String) -> Dictionary:
	return {"name": name, "status": STATUS_FAILED, "code": code, "error": message,
		"hint": hint if not hint.is_empty() else ToolkitError.default_hint(code)}


static func _wrong_type_message(entry: Dictionary, name: String, wanted: Variant) -> String:
	return "%s expects %s, got %s %s; the value was not stored" % [
		name, _type_name(entry), type_string(typeof(wanted)), _show(wanted)]


## How to write a value `entry` takes: the JSON form of its type (a C7 tag for engine types).
static func value_hint(entry: Dictionary) -> String:
	var name: String = entry["name"]
	var type: int = entry["type"]
	var example := ""
	match type:
		TYPE_BOOL:
			example = "true or false"
		TYPE_INT:
			var named: bool = entry["hint"] in [PROPERTY_HINT_ENUM, PROPERTY_HINT_FLAGS]
			example = "a whole number" + (" or one of its names (%s)" % entry["hint_string"] if named else "")
		TYPE_FLOAT:
			example = "a number"
		TYPE_STRING, TYPE_STRING_NAME:
			example = "a string"
		TYPE_NODE_PATH:
			example = "a node path string, or {\"type\": \"NodePath\", \"path\": \"../Player\"}"
		TYPE_OBJECT:
			var wanted := _type_name(entry) if not (entry["hint_string"] as String).is_empty() else "Resource"
			example = ("{\"type\": \"Resource\", \"path\": \"res://...\"}, {\"type\": \"NewResource\", "
				+ "\"class\": \"%s\"} or null") % wanted
		TYPE_ARRAY:
			example = "a JSON array"
		TYPE_DICTIONARY:
			example = "a JSON object"
		TYPE_NIL:
			return "node_get_property_list shows what %s holds now; pass a value of that type." % name
		_:
			example = _tag_example(type)
	return "%s takes %s." % [name, example]


## A C7 tag for `type` ({"type": "Vector2", "x": ..., "y": ...}); else the type's name.
static func _tag_example(type: int) -> String:
	var label := type_string(type)
	if not Coerce.TAG_KEYS.has(label):
		return "a %s" % label
	var fields := PackedStringArray()
	for key: String in Coerce.TAG_KEYS[label]:
		fields.append("\"%s\": %s" % [key, "[...]" if key == "values" else "..."])
	return "{\"type\": \"%s\", %s}" % [label, ", ".join(fields)]


static func _unknown_message(object: Object, name: String) -> String:
	var label := object.get_class() if object != null else "null"
	if object is Node:
		label = "%s '%s'" % [label, (object as Node).name]
	return "%s has no property '%s'" % [label, name]


static func _suggestion_hint(object: Object, name: String) -> String:
	if object == null:
		return ""
	var candidates: Array = []
	for entry: Dictionary in object.get_property_list():
		var usage: int = entry["usage"]
		if not usage & (PROPERTY_USAGE_CATEGORY | PROPERTY_USAGE_GROUP | PROPERTY_USAGE_SUBGROUP):
			candidates.append(entry["name"])
	var names := Params.ranked(name, candidates, SUGGESTION_LIMIT)
	if names.is_empty():
		return "node_get_property_list lists the properties this object has."
	return "Did you mean: %s?" % ", ".join(names)


# --- small helpers -------------------------------------------------------------------------------

static func _get(object: Object, name: String) -> Variant:
	return object.get_indexed(NodePath(name)) if name.contains(":") else object.get(StringName(name))


static func _set(object: Object, name: String, value: Variant) -> void:
	if name.contains(":"):
		object.set_indexed(NodePath(name), value)
	else:
		object.set(StringName(name), value)


static func _type_name(entry: Dictionary) -> String:
	var type: int = entry["type"]
	if type == TYPE_OBJECT and not (entry["hint_string"] as String).is_empty():
		return entry["hint_string"]
	return "any value" if type == TYPE_NIL else type_string(type)


static func _type_label(entry: Dictionary, value: Variant) -> String:
	if entry["type"] == TYPE_NIL:
		return type_string(typeof(value))
	return _type_name(entry)


static func _show(value: Variant) -> String:
	return JSON.stringify(Coerce.serialize_value(value))


static func _is_number(value: Variant) -> bool:
	return value is int or value is float


static func _is_text(value: Variant) -> bool:
	return value is String or value is StringName or value is NodePath


static func _same_list(a: Variant, b: Variant) -> bool:
	if a.size() != b.size():
		return false
	for index in a.size():
		if not same_value(a[index], b[index]):
			return false
	return true


static func _same_dictionary(a: Dictionary, b: Dictionary) -> bool:
	if a.size() != b.size():
		return false
	for key: Variant in a:
		if not b.has(key) or not same_value(a[key], b[key]):
			return false
	return true
