@tool
extends RefCounted
## The type-tag vocabulary that carries Godot values through JSON (contract C7), both ways:
## coerce_value() turns tagged dictionaries from a request into engine values, serialize_value()
## turns engine values into JSON-safe data for a response. Every Variant type has one form that
## reads produce and writes take (the C7 form where the contract defines one):
##   math values (vectors, Color, Rect2, transforms, Quaternion, Basis, AABB, Plane, Projection):
##     contract/math_values.gd;
##   packed arrays ({"values"} when small, {"base64"} when large, bytes always base64):
##     contract/packed_values.gd;
##   NodePath {path}; a Node as a NodePath (relative to `origin` when given: the node holding the
##     property); a Resource {path, class} (a file's path, or "scene.tscn::id" for one embedded in
##     a file), an embedded one with its stored `properties` too (bounded: MAX_EMBED_DEPTH levels,
##     MAX_EMBED_PROPERTIES each); NewResource {class, properties} (input only);
##   a Dictionary whose keys are not all strings (or that has a string "type" key, which would
##     read as a tag, or is shaped like an omitted value's stand-in) as {"type": "Dictionary",
##     "entries": [[key, value], ...]}; a stand-in itself is refused (OMITTED_ERROR);
##   LayerMask {category, layers} (input only: layers -> int bitmask).
## Runtime-safe. Pure except for the Resource / NewResource / LayerMask tags, which need the
## resource loader, ClassDB and the project's layer names.

const Params := preload("res://addons/godot_mcp_toolkit/contract/params.gd")
const MathValues := preload("res://addons/godot_mcp_toolkit/contract/math_values.gd")
const PackedValues := preload("res://addons/godot_mcp_toolkit/contract/packed_values.gd")
const ValueCompare := preload("res://addons/godot_mcp_toolkit/contract/value_compare.gd")
const AnswerBudget := preload("res://addons/godot_mcp_toolkit/contract/answer_budget.gd")

const TAGS := [
	"Vector2", "Vector3", "Vector4", "Vector2i", "Vector3i", "Color", "Rect2", "Rect2i",
	"Transform2D", "Transform3D", "NodePath", "Resource", "ResourceRef", "NewResource",
	"PackedVector2Array", "PackedVector3Array", "PackedColorArray", "LayerMask",
	# Beyond the reference's 18: the rest of the engine's types, so every value read can be written.
	"Vector4i", "Quaternion", "Basis", "AABB", "Plane", "Projection", "PackedByteArray",
	"PackedInt32Array", "PackedInt64Array", "PackedFloat32Array", "PackedFloat64Array",
	"PackedStringArray", "PackedVector4Array", "Dictionary",
]
## The key a failed coercion is reported under; callers turn it into INVALID_PARAMS.
const ERROR_KEY := "_coerce_error"
const LAYER_CATEGORIES := [
	"2d_physics", "3d_physics", "2d_render", "3d_render", "2d_navigation", "3d_navigation", "avoidance",
]
const MAX_LAYERS := 32
## How deep embedded resources list their properties (a material in a mesh in a node: 2), and
## how many properties one lists; past either, it is a {path, class} reference only.
const MAX_EMBED_DEPTH := 2
const MAX_EMBED_PROPERTIES := 256
## Stored by every resource but said by the tag itself, or engine bookkeeping.
const EMBED_SKIPPED := ["resource_path", "resource_scene_unique_id"]
## The keys of the tags defined here; the math and packed tags' keys are their modules'.
const OWN_TAG_KEYS := {"NodePath": ["path"], "Resource": ["path", "class", "properties"],
	"ResourceRef": ["path", "class", "properties"], "NewResource": ["class", "properties"],
	"LayerMask": ["category", "layers"], "Dictionary": ["entries"]}
const PACKED_TAG_KEYS := ["values", "base64"]
## A read's stand-in for a value too large for one answer (contract/answer_budget.gd) is no value:
## it is never stored. The writes that take back what a read gave keep the value it stands for.
const OMITTED_ERROR := "%s stands for a value too large to show, not a value: give the property back " \
	+ "whole as it was read (node_set_property and resource_write then keep it as stored), or pass a real value"


