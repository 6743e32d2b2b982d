extends RefCounted
## contract/coerce.gd: every one of the 18 type tags in, and back out where the tag has a
## response form; unknown tags and malformed components are rejected, never passed through.

const Assert := preload("assert.gd")
const Coerce := preload("res://addons/godot_mcp_toolkit/contract/coerce.gd")

## A file every test project has that loads as a Resource (a GDScript).
const SCRIPT_PATH := "res://addons/godot_mcp_toolkit/contract/coerce.gd"
const LAYER_SETTING := "layer_names/2d_physics/layer_2"


func cleanup() -> void:
	if ProjectSettings.has_setting(LAYER_SETTING):
		ProjectSettings.set_setting(LAYER_SETTING, null)


func test_the_reference_18_tags_come_first_then_the_rest_of_the_engine_types() -> void:
	Assert.eq(Coerce.TAGS.slice(0, 18), ["Vector2", "Vector3", "Vector4", "Vector2i", "Vector3i", "Color", "Rect2",
		"Rect2i", "Transform2D", "Transform3D", "NodePath", "Resource", "ResourceRef", "NewResource",
		"PackedVector2Array", "PackedVector3Array", "PackedColorArray", "LayerMask"], "the C7 vocabulary")
	Assert.eq(Coerce.TAGS.size(), 32, "every other Variant type a property can hold")
	for tag: String in Coerce.TAGS:
		Assert.is_false(Coerce.keys_of(tag).is_empty(), "%s says which keys it reads" % tag)


func test_vectors_round_trip() -> void:
	var cases := [
		[{"type": "Vector2", "x": 1.5, "y": -2}, Vector2(1.5, -2)],
		[{"type": "Vector3", "x": 1, "y": 2, "z": 3}, Vector3(1, 2, 3)],
		[{"type": "Vector4", "x": 1, "y": 2, "z": 3, "w": 4}, Vector4(1, 2, 3, 4)],
		[{"type": "Vector2i", "x": 3, "y": 4}, Vector2i(3, 4)],
		[{"type": "Vector3i", "x": 3, "y": 4, "z": 5}, Vector3i(3, 4, 5)],
	]
	for case: Array in cases:
		_round_trip(case[0], case[1])


func test_color_defaults_alpha_to_one() -> void:
	var color: Variant = Coerce.coerce_value({"type": "Color", "r": 1, "g": 0.5, "b": 0})
	Assert.eq(color, Color(1, 0.5, 0, 1), "alpha defaults to 1")
	Assert.eq(Coerce.serialize_value(color), {"type": "Color", "r": 1, "g": 0.5, "b": 0, "a": 1}, "a is written back")
	_round_trip({"type": "Color", "r": 0.25, "g": 0.5, "b": 0.75, "a": 0.5}, Color(0.25, 0.5, 0.75, 0.5))


func test_rects_round_trip() -> void:
	_round_trip({"type": "Rect2", "x": 1, "y": 2, "w": 30, "h": 40}, Rect2(1, 2, 30, 40))
	_round_trip({"type": "Rect2i", "x": 1, "y": 2, "w": 30, "h": 40}, Rect2i(1, 2, 30, 40))


func test_transforms_round_trip() -> void:
	var t2 := {"type": "Transform2D", "x_axis": {"x": 0, "y": 1}, "y_axis": {"x": -1, "y": 0},
		"origin": {"x": 5, "y": 6}}
	_round_trip(t2, Transform2D(Vector2(0, 1), Vector2(-1, 0), Vector2(5, 6)))
	var t3 := {
		"type": "Transform3D",
		"basis": {"x": {"x": 1, "y": 0, "z": 0}, "y": {"x": 0, "y": 1, "z": 0}, "z": {"x": 0, "y": 0, "z": 1}},
		"origin": {"x": 0, "y": 1, "z": 0},
	}
	_round_trip(t3, Transform3D(Basis.IDENTITY, Vector3(0, 1, 0)))


