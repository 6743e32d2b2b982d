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
##       raw_value is JSON (tags allowed, or the engine's text form of the property's type, as a
##       scene file writes it: "Quaternion(0, 0, 0, 1)"). A node-typed property (an export typed
##       as a node class) takes the node's path relative to `object`, a path from the scene root,
##       or a NodePath tag, and stores the node. Outcome "status":
##         "unchanged" the property already held the value asked for: nothing is set (no setter
##                    runs, no undo step is added);
##         "stored"   the value read back is the one asked for;
##         "adjusted" the engine stored something else of the right type (clamp, truncate,
##                    normalise): kept, with "warning" saying asked → stored;
##         "failed"   nothing stored. "code" says why, one code per kind of mistake:
##                    PROPERTY_NOT_FOUND (no such property or part), INVALID_VALUE (bad tag,
##                    unknown enum name, a value of the wrong type: the caller's value is wrong),
##                    SET_FAILED (a value of the right type the engine did not keep: read-only,
##                    which the error says, or refused; restored to the old value; the error
##                    says what the engine kept). Carries "error" and a "hint".
##       A write is judged by what was asked: success when the stored value equals the requested
##       one (contract/value_compare.gd: a typed null equals null, a packed array the list it was
##       written from), never by whether it differs from the old one.
##       Every outcome has "name"; unchanged/stored/adjusted add "value" (JSON form of what is
##       stored) and "previous" (of what was there before).
##       When `action` (edits/undo_action.gd) is given, a stored/adjusted write adds its do/undo
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
const ValueCompare := preload("res://addons/godot_mcp_toolkit/contract/value_compare.gd")
const ValueText := preload("res://addons/godot_mcp_toolkit/contract/value_text.gd")
const PackedValues := preload("res://addons/godot_mcp_toolkit/contract/packed_values.gd")
const NodeValues := preload("res://addons/godot_mcp_toolkit/scene_tree/node_values.gd")
const ShaderParameters := preload("res://addons/godot_mcp_toolkit/scene_tree/shader_parameters.gd")

const STATUS_UNCHANGED := "unchanged"
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


static var _batching := false
static var _lists := {}


## Keeps each object's property list for the writes of one batch (batch_begin() .. batch_end()):
## get_property_list builds every entry anew on each call, and a batch of a node's properties
## would ask for the whole list once per item. An object's list is built again when a write
## changed it (a script, or a count that adds properties) or its script is another.
static func batch_begin() -> void:
	_batching = true
	_lists.clear()


static func batch_end() -> void:
	_batching = false
	_lists.clear()


## name -> property-list entry (the first of that name), from the batch's cache when batching.
static func _entries(object: Object) -> Dictionary:
	var id := object.get_instance_id()
	if _batching and _lists.has(id) and _lists[id]["script"] == object.get_script():
		return _lists[id]["entries"]
	var entries := {}
	for entry: Dictionary in object.get_property_list():
		if not entries.has(entry["name"]):
			entries[entry["name"]] = entry
	if _batching:
		_lists[id] = {"script": object.get_script(), "entries": entries}
	return entries


static func find_property(object: Object, name: String) -> Dictionary:
	return resolve(object, name).get("entry", {})


## {"entry": property-list entry} or {"error": message, "hint": advice}: find_property with the
## reason when there is none. A sub-path's entry carries the type of the part it reaches.
static func resolve(object: Object, name: String) -> Dictionary:
	if object == null or name.is_empty():
		return _not_found(object, name)
	var base := name.get_slice(":", 0)
	var entries := _entries(object)
	if entries.has(base):
		var entry: Dictionary = entries[base]
		return {"entry": entry} if base == name else _part_entry(object, name, entry["usage"])
	if name.begins_with(METADATA_PREFIX) and name.length() > METADATA_PREFIX.length():
		return {"entry": _any_value_entry(name, PROPERTY_USAGE_STORAGE)}
	return _not_found(object, name)


static func _not_found(object: Object, name: String) -> Dictionary:
	if ShaderParameters.applies(object, name):
		return ShaderParameters.unknown(object, name, object.get_class())
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
				if ShaderParameters.applies(value, part):
					return ShaderParameters.unknown(value, part, reached)
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
	return {"ok": true, "value": Coerce.serialize_value(value, object as Node), "type": _type_label(entry, value)}


