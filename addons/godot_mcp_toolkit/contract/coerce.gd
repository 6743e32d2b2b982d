@tool
extends RefCounted
## The type-tag vocabulary that carries Godot values through JSON (contract C7), both ways:
## coerce_value() turns tagged dictionaries from a request into engine values, serialize_value()
## turns engine values into JSON-safe data for a response. Runtime-safe.
##
## Pure except for the Resource / NewResource / LayerMask tags, which need the resource loader,
## ClassDB and the project's layer names.

const Params := preload("res://addons/godot_mcp_toolkit/contract/params.gd")

const TAGS := [
	"Vector2", "Vector3", "Vector4", "Vector2i", "Vector3i", "Color", "Rect2", "Rect2i",
	"Transform2D", "Transform3D", "NodePath", "Resource", "ResourceRef", "NewResource",
	"PackedVector2Array", "PackedVector3Array", "PackedColorArray", "LayerMask",
]
## The keys each tag reads besides "type"; any other key is refused, never dropped in silence.
const TAG_KEYS := {
	"Vector2": ["x", "y"], "Vector3": ["x", "y", "z"], "Vector4": ["x", "y", "z", "w"],
	"Vector2i": ["x", "y"], "Vector3i": ["x", "y", "z"], "Color": ["r", "g", "b", "a"],
	"Rect2": ["x", "y", "w", "h"], "Rect2i": ["x", "y", "w", "h"], "Transform2D": ["x_axis", "y_axis", "origin"],
	"Transform3D": ["basis", "origin"], "NodePath": ["path"], "Resource": ["path", "class"],
	"ResourceRef": ["path", "class"], "NewResource": ["class", "properties"], "PackedVector2Array": ["values"],
	"PackedVector3Array": ["values"], "PackedColorArray": ["values"], "LayerMask": ["category", "layers"],
}
## The key a failed coercion is reported under; callers turn it into INVALID_PARAMS.
const ERROR_KEY := "_coerce_error"
const LAYER_CATEGORIES := [
	"2d_physics", "3d_physics", "2d_render", "3d_render", "2d_navigation", "3d_navigation", "avoidance",
]
const MAX_LAYERS := 32


## Engine value for `value`; plain JSON passes through, tagged dictionaries are converted, arrays
## and untagged dictionaries are walked. Any failure anywhere makes the whole result
## {"_coerce_error": message}, so a caller checks one place.
static func coerce_value(value: Variant) -> Variant:
	var outcome := _coerce(value)
	if outcome.has("error"):
		return {ERROR_KEY: outcome["error"]}
	return outcome["value"]


## The message when `coerced` is a coercion failure, else "".
static func error_of(coerced: Variant) -> String:
	if coerced is Dictionary and (coerced as Dictionary).size() == 1 and (coerced as Dictionary).has(ERROR_KEY):
		return str(coerced[ERROR_KEY])
	return ""


## JSON-safe form of `value`: tagged dictionaries for the tagged types, lists and objects walked,
## non-finite floats as null (JSON cannot carry them). A LayerMask is just an int on the way out.
static func serialize_value(value: Variant) -> Variant:
	var result: Variant = value
	match typeof(value):
		TYPE_FLOAT:
			result = value if is_finite(value) else null
		TYPE_STRING_NAME:
			result = String(value)
		TYPE_VECTOR2, TYPE_VECTOR3, TYPE_VECTOR4, TYPE_VECTOR2I, TYPE_VECTOR3I:
			result = _vector_out(value)
		TYPE_COLOR:
			result = _color_out(value)
		TYPE_RECT2, TYPE_RECT2I:
			result = _rect_out(value)
		TYPE_TRANSFORM2D, TYPE_TRANSFORM3D:
			result = _transform_out(value)
		TYPE_NODE_PATH:
			result = {"type": "NodePath", "path": String(value)}
		TYPE_OBJECT:
			result = _object_out(value) if is_instance_valid(value) else null
		TYPE_ARRAY, TYPE_PACKED_VECTOR2_ARRAY, TYPE_PACKED_VECTOR3_ARRAY, TYPE_PACKED_COLOR_ARRAY:
			result = _list_out(value)
		TYPE_DICTIONARY:
			result = _dictionary_out(value)
		_:
			result = _other_out(value)
	return result


