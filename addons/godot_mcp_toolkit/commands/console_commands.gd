@tool
extends RefCounted
## editor.get_console: the editor's Output log, paged by since_id/limit and filtered by level and
## text, secrets scrubbed and the text wrapped as untrusted. Two sources: "buffer", what this
## editor printed since the plugin started (an engine Logger, Godot 4.5+), and "file", the
## engine's log file (debug/file_logging, which also holds what was printed before the plugin
## started). Default: the buffer where it exists, else the file.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const ToolkitSuccess := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_success.gd")
const LogBuffer := preload("res://addons/godot_mcp_toolkit/logs/log_buffer.gd")
const LogCapture := preload("res://addons/godot_mcp_toolkit/logs/log_capture.gd")
const LogSources := preload("res://addons/godot_mcp_toolkit/logs/log_sources.gd")
const LogQuery := preload("res://addons/godot_mcp_toolkit/logs/log_query.gd")

const SELF_PATH := "res://addons/godot_mcp_toolkit/commands/console_commands.gd"


## The capture lives as long as the registered command: clearing the registry frees it, and
## freeing it removes the engine logger. `log_file` overrides the log file (tests).
static func register(registry: RefCounted, _context: RefCounted, log_file: String = "") -> void:
	var script: Script = load(SELF_PATH)
	var buffer := LogBuffer.new()
	var capture := LogCapture.new()
	capture.attach(buffer)
	var sources := {"buffer": buffer, "capture": capture, "file": log_file}
	registry.register_command("editor.get_console", Callable(script, "_cmd_get_console").bind(sources),
		registry.create_options()
		.with_description("Read the editor Output log, newest last, with level and text filters; since_id "
			+ "pages forward from a previous result.")
		.read_only().scene_independent())


static func _cmd_get_console(params: Dictionary, sources: Dictionary) -> Dictionary:
	var query := {}
	for key: String in ["since_id", "limit", "level_filter", "text_filter", "is_regex"]:
		if params.has(key):
			query[key] = params[key]
	var chosen := LogQuery.filters(query)
	if not chosen["ok"]:
		return chosen["error"]
	var clear: Variant = params.get("clear_buffer", false)
	if not clear is bool:
		return ToolkitError.fail("INVALID_PARAMS", "clear_buffer must be true or false")
	var capture: LogCapture = sources["capture"]
	var source: Variant = params.get("source", LogSources.default_source(capture))
	if not (source is String and source in LogSources.SOURCES):
		return ToolkitError.fail("INVALID_PARAMS", "source must be 'buffer' or 'file'")
	var read := LogSources.read(source, capture, sources["buffer"], sources["file"])
	if not read["ok"]:
		return read["error"]
	var result := LogQuery.page(read["entries"], chosen, "console", "editor:%s" % source)
	result["source"] = source
	if clear:
		result["cleared"] = (sources["buffer"] as LogBuffer).clear()
	return ToolkitSuccess.ok(result)
