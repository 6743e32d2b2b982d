@tool
extends RefCounted
## A scene's tab and file: scene.close (Godot 4.5+; unsaved changes are discarded, so it cannot be
## undone) and scene.delete (a .tscn/.scn that is not open, as one undo step that writes the bytes
## back; it names the resources that depended on it). Runtime-safe: the editor is reached only
## through the context.
##
## Helpers: commands/filesystem/file_removal.gd (the delete every file kind shares).

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const ToolkitSuccess := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_success.gd")
const FileGuard := preload("res://addons/godot_mcp_toolkit/security/file_guard.gd")
const FileRemoval := preload("res://addons/godot_mcp_toolkit/commands/filesystem/file_removal.gd")

const SELF_PATH := "res://addons/godot_mcp_toolkit/commands/scene/scene_file_commands.gd"
const CLOSE_MIN_VERSION := 0x040500


static func register(registry: RefCounted, context: RefCounted) -> void:
	var script: Script = load(SELF_PATH)
	registry.register_command("scene.close", Callable(script, "_cmd_close").bind(context),
		registry.create_options()
		.with_input_schema({"type": "object", "properties": {"file_path": {"type": "string"}}})
		.with_min_godot_version("4.5").scene_independent())
	registry.register_command("scene.delete", Callable(script, "_cmd_delete").bind(context),
		registry.create_options()
		.with_input_schema(FileRemoval.file_schema()).scene_independent())


# --- scene.close -----------------------------------------------------------------------------------

static func _cmd_close(params: Dictionary, context: RefCounted) -> Dictionary:
	if Engine.get_version_info().hex < CLOSE_MIN_VERSION:
		return ToolkitError.fail("UNSUPPORTED", "Closing a scene tab needs Godot 4.5 or later",
			"Close it in the editor by hand, or upgrade Godot.")
	var requested: Variant = params.get("file_path", "")
	if not requested is String:
		return ToolkitError.fail("INVALID_PARAMS", "file_path must be a string")
	var path := ""
	if not (requested as String).is_empty():
		var verdict := FileGuard.check(requested)
		if not verdict["ok"]:
			return verdict["error"]
		path = verdict["path"]
	var target: String = path if not path.is_empty() else context.scenes.edited_scene_path()
	if target.is_empty():
		return ToolkitError.fail("NOT_FOUND", "No saved scene is being edited, so there is nothing to close",
			"Pass file_path of an open scene.")
	var was_edited: bool = target == context.scenes.edited_scene_path()
	var error: Error = context.scenes.close_scene(target)
	match error:
		OK:
			pass
		ERR_DOES_NOT_EXIST:
			return ToolkitError.fail("NOT_FOUND", "%s is not open in the editor" % target,
				"Open scenes: %s." % ", ".join(context.scenes.open_scene_paths()))
		ERR_UNAVAILABLE:
			return ToolkitError.fail("UNSUPPORTED", "This editor cannot close scene tabs (Godot 4.5+ only)")
		_:
			return ToolkitError.fail("INTERNAL", "Closing %s failed (%s)" % [target, error_string(error)])
	return ToolkitSuccess.ok({
		"closed": target, "was_edited": was_edited, "open_scenes": Array(context.scenes.open_scene_paths()),
		"undoable": false, "hint": "Unsaved changes of the closed scene are gone; reopen it with scene_open.",
	})


# --- scene.delete ----------------------------------------------------------------------------------

static func _cmd_delete(params: Dictionary, context: RefCounted) -> Dictionary:
	return FileRemoval.delete_file(params.get("file_path"), "scene", context)
