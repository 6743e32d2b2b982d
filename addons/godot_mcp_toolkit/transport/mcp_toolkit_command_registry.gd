@tool
extends RefCounted
## The command registry (contract C8, C9, C12, C13): who serves which JSON-RPC method, with which
## options, and the seven-method facade extensions build on. Dispatch asks it two questions:
## is_dispatchable(method) and dispatch_info(method). Runtime-safe (it names no Editor* class;
## the editor arrives as a context object, context/toolkit_context.gd).

const CommandOptions := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_command_options.gd")
const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const Params := preload("res://addons/godot_mcp_toolkit/contract/params.gd")
const VersionUtils := preload("res://addons/godot_mcp_toolkit/base/version_utils.gd")
const UndoAction := preload("res://addons/godot_mcp_toolkit/edits/undo_action.gd")
const SaveQueue := preload("res://addons/godot_mcp_toolkit/edits/save_queue.gd")

const SOURCE_BUILTIN := "builtin"
## Names a non-built-in source may never take: transport-level methods and every built-in domain,
## reserved as a whole prefix so a later built-in command cannot be shadowed.
const RESERVED_METHODS := ["ping", "echo"]
const RESERVED_DOMAINS := [
	"3d", "animation", "animation_player", "animationtree", "asset", "audiobus", "autoload", "classdb",
	"control", "debug", "debugger", "editor", "execute", "extensions", "file", "folder", "game", "history", "input",
	"input_map", "meta", "navigation", "node", "particles", "path2d", "procedural", "project", "resource",
	"runtime", "save", "scene", "script", "signal", "sound", "spriteframes", "texture", "theme", "tilemap",
	"tileset",
]

## method -> {"handler": Callable, "options": CommandOptions, "source": String}
var _commands: Dictionary = {}
var _engine_version := VersionUtils.engine_version()
var _context: RefCounted = null
var _save_queue: SaveQueue = SaveQueue.new()


## Adds a command. Refused (false + warning) when the name is taken, malformed, or (for a
## non-built-in source) reserved; the incumbent always keeps its name.
func register_command(method: String, handler: Callable, options: CommandOptions = null,
		source: String = SOURCE_BUILTIN) -> bool:
	var reason := _refusal(method, handler, source)
	if not reason.is_empty():
		push_warning("MCP toolkit: command '%s' from %s refused: %s" % [method, source, reason])
		return false
	_commands[method] = {
		"handler": handler,
		"options": options if options != null else CommandOptions.new(),
		"source": source,
	}
	return true


func unregister_command(method: String) -> void:
	_commands.erase(method)


func has_command(method: String) -> bool:
	return _commands.has(method)


## The public description of one command plus its "source"; {} when unknown.
func get_command(method: String) -> Dictionary:
	if not _commands.has(method):
		return {}
	var described := _describe(method)
	described["source"] = _commands[method]["source"]
	return described


## Every command (optionally only those from `source`, or from "<source>:..." sources), sorted by
## method: {method, description, input_schema, annotations, group, timeout_ms,
## min_godot_version, max_godot_version}.
func list_commands(source: String = "") -> Array[Dictionary]:
	var methods := _commands.keys()
	methods.sort()
	var listing: Array[Dictionary] = []
	for method: String in methods:
		var owner: String = _commands[method]["source"]
		if source.is_empty() or owner == source or owner.begins_with(source + ":"):
			listing.append(_describe(method))
	return listing


## Registered and allowed on the running engine. A command whose version bounds exclude this
## engine stays listed (so its bounds are visible) but is answered -32601.
func is_dispatchable(method: String) -> bool:
	if not _commands.has(method):
		return false
	var options: CommandOptions = _commands[method]["options"]
	return VersionUtils.within(_engine_version, options.min_godot_version, options.max_godot_version)


## What dispatch needs to route and run `method`; {} when it is not dispatchable.
func dispatch_info(method: String) -> Dictionary:
	if not is_dispatchable(method):
		return {}
	var options: CommandOptions = _commands[method]["options"]
	return {
		"method": method,
		"handler": _commands[method]["handler"],
		"read_only": options.has_flag(CommandOptions.FLAG_READ_ONLY),
		"exclusive": options.has_flag(CommandOptions.FLAG_EXCLUSIVE),
		"scene_independent": options.has_flag(CommandOptions.FLAG_SCENE_INDEPENDENT),
		"cancellable": options.has_flag(CommandOptions.FLAG_CANCELLABLE),
		"leases_scene": options.has_flag(CommandOptions.FLAG_LEASES_SCENE),
		"timeout_ms": options.timeout_ms,
	}


## Wiring from the composition root: the engine version the bounds are checked against (tests
## pretend other versions) and the context (editor or runtime) whose undo history and scene saving
## the facade uses. A null context applies undo actions without history and fails saves.
func configure(engine_version: String, context: RefCounted) -> void:
	_engine_version = engine_version
	_context = context
	var scenes: Object = context.get("scenes") if context != null else null
	_save_queue.set_saver(Callable(scenes, "save_scene") if scenes != null else Callable())
	# "" is pinned to the scene edited when the save is queued, not whichever tab is active later.
	_save_queue.set_active_scene_provider(
		Callable(scenes, "edited_scene_path") if scenes != null else Callable())


func get_context() -> RefCounted:
	return _context


func get_save_queue() -> SaveQueue:
	return _save_queue


## Drops every command and the context (plugin teardown).
func clear() -> void:
	_commands.clear()
	_context = null
	_save_queue.set_saver(Callable())
	_save_queue.set_active_scene_provider(Callable())


# --- the extension facade (C13) ----------------------------------------------------------------

func create_options() -> CommandOptions:
	return CommandOptions.new()


func create_extension_options(description: String) -> CommandOptions:
	return CommandOptions.new().with_description(description)


func create_undo_action(description: String, context_object: Object = null) -> UndoAction:
	if _context != null:
		return _context.edits.create_undo_action(description, context_object)
	return UndoAction.new(null, description, context_object)


func queue_save(path: String = "") -> int:
	return _save_queue.queue(path)


func check_save(save_id: Variant, clear_finished: bool = false) -> Dictionary:
	return _save_queue.check(save_id, clear_finished)


func fail(code: String, message: String, hint: String = "") -> Dictionary:
	return ToolkitError.fail(code, message, hint)


func require(parameters: Dictionary, required: Array) -> Dictionary:
	return Params.require(parameters, required)


# --- internals ---------------------------------------------------------------------------------

func _describe(method: String) -> Dictionary:
	var options: CommandOptions = _commands[method]["options"]
	return {
		"method": method,
		"description": options.description,
		"input_schema": options.input_schema.duplicate(true),
		"annotations": options.annotations(),
		"group": options.group,
		"timeout_ms": options.timeout_ms,
		"min_godot_version": options.min_godot_version,
		"max_godot_version": options.max_godot_version,
	}


func _refusal(method: String, handler: Callable, source: String) -> String:
	if method.strip_edges().is_empty() or method != method.strip_edges() or " " in method:
		return "the name is empty or contains spaces"
	# is_null(), not is_valid(): a static handler bound through its script reports invalid on
	# 4.2 even though it calls fine.
	if handler.is_null():
		return "the handler is empty"
	if _commands.has(method):
		return "already registered by %s" % _commands[method]["source"]
	if source != SOURCE_BUILTIN and _is_reserved(method):
		return "built-in name or domain"
	return ""


static func _is_reserved(method: String) -> bool:
	if method.begins_with("_") or method in RESERVED_METHODS:
		return true
	var dot := method.find(".")
	return dot > 0 and method.left(dot) in RESERVED_DOMAINS