static func supported_text() -> String:
	return ", ".join(PackedStringArray(TAGS))


# --- request direction -------------------------------------------------------------------------

## {"value": v} or {"error": message}.
static func _coerce(value: Variant) -> Dictionary:
	if value is Array:
		return _coerce_list(value)
	if not value is Dictionary:
		return {"value": value}
	var data: Dictionary = value
	if data.has("type") and data["type"] is String:
		return _coerce_tagged(data)
	var out := {}
	for key: Variant in data:
		var inner := _coerce(data[key])
		if inner.has("error"):
			return inner
		out[key] = inner["value"]
	return {"value": out}


static func _coerce_list(items: Array) -> Dictionary:
	var out := []
	for item: Variant in items:
		var inner := _coerce(item)
		if inner.has("error"):
			return inner
		out.append(inner["value"])
	return {"value": out}


static func _coerce_tagged(data: Dictionary) -> Dictionary:
	var tag: String = data["type"]
	if TAG_KEYS.has(tag):
		var unknown := Params.unknown_keys_message(data, ["type"] + TAG_KEYS[tag], "The %s value" % tag)
		if not unknown.is_empty():
			return {"error": unknown}
	var outcome := {}
	match tag:
		"Vector2", "Vector3", "Vector4", "Vector2i", "Vector3i":
			outcome = _vector_in(tag, data)
		"Color":
			outcome = _color_in(data)
		"Rect2", "Rect2i":
			outcome = _rect_in(tag, data)
		"Transform2D":
			outcome = _transform2d_in(data)
		"Transform3D":
			outcome = _transform3d_in(data)
		"NodePath":
			outcome = _node_path_in(data)
		"Resource", "ResourceRef":
			outcome = _resource_in(data)
		"NewResource":
			outcome = _new_resource_in(data)
		"PackedVector2Array", "PackedVector3Array", "PackedColorArray":
			outcome = _packed_in(tag, data)
		"LayerMask":
			outcome = _layer_mask_in(data)
		_:
			outcome = {"error": "Unknown type tag '%s'. Supported: %s" % [tag, supported_text()]}
	return outcome


## Reads numeric components `names` of `data` into an array, or reports which one is wrong.
static func _numbers(tag: String, data: Dictionary, names: Array) -> Dictionary:
	var values := []
	for name: String in names:
		var component: Variant = data.get(name)
		if not (component is int or component is float):
			return {"error": "%s needs a number for '%s' (expected keys: %s)" % [tag, name, ", ".join(PackedStringArray(names))]}
		values.append(component)
	return {"value": values}


static func _vector_in(tag: String, data: Dictionary) -> Dictionary:
	var names := ["x", "y", "z", "w"].slice(0, tag.substr(6, 1).to_int())
	var read := _numbers(tag, data, names)
	if read.has("error"):
		return read
	var v: Array = read["value"]
	var vector: Variant = null
	match tag:
		"Vector2":
			vector = Vector2(v[0], v[1])
		"Vector3":
			vector = Vector3(v[0], v[1], v[2])
		"Vector4":
			vector = Vector4(v[0], v[1], v[2], v[3])
		"Vector2i":
			vector = Vector2i(int(v[0]), int(v[1]))
		"Vector3i":
			vector = Vector3i(int(v[0]), int(v[1]), int(v[2]))
	return {"value": vector}


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


## A nested axis may come tagged ({"type": "Vector2", ...}) or bare ({"x", "y"}).
static func _axis(tag: String, owner: String, data: Dictionary, key: String) -> Dictionary:
	var axis: Variant = data.get(key)
	if not axis is Dictionary:
		return {"error": "%s needs '%s' as {x, y%s}" % [owner, key, ", z" if tag == "Vector3" else ""]}
	var bare: Dictionary = (axis as Dictionary).duplicate()
	bare.erase("type")
	var unknown := Params.unknown_keys_message(bare, TAG_KEYS[tag], "%s '%s'" % [owner, key])
	if not unknown.is_empty():
		return {"error": unknown}
	return _vector_in(tag, bare)


static func _transform2d_in(data: Dictionary) -> Dictionary:
	var axes := []
	for key: String in ["x_axis", "y_axis", "origin"]:
		var axis := _axis("Vector2", "Transform2D", data, key)
		if axis.has("error"):
			return axis
		axes.append(axis["value"])
	return {"value": Transform2D(axes[0], axes[1], axes[2])}