func test_tagged_axes_are_accepted_too() -> void:
	var value: Variant = Coerce.coerce_value({"type": "Transform2D", "x_axis": {"type": "Vector2", "x": 1, "y": 0},
		"y_axis": {"x": 0, "y": 1}, "origin": {"type": "Vector2", "x": 0, "y": 0}})
	Assert.eq(value, Transform2D.IDENTITY, "nested Vector2 tags")


func test_node_path_round_trips() -> void:
	_round_trip({"type": "NodePath", "path": "Player/Sprite2D"}, NodePath("Player/Sprite2D"))


func test_resource_and_resource_ref_load_by_path() -> void:
	var script: Variant = Coerce.coerce_value({"type": "Resource", "path": SCRIPT_PATH})
	Assert.is_true(script is Script, "loaded")
	Assert.eq(Coerce.serialize_value(script), {"type": "Resource", "path": SCRIPT_PATH, "class": "GDScript"}, "by path")
	Assert.is_true(Coerce.coerce_value({"type": "ResourceRef", "path": SCRIPT_PATH}) == script, "ResourceRef is an alias")
	var checked: Variant = Coerce.coerce_value({"type": "Resource", "path": SCRIPT_PATH, "class": "Texture2D"})
	Assert.contains(Coerce.error_of(checked), "not a Texture2D", "class mismatch refused")
	Assert.contains(Coerce.error_of(Coerce.coerce_value({"type": "Resource", "path": "res://missing.tres"})),
		"No resource", "missing file refused")
	Assert.ne(Coerce.error_of(Coerce.coerce_value({"type": "Resource", "path": "/etc/passwd"})), "", "res:// only")


func test_new_resource_is_input_only() -> void:
	var made: Variant = Coerce.coerce_value({"type": "NewResource", "class": "StyleBoxFlat",
		"properties": {"bg_color": {"type": "Color", "r": 1, "g": 0, "b": 0}, "corner_radius_top_left": 4}})
	Assert.is_true(made is StyleBoxFlat, "instantiated")
	Assert.eq((made as StyleBoxFlat).bg_color, Color(1, 0, 0, 1), "tagged property coerced")
	Assert.eq((made as StyleBoxFlat).corner_radius_top_left, 4, "plain property set")
	Assert.eq(Coerce.serialize_value(made)["type"], "Resource", "comes back as a Resource, never NewResource")
	Assert.ne(Coerce.error_of(Coerce.coerce_value({"type": "NewResource", "class": "Node"})), "", "not a Resource class")
	Assert.ne(Coerce.error_of(Coerce.coerce_value({"type": "NewResource", "class": "NoSuchClass"})), "", "unknown class")


func test_packed_arrays_round_trip() -> void:
	_round_trip({"type": "PackedVector2Array", "values": [{"x": 1, "y": 2}, {"x": 3, "y": 4}]},
		PackedVector2Array([Vector2(1, 2), Vector2(3, 4)]))
	_round_trip({"type": "PackedVector3Array", "values": [{"x": 1, "y": 2, "z": 3}]},
		PackedVector3Array([Vector3(1, 2, 3)]))
	_round_trip({"type": "PackedColorArray", "values": [{"r": 1, "g": 0, "b": 0, "a": 1}]}, PackedColorArray([Color.RED]))


func test_layer_mask_becomes_an_int() -> void:
	Assert.eq(Coerce.coerce_value({"type": "LayerMask", "layers": [1, 3]}), 5, "layers 1 and 3")
	ProjectSettings.set_setting(LAYER_SETTING, "walls")
	Assert.eq(Coerce.coerce_value({"type": "LayerMask", "category": "2d_physics", "layers": ["walls", 1]}), 3, "by name")
	Assert.eq(Coerce.serialize_value(5), 5, "an int on the way out")
	Assert.ne(Coerce.error_of(Coerce.coerce_value({"type": "LayerMask", "layers": [33]})), "", "layer out of range")
	Assert.ne(Coerce.error_of(Coerce.coerce_value({"type": "LayerMask", "category": "sound", "layers": [1]})), "",
		"unknown category")