static func write(object: Object, name: String, raw_value: Variant, action: RefCounted = null) -> Dictionary:
	var resolved := resolve(object, name)
	if resolved.has("error"):
		return _failed(name, "PROPERTY_NOT_FOUND", resolved["error"], resolved["hint"])
	var entry: Dictionary = resolved["entry"]
	var old: Variant = _get(object, name)
	var prepared := _prepare(object, entry, raw_value, old)
	if prepared.has("error"):
		return _failed(name, "INVALID_VALUE", prepared["error"], value_hint(entry))
	var wanted: Variant = prepared["value"]
	if ValueCompare.same(old, wanted):
		# Idempotent (contract C6): setting what is there would still run the setter, and setters
		# have effects of their own (an anchors preset re-applies its offsets, a global_* setter
		# recomputes the local transform with float error).
		return _kept(object, name, old, old, action, STATUS_UNCHANGED)
	_set(object, name, wanted)
	var stored: Variant = _get(object, name)
	if ValueCompare.same(stored, wanted):
		return _kept(object, name, old, stored, action, STATUS_STORED)
	var read_only := "" if ValueCompare.same(stored, wanted) else _read_only_reason(object, name, entry)
	if not read_only.is_empty():
		_set(object, name, old)
		return _failed(name, "SET_FAILED", "%s %s; it still holds %s" % [name, read_only, _show(stored, object)],
			"Leave %s out of the write; it cannot be set." % name)
	if not _type_compatible(entry, wanted):
		# The engine dropped the value or replaced it with a default (e.g. a Resource of the wrong
		# class becomes null): put the old one back so nothing half-written is left.
		_set(object, name, old)
		return _failed(name, "INVALID_VALUE", _wrong_type_message(entry, name, wanted), value_hint(entry))
	if ValueCompare.same(stored, old):
		_set(object, name, old)
		return _failed(name, "SET_FAILED",
			"%s was not changed: asked for %s, the engine kept %s (the value was refused)" % [
				name, _show(wanted, object), _show(stored, object)],
			"Check that %s is writable here (node_get_property_list shows it), or try a value in its range." % name)
	var outcome := _kept(object, name, old, stored, action, STATUS_ADJUSTED)
	outcome["warning"] = "%s: asked for %s, the engine stored %s" % [name, _show(wanted, object), _show(stored, object)]
	return outcome


static func write_many(object: Object, properties: Dictionary, action: RefCounted = null) -> Dictionary:
	batch_begin()
	var outcome := _write_all(object, properties, action)
	batch_end()
	return outcome


static func _write_all(object: Object, properties: Dictionary, action: RefCounted) -> Dictionary:
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


## True when `a` and `b` are the same value up to float precision (contract/value_compare.gd).
static func same_value(a: Variant, b: Variant) -> bool:
	return ValueCompare.same(a, b)


# --- preparation ---------------------------------------------------------------------------------

## {"value": engine value} or {"error": message}: tags decoded, the engine's text form read, JSON's
## floats made ints for int properties, enum names mapped to their values, lists made the packed or
## typed array the property holds, node paths resolved for a node-typed property, and the bare
## "res://" string steered to its tagged form (Object.set would silently drop it).
static func _prepare(object: Object, entry: Dictionary, raw_value: Variant, old: Variant) -> Dictionary:
	var name: String = entry["name"]
	var type: int = entry["type"]
	var node_typed := NodeValues.is_node_property(entry)
	if type == TYPE_OBJECT and not node_typed and raw_value is String and (raw_value as String).begins_with("res://"):
		return {"error": "%s takes a resource, not a path string: pass {\"type\": \"Resource\", \"path\": \"%s\"}" % [
			name, raw_value]}
	if raw_value is String:
		var text := ValueText.parse(raw_value, type)
		if text.has("error"):
			return {"error": "%s: %s" % [name, text["error"]]}
		if text.has("value"):
			return {"value": text["value"]}
	var value: Variant = Coerce.coerce_value(raw_value)
	var coerce_error := Coerce.error_of(value)
	if not coerce_error.is_empty():
		return {"error": "%s: %s" % [name, coerce_error]}
	if node_typed or NodeValues.is_node_array(entry):
		return NodeValues.resolve(object, entry, value)
	if type == TYPE_INT and value is float and is_finite(value) and (value as float) == floorf(value):
		value = int(value)
	if type == TYPE_INT and value is String and entry["hint"] in [PROPERTY_HINT_ENUM, PROPERTY_HINT_FLAGS]:
		var mapped := _enum_value(entry, value)
		if mapped.has("error"):
			return mapped
		value = mapped["value"]
	if value is Array and PackedValues.is_packed_tag(type_string(type)):
		var packed := PackedValues.from_list(type_string(type), value)
		if packed.has("error"):
			return {"error": "%s: %s" % [name, packed["error"]]}
		value = packed["value"]
	if value is Array and type == TYPE_ARRAY and old is Array and (old as Array).is_typed():
		value = _typed_like(old, value)
	if type == TYPE_OBJECT and value is Object:
		var class_error := _resource_class_error(entry, value)
		if not class_error.is_empty():
			return {"error": class_error}
		if ValueCompare.same_content(old, value):
			# A resource made in this session has no path to name it by: the same class with the
			# same stored values is the one the property holds, not a copy to swap in.
			value = old
	return {"value": value}