static func _transform3d_in(data: Dictionary) -> Dictionary:
	var basis: Variant = data.get("basis")
	if not basis is Dictionary:
		return {"error": "Transform3D needs 'basis' as {x, y, z} column vectors"}
	var unknown := Params.unknown_keys_message(basis, ["x", "y", "z"], "Transform3D 'basis'")
	if not unknown.is_empty():
		return {"error": unknown}
	var columns := []
	for key: String in ["x", "y", "z"]:
		var column := _axis("Vector3", "Transform3D basis", basis, key)
		if column.has("error"):
			return column
		columns.append(column["value"])
	var origin := _axis("Vector3", "Transform3D", data, "origin")
	if origin.has("error"):
		return origin
	return {"value": Transform3D(Basis(columns[0], columns[1], columns[2]), origin["value"])}


static func _node_path_in(data: Dictionary) -> Dictionary:
	var path: Variant = data.get("path")
	if not path is String:
		return {"error": "NodePath needs 'path' as a string"}
	return {"value": NodePath(path)}


static func _resource_in(data: Dictionary) -> Dictionary:
	var path: Variant = data.get("path")
	if not path is String or not (path as String).begins_with("res://"):
		return {"error": "%s needs 'path' as a res:// path" % data["type"]}
	if not ResourceLoader.exists(path):
		return {"error": "No resource at %s" % path}
	var resource := load(path)
	if resource == null:
		return {"error": "Could not load %s" % path}
	var wanted: Variant = data.get("class")
	if wanted is String and not (wanted as String).is_empty() and not resource.is_class(wanted):
		return {"error": "%s is a %s, not a %s" % [path, resource.get_class(), wanted]}
	return {"value": resource}


static func _new_resource_in(data: Dictionary) -> Dictionary:
	var type_name: Variant = data.get("class")
	if not type_name is String or not ClassDB.class_exists(type_name):
		return {"error": "NewResource needs 'class' naming an engine class, got %s" % str(type_name)}
	if not ClassDB.is_parent_class(type_name, "Resource") or not ClassDB.can_instantiate(type_name):
		return {"error": "NewResource: %s is not an instantiable Resource class" % type_name}
	var properties := _coerce(data.get("properties", {}))
	if properties.has("error"):
		return properties
	if not properties["value"] is Dictionary:
		return {"error": "NewResource needs 'properties' as an object"}
	var resource: Resource = ClassDB.instantiate(type_name)
	for key: Variant in properties["value"]:
		resource.set(StringName(str(key)), properties["value"][key])
	return {"value": resource}


static func _packed_in(tag: String, data: Dictionary) -> Dictionary:
	var values: Variant = data.get("values")
	if not values is Array:
		return {"error": "%s needs 'values' as a list" % tag}
	var element_tag: String = {"PackedVector2Array": "Vector2", "PackedVector3Array": "Vector3"}.get(tag, "Color")
	var items := []
	for item: Variant in values:
		if not item is Dictionary:
			return {"error": "%s values must be objects like {%s}" % [tag, _keys_hint(element_tag)]}
		var bare: Dictionary = (item as Dictionary).duplicate()
		bare.erase("type")
		var unknown := Params.unknown_keys_message(bare, TAG_KEYS[element_tag], "A %s value" % tag)
		if not unknown.is_empty():
			return {"error": unknown}
		var element := _color_in(bare) if element_tag == "Color" else _vector_in(element_tag, bare)
		if element.has("error"):
			return element
		items.append(element["value"])
	if tag == "PackedVector2Array":
		return {"value": PackedVector2Array(items)}
	if tag == "PackedVector3Array":
		return {"value": PackedVector3Array(items)}
	return {"value": PackedColorArray(items)}


static func _keys_hint(element_tag: String) -> String:
	return {"Vector2": "x, y", "Vector3": "x, y, z"}.get(element_tag, "r, g, b[, a]")


