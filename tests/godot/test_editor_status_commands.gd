extends RefCounted
## commands/editor/lsp_status_commands.gd: editor.set_lsp_status accepts what the reference toolkit
## accepts (every field optional) and still refuses malformed values.

const Assert := preload("assert.gd")
const CommandRegistry := preload("res://addons/godot_mcp_toolkit/transport/mcp_toolkit_command_registry.gd")
const EditorStatusCommands := preload("res://addons/godot_mcp_toolkit/commands/editor/lsp_status_commands.gd")


## Stands in for the editor server: stores the verdict the way transport/mcp_server.gd does.
class FakeServer:
	extends Object
	var stored: Array[Dictionary] = []

	func set_reported_lsp_status(status: Dictionary) -> Dictionary:
		stored.append(status.duplicate())
		return status.duplicate()


var _registry: CommandRegistry = null
var _server: FakeServer = null


func _init() -> void:
	_registry = CommandRegistry.new()
	_server = FakeServer.new()
	EditorStatusCommands.register(_registry, _server)


func cleanup() -> void:
	_server.free()


func test_state_is_optional() -> void:
	var result := _call({"host": "127.0.0.1", "port": 6005})
	Assert.eq(result.get("success"), true, "accepted without state")
	Assert.eq(_server.stored, [{"host": "127.0.0.1", "port": 6005}], "passed on as sent")
	Assert.eq(_call({}).get("success"), true, "an empty report is accepted too")
	var schema: Dictionary = _registry.get_command("editor.set_lsp_status")["input_schema"]
	Assert.eq(schema.get("required", []), [], "the schema requires nothing")


func test_bad_values_are_still_refused() -> void:
	Assert.eq(_call({"state": "running"}).get("code"), "INVALID_PARAMS", "unknown state")
	Assert.eq(_call({"state": 1}).get("code"), "INVALID_PARAMS", "state not a string")
	Assert.eq(_call({"port": "6005"}).get("code"), "INVALID_PARAMS", "port not a number")
	Assert.eq(_call({"detail": 3}).get("code"), "INVALID_PARAMS", "detail not a string")
	Assert.eq(_server.stored, [], "nothing stored")


func _call(params: Dictionary) -> Dictionary:
	var handler: Callable = _registry.dispatch_info("editor.set_lsp_status")["handler"]
	return handler.call(params)
