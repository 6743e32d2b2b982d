@tool
extends RefCounted
## execute.code in the editor: one GDScript expression evaluated on a node of the edited scene
## (scope_path, relative to the scene root; default the root). What the code changes is not in
## the undo history, and the reply says so.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const ToolkitSuccess := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_success.gd")
const ExpressionRunner := preload("res://addons/godot_mcp_toolkit/scene_tree/expression_runner.gd")
const NodeLookup := preload("res://addons/godot_mcp_toolkit/scene_tree/node_lookup.gd")

const SELF_PATH := "res://addons/godot_mcp_toolkit/commands/runtime/execute_commands.gd"


static func register(registry: RefCounted, context: RefCounted) -> void:
	var script: Script = load(SELF_PATH)
	registry.register_command("execute.code", Callable(script, "_cmd_execute").bind(context),
		registry.create_options()
		.with_input_schema({"type": "object", "properties": {
			"code": {"type": "string"}, "scope_path": {"type": "string"},
		}, "required": ["code"], "additionalProperties": false}))


static func _cmd_execute(params: Dictionary, context: RefCounted) -> Dictionary:
	if not params.get("code") is String:
		return ToolkitError.fail("INVALID_PARAMS", "code is required: one GDScript expression")
	var root: Node = context.scenes.scene_root()
	if root == null:
		return ToolkitError.fail("NO_SCENE", "No scene is open in the editor", "Open a scene with scene_open first.")
	var scope_path: Variant = params.get("scope_path", ".")
	if not scope_path is String:
		return ToolkitError.fail("INVALID_PARAMS", "scope_path must be a node path relative to the scene root")
	var found := NodeLookup.find(root, scope_path)
	if not found["ok"]:
		return found["error"]
	var scope: Node = found["node"]
	var run := ExpressionRunner.evaluate(params["code"], scope, root)
	if not run["ok"]:
		return run["error"]
	return ToolkitSuccess.ok({"value": run["value"], "value_type": run["value_type"],
		"scope_path": NodeLookup.path_of(root, scope),
		"hint": "Changes the expression made are not in the undo history and do not mark the scene modified."})

