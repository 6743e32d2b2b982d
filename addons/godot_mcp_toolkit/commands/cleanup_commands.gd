@tool
extends RefCounted
## The cleanup domain: close a scene tab (Godot 4.5+) and delete files, scenes, scripts, resources
## and folders under res://. Each delete refuses what is protected (project.godot, .godot/, the
## toolkit's own folder), open in the editor, or used by the edited scene, with the specific code;
## it names the other resources that depend on what it deleted; and it is one undo step that
## writes the deleted bytes back (a delete over the undo budget says it cannot be undone).
## Runtime-safe: the editor is reached only through the context.
##
## Helpers: commands/cleanup/file_removal.gd.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const ToolkitSuccess := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_success.gd")
const FileGuard := preload("res://addons/godot_mcp_toolkit/security/file_guard.gd")
const FileRemoval := preload("res://addons/godot_mcp_toolkit/commands/cleanup/file_removal.gd")

const SELF_PATH := "res://addons/godot_mcp_toolkit/commands/cleanup_commands.gd"
const SCENE_EXTENSIONS := ["tscn", "scn"]
const SCRIPT_EXTENSIONS := ["gd", "cs"]
## Sidecars the editor keeps next to a file; deleted (and restored) with it.
const SIDECARS := [".import", ".uid"]
## Folders that are never deleted, nor any folder holding one.
const PROTECTED_FOLDERS := ["res://.godot", "res://addons/godot_mcp_toolkit"]
const CLOSE_MIN_VERSION := 0x040500


static func register(registry: RefCounted, context: RefCounted) -> void:
	var script: Script = load(SELF_PATH)
	var file_schema := {"type": "object", "properties": {"file_path": {"type": "string"}}, "required": ["file_path"]}
	registry.register_command("scene.close", Callable(script, "_cmd_close").bind(context),
		registry.create_options().with_description("Close a scene's editor tab, discarding unsaved changes (Godot 4.5+).")
		.with_input_schema({"type": "object", "properties": {"file_path": {"type": "string"}}})
		.with_min_godot_version("4.5").scene_independent())
	registry.register_command("file.delete", Callable(script, "_cmd_delete_file").bind(context),
		registry.create_options().with_description("Delete a file under res:// (undoable); says what depended on it.")
		.with_input_schema(file_schema).scene_independent())
	registry.register_command("scene.delete", Callable(script, "_cmd_delete_scene").bind(context),
		registry.create_options().with_description("Delete a .tscn/.scn file that is not open (undoable).")
		.with_input_schema(file_schema).scene_independent())
	registry.register_command("script.delete", Callable(script, "_cmd_delete_script").bind(context),
		registry.create_options().with_description("Delete a script no node of the edited scene uses (undoable).")
		.with_input_schema(file_schema).scene_independent())
	registry.register_command("resource.delete", Callable(script, "_cmd_delete_resource").bind(context),
		registry.create_options().with_description("Delete a resource file (.tres, .res, ...) (undoable).")
		.with_input_schema(file_schema).scene_independent())
	registry.register_command("folder.delete", Callable(script, "_cmd_delete_folder").bind(context),
		registry.create_options().with_description("Delete a folder under res:// (recursive for a non-empty one; undoable).")
		.with_input_schema({"type": "object", "required": ["path"],
			"properties": {"path": {"type": "string"}, "recursive": {"type": "boolean"}}})
		.scene_independent())


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
	var target: String = path if not path.is_empty() else context.edited_scene_path()
	if target.is_empty():
		return ToolkitError.fail("NOT_FOUND", "No saved scene is being edited, so there is nothing to close",
			"Pass file_path of an open scene.")
	var was_edited: bool = target == context.edited_scene_path()
	var error: Error = context.close_scene(target)
	match error:
		OK:
			pass
		ERR_DOES_NOT_EXIST:
			return ToolkitError.fail("NOT_FOUND", "%s is not open in the editor" % target,
				"Open scenes: %s." % ", ".join(context.open_scene_paths()))
		ERR_UNAVAILABLE:
			return ToolkitError.fail("UNSUPPORTED", "This editor cannot close scene tabs (Godot 4.5+ only)")
		_:
			return ToolkitError.fail("INTERNAL", "Closing %s failed (%s)" % [target, error_string(error)])
	return ToolkitSuccess.ok({
		"closed": target, "was_edited": was_edited, "open_scenes": Array(context.open_scene_paths()),
		"undoable": false, "hint": "Unsaved changes of the closed scene are gone; reopen it with scene_open.",
	})


