@tool
extends RefCounted
## The JSON forms of the engine's math values (contract C7), both ways: vectors, Color, Rect2(i),
## Transform2D/3D, Quaternion, Basis, AABB, Plane and Projection. Pure; runtime-safe.
##
## Flat types list their components ({"type": "Vector2", "x": 1, "y": 2}); composite ones nest
## them as bare objects: Transform2D {x_axis, y_axis, origin}, Transform3D {basis, origin}, Basis
## and Projection {x, y, z[, w]} (the columns), AABB {position, size}.

const Params := preload("res://addons/godot_mcp_toolkit/contract/params.gd")

## The keys each tag reads besides "type"; any other key is refused, never dropped in silence.
const TAG_KEYS := {
	"Vector2": ["x", "y"], "Vector3": ["x", "y", "z"], "Vector4": ["x", "y", "z", "w"],
	"Vector2i": ["x", "y"], "Vector3i": ["x", "y", "z"], "Vector4i": ["x", "y", "z", "w"],
	"Color": ["r", "g", "b", "a"], "Rect2": ["x", "y", "w", "h"], "Rect2i": ["x", "y", "w", "h"],
	"Transform2D": ["x_axis", "y_axis", "origin"], "Transform3D": ["basis", "origin"],
	"Quaternion": ["x", "y", "z", "w"], "Basis": ["x", "y", "z"], "AABB": ["position", "size"],
	"Plane": ["x", "y", "z", "d"], "Projection": ["x", "y", "z", "w"],
}
## The Variant types this module writes out.
const TYPES := [
	TYPE_VECTOR2, TYPE_VECTOR3, TYPE_VECTOR4, TYPE_VECTOR2I, TYPE_VECTOR3I, TYPE_VECTOR4I, TYPE_COLOR,
	TYPE_RECT2, TYPE_RECT2I, TYPE_TRANSFORM2D, TYPE_TRANSFORM3D, TYPE_QUATERNION, TYPE_BASIS, TYPE_AABB,
	TYPE_PLANE, TYPE_PROJECTION,
]


static func handles_tag(tag: String) -> bool:
	return TAG_KEYS.has(tag)


# --- request direction -------------------------------------------------------------------------

## {"value": engine value} or {"error": message} for a tagged dictionary of a math tag.
static func from_tag(tag: String, data: Dictionary) -> Dictionary:
	match tag:
		"Vector2", "Vector3", "Vector4", "Vector2i", "Vector3i", "Vector4i", "Quaternion", "Plane":
			return _flat_in(tag, data)
		"Color":
			return _color_in(data)
		"Rect2", "Rect2i":
			return _rect_in(tag, data)
		"Transform2D":
			return _transform2d_in(data)
		"Transform3D":
			return _transform3d_in(data)
		"Basis":
			return _basis_in("Basis", data)
		"AABB":
			return _aabb_in(data)
	return _projection_in(data)


## Reads numeric components `names` of `data` into an array, or reports which one is wrong.
static func _numbers(tag: String, data: Dictionary, names: Array) -> Dictionary:
	var values := []
	for name: String in names:
		var component: Variant = data.get(name)
		if not (component is int or component is float):
			return {"error": "%s needs a number for '%s' (expected keys: %s)" % [tag, name, ", ".join(PackedStringArray(names))]}
		values.append(component)
	return {"value": values}


## Vectors, Quaternion and Plane: the constructor takes the components in TAG_KEYS order.
static func _flat_in(tag: String, data: Dictionary) -> Dictionary:
	var read := _numbers(tag, data, TAG_KEYS[tag])
	if read.has("error"):
		return read
	var v: Array = read["value"]
	match tag:
		"Vector2":
			return {"value": Vector2(v[0], v[1])}
		"Vector3":
			return {"value": Vector3(v[0], v[1], v[2])}
		"Vector4":
			return {"value": Vector4(v[0], v[1], v[2], v[3])}
		"Vector2i":
			return {"value": Vector2i(int(v[0]), int(v[1]))}
		"Vector3i":
			return {"value": Vector3i(int(v[0]), int(v[1]), int(v[2]))}
		"Vector4i":
			return {"value": Vector4i(int(v[0]), int(v[1]), int(v[2]), int(v[3]))}
		"Quaternion":
			return {"value": Quaternion(v[0], v[1], v[2], v[3])}
	return {"value": Plane(v[0], v[1], v[2], v[3])}


static func _color_in(data: Dictionary) -> Dictionary:
	var with_alpha := data.duplicate()
	if not with_alpha.has("a"):
		with_alpha["a"] = 1.0
	var read := _numbers("Color", with_alpha, ["r", "g", "b", "a"])
	if read.has("error"):
		return read
	var c: Array = read["value"]
	return {"value": Color(c[0], c[1], c[2], c[3])}


static func _rect_in(tag: String, data: Dictionary) -> Dictionary:
	var read := _numbers(tag, data, ["x", "y", "w", "h"])
	if read.has("error"):
		return read
	var r: Array = read["value"]
	if tag == "Rect2i":
		return {"value": Rect2i(int(r[0]), int(r[1]), int(r[2]), int(r[3]))}
	return {"value": Rect2(r[0], r[1], r[2], r[3])}


