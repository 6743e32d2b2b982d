@tool
extends RefCounted
## debugger.get_log on the editor's side: the game's output once it is gone (the bridge asks the
## editor when no game runs, and for crash context), read from the project's log file, which the
## game run from the editor writes. The running game answers debugger.get_log itself
## (commands/runtime/runtime_commands.gd). Paged and filtered like editor.get_console.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const ToolkitSuccess := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_success.gd")
const LogSources := preload("res://addons/godot_mcp_toolkit/logs/log_sources.gd")
const LogQuery := preload("res://addons/godot_mcp_toolkit/logs/log_query.gd")

const SELF_PATH := "res://addons/godot_mcp_toolkit/commands/runtime/game_log_commands.gd"


## The capture is the context's (log_hub(): the one the pushed errors read too). `log_file`
## overrides the log file (tests).
static func register(registry: RefCounted, context: RefCounted, log_file: String = "") -> void:
	var script: Script = load(SELF_PATH)
	var sources := LogSources.of(context.debugger.log_hub(), log_file)
	registry.register_command("debugger.get_log", Callable(script, "_cmd_get_game_log").bind(sources),
		registry.create_options()
		.read_only().scene_independent())


## The game's buffer lives in the game; once it is gone only its log file remains.
static func _cmd_get_game_log(params: Dictionary, sources: Dictionary) -> Dictionary:
	var chosen := LogQuery.filters_of(params, ["since_id", "limit", "text_filter", "is_regex"])
	if not chosen["ok"]:
		return chosen["error"]
	var source: Variant = params.get("source", "file")
	var bad_source := LogSources.check(source)
	if not bad_source.is_empty():
		return bad_source
	if source == "buffer":
		return ToolkitError.fail("LOG_UNAVAILABLE", "No game is running, so there is no game output buffer",
			"Pass source='file' for the last game's log file, or start the game with game_start.")
	var read := LogSources.read("file", sources["capture"], sources["buffer"], sources["file"])
	if not read["ok"]:
		return read["error"]
	var result := LogQuery.page(read["entries"], chosen, "game_log", "editor:file")
	result["source"] = "file"
	return ToolkitSuccess.ok(result)
