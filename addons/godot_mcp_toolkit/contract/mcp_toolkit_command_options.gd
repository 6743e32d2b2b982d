@tool
class_name MCPToolkitCommandOptions
extends RefCounted
## How a command is described to the bridge and routed by dispatch (contract C5, C9, C12, C13).
## Public API: every setter returns the builder, so options read as one fluent chain:
##   registry.create_options().with_description("...").read_only().idempotent()
## A description is an extension command's (the model reads it through extensions.list); the
## toolkit's own commands are described by the catalogue (catalogue/tools/*.json) and set none.
## Runtime-safe.
##
## The flags are load-bearing: read_only decides the lane (reads bypass the mutation lock) and,
## through the published annotations, whether the bridge shows the tool in read-only mode.

const FLAG_READ_ONLY := "read_only"
const FLAG_DESTRUCTIVE := "destructive"
const FLAG_IDEMPOTENT := "idempotent"
## Handler takes (params, ctx) and may stop early when ctx is cancelled.
const FLAG_CANCELLABLE := "cancellable"
## Runs whichever scene tab is active; skips the scene lease.
const FLAG_SCENE_INDEPENDENT := "scene_independent"
## Waits for every in-flight read to finish and holds new reads back while it runs.
const FLAG_EXCLUSIVE := "exclusive"
## A successful run binds the calling peer to the scene it opened (result "path").
const FLAG_LEASES_SCENE := "leases_scene"

var description := ""
## Raw JSON Schema of the params object; the bridge turns it into the tool's input schema.
var input_schema: Dictionary = {}
## 0 means "not declared": dispatch then uses the 300 s mutation budget.
var timeout_ms := 0
var group := ""
## Inclusive bounds like "4.5"; a bound with fewer components matches every patch under it.
var min_godot_version := ""
var max_godot_version := ""

var _flags: Dictionary = {}


func with_description(text: String) -> MCPToolkitCommandOptions:
	description = text
	return self


func with_input_schema(schema: Dictionary) -> MCPToolkitCommandOptions:
	input_schema = schema.duplicate(true)
	return self


func with_timeout_ms(milliseconds: int) -> MCPToolkitCommandOptions:
	timeout_ms = maxi(milliseconds, 0)
	return self


func with_group(group_name: String) -> MCPToolkitCommandOptions:
	group = group_name
	return self


func with_min_godot_version(version: String) -> MCPToolkitCommandOptions:
	min_godot_version = _checked_version(version)
	return self


func with_max_godot_version(version: String) -> MCPToolkitCommandOptions:
	max_godot_version = _checked_version(version)
	return self


func read_only(enabled: bool = true) -> MCPToolkitCommandOptions:
	return _set_flag(FLAG_READ_ONLY, enabled)


func destructive(enabled: bool = true) -> MCPToolkitCommandOptions:
	return _set_flag(FLAG_DESTRUCTIVE, enabled)


func idempotent(enabled: bool = true) -> MCPToolkitCommandOptions:
	return _set_flag(FLAG_IDEMPOTENT, enabled)


func cancellable(enabled: bool = true) -> MCPToolkitCommandOptions:
	return _set_flag(FLAG_CANCELLABLE, enabled)


func scene_independent(enabled: bool = true) -> MCPToolkitCommandOptions:
	return _set_flag(FLAG_SCENE_INDEPENDENT, enabled)


func exclusive(enabled: bool = true) -> MCPToolkitCommandOptions:
	return _set_flag(FLAG_EXCLUSIVE, enabled)


func leases_scene(enabled: bool = true) -> MCPToolkitCommandOptions:
	return _set_flag(FLAG_LEASES_SCENE, enabled)


## Spellings of read_only / idempotent / scene_independent that take the value explicitly.
func with_read_only(enabled: bool = true) -> MCPToolkitCommandOptions:
	return read_only(enabled)


func with_idempotent(enabled: bool = true) -> MCPToolkitCommandOptions:
	return idempotent(enabled)


func with_scene_independent(enabled: bool = true) -> MCPToolkitCommandOptions:
	return scene_independent(enabled)


func has_flag(flag: String) -> bool:
	return bool(_flags.get(flag, false))


func is_read_only() -> bool:
	return has_flag(FLAG_READ_ONLY)


## The MCP tool annotations the bridge publishes (C9), always all three keys.
func annotations() -> Dictionary:
	return {
		"readOnlyHint": has_flag(FLAG_READ_ONLY),
		"destructiveHint": has_flag(FLAG_DESTRUCTIVE),
		"idempotentHint": has_flag(FLAG_IDEMPOTENT),
	}


func _set_flag(flag: String, enabled: bool) -> MCPToolkitCommandOptions:
	_flags[flag] = enabled
	return self


## A malformed bound would silently compare as 0.0; drop it loudly instead.
static func _checked_version(version: String) -> String:
	var text := version.strip_edges()
	if text.is_empty():
		return ""
	for part: String in text.split("."):
		if not part.is_valid_int():
			push_warning("MCP toolkit: ignoring malformed Godot version bound '%s'" % version)
			return ""
	return text
