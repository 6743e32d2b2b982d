@tool
extends RefCounted
## The editor's Output log, paged by since_id/limit and filtered by level and text, secrets
## scrubbed and the text wrapped as untrusted (editor.get_console): source "buffer", what this
## editor printed since the plugin started (an engine Logger, Godot 4.5+), or "file", the project's
## log file (debug/file_logging/log_path), which the game run from the editor writes, so it keeps a
## stopped or crashed game's output. Default: the buffer where it exists, else the file. The
## editor's answer for the game's log once the game is gone is commands/runtime/game_log_commands.gd.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const ToolkitSuccess := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_success.gd")
const LogBuffer := preload("res://addons/godot_mcp_toolkit/logs/log_buffer.gd")
const LogSources := preload("res://addons/godot_mcp_toolkit/logs/log_sources.gd")
const LogQuery := preload("res://addons/godot_mcp_toolkit/logs/log_query.gd")

const SELF_PATH := "res://addons/godot_mcp_toolkit/commands/editor/console_commands.gd"


## The capture is the context's (log_hub(): the one the pushed errors read too). `log_file`
## overrides the log file (tests).
static func register(registry: RefCounted, context: RefCounted, log_file: String = "") -> void:
	var script: Script = load(SELF_PATH)
	var sources := LogSources.of(context.debugger.log_hub(), log_file)
	registry.register_command("editor.get_console", Callable(script, "_cmd_get_console").bind(sources),
		registry.create_options()
		.read_only().scene_independent())



static func _cmd_get_console(params: Dictionary, sources: Dictionary) -> Dictionary:
	var chosen := LogQuery.filters_of(params, ["since_id", "limit", "level_filter", "text_filter", "is_regex"])
	if not chosen["ok"]:
		return chosen["error"]
	var clear: Variant = params.get("clear_buffer", false)
	if not clear is bool:
		return ToolkitError.fail("INVALID_PARAMS", "clear_buffer must be true or false")
	var paged := LogSources.page(params, sources, chosen, "console", "editor")
	if not paged["ok"]:
		return paged["error"]
	var result: Dictionary = paged["result"]
	if clear:
		result["cleared"] = (sources["buffer"] as LogBuffer).clear()
	return ToolkitSuccess.ok(result)
