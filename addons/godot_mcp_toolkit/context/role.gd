@tool
extends RefCounted
## What every role of a context (context/toolkit_context.gd) shares: an answer for a request the
## context cannot serve. A role's base answers every call this way or with a harmless default, so
## a missing override is an error, never a silent success. Runtime-safe.


func _unavailable(what: String) -> bool:
	push_error("MCP toolkit: %s is not available in this context (%s)" % [what, get_script().resource_path])
	return false