# --- file deletes ----------------------------------------------------------------------------------

static func _cmd_delete_file(params: Dictionary, context: RefCounted) -> Dictionary:
	return _delete_file(params.get("file_path"), "file", context)


static func _cmd_delete_scene(params: Dictionary, context: RefCounted) -> Dictionary:
	return _delete_file(params.get("file_path"), "scene", context)


static func _cmd_delete_script(params: Dictionary, context: RefCounted) -> Dictionary:
	return _delete_file(params.get("file_path"), "script", context)


static func _cmd_delete_resource(params: Dictionary, context: RefCounted) -> Dictionary:
	return _delete_file(params.get("file_path"), "resource", context)


static func _delete_file(value: Variant, kind: String, context: RefCounted) -> Dictionary:
	var checked := FileRemoval.check_path(value, "file_path")
	if checked.has("error"):
		return checked["error"]
	var path: String = checked["path"]
	var kind_error := _kind_error(path, kind)
	if not kind_error.is_empty():
		return kind_error
	if DirAccess.dir_exists_absolute(path):
		return ToolkitError.fail("INVALID_PARAMS", "%s is a folder" % path, "Delete folders with folder_delete.")
	if not FileAccess.file_exists(path):
		return ToolkitError.fail("NOT_FOUND", "No file at %s" % path, "Check the spelling; list files with asset_list.")
	if path in context.open_scene_paths():
		return ToolkitError.fail("EDITED_SCENE", "%s is open in the editor" % path,
			"Close it first (scene_close, Godot 4.5+, or by hand), then delete it.")
	var users := FileRemoval.scene_users(context.scene_root(), path)
	if not users.is_empty():
		return ToolkitError.fail("PATH_IN_USE", "The edited scene uses %s: %s" % [path, ", ".join(users)],
			"Remove or change those nodes first (and save), then delete it.")
	var files := PackedStringArray([path])
	for sidecar: String in SIDECARS:
		if FileAccess.file_exists(path + sidecar):
			files.append(path + sidecar)
	var scan := FileRemoval.dependents(PackedStringArray([path]))
	var removed := FileRemoval.remove(context, "Delete %s" % path.get_file(), files)
	if removed.has("error"):
		return removed["error"]
	var result := {"deleted": path, "also_deleted": Array(files.slice(1)), "undoable": removed["undoable"]}
	return ToolkitSuccess.ok(_with_dependents(result, scan))


## The INVALID_PATH envelope when `path` is not of the kind the tool deletes; {} when it is.
static func _kind_error(path: String, kind: String) -> Dictionary:
	var extension := path.get_extension().to_lower()
	match kind:
		"scene":
			if not extension in SCENE_EXTENSIONS:
				return ToolkitError.fail("INVALID_PATH", "%s is not a scene (.tscn/.scn)" % path,
					"Use file_delete, script_delete or resource_delete for other files.")
		"script":
			if not extension in SCRIPT_EXTENSIONS:
				return ToolkitError.fail("INVALID_PATH", "%s is not a script (.gd/.cs)" % path,
					"Use file_delete for other files.")
		"resource":
			if extension in SCENE_EXTENSIONS or extension in SCRIPT_EXTENSIONS:
				return ToolkitError.fail("INVALID_PATH", "%s is a %s, not a resource" % [
					path, "scene" if extension in SCENE_EXTENSIONS else "script"],
					"Use scene_delete or script_delete.")
			if not extension in ResourceLoader.get_recognized_extensions_for_type("Resource"):
				return ToolkitError.fail("INVALID_PATH", "%s is not a resource file Godot loads" % path,
					"Use file_delete for other files.")
	return {}


