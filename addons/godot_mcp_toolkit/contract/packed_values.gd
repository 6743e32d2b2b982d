@tool
extends RefCounted
## The JSON forms of the packed arrays (contract C7), both ways. Runtime-safe, pure.
##
## - PackedByteArray: {"type": "PackedByteArray", "base64": "..."} (bytes as numbers would be four
##   times the size, and a tile map's data is kilobytes).
## - Small packed arrays keep their readable form: PackedVector2/3/4Array and PackedColorArray as
##   {"type": ..., "values": [{x, y}, ...]}, the number and string arrays as plain lists.
## - Past COMPACT_FROM elements a number or vector array comes as {"type": ..., "base64": ...}: the
##   little-endian bytes of its components (32-bit floats for vectors and colors, as the engine
##   stores them), so a 20 000-point collision shape stays a few hundred KiB.
## Writes take every form for every packed type, and a plain list wherever a packed array goes.

const COMPACT_FROM := 256
## Each packed type: [element tag or "" for scalars, components per element, component kind].
const SHAPES := {
	"PackedByteArray": ["", 1, "byte"], "PackedInt32Array": ["", 1, "int32"],
	"PackedInt64Array": ["", 1, "int64"], "PackedFloat32Array": ["", 1, "float32"],
	"PackedFloat64Array": ["", 1, "float64"], "PackedStringArray": ["", 1, "string"],
	"PackedVector2Array": ["Vector2", 2, "float32"], "PackedVector3Array": ["Vector3", 3, "float32"],
	"PackedColorArray": ["Color", 4, "float32"], "PackedVector4Array": ["Vector4", 4, "float32"],
}
const ELEMENT_KEYS := {"Vector2": ["x", "y"], "Vector3": ["x", "y", "z"], "Color": ["r", "g", "b", "a"],
	"Vector4": ["x", "y", "z", "w"]}


static func is_packed_tag(tag: String) -> bool:
	return SHAPES.has(tag)


# --- response direction ------------------------------------------------------------------------

## The JSON form of a packed array (`tag` is its type name).
static func to_json(value: Variant, tag: String) -> Variant:
	var shape: Array = SHAPES[tag]
	if tag == "PackedByteArray":
		# Marshalls reports an error for no bytes at all; "" is their base64.
		return {"type": tag, "base64": Marshalls.raw_to_base64(value) if not value.is_empty() else ""}
	if tag == "PackedStringArray":
		return Array(value)
	if value.size() >= COMPACT_FROM:
		return {"type": tag, "base64": Marshalls.raw_to_base64(_bytes_of(value, shape))}
	if (shape[0] as String).is_empty():
		return Array(value)
	var keys: Array = ELEMENT_KEYS[shape[0]]
	var values := []
	for item: Variant in value:
		var element := {}
		for index in keys.size():
			element[keys[index]] = item[index]
		values.append(element)
	return {"type": tag, "values": values}


## The bytes a compact form carries: each component in the kind's width, little-endian.
static func _bytes_of(value: Variant, shape: Array) -> PackedByteArray:
	var kind: String = shape[2]
	if kind == "int32" or kind == "int64" or kind == "float64" or (kind == "float32" and shape[1] == 1):
		return value.to_byte_array()
	var floats := PackedFloat32Array()
	floats.resize(value.size() * int(shape[1]))
	var at := 0
	for item: Variant in value:
		for index in int(shape[1]):
			floats[at] = item[index]
			at += 1
	return floats.to_byte_array()


# --- request direction -------------------------------------------------------------------------

## {"value": the packed array} or {"error": message} for a tagged packed dictionary.
static func from_tag(tag: String, data: Dictionary) -> Dictionary:
	var has_values := data.has("values")
	var has_bytes := data.has("base64")
	if has_values == has_bytes:
		return {"error": "%s needs either 'values' (a list) or 'base64' (its bytes), not %s" % [
			tag, "both" if has_values else "neither"]}
	if has_bytes:
		if not data["base64"] is String:
			return {"error": "%s 'base64' must be a string" % tag}
		return from_base64(tag, data["base64"])
	if not data["values"] is Array:
		return {"error": "%s needs 'values' as a list" % tag}
	return from_list(tag, data["values"])


## {"value"} or {"error"}: a plain list (or a "values" list) as the packed type.
static func from_list(tag: String, items: Array) -> Dictionary:
	var shape: Array = SHAPES[tag]
	var element_tag: String = shape[0]
	var element_type := type_string_to_type(element_tag) if not element_tag.is_empty() else TYPE_NIL
	var elements := []
	for item: Variant in items:
		var element := _element(tag, element_tag, element_type, item)
		if element.has("error"):
			return element
		elements.append(element["value"])
	return {"value": _packed(tag, elements)}


