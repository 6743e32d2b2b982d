@tool
extends RefCounted
## What the running game answers about itself (Mode B, registered through
## runtime/runtime_domains.gd): runtime.screenshot, runtime.get_script_vars, debugger.get_log
## (the game's own output) and execute.code (an expression on a node of the live tree). Node paths
## are absolute in the game tree (/root/Main/Player) or relative to the current scene.
## RUNTIME-REACHABLE: nothing here or below may name an Editor* class.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const ToolkitSuccess := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_success.gd")
const Coerce := preload("res://addons/godot_mcp_toolkit/contract/coerce.gd")
const ExpressionRunner := preload("res://addons/godot_mcp_toolkit/scene_tree/expression_runner.gd")
const NodeLookup := preload("res://addons/godot_mcp_toolkit/scene_tree/node_lookup.gd")
const ScreenshotCapture := preload("res://addons/godot_mcp_toolkit/commands/runtime/screenshot_capture.gd")
const LogQuery := preload("res://addons/godot_mcp_toolkit/logs/log_query.gd")
const LogSources := preload("res://addons/godot_mcp_toolkit/logs/log_sources.gd")

const SELF_PATH := "res://addons/godot_mcp_toolkit/commands/runtime/runtime_commands.gd"
const VISIBILITY := ["public", "private", "all"]


## `log_file` overrides the game's log file (tests). debugger.get_log reads the context's log
## capture (log_hub()), the same one the server pushes errors.reported from.
static func register(registry: RefCounted, context: RefCounted, log_file: String = "") -> void:
	var script: Script = load(SELF_PATH)
	registry.register_command("runtime.screenshot", Callable(script, "_cmd_screenshot").bind(context),
		registry.create_options()
		.read_only().scene_independent())
	registry.register_command("runtime.get_script_vars", Callable(script, "_cmd_get_script_vars").bind(context),
		registry.create_options()
		.read_only())
	var sources := LogSources.of(context.debugger.log_hub(), log_file)
	registry.register_command("debugger.get_log", Callable(script, "_cmd_get_log").bind(sources),
		registry.create_options()
		.read_only().scene_independent())
	registry.register_command("execute.code", Callable(script, "_cmd_execute").bind(context),
		registry.create_options())


static func _cmd_screenshot(params: Dictionary, context: RefCounted) -> Dictionary:
	if context.host.is_headless():
		return ToolkitError.fail("HEADLESS_UNSUPPORTED", "The game runs headless (no display): it draws nothing, "
			+ "so there is no frame to capture", "Screenshots need a game with a window: an editor started "
			+ "headless starts its game headless too. Read state with runtime_get_node_state instead, or run "
			+ "the editor with a window (under xvfb-run on a machine without a screen).")
	# The keys the capture reads, named here so the catalogue drift check sees them handled.
	var wanted := {}
	for key: String in ["image_detail", "image_response_mode", "save_path", "force_foreground_game"]:
		if params.has(key):
			wanted[key] = params[key]
	return await ScreenshotCapture.capture(wanted, _tree(context).root)


static func _cmd_get_script_vars(params: Dictionary, context: RefCounted) -> Dictionary:
	var path: Variant = params.get("node_path")
	if not path is String or (path as String).strip_edges().is_empty():
		return ToolkitError.fail("INVALID_PARAMS", "node_path is required, e.g. /root/Main/Player")
	var visibility: Variant = params.get("visibility", "all")
	if not (visibility is String and visibility in VISIBILITY):
		return ToolkitError.fail("INVALID_PARAMS", "visibility must be public, private or all")
	var found := _find(path, context)
	if not found["ok"]:
		return found["error"]
	var node: Node = found["node"]
	var script := node.get_script() as Script
	var result := {"node_path": str(node.get_path()), "script": script.resource_path if script != null else null,
		"visibility": visibility}
	var variables: Array[Dictionary] = []
	if script != null:
		for property: Dictionary in script.get_script_property_list():
			var name := str(property["name"])
			if int(property["usage"]) & PROPERTY_USAGE_SCRIPT_VARIABLE == 0 or not _visible(name, visibility):
				continue
			variables.append({"name": name, "type": type_string(int(property["type"])),
				"value": Coerce.serialize_value(node.get(name))})
	result["variables"] = variables
	result["count"] = variables.size()
	return ToolkitSuccess.ok(result)


static func _cmd_get_log(params: Dictionary, sources: Dictionary) -> Dictionary:
	var chosen := LogQuery.filters_of(params, ["since_id", "limit", "text_filter", "is_regex"])
	if not chosen["ok"]:
		return chosen["error"]
	var paged := LogSources.page(params, sources, chosen, "game_log", "game")
	if not paged["ok"]:
		return paged["error"]
	return ToolkitSuccess.ok(paged["result"])


static func _cmd_execute(params: Dictionary, context: RefCounted) -> Dictionary:
	if not params.get("code") is String:
		return ToolkitError.fail("INVALID_PARAMS", "code is required: one GDScript expression")
	var scope_path: Variant = params.get("scope_path", "/root")
	if not scope_path is String:
		return ToolkitError.fail("INVALID_PARAMS", "scope_path must be a node path such as /root/Main/Player")
	var found := _find(scope_path, context)
	if not found["ok"]:
		return found["error"]
	var scope: Node = found["node"]
	var run := ExpressionRunner.evaluate(params["code"], scope, context.scenes.scene_root())
	if not run["ok"]:
		return run["error"]
	return ToolkitSuccess.ok({"value": run["value"], "value_type": run["value_type"],
		"scope_path": str(scope.get_path())})


static func _tree(context: RefCounted) -> SceneTree:
	var root: Node = context.scenes.scene_root()
	if root != null and root.is_inside_tree():
		return root.get_tree()
	return Engine.get_main_loop() as SceneTree


## An absolute path anywhere in the game tree (autoloads included), else relative to the current
## scene: {"ok": true, "node"} or {"ok": false, "error"} (NOT_FOUND naming nearby children).
static func _find(path: String, context: RefCounted) -> Dictionary:
	var wanted := path.strip_edges()
	var tree := _tree(context)
	if wanted.begins_with("/") and tree != null:
		return NodeLookup.find(tree.root, wanted)
	return NodeLookup.find(context.scenes.scene_root(), wanted)


static func _visible(name: String, visibility: String) -> bool:
	if visibility == "all":
		return true
	return name.begins_with("_") == (visibility == "private")

