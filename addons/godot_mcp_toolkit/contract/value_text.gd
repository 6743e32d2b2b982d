@tool
extends RefCounted
## The engine's own text form of a value, as a scene file or the inspector's "Copy" writes it
## ("Quaternion(0, 0.7071068, 0, 0.7071068)", "PackedByteArray(...)", "NodePath(\"../Player\")"),
## read for a property of that type, so a value copied from a .tscn can be written as it is.
## Pure; runtime-safe.
##
## Only the constructor of the type the property holds is read, through str_to_var; text naming
## an Object, a Resource or a sub/ext resource is never parsed (str_to_var would build objects).

const REFUSED := ["Object(", "Resource(", "SubResource(", "ExtResource("]


## {"value": engine value} when `text` is the text form of a `type` value; {} when it is not that
## (the caller then treats the string as a string); {"error"} when it names the type but does not
## parse.
static func parse(text: String, type: int) -> Dictionary:
	var trimmed := text.strip_edges()
	if not _looks_like(trimmed, type):
		return {}
	for refused: String in REFUSED:
		if trimmed.contains(refused):
			return {"error": "the text form may not contain %s: pass a tagged value instead" % refused.trim_suffix("(")}
	var value: Variant = str_to_var(trimmed)
	if typeof(value) == type:
		return {"value": value}
	return {"error": "'%s' does not parse as a %s (the engine's text form is like %s)" % [
		trimmed.left(60), type_string(type), example(type)]}


## Whether `text` starts the way a `type` value's text does: its constructor, or [ ] / { } for
## arrays and dictionaries, &"" for a StringName, ^"" for a NodePath.
static func _looks_like(text: String, type: int) -> bool:
	match type:
		TYPE_NIL, TYPE_STRING, TYPE_OBJECT, TYPE_BOOL, TYPE_INT, TYPE_FLOAT, TYPE_RID, TYPE_CALLABLE, TYPE_SIGNAL:
			return false
		TYPE_ARRAY:
			return text.begins_with("[") or text.begins_with("Array[")
		TYPE_DICTIONARY:
			return text.begins_with("{") or text.begins_with("Dictionary[")
		TYPE_STRING_NAME:
			return text.begins_with("&\"")
		TYPE_NODE_PATH:
			return text.begins_with("^\"") or text.begins_with("NodePath(")
	return text.begins_with(type_string(type) + "(")


## What the text form of a `type` value looks like, for messages.
static func example(type: int) -> String:
	match type:
		TYPE_ARRAY:
			return "[1, 2]"
		TYPE_DICTIONARY:
			return "{\"key\": 1}"
		TYPE_NODE_PATH:
			return "NodePath(\"../Player\")"
	return "%s(...)" % type_string(type)