static func _element(tag: String, element_tag: String, element_type: int, item: Variant) -> Dictionary:
	if element_tag.is_empty():
		if tag == "PackedStringArray":
			return {"value": str(item)} if item is String or item is StringName else {
				"error": "%s takes strings, got %s" % [tag, JSON.stringify(item)]}
		if not (item is int or item is float):
			return {"error": "%s takes numbers, got %s" % [tag, JSON.stringify(item)]}
		if tag == "PackedByteArray" and (int(item) < 0 or int(item) > 255):
			return {"error": "PackedByteArray takes bytes 0-255, got %s" % JSON.stringify(item)}
		return {"value": item}
	var keys: Array = ELEMENT_KEYS[element_tag]
	if typeof(item) == element_type:
		return {"value": item}
	if not item is Dictionary:
		return {"error": "%s values must be objects like {%s}" % [tag, ", ".join(PackedStringArray(keys))]}
	var bare: Dictionary = (item as Dictionary).duplicate()
	bare.erase("type")
	var numbers := []
	for key: Variant in bare:
		if not key in keys:
			return {"error": "A %s value has no '%s' (it takes %s)" % [tag, key, ", ".join(PackedStringArray(keys))]}
	for key: String in keys:
		var component: Variant = bare.get(key, 1.0 if key == "a" else null)
		if not (component is int or component is float):
			return {"error": "A %s value needs a number for '%s'" % [tag, key]}
		numbers.append(float(component))
	return {"value": _compose(element_tag, numbers)}


static func from_base64(tag: String, text: String) -> Dictionary:
	var bytes := Marshalls.base64_to_raw(text) if not text.strip_edges().is_empty() else PackedByteArray()
	if bytes.is_empty() and not text.strip_edges().is_empty():
		return {"error": "%s 'base64' is not valid base64" % tag}
	var shape: Array = SHAPES[tag]
	var kind: String = shape[2]
	if kind == "byte":
		return {"value": bytes}
	if kind == "string":
		return {"error": "PackedStringArray takes 'values', not base64"}
	# Checked before converting: the engine reports a ragged byte count as an error of its own.
	var element_bytes := (8 if kind in ["int64", "float64"] else 4) * int(shape[1])
	if bytes.size() % element_bytes != 0:
		return {"error": "%s 'base64' holds %d bytes, not a whole number of %d-byte elements" % [
			tag, bytes.size(), element_bytes]}
	match kind:
		"int32":
			return {"value": bytes.to_int32_array()}
		"int64":
			return {"value": bytes.to_int64_array()}
		"float64":
			return {"value": bytes.to_float64_array()}
	var floats := bytes.to_float32_array()
	var width := int(shape[1])
	if width == 1:
		return {"value": floats}
	var elements := []
	for start in range(0, floats.size(), width):
		var numbers := []
		for index in width:
			numbers.append(floats[start + index])
		elements.append(_compose(shape[0], numbers))
	return {"value": _packed(tag, elements)}


static func _compose(element_tag: String, n: Array) -> Variant:
	match element_tag:
		"Vector2":
			return Vector2(n[0], n[1])
		"Vector3":
			return Vector3(n[0], n[1], n[2])
		"Color":
			return Color(n[0], n[1], n[2], n[3])
	return Vector4(n[0], n[1], n[2], n[3])


## A packed array of `tag` from engine values. PackedVector4Array (4.3+) is built by conversion,
## since naming it would not parse on 4.2.
static func _packed(tag: String, elements: Array) -> Variant:
	match tag:
		"PackedByteArray":
			return PackedByteArray(elements)
		"PackedInt32Array":
			return PackedInt32Array(elements)
		"PackedInt64Array":
			return PackedInt64Array(elements)
		"PackedFloat32Array":
			return PackedFloat32Array(elements)
		"PackedFloat64Array":
			return PackedFloat64Array(elements)
		"PackedStringArray":
			return PackedStringArray(elements)
		"PackedVector2Array":
			return PackedVector2Array(elements)
		"PackedVector3Array":
			return PackedVector3Array(elements)
		"PackedColorArray":
			return PackedColorArray(elements)
	return type_convert(elements, type_string_to_type(tag))


## The Variant type number of a type name (TYPE_NIL when unknown), without naming 4.3+ constants.
static func type_string_to_type(name: String) -> int:
	for type in TYPE_MAX:
		if type_string(type) == name:
			return type
	return TYPE_NIL
