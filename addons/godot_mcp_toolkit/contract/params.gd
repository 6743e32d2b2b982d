@tool
extends RefCounted
## Parameter checks shared by every handler (contract C3, C13). Pure; runtime-safe.
##
## JSON has one number type, so a whole float (3.0) is accepted wherever an int is expected.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")


## {} when every name in `required` is present and not null, else an INVALID_PARAMS envelope
## naming all the missing ones at once (one round trip instead of one per missing name).
static func require(parameters: Dictionary, required: Array) -> Dictionary:
	var missing := PackedStringArray()
	for name: Variant in required:
		if parameters.get(name) == null:
			missing.append(str(name))
	if missing.is_empty():
		return {}
	return ToolkitError.fail("INVALID_PARAMS", "Missing required parameter(s): %s" % ", ".join(missing))


## True for an int, or a float with no fractional part.
static func is_whole_number(value: Variant) -> bool:
	if value is int:
		return true
	return value is float and is_finite(value) and (value as float) == floorf(value)


## True for an int or a finite float.
static func is_number(value: Variant) -> bool:
	return value is int or (value is float and is_finite(value))