## Layers are 1-based numbers or the names set under Project Settings > Layer Names.
static func _layer_mask_in(data: Dictionary) -> Dictionary:
	var category: Variant = data.get("category", "2d_physics")
	if not category is String or not category in LAYER_CATEGORIES:
		return {"error": "LayerMask category must be one of %s" % ", ".join(PackedStringArray(LAYER_CATEGORIES))}
	var layers: Variant = data.get("layers")
	if not layers is Array:
		return {"error": "LayerMask needs 'layers' as a list of layer numbers (1-32) or names"}
	var mask := 0
	for layer: Variant in layers:
		var number := _layer_number(category, layer)
		if number < 1:
			return {"error": "LayerMask: unknown %s layer %s" % [category, str(layer)]}
		mask |= 1 << (number - 1)
	return {"value": mask}


static func _layer_number(category: String, layer: Variant) -> int:
	if (layer is int or layer is float) and int(layer) == layer and int(layer) >= 1 and int(layer) <= MAX_LAYERS:
		return int(layer)
	if not layer is String:
		return 0
	for number in range(1, MAX_LAYERS + 1):
		var setting := "layer_names/%s/layer_%d" % [category, number]
		if ProjectSettings.has_setting(setting) and str(ProjectSettings.get_setting(setting)) == layer:
			return number
	return 0


# --- response direction ------------------------------------------------------------------------

static func _vector_out(value: Variant) -> Dictionary:
	var tag := type_string(typeof(value))
	var out := {"type": tag, "x": value.x, "y": value.y}
	if tag.begins_with("Vector3") or tag.begins_with("Vector4"):
		out["z"] = value.z
	if tag.begins_with("Vector4"):
		out["w"] = value.w
	return out


static func _color_out(color: Color) -> Dictionary:
	return {"type": "Color", "r": color.r, "g": color.g, "b": color.b, "a": color.a}


static func _rect_out(rect: Variant) -> Dictionary:
	return {
		"type": type_string(typeof(rect)),
		"x": rect.position.x, "y": rect.position.y, "w": rect.size.x, "h": rect.size.y,
	}


static func _transform_out(transform: Variant) -> Dictionary:
	if transform is Transform2D:
		var t2: Transform2D = transform
		return {"type": "Transform2D", "x_axis": _xy(t2.x), "y_axis": _xy(t2.y), "origin": _xy(t2.origin)}
	var t3: Transform3D = transform
	return {
		"type": "Transform3D",
		"basis": {"x": _xyz(t3.basis.x), "y": _xyz(t3.basis.y), "z": _xyz(t3.basis.z)},
		"origin": _xyz(t3.origin),
	}


static func _xy(v: Vector2) -> Dictionary:
	return {"x": v.x, "y": v.y}


static func _xyz(v: Vector3) -> Dictionary:
	return {"x": v.x, "y": v.y, "z": v.z}


## Resources by path (a sub-resource keeps its "file::id" path); nodes by their tree path.
static func _object_out(object: Object) -> Variant:
	if object is Resource:
		return {"type": "Resource", "path": (object as Resource).resource_path, "class": object.get_class()}
	if object is Node and (object as Node).is_inside_tree():
		return {"type": "NodePath", "path": String((object as Node).get_path())}
	return str(object)


static func _list_out(items: Variant) -> Variant:
	var values := []
	for item: Variant in items:
		values.append(serialize_value(item))
	match typeof(items):
		TYPE_PACKED_VECTOR2_ARRAY:
			return {"type": "PackedVector2Array", "values": _untagged(values)}
		TYPE_PACKED_VECTOR3_ARRAY:
			return {"type": "PackedVector3Array", "values": _untagged(values)}
		TYPE_PACKED_COLOR_ARRAY:
			return {"type": "PackedColorArray", "values": _untagged(values)}
	return values


## Packed elements are bare {x, y} / {r, g, b, a}: the list's own tag already says what they are.
static func _untagged(values: Array) -> Array:
	for item: Dictionary in values:
		item.erase("type")
	return values


static func _dictionary_out(data: Dictionary) -> Dictionary:
	var out := {}
	for key: Variant in data:
		out[str(key)] = serialize_value(data[key])
	return out


## Packed scalar arrays become plain lists; engine types without a tag travel as their text form.
static func _other_out(value: Variant) -> Variant:
	var kind := typeof(value)
	if kind == TYPE_NIL or kind == TYPE_BOOL or kind == TYPE_INT or kind == TYPE_STRING:
		return value
	if kind >= TYPE_PACKED_BYTE_ARRAY and kind <= TYPE_PACKED_STRING_ARRAY:
		return _list_out(Array(value))
	return var_to_str(value)
