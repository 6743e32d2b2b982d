@tool
extends RefCounted
## Resource files (.tres/.res) the tileset and spriteframes domains build and edit: path checks
## through the file guard, loading with a class check, textures, and saving as ONE undo step.
## Runtime-safe.
##
## An edit works on a private copy (loaded with CACHE_MODE_IGNORE), so a request that fails half
## way leaves both the file and the copy other scenes share untouched. Saving records the file's
## bytes before and after: undo writes the old bytes back (or deletes a file the command created),
## redo the new ones, and the shared cached copy is reloaded in place each time.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const FileGuard := preload("res://addons/godot_mcp_toolkit/security/file_guard.gd")
const FileBytes := preload("res://addons/godot_mcp_toolkit/files/file_bytes.gd")
const ProjectWrites := preload("res://addons/godot_mcp_toolkit/checkpoints/project_writes.gd")
const Folders := preload("res://addons/godot_mcp_toolkit/base/folders.gd")

const SELF_PATH := "res://addons/godot_mcp_toolkit/files/resource_file.gd"
const EXTENSIONS := ["tres", "res"]


## {"path"} (normalized) or {"error"}: a string, allowed by the file guard, ending in .tres/.res.
static func check_path(value: Variant, key: String = "file_path") -> Dictionary:
	return FileGuard.param(value, key, EXTENSIONS)


## {"path"} for a new file: check_path plus an existing folder.
static func check_new_path(value: Variant, key: String = "file_path") -> Dictionary:
	var checked := check_path(value, key)
	if checked.has("error"):
		return checked
	var folder: String = (checked["path"] as String).get_base_dir()
	if not Folders.exists(folder):
		return {"error": ToolkitError.fail("PARENT_NOT_FOUND", "The folder %s does not exist" % folder,
			"Create it first with folder_create, or pick an existing folder.")}
	return checked


## {"path", "resource"} (a private copy) or {"error"}: NOT_FOUND, or INVALID_CLASS when the file
## holds another class. `maker` names the tool that makes one, for the hint.
static func load_copy(value: Variant, type_name: String, maker: String) -> Dictionary:
	var checked := check_path(value)
	if checked.has("error"):
		return checked
	var path: String = checked["path"]
	if not ResourceLoader.exists(path):
		return {"error": ToolkitError.fail("NOT_FOUND", "No file at %s" % path, "Make one with %s first." % maker)}
	var resource := ResourceLoader.load(path, "", ResourceLoader.CACHE_MODE_IGNORE)
	if resource == null:
		return {"error": ToolkitError.fail("NOT_FOUND", "%s could not be loaded" % path,
			"Open it in the editor to see why.")}
	if not resource.is_class(type_name):
		var message := "%s holds a %s, not a %s" % [path, resource.get_class(), type_name]
		return {"error": ToolkitError.fail("INVALID_CLASS", message,
			"Point file_path at a %s file." % type_name)}
	return {"path": path, "resource": resource}


## {"path", "texture"} or {"error"} for a texture the project can load (PNG imported, .tres, ...).
static func load_texture(value: Variant, key: String) -> Dictionary:
	var checked := FileGuard.param(value, key)
	if checked.has("error"):
		return checked
	var path: String = checked["path"]
	if not ResourceLoader.exists(path):
		return {"error": ToolkitError.fail("NOT_FOUND", "No texture at %s" % path,
			"Check the path; a new image needs the editor to import it first.")}
	var texture := ResourceLoader.load(path) as Texture2D
	if texture == null:
		return {"error": ToolkitError.fail("INVALID_PARAMS", "%s is not a texture" % path)}
	return {"path": path, "texture": texture}


## Saves `resource` at `path` as one undo step; {} on success or {"error"} (SAVE_FAILED, with the
## file as it was). The byte-level undo steps are files/file_bytes.gd's; this adds the in-place
## reload of the cached copy open scenes share.
static func save(resource: Resource, path: String, description: String, context: RefCounted) -> Dictionary:
	var before: Variant = FileBytes.snapshot(path)
	var error := ProjectWrites.save_resource(resource, path)
	if error != OK:
		if before != null:
			FileBytes.write(path, before)
		return {"error": ToolkitError.fail("SAVE_FAILED", "Could not write %s (%s)" % [path, error_string(error)],
			"Check the folder is writable.")}
	refresh(path, context)
	var action: RefCounted = context.edits.create_undo_action(description)
	FileBytes.add_steps(action, context, path, before, FileBytes.snapshot(path))
	var script: Script = load(SELF_PATH)
	action.add_do_method(script, &"reload_cached", [path])
	action.add_undo_method(script, &"reload_cached", [path])
	action.commit(false)
	return {}


## Tells the editor the file changed and reloads the copy scenes share, in place.
static func refresh(path: String, context: RefCounted) -> void:
	context.project.refresh_files(PackedStringArray([path]))
	reload_cached(path)


## Reloads the cached copy of `path` in place, so scenes holding it see the file. Public: the undo
## history calls it (after FileBytes.restore has put the bytes back and told the editor).
static func reload_cached(path: String) -> void:
	if FileAccess.file_exists(path) and ResourceLoader.has_cached(path):
		ResourceLoader.load(path, "", ResourceLoader.CACHE_MODE_REPLACE)