## `items` as an array of the same element type as `typed` (a typed array property), so the engine
## takes it: JSON numbers become the ints an Array[int] holds.
static func _typed_like(typed: Array, items: Array) -> Array:
	var out: Array = typed.duplicate()
	out.clear()
	var element_type := typed.get_typed_builtin()
	for item: Variant in items:
		if element_type == TYPE_INT and item is float and is_finite(item) and (item as float) == floorf(item):
			out.append(int(item))
		elif element_type != TYPE_NIL and element_type != TYPE_OBJECT and typeof(item) != element_type:
			out.append(type_convert(item, element_type))
		else:
			out.append(item)
	return out


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
		if value.is_class(type_name.strip_edges()) or NodeValues.script_is(value, type_name.strip_edges()):
			return ""
	return "%s takes a %s, got a %s" % [entry["name"], " or ".join(allowed), value.get_class()]


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
	if status != STATUS_UNCHANGED:
		_lists.erase(object.get_instance_id())
	if action != null and status != STATUS_UNCHANGED:
		if name.contains(":"):
			action.add_do_method(object, &"set_indexed", [NodePath(name), stored])
			action.add_undo_method(object, &"set_indexed", [NodePath(name), old])
		else:
			action.add_do_property(object, StringName(name), stored)
			action.add_undo_property(object, StringName(name), old)
	var shown: Variant = Coerce.serialize_value(stored, object as Node)
	# Unchanged: what was there is what is there, so its JSON form is said once.
	var previous: Variant = shown if status == STATUS_UNCHANGED else Coerce.serialize_value(old, object as Node)
	return {"name": name, "status": status, "value": shown, "previous": previous}


static func _failed(name: String, code: String, message: String, hint: String) -> Dictionary:
	return {"name": name, "status": STATUS_FAILED, "code": code, "error": message,
		"hint": hint if not hint.is_empty() else ToolkitError.default_hint(code)}


static func _wrong_type_message(entry: Dictionary, name: String, wanted: Variant) -> String:
	return "%s expects %s, got %s %s; the value was not stored" % [
		name, _type_name(entry), type_string(typeof(wanted)), _show(wanted)]


## Why the engine cannot set `name` on `object` at all ("is read-only"), or "" when it could.
## ClassDB.class_get_property_setter is 4.4+; before it only the usage flag tells.
static func _read_only_reason(object: Object, name: String, entry: Dictionary) -> String:
	if int(entry.get("usage", 0)) & PROPERTY_USAGE_READ_ONLY:
		return "is read-only"
	# Object.script has no ClassDB setter and is set all the same.
	if name.contains(":") or name == "script" or not ClassDB.has_method("class_get_property_setter"):
		return ""
	var native := object.get_class()
	for property: Dictionary in ClassDB.class_get_property_list(native):
		if property["name"] == name:
			var setter := str(ClassDB.call("class_get_property_setter", native, name))
			return "is read-only (%s has no setter for it)" % native if setter.is_empty() else ""
	return ""


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
	if Coerce.keys_of(label).is_empty():
		return "a %s" % label
	var fields := PackedStringArray()
	for key: String in Coerce.keys_of(label):
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


static func _show(value: Variant, origin: Object = null) -> String:
	return JSON.stringify(Coerce.serialize_value(value, origin as Node))


static func _is_number(value: Variant) -> bool:
	return value is int or value is float


static func _is_text(value: Variant) -> bool:
	return value is String or value is StringName or value is NodePath