## The keys `tag` reads besides "type" (any other key is refused, never dropped in silence); []
## for a tag that does not exist.
static func keys_of(tag: String) -> Array:
	if MathValues.TAG_KEYS.has(tag):
		return MathValues.TAG_KEYS[tag]
	if PackedValues.is_packed_tag(tag):
		return PACKED_TAG_KEYS
	return OWN_TAG_KEYS.get(tag, [])


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
## `origin`: the node a Node value is described from (its path is then relative to it, as a
## scene file stores a node reference); without one a node's path is its tree path.
static func serialize_value(value: Variant, origin: Node = null) -> Variant:
	return _out(value, origin, 0)


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
	if AnswerBudget.is_stand_in(data):
		return {"error": OMITTED_ERROR % JSON.stringify(data)}
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
	if not tag in TAGS:
		return {"error": "Unknown type tag '%s'. Supported: %s" % [tag, supported_text()]}
	var unknown := Params.unknown_keys_message(data, ["type"] + keys_of(tag), "The %s value" % tag)
	if not unknown.is_empty():
		return {"error": unknown}
	if MathValues.handles_tag(tag):
		return MathValues.from_tag(tag, data)
	if PackedValues.is_packed_tag(tag):
		return PackedValues.from_tag(tag, data)
	match tag:
		"NodePath":
			return _node_path_in(data)
		"Resource", "ResourceRef":
			return _resource_in(data)
		"NewResource":
			return _new_resource_in(data)
		"Dictionary":
			return _dictionary_in(data)
	return _layer_mask_in(data)


static func _node_path_in(data: Dictionary) -> Dictionary:
	var path: Variant = data.get("path")
	if not path is String:
		return {"error": "NodePath needs 'path' as a string"}
	return {"value": NodePath(path)}


## A resource by its path: a file ("res://a.tres"), or one embedded in a file ("res://a.tscn::id",
## the path reads give) while that file is loaded. With `properties` and no path (or a path
## nothing answers to), a new resource of `class` with those properties, as NewResource makes.
static func _resource_in(data: Dictionary) -> Dictionary:
	var path: Variant = data.get("path", "")
	var wanted: Variant = data.get("class")
	if not path is String or (not (path as String).is_empty() and not (path as String).begins_with("res://")):
		return {"error": "%s needs 'path' as a res:// path" % data["type"]}
	var embedded := (path as String).is_empty() or (path as String).contains("::")
	var resource: Resource = _existing(path)
	if resource == null:
		if embedded and data.has("properties") and wanted is String:
			return _new_resource_in({"class": wanted, "properties": data["properties"]})
		if (path as String).is_empty():
			return {"error": "%s needs 'path', or 'class' and 'properties' for a new one" % data["type"]}
		return {"error": "No resource at %s%s" % [path, " (the file it is embedded in is not loaded)" if embedded else ""]}
	if wanted is String and not (wanted as String).is_empty() and not resource.is_class(wanted):
		return {"error": "%s is a %s, not a %s" % [path, resource.get_class(), wanted]}
	if data.has("properties"):
		return _with_properties(resource, data["properties"], embedded)
	return {"value": resource}


## The resource loaded (or cached: an embedded one, or a stand-in) at `path`, else null.
static func _existing(path: String) -> Resource:
	if path.is_empty():
		return null
	if ResourceLoader.has_cached(path):
		return ResourceLoader.load(path)
	if path.contains("::") or not ResourceLoader.exists(path):
		return null
	return load(path)


## `resource` when `properties` are the values it has; for an embedded one whose values differ, a
## copy with them (the edit then reaches this property only, not every user of the shared one).
static func _with_properties(resource: Resource, properties: Variant, embedded: bool) -> Dictionary:
	var given := _coerce(properties)
	if given.has("error"):
		return given
	if not given["value"] is Dictionary:
		return {"error": "Resource 'properties' must be an object"}
	var names := {}
	for entry: Dictionary in resource.get_property_list():
		names[entry["name"]] = true
	var changed := {}
	for key: Variant in given["value"]:
		var name := str(key)
		if not names.has(name):
			return {"error": "A %s has no property '%s'" % [resource.get_class(), name]}
		if not ValueCompare.same(resource.get(name), given["value"][key]):
			changed[name] = given["value"][key]
	if changed.is_empty():
		return {"value": resource}
	if not embedded:
		return {"error": "%s is a file of its own: change it with resource_write, or pass NewResource for a new one" % [
			resource.resource_path]}
	var copy := resource.duplicate()
	for name: String in changed:
		copy.set(name, changed[name])
	return {"value": copy}


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


