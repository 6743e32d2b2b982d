@tool
extends RefCounted
## editor.confirm: the bridge asks the person at the editor before a tool call that cannot be
## undone (GODOT_MCP_CONFIRM_IN_EDITOR=1; godot_bridge/consent/editor_dialog.py). Not a tool of
## its own: the bridge sends it itself, between a call and its run. The question is shown through
## the context (context.person.ask_person: a dialog in the editor; nobody to ask in the game or a
## headless editor, HEADLESS_UNSUPPORTED) and the answer is accept, decline or cancel (no answer within
## timeout_ms, or the bridge cancelled the request: the dialog closes). A read for the lane: the
## editor keeps serving other commands while the person reads. Runtime-safe.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const ToolkitSuccess := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_success.gd")
const Params := preload("res://addons/godot_mcp_toolkit/contract/params.gd")

const SELF_PATH := "res://addons/godot_mcp_toolkit/commands/editor/confirm_commands.gd"
const DEFAULT_TIMEOUT_MS := 120000
const MAX_TIMEOUT_MS := 600000
const ANSWERS := ["accept", "decline", "cancel"]


static func register(registry: RefCounted, context: RefCounted) -> void:
	var script: Script = load(SELF_PATH)
	registry.register_command("editor.confirm", Callable(script, "_cmd_confirm").bind(context),
		registry.create_options()
		.with_input_schema({"type": "object", "properties": {
			"title": {"type": "string"}, "message": {"type": "string"}, "timeout_ms": {"type": "integer"},
		}, "required": ["message"], "additionalProperties": false})
		.read_only().scene_independent().cancellable())


## Cancellable: the dispatch lane passes the request's ToolContext second.
static func _cmd_confirm(params: Dictionary, job: RefCounted, context: RefCounted) -> Dictionary:
	var missing := Params.require(params, ["message"])
	if not missing.is_empty():
		return missing
	for key: String in ["title", "message"]:
		if params.has(key) and not (params[key] is String and not (params[key] as String).strip_edges().is_empty()):
			return ToolkitError.fail("INVALID_PARAMS", "%s must be a non-empty string" % key)
	var timeout: Variant = params.get("timeout_ms", DEFAULT_TIMEOUT_MS)
	if not Params.is_whole_number(timeout) or int(timeout) < 1 or int(timeout) > MAX_TIMEOUT_MS:
		return ToolkitError.fail("INVALID_PARAMS", "timeout_ms must be a whole number from 1 to %d" % MAX_TIMEOUT_MS)
	var asked: Dictionary = await context.person.ask_person(str(params.get("title", "The AI assistant asks")),
		params["message"], int(timeout), job)
	if asked.has("unavailable"):
		return ToolkitError.fail("HEADLESS_UNSUPPORTED", "Cannot ask the person: %s" % asked["unavailable"],
			"Open the project in an editor with a window, or unset GODOT_MCP_CONFIRM_IN_EDITOR so the bridge "
			+ "asks through the MCP client.")
	var answer: Variant = asked.get("answer")
	return ToolkitSuccess.ok({"answer": answer if answer in ANSWERS else "cancel"})
