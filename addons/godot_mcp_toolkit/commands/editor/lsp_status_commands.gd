@tool
extends RefCounted
## Editor status reported from the bridge side: editor.set_lsp_status (contract C15). The bridge
## is the LSP-liveness authority; the toolkit only stores its verdict and shows it in the dock.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const ToolkitSuccess := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_success.gd")
const Params := preload("res://addons/godot_mcp_toolkit/contract/params.gd")

## See meta_commands.gd for why handlers are reached through the script path.
const SELF_PATH := "res://addons/godot_mcp_toolkit/commands/editor/lsp_status_commands.gd"
const LSP_STATES := ["active", "conflict", "unavailable"]


## `server` must offer set_reported_lsp_status(Dictionary) -> Dictionary.
static func register(registry: RefCounted, server: Object) -> void:
	var script: Script = load(SELF_PATH)
	registry.register_command("editor.set_lsp_status", Callable(script, "_cmd_set_lsp_status").bind(server),
		registry.create_options()
		.with_input_schema({
			"type": "object",
			"properties": {
				"state": {"type": "string", "enum": LSP_STATES},
				"host": {"type": "string"},
				"port": {"type": "integer"},
				"detail": {"type": "string"},
			},
		})
		.read_only().scene_independent())


## Every field is optional, as in the reference toolkit: a report without `state` is stored with
## the server's default ("unavailable"). A field that is present must be well-formed.
static func _cmd_set_lsp_status(params: Dictionary, server: Object) -> Dictionary:
	var state: Variant = params.get("state")
	if params.has("state") and not (state is String and state in LSP_STATES):
		return ToolkitError.fail("INVALID_PARAMS", "state must be one of %s" % ", ".join(PackedStringArray(LSP_STATES)))
	if params.has("port") and not Params.is_whole_number(params["port"]):
		return ToolkitError.fail("INVALID_PARAMS", "port must be a whole number")
	for key: String in ["host", "detail"]:
		if params.has(key) and not params[key] is String:
			return ToolkitError.fail("INVALID_PARAMS", "%s must be a string" % key)
	if server == null or not is_instance_valid(server):
		return ToolkitError.fail("INVALID_STATE", "The editor server is not running")
	var stored: Dictionary = server.set_reported_lsp_status(params)
	return ToolkitSuccess.ok({"lsp_status": stored})