## A nested part may come tagged ({"type": "Vector2", ...}) or bare ({"x", "y"}).
static func _part(tag: String, owner: String, data: Dictionary, key: String) -> Dictionary:
	var part: Variant = data.get(key)
	if not part is Dictionary:
		return {"error": "%s needs '%s' as {%s}" % [owner, key, ", ".join(PackedStringArray(TAG_KEYS[tag]))]}
	var bare: Dictionary = (part as Dictionary).duplicate()
	bare.erase("type")
	var unknown := Params.unknown_keys_message(bare, TAG_KEYS[tag], "%s '%s'" % [owner, key])
	if not unknown.is_empty():
		return {"error": unknown}
	return _flat_in(tag, bare)


## The parts `keys` of `data`, each a `tag` value: {"value": [...]} or the first error.
static func _parts(tag: String, owner: String, data: Dictionary, keys: Array) -> Dictionary:
	var parts := []
	for key: String in keys:
		var part := _part(tag, owner, data, key)
		if part.has("error"):
			return part
		parts.append(part["value"])
	return {"value": parts}


static func _transform2d_in(data: Dictionary) -> Dictionary:
	var axes := _parts("Vector2", "Transform2D", data, ["x_axis", "y_axis", "origin"])
	if axes.has("error"):
		return axes
	var a: Array = axes["value"]
	return {"value": Transform2D(a[0], a[1], a[2])}


static func _basis_in(owner: String, data: Dictionary) -> Dictionary:
	var columns := _parts("Vector3", owner, data, ["x", "y", "z"])
	if columns.has("error"):
		return columns
	var c: Array = columns["value"]
	return {"value": Basis(c[0], c[1], c[2])}


static func _transform3d_in(data: Dictionary) -> Dictionary:
	var basis: Variant = data.get("basis")
	if not basis is Dictionary:
		return {"error": "Transform3D needs 'basis' as {x, y, z} column vectors"}
	var unknown := Params.unknown_keys_message(basis, ["x", "y", "z"], "Transform3D 'basis'")
	if not unknown.is_empty():
		return {"error": unknown}
	var columns := _basis_in("Transform3D basis", basis)
	if columns.has("error"):
		return columns
	var origin := _part("Vector3", "Transform3D", data, "origin")
	if origin.has("error"):
		return origin
	return {"value": Transform3D(columns["value"], origin["value"])}


static func _aabb_in(data: Dictionary) -> Dictionary:
	var parts := _parts("Vector3", "AABB", data, ["position", "size"])
	if parts.has("error"):
		return parts
	return {"value": AABB(parts["value"][0], parts["value"][1])}


static func _projection_in(data: Dictionary) -> Dictionary:
	var columns := _parts("Vector4", "Projection", data, ["x", "y", "z", "w"])
	if columns.has("error"):
		return columns
	var c: Array = columns["value"]
	return {"value": Projection(c[0], c[1], c[2], c[3])}


# --- response direction ------------------------------------------------------------------------

## The tagged JSON form of a value whose type is in TYPES.
static func to_json(value: Variant) -> Dictionary:
	var tag := type_string(typeof(value))
	match typeof(value):
		TYPE_COLOR:
			return {"type": tag, "r": value.r, "g": value.g, "b": value.b, "a": value.a}
		TYPE_RECT2, TYPE_RECT2I:
			return {"type": tag, "x": value.position.x, "y": value.position.y, "w": value.size.x, "h": value.size.y}
		TYPE_TRANSFORM2D:
			return {"type": tag, "x_axis": _bare(value.x), "y_axis": _bare(value.y), "origin": _bare(value.origin)}
		TYPE_TRANSFORM3D:
			return {"type": tag, "basis": _columns(value.basis, ["x", "y", "z"]), "origin": _bare(value.origin)}
		TYPE_BASIS:
			var basis := _columns(value, ["x", "y", "z"])
			basis["type"] = tag
			return basis
		TYPE_PROJECTION:
			var projection := _columns(value, ["x", "y", "z", "w"])
			projection["type"] = tag
			return projection
		TYPE_AABB:
			return {"type": tag, "position": _bare(value.position), "size": _bare(value.size)}
		TYPE_PLANE:
			return {"type": tag, "x": value.x, "y": value.y, "z": value.z, "d": value.d}
	var out := {"type": tag}
	for key: String in TAG_KEYS[tag]:
		out[key] = value[key]
	return out


## A vector as a bare {x, y[, z[, w]]} (the components its type has).
static func _bare(vector: Variant) -> Dictionary:
	var out := {}
	for key: String in TAG_KEYS[type_string(typeof(vector))]:
		out[key] = vector[key]
	return out


static func _columns(value: Variant, keys: Array) -> Dictionary:
	var out := {}
	for key: String in keys:
		out[key] = _bare(value[key])
	return out