## {"type": "Dictionary", "entries": [[key, value], ...]}: keys of any type, in order.
static func _dictionary_in(data: Dictionary) -> Dictionary:
	var entries: Variant = data.get("entries")
	if not entries is Array:
		return {"error": "Dictionary needs 'entries' as a list of [key, value] pairs"}
	var out := {}
	for entry: Variant in entries:
		if not entry is Array or (entry as Array).size() != 2:
			return {"error": "Dictionary 'entries' items must be [key, value] pairs, got %s" % JSON.stringify(entry)}
		var pair := _coerce_list(entry)
		if pair.has("error"):
			return pair
		out[pair["value"][0]] = pair["value"][1]
	return {"value": out}


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

static func _out(value: Variant, origin: Node, depth: int) -> Variant:
	var kind := typeof(value)
	if kind in MathValues.TYPES:
		return MathValues.to_json(value)
	match kind:
		TYPE_NIL, TYPE_BOOL, TYPE_INT, TYPE_STRING:
			return value
		TYPE_FLOAT:
			return value if is_finite(value) else null
		TYPE_STRING_NAME:
			return String(value)
		TYPE_NODE_PATH:
			return {"type": "NodePath", "path": String(value)}
		TYPE_OBJECT:
			return _object_out(value, origin, depth) if is_instance_valid(value) else null
		TYPE_ARRAY:
			var items := []
			for item: Variant in value:
				items.append(_out(item, origin, depth))
			return items
		TYPE_DICTIONARY:
			return _dictionary_out(value, origin, depth)
	var tag := type_string(kind)
	if PackedValues.is_packed_tag(tag):
		return PackedValues.to_json(value, tag)
	# RID, Callable, Signal: nothing a request could carry back; their text says what they are.
	return var_to_str(value)


## Resources by path (an embedded one with its properties); nodes by their path.
static func _object_out(object: Object, origin: Node, depth: int) -> Variant:
	if object is Resource:
		var resource := object as Resource
		var out := {"type": "Resource", "path": resource.resource_path, "class": resource.get_class()}
		var embedded := resource.resource_path.is_empty() or resource.resource_path.contains("::")
		if embedded and depth < MAX_EMBED_DEPTH:
			_embed_properties(out, resource, depth + 1)
		return out
	if object is Node and (object as Node).is_inside_tree():
		var node := object as Node
		if origin != null and origin.is_inside_tree():
			return {"type": "NodePath", "path": String(origin.get_path_to(node))}
		return {"type": "NodePath", "path": String(node.get_path())}
	return str(object)


## An embedded resource's stored properties (what its file section holds), bounded.
static func _embed_properties(out: Dictionary, resource: Resource, depth: int) -> void:
	var properties := {}
	var skipped := 0
	for entry: Dictionary in resource.get_property_list():
		var name: String = entry["name"]
		if not int(entry["usage"]) & PROPERTY_USAGE_STORAGE or name in EMBED_SKIPPED:
			continue
		if name == "script" and resource.get_script() == null:
			continue
		if properties.size() >= MAX_EMBED_PROPERTIES:
			skipped += 1
			continue
		properties[name] = _out(resource.get(name), null, depth)
	out["properties"] = properties
	if skipped > 0:
		out["more_properties"] = skipped


## A plain object when every key is a string (or a StringName), no "type" key would read as a
## tag and it is not shaped like an omitted value's stand-in; else entries.
static func _dictionary_out(data: Dictionary, origin: Node, depth: int) -> Dictionary:
	var plain := true
	for key: Variant in data:
		if not (key is String or key is StringName) or (str(key) == "type" and data[key] is String):
			plain = false
			break
	if plain:
		var out := {}
		for key: Variant in data:
			out[str(key)] = _out(data[key], origin, depth)
		# A Dictionary shaped like a stand-in would be kept instead of written back: tag it.
		if not AnswerBudget.is_stand_in(out):
			return out
	var entries := []
	for key: Variant in data:
		entries.append([_out(key, origin, depth), _out(data[key], origin, depth)])
	return {"type": "Dictionary", "entries": entries}
