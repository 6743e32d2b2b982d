@tool
extends RefCounted
## Whether two engine values are the same value, as a write is judged (scene_tree/property_access.gd)
## and a tagged resource is matched (contract/coerce.gd). Pure; runtime-safe.
##
## "The same" ignores what JSON cannot say: float precision (engine properties are often 32-bit,
## so 1.1 reads back as 1.100000023841858), a typed null next to a plain null (an Object property
## with nothing in it hands back a null Object), a packed array next to the plain list it was
## written from, String next to StringName / NodePath text.


static func same(a: Variant, b: Variant) -> bool:
	if _is_null(a) or _is_null(b):
		return _is_null(a) and _is_null(b)
	if _is_number(a) and _is_number(b):
		return is_equal_approx(float(a), float(b))
	var type_a := typeof(a)
	var type_b := typeof(b)
	if type_a != type_b:
		if _is_text(a) and _is_text(b):
			return str(a) == str(b)
		if _is_list(a) and _is_list(b):
			return _same_list(a, b)
		return false
	match type_a:
		TYPE_VECTOR2, TYPE_VECTOR3, TYPE_VECTOR4, TYPE_COLOR, TYPE_RECT2, TYPE_TRANSFORM2D, \
		TYPE_TRANSFORM3D, TYPE_BASIS, TYPE_QUATERNION, TYPE_PLANE, TYPE_AABB:
			return a.is_equal_approx(b)
		TYPE_PROJECTION:
			return _same_projection(a, b)
		TYPE_ARRAY:
			return _same_list(a, b)
		TYPE_DICTIONARY:
			return _same_dictionary(a, b)
	if _is_list(a):
		return _same_list(a, b)
	return a == b


## True when `a` and `b` are resources without a file of their own (made in this session, so no
## path tells them apart) of one class whose stored properties are the same values.
static func same_content(a: Variant, b: Variant) -> bool:
	if not (a is Resource and b is Resource) or not is_instance_valid(a) or not is_instance_valid(b):
		return false
	var left := a as Resource
	var right := b as Resource
	if left == right:
		return true
	if not left.resource_path.is_empty() or not right.resource_path.is_empty() or left.get_class() != right.get_class():
		return false
	for entry: Dictionary in left.get_property_list():
		if int(entry["usage"]) & PROPERTY_USAGE_STORAGE and not same(left.get(entry["name"]), right.get(entry["name"])):
			return false
	return true


## True for null and for an Object-typed null (a freed or empty object reference).
static func _is_null(value: Variant) -> bool:
	return value == null or (typeof(value) == TYPE_OBJECT and not is_instance_valid(value))


static func _is_number(value: Variant) -> bool:
	return value is int or value is float


static func _is_text(value: Variant) -> bool:
	return value is String or value is StringName or value is NodePath


## Arrays and every packed array (TYPE_PACKED_BYTE_ARRAY and up: the packed types close the list).
static func _is_list(value: Variant) -> bool:
	return typeof(value) == TYPE_ARRAY or (typeof(value) >= TYPE_PACKED_BYTE_ARRAY and typeof(value) < TYPE_MAX)


static func _same_list(a: Variant, b: Variant) -> bool:
	if a.size() != b.size():
		return false
	for index in a.size():
		if not same(a[index], b[index]):
			return false
	return true


static func _same_dictionary(a: Dictionary, b: Dictionary) -> bool:
	if a.size() != b.size():
		return false
	for key: Variant in a:
		if not b.has(key) or not same(a[key], b[key]):
			return false
	return true


## Projection has no is_equal_approx: compare its four columns.
static func _same_projection(a: Projection, b: Projection) -> bool:
	return a.x.is_equal_approx(b.x) and a.y.is_equal_approx(b.y) and a.z.is_equal_approx(b.z) \
		and a.w.is_equal_approx(b.w)