# --- folder.delete ---------------------------------------------------------------------------------

static func _cmd_delete_folder(params: Dictionary, context: RefCounted) -> Dictionary:
	var recursive: Variant = params.get("recursive", false)
	if not recursive is bool:
		return ToolkitError.fail("INVALID_PARAMS", "recursive must be true or false")
	var raw: Variant = params.get("path")
	if raw is String and _holds_protected(FileGuard.normalize(raw).trim_suffix("/")):
		return ToolkitError.fail("FOLDER_PROTECTED", "%s is, or holds, a folder that is never deleted (%s)" % [
			raw, ", ".join(PROTECTED_FOLDERS)])
	var checked := FileRemoval.check_path(raw, "path")
	if checked.has("error"):
		return checked["error"]
	var path: String = checked["path"]
	if not DirAccess.dir_exists_absolute(path):
		if FileAccess.file_exists(path):
			return ToolkitError.fail("INVALID_PARAMS", "%s is a file, not a folder" % path, "Delete files with file_delete.")
		return ToolkitError.fail("NOT_FOUND", "No folder at %s" % path)
	var files := FileRemoval.files_under(path)
	var folders := FileRemoval.folders_under(path)
	if not recursive and (not files.is_empty() or folders.size() > 1):
		return ToolkitError.fail("DIR_NOT_EMPTY", "%s holds %d file(s) and %d folder(s)" % [
			path, files.size(), folders.size() - 1], "Pass recursive:true to delete it with everything in it.")
	var in_use := _folder_users(path, context)
	if not in_use.is_empty():
		return ToolkitError.fail("PATH_IN_USE", "Files in %s are in use: %s" % [path, ", ".join(in_use)],
			"Close those scenes and change those nodes first, then delete the folder.")
	var scan := FileRemoval.dependents(files, path)
	var removed := FileRemoval.remove(context, "Delete folder %s" % path.get_file(), files, folders)
	if removed.has("error"):
		return removed["error"]
	var result := {"deleted": path, "files_deleted": files.size(), "folders_deleted": folders.size(),
		"undoable": removed["undoable"]}
	return ToolkitSuccess.ok(_with_dependents(result, scan))


static func _holds_protected(path: String) -> bool:
	var folded := path.to_lower()
	if folded == "res:" or folded == "res://":
		return true
	for folder: String in PROTECTED_FOLDERS:
		if folded == folder or folder.begins_with(folded + "/") or folded.begins_with(folder + "/"):
			return true
	return false


## Open scenes inside the folder, and edited-scene nodes using a file inside it.
static func _folder_users(path: String, context: RefCounted) -> PackedStringArray:
	var users := PackedStringArray()
	for open_path: String in context.open_scene_paths():
		if open_path.begins_with(path + "/"):
			users.append("%s (open in the editor)" % open_path)
	users.append_array(FileRemoval.scene_users(context.scene_root(), path))
	return users


# --- shared ----------------------------------------------------------------------------------------

## Adds who depended on what was deleted (and what the scan could not see) to a delete's result.
static func _with_dependents(result: Dictionary, scan: Dictionary) -> Dictionary:
	var found: PackedStringArray = scan["dependents"]
	result["dependents"] = Array(found)
	var warnings: Array = []
	if not found.is_empty():
		warnings.append("These resources referenced what was deleted and will fail to load until fixed: %s. "
			% ", ".join(found) + "Undo restores it.")
	if not scan["scan_complete"]:
		warnings.append("The dependency scan stopped early (a large project); more files may depend on it.")
	if not result["undoable"]:
		warnings.append("Too large to keep for undo: this delete cannot be undone.")
	if not warnings.is_empty():
		result["warnings"] = warnings
	return result
