@tool
class_name MCPToolkitSuccess
extends RefCounted
## Success envelope (contract C3). Public API. Runtime-safe: names no Editor* class.


## Adds success=true to `data` and returns it. Mutates its argument on purpose: handlers build
## one dictionary and hand it back, so no copy is made of large payloads.
static func ok(data: Dictionary = {}) -> Dictionary:
	data["success"] = true
	return data
