@tool
extends RefCounted
## Transport diagnostics and toolkit limits: echo, meta.set_limits.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const ToolkitSuccess := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_success.gd")
const Params := preload("res://addons/godot_mcp_toolkit/contract/params.gd")
const Settings := preload("res://addons/godot_mcp_toolkit/settings/settings_registration.gd")

## Handlers are static functions reached through this script: on 4.2.0/4.2.1 a static function
## taken as a Callable inside another static function does not resolve,
## while Callable(script, name) works on every supported version.
const SELF_PATH := "res://addons/godot_mcp_toolkit/commands/meta/meta_commands.gd"

## Request key -> setting; the limits the bridge may tune at run time.
const LIMIT_KEYS := {
	"ws_buffer_kb": Settings.WS_BUFFER_KB,
	"script_read_cap_kb": Settings.SCRIPT_READ_CAP_KB,
	"save_read_cap_kb": Settings.SAVE_READ_CAP_KB,
}


## `server` (optional) must offer apply_buffer_limit(): a new ws_buffer_kb reaches live connections.
static func register(registry: RefCounted, server: Object = null) -> void:
	var script: Script = load(SELF_PATH)
	registry.register_command("echo", Callable(script, "_cmd_echo"), registry.create_options()
		.read_only().scene_independent())
	registry.register_command("meta.set_limits", Callable(script, "_cmd_set_limits").bind(server),
		registry.create_options()
		.with_input_schema(_limits_schema())
		.scene_independent())


static func _cmd_echo(params: Dictionary) -> Dictionary:
	return ToolkitSuccess.ok({"echo": params})


static func _cmd_set_limits(params: Dictionary, server: Object) -> Dictionary:
	var unknown := PackedStringArray()
	for key: Variant in params:
		if not LIMIT_KEYS.has(key):
			unknown.append(str(key))
	if not unknown.is_empty():
		return ToolkitError.fail("INVALID_PARAMS", "Unknown limit(s): %s; known: %s" % [
			", ".join(unknown), ", ".join(PackedStringArray(LIMIT_KEYS.keys()))])
	if params.is_empty():
		var known := ", ".join(PackedStringArray(LIMIT_KEYS.keys()))
		return ToolkitError.fail("INVALID_PARAMS", "Pass at least one of: %s" % known)
	for key: String in params:
		if not Params.is_whole_number(params[key]):
			return ToolkitError.fail("INVALID_PARAMS", "%s must be a whole number of KiB" % key)
	var applied := {}
	var previous := {}
	var clamped := PackedStringArray()
	for key: String in params:
		var setting: String = LIMIT_KEYS[key]
		previous[key] = Settings.get_int(setting)
		applied[key] = Settings.set_int(setting, int(params[key]))
		if applied[key] != int(params[key]):
			clamped.append(key)
	var result := {"applied": applied, "previous": previous}
	if not clamped.is_empty():
		result["clamped"] = clamped
	if applied.has("ws_buffer_kb") and applied["ws_buffer_kb"] != previous["ws_buffer_kb"]:
		if server != null and is_instance_valid(server):
			server.call("apply_buffer_limit")
		result["hint"] = "ws_buffer_kb: replies use it at once; live connections are closed once idle (1001) "\
			+ "so the bridge reconnects with the new inbound size."
	return ToolkitSuccess.ok(result)


static func _limits_schema() -> Dictionary:
	var properties := {}
	for key: String in LIMIT_KEYS:
		var bounds := Settings.bounds_of(LIMIT_KEYS[key])
		properties[key] = {"type": "integer", "minimum": bounds.x, "maximum": bounds.y}
	return {"type": "object", "properties": properties, "additionalProperties": false}
