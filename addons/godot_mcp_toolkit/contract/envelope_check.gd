@tool
extends RefCounted
## The one contract check on every handler result before it goes on the wire (contract C3, C4).
## Runtime-safe.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const ToolkitSuccess := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_success.gd")


## Returns a well-formed envelope for `result`. A handler that returned nothing (a runtime error
## aborts a GDScript function with null) becomes INTERNAL; a dictionary without `success` is
## treated as a success so a forgotten ok() does not read as failure. Drift is warned, never
## rewritten: an unknown code still reaches the bridge verbatim (the wire is string-tolerant).
static func normalize(result: Variant, method: String) -> Dictionary:
	if not result is Dictionary:
		return ToolkitError.fail("INTERNAL", "'%s' returned no result; see the editor Output panel" % method)
	var envelope: Dictionary = result
	if not envelope.get("success") is bool:
		push_warning("MCP toolkit: '%s' returned a result without a boolean 'success'; treating it as success" % method)
		return ToolkitSuccess.ok(envelope)
	if envelope["success"] and envelope.has("code"):
		push_warning("MCP toolkit: '%s' returned a success carrying 'code'" % method)
	if not envelope["success"] and not ToolkitError.is_known_code(envelope.get("code")):
		push_warning("MCP toolkit: '%s' failed with a code outside CODES: %s" % [method, str(envelope.get("code"))])
	return envelope