func test_unknown_tag_is_rejected_with_the_supported_list() -> void:
	var result: Variant = Coerce.coerce_value({"type": "Vector5", "x": 0})
	Assert.eq((result as Dictionary).keys(), [Coerce.ERROR_KEY], "only the error key")
	Assert.contains(Coerce.error_of(result), "Unknown type tag 'Vector5'. Supported: Vector2, Vector3", "message")


func test_a_tag_refuses_keys_it_does_not_read() -> void:
	var alpha := Coerce.error_of(Coerce.coerce_value({"type": "Color", "r": 1, "g": 0, "b": 0, "alpha": 0.5}))
	Assert.contains(alpha, "The Color value has unknown key 'alpha' (accepted: type, r, g, b, a)",
		"a misspelt alpha is refused, not left at 1")
	Assert.contains(Coerce.error_of(Coerce.coerce_value({"type": "Vector2", "x": 1, "y": 2, "z": 3})), "'z'",
		"a Vector2 has no z")
	Assert.contains(Coerce.error_of(Coerce.coerce_value({"type": "Rect2", "x": 0, "y": 0, "w": 1, "h": 1,
		"width": 1})), "'width'", "a Rect2 is x, y, w, h")
	var axis := {"type": "Transform2D", "x_axis": {"x": 1, "y": 0}, "y_axis": {"x": 0, "y": 1, "z": 0},
		"origin": {"x": 0, "y": 0}}
	Assert.contains(Coerce.error_of(Coerce.coerce_value(axis)), "Transform2D 'y_axis' has unknown key 'z'",
		"inside an axis too")
	var basis := {"type": "Transform3D", "basis": {"x": {"x": 1, "y": 0, "z": 0}, "y": {"x": 0, "y": 1, "z": 0},
		"z": {"x": 0, "y": 0, "z": 1}, "w": {}}, "origin": {"x": 0, "y": 0, "z": 0}}
	Assert.contains(Coerce.error_of(Coerce.coerce_value(basis)), "'w'", "and in a basis")
	var packed := {"type": "PackedColorArray", "values": [{"r": 1, "g": 1, "b": 1, "alpha": 1}]}
	Assert.contains(Coerce.error_of(Coerce.coerce_value(packed)), "'alpha'", "and in packed elements")
	Assert.eq(Coerce.coerce_value({"type": "Resource", "path": SCRIPT_PATH, "class": "GDScript"}) is Resource, true,
		"what serialize_value writes is read back as it is")


func test_errors_anywhere_fail_the_whole_value() -> void:
	var nested: Variant = Coerce.coerce_value({"a": [1, {"type": "Bogus"}]})
	Assert.contains(Coerce.error_of(nested), "'Bogus'", "nested unknown tag surfaces")
	Assert.contains(Coerce.error_of(Coerce.coerce_value({"type": "Vector2", "x": "1", "y": 2})), "'x'",
		"a non-number component is named")


func test_plain_json_and_containers_pass_through() -> void:
	var value: Variant = Coerce.coerce_value({"n": 1, "list": [{"type": "Vector2", "x": 1, "y": 1}, "s"]})
	Assert.eq(value["n"], 1, "plain values untouched")
	Assert.eq(value["list"][0], Vector2(1, 1), "tags inside lists coerced")
	var expected := {"key": [{"type": "Vector2i", "x": 1, "y": 2}, null]}
	Assert.eq(Coerce.serialize_value({&"key": [Vector2i(1, 2), NAN]}), expected, "containers walked; NaN becomes null")


func _round_trip(tagged: Dictionary, engine_value: Variant) -> void:
	var coerced: Variant = Coerce.coerce_value(tagged)
	Assert.eq(typeof(coerced), typeof(engine_value), "%s coerces to the right type" % tagged["type"])
	Assert.is_true(coerced == engine_value, "%s coerces to %s (got %s)" % [tagged["type"], engine_value, coerced])
	Assert.eq(Coerce.serialize_value(coerced), tagged, "%s serializes back to the same tagged form" % tagged["type"])


