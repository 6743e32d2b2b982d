@tool
extends RefCounted
## Files and folders under res://: file.delete, folder.delete and folder.create. Each delete refuses
## what is protected (project.godot, .godot/, the toolkit's own folder), open in the editor, or used
## by the edited scene, with the specific code; it names the other resources that depend on what it
## deleted; and it is one undo step that writes the deleted bytes back (a delete over the undo
## budget says it cannot be undone). A created folder is one undo step too. Runtime-safe: the
## editor is reached only through the context.
##
## Helpers: commands/filesystem/file_removal.gd (also behind scene.delete, script.delete and
## resource.delete, in their own domains).

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const ToolkitSuccess := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_success.gd")
const Params := preload("res://addons/godot_mcp_toolkit/contract/params.gd")
const FileGuard := preload("res://addons/godot_mcp_toolkit/security/file_guard.gd")
const ProjectWrites := preload("res://addons/godot_mcp_toolkit/checkpoints/project_writes.gd")
const FileRemoval := preload("res://addons/godot_mcp_toolkit/commands/filesystem/file_removal.gd")
const Folders := preload("res://addons/godot_mcp_toolkit/base/folders.gd")

const SELF_PATH := "res://addons/godot_mcp_toolkit/commands/filesystem/filesystem_commands.gd"
## Folders that are never deleted, nor any folder holding one.
const PROTECTED_FOLDERS := ["res://.godot", "res://addons/godot_mcp_toolkit"]


static func register(registry: RefCounted, context: RefCounted) -> void:
	var script: Script = load(SELF_PATH)
	registry.register_command("file.delete", Callable(script, "_cmd_delete_file").bind(context),
		registry.create_options()
		.with_input_schema(FileRemoval.file_schema()).scene_independent())
	registry.register_command("folder.delete", Callable(script, "_cmd_delete_folder").bind(context),
		registry.create_options()
		.with_input_schema({"type": "object", "required": ["path"],
			"properties": {"path": {"type": "string"}, "recursive": {"type": "boolean"}}})
		.scene_independent())
	registry.register_command("folder.create", Callable(script, "_cmd_folder_create").bind(context),
		registry.create_options()
		.scene_independent())


# --- file.delete ----------------------------------------------------------------------------------

static func _cmd_delete_file(params: Dictionary, context: RefCounted) -> Dictionary:
	return FileRemoval.delete_file(params.get("file_path"), "file", context)


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
	if not Folders.exists(path):
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
	return ToolkitSuccess.ok(FileRemoval.with_dependents(result, scan))


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
	for open_path: String in context.scenes.open_scene_paths():
		if open_path.begins_with(path + "/"):
			users.append("%s (open in the editor)" % open_path)
	users.append_array(FileRemoval.scene_users(context.scenes.scene_root(), path))
	return users


# --- folder.create -------------------------------------------------------------------------------

static func _cmd_folder_create(params: Dictionary, context: RefCounted) -> Dictionary:
	var missing := Params.require(params, ["path"])
	if not missing.is_empty():
		return missing
	var checked := FileGuard.check(params["path"])
	if not checked["ok"]:
		return checked["error"]
	var path: String = checked["path"]
	if FileAccess.file_exists(path):
		return ToolkitError.fail("CREATE_DIR_FAILED", "A file already exists at %s" % path)
	if Folders.exists(path):
		return ToolkitSuccess.ok({"path": path, "status": "returned", "created": []})
	var created := _missing_folders(path)
	var error := ProjectWrites.make_dir(path)
	if error != OK:
		_remove_folders(created, null)
		return ToolkitError.fail("CREATE_DIR_FAILED", "Could not create %s: %s" % [path, error_string(error)])
	var steps: Script = load(SELF_PATH)
	var action: RefCounted = context.edits.create_undo_action("MCP: create folder %s" % path)
	action.add_do_method(steps, &"_make_folder", [path, weakref(context)])
	action.add_undo_method(steps, &"_remove_folders", [created, weakref(context)])
	action.commit(false)
	_refresh_folder(context, path)
	return ToolkitSuccess.ok({"path": path, "status": "created", "created": created})


## The folders from `path` up that do not exist yet, deepest first.
static func _missing_folders(path: String) -> Array[String]:
	var missing: Array[String] = []
	var current := path
	while not current.is_empty() and not Folders.exists(current):
		missing.append(current)
		current = current.get_base_dir()
	return missing


static func _make_folder(path: String, context_ref: WeakRef) -> void:
	ProjectWrites.make_dir(path)
	var context: RefCounted = context_ref.get_ref()
	if context != null:
		_refresh_folder(context, path)


## Removes the folders this command made, deepest first; a folder that gained content since is
## kept (remove fails on a non-empty folder), so an undo never deletes anyone's files.
static func _remove_folders(folders: Array[String], context_ref: Variant) -> void:
	for folder: String in folders:
		ProjectWrites.remove_dir(folder)
	var context: RefCounted = (context_ref as WeakRef).get_ref() if context_ref is WeakRef else null
	if context != null and not folders.is_empty():
		_refresh_folder(context, folders[folders.size() - 1].get_base_dir())


## The editor adds a new folder on a rescan, which it runs when told about a path inside a
## folder it has not seen; so the path passed is one inside the new folder.
static func _refresh_folder(context: RefCounted, folder: String) -> void:
	context.project.refresh_files(PackedStringArray([folder.path_join("")]))