func test_the_rest_of_the_engine_types_round_trip() -> void:
	_round_trip({"type": "Vector4i", "x": 1, "y": 2, "z": 3, "w": 4}, Vector4i(1, 2, 3, 4))
	_round_trip({"type": "Quaternion", "x": 0, "y": 0.5, "z": 0, "w": 0.5}, Quaternion(0, 0.5, 0, 0.5))
	_round_trip({"type": "Plane", "x": 0, "y": 1, "z": 0, "d": 2}, Plane(Vector3.UP, 2))
	_round_trip({"type": "AABB", "position": {"x": 1, "y": 2, "z": 3}, "size": {"x": 4, "y": 5, "z": 6}},
		AABB(Vector3(1, 2, 3), Vector3(4, 5, 6)))
	_round_trip({"type": "Basis", "x": {"x": 1, "y": 0, "z": 0}, "y": {"x": 0, "y": 1, "z": 0},
		"z": {"x": 0, "y": 0, "z": 1}}, Basis.IDENTITY)
	var columns := {}
	for axis: String in ["x", "y", "z", "w"]:
		columns[axis] = {"x": 1 if axis == "x" else 0, "y": 1 if axis == "y" else 0, "z": 1 if axis == "z" else 0,
			"w": 1 if axis == "w" else 0}
	columns["type"] = "Projection"
	_round_trip(columns, Projection.IDENTITY)


func test_packed_arrays_small_readable_large_compact_bytes_base64() -> void:
	Assert.eq(Coerce.serialize_value(PackedByteArray([1, 2, 3])), {"type": "PackedByteArray", "base64": "AQID"}, "bytes")
	Assert.eq(Coerce.serialize_value(PackedByteArray()), {"type": "PackedByteArray", "base64": ""}, "no bytes")
	Assert.eq(Coerce.serialize_value(PackedInt32Array([1, 2])), [1, 2], "a small number array is a list")
	var many := PackedVector3Array()
	for i in 300:
		many.append(Vector3(i, -i, 0.5))
	var compact: Dictionary = Coerce.serialize_value(many)
	Assert.eq(compact.keys(), ["type", "base64"], "a large vector array is its bytes")
	Assert.eq(Coerce.coerce_value(compact), many, "and goes back to the same array")
	var ints := PackedInt64Array(range(400))
	Assert.eq(Coerce.coerce_value(Coerce.serialize_value(ints)), ints, "int64 compact round trip")
	Assert.eq(Coerce.coerce_value({"type": "PackedVector2Array", "values": [{"x": 1, "y": 2}]}),
		PackedVector2Array([Vector2(1, 2)]), "the C7 values form still reads")
	Assert.contains(Coerce.error_of(Coerce.coerce_value({"type": "PackedVector2Array", "base64": "AAA="})),
		"not a whole number", "bytes that are not whole elements")
	Assert.contains(Coerce.error_of(Coerce.coerce_value({"type": "PackedByteArray", "values": [1], "base64": ""})),
		"not both", "one form at a time")


func test_dictionaries_with_other_keys_or_a_type_key_keep_their_keys() -> void:
	var odd := {1: "one", Vector2i(1, 2): true}
	var shown: Dictionary = Coerce.serialize_value(odd)
	Assert.eq(shown["type"], "Dictionary", "entries form")
	Assert.eq(Coerce.coerce_value(shown), odd, "keys of their own types come back")
	var typed := {"type": "enemy", "hp": 3}
	Assert.eq(Coerce.coerce_value(Coerce.serialize_value(typed)), typed, "a data 'type' key is not read as a tag")


func test_an_embedded_resource_lists_its_properties_bounded() -> void:
	var shape := RectangleShape2D.new()
	shape.size = Vector2(3, 4)
	var shown: Dictionary = Coerce.serialize_value(shape)
	Assert.eq([shown["class"], shown["path"]], ["RectangleShape2D", ""], "class and (no) path")
	Assert.eq(shown["properties"]["size"], {"type": "Vector2", "x": 3.0, "y": 4.0}, "its properties")
	var file: Dictionary = Coerce.serialize_value(load(SCRIPT_PATH))
	Assert.is_false(file.has("properties"), "a resource with a file of its own is a reference")
	var made: Variant = Coerce.coerce_value(shown)
	Assert.is_true(made is RectangleShape2D and (made as RectangleShape2D).size == Vector2(3, 4), "written back as new")
