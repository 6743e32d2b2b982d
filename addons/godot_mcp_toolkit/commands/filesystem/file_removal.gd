@tool
extends RefCounted
## What the deletes of every domain need to delete project files safely: the target checks (file guard,
## protected project files, existence), who still uses a file (the edited scene's nodes, and other
## res:// resources through ResourceLoader.get_dependencies), and an undoable removal that keeps
## the deleted bytes so undo writes them back. Runtime-safe.
##
## The dependency scan reads resource headers only (.tscn/.tres/.scn/.res): a script that names a
## path in a preload() string is not seen, and the result says so.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const ToolkitSuccess := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_success.gd")
const FileGuard := preload("res://addons/godot_mcp_toolkit/security/file_guard.gd")
const ProjectWrites := preload("res://addons/godot_mcp_toolkit/checkpoints/project_writes.gd")
const Folders := preload("res://addons/godot_mcp_toolkit/base/folders.gd")

## Never deleted: the project file, the editor's cache folder, the project root.
const PROTECTED_FILES := ["res://project.godot"]
const PROTECTED_FOLDERS := ["res://.godot"]
const RESOURCE_EXTENSIONS := ["tscn", "scn", "tres", "res"]
## Files scanned for dependents before the scan stops and says so.
const SCAN_LIMIT := 5000
## Bytes kept for undo; a bigger delete goes ahead but says it cannot be undone. The bridge reads
## this figure to ask before such a delete.
const UNDO_BYTES_LIMIT := 32 * 1024 * 1024
const DEPENDENTS_LIMIT := 50
const SCENE_EXTENSIONS := ["tscn", "scn"]
const SCRIPT_EXTENSIONS := ["gd", "cs"]
## Sidecars the editor keeps next to a file; deleted (and restored) with it.
const SIDECARS := [".import", ".uid"]


## {"path": normalized} or {"error": envelope}: a string through the file guard, never a protected
## file or folder.
static func check_path(value: Variant, key: String) -> Dictionary:
	var checked := FileGuard.param(value, key)
	if checked.has("error"):
		return checked
	var path: String = (checked["path"] as String).trim_suffix("/")
	if path == "res:" or path == "res://":
		return {"error": ToolkitError.fail("PATH_DENIED", "The project root cannot be deleted")}
	if is_protected(path):
		return {"error": ToolkitError.fail("PATH_DENIED", "%s belongs to the project's setup and is never deleted" % path,
			"Change project settings with the project tools instead.")}
	return {"path": path}


static func is_protected(path: String) -> bool:
	var folded := path.to_lower()
	if folded in PROTECTED_FILES:
		return true
	for folder: String in PROTECTED_FOLDERS:
		if folded == folder or folded.begins_with(folder + "/"):
			return true
	return false


## The nodes of the edited scene that use `path` (as their script, their instanced scene, or a
## stored resource property), as "node_path (how)" strings.
static func scene_users(root: Node, path: String) -> PackedStringArray:
	var users := PackedStringArray()
	if root == null:
		return users
	var stack: Array[Node] = [root]
	while not stack.is_empty():
		var node: Node = stack.pop_back()
		var how := _use_of(node, path, root)
		if not how.is_empty():
			users.append("%s (%s)" % [String(root.get_path_to(node)), how])
		for child: Node in node.get_children():
			stack.append(child)
	return users


static func _use_of(node: Node, path: String, root: Node) -> String:
	var script: Variant = node.get_script()
	if script is Script and _same_or_inside((script as Script).resource_path, path):
		return "script"
	if node != root and _same_or_inside(node.scene_file_path, path):
		return "instance"
	for property: Dictionary in node.get_property_list():
		if property["type"] != TYPE_OBJECT or not (int(property["usage"]) & PROPERTY_USAGE_STORAGE):
			continue
		var value: Variant = node.get(property["name"])
		if value is Resource and _same_or_inside((value as Resource).resource_path, path):
			return "property %s" % property["name"]
	return ""


## `candidate` is `path` itself or a file inside the folder `path`.
static func _same_or_inside(candidate: String, path: String) -> bool:
	if candidate.is_empty():
		return false
	return candidate == path or candidate.begins_with(path + "/")


## Resources outside `targets` that depend on one of them: {"dependents": [...], "scan_complete": bool}.
static func dependents(targets: PackedStringArray, skip_folder: String = "") -> Dictionary:
	var found := PackedStringArray()
	var files := PackedStringArray()
	var complete := _list_files("res://", files, SCAN_LIMIT)
	for file: String in files:
		if not file.get_extension().to_lower() in RESOURCE_EXTENSIONS or file in targets:
			continue
		if not skip_folder.is_empty() and file.begins_with(skip_folder + "/"):
			continue
		for dependency: String in ResourceLoader.get_dependencies(file):
			if _names_any(dependency, targets):
				found.append(file)
				break
		if found.size() >= DEPENDENTS_LIMIT:
			complete = false
			break
	return {"dependents": found, "scan_complete": complete}


## A get_dependencies entry is "path::type" (4.2) or "uid://...::type::path" (4.3+): match any part.
static func _names_any(dependency: String, targets: PackedStringArray) -> bool:
	for part: String in dependency.split("::"):
		if part in targets:
			return true
	return false


## Every file under `folder` (recursively, hidden and protected folders skipped) into `into`; false
## when `limit` stopped the listing.
static func _list_files(folder: String, into: PackedStringArray, limit: int) -> bool:
	for file_name: String in DirAccess.get_files_at(folder):
		if into.size() >= limit:
			return false
		into.append(folder.path_join(file_name))
	for sub: String in DirAccess.get_directories_at(folder):
		var child := folder.path_join(sub)
		if sub.begins_with(".") or is_protected(child):
			continue
		if not _list_files(child, into, limit):
			return false
	return true


## Every file under `folder`, for a folder delete (no limit, nothing skipped but nothing hidden).
static func files_under(folder: String) -> PackedStringArray:
	var files := PackedStringArray()
	_list_all(folder, files)
	return files


static func _list_all(folder: String, into: PackedStringArray) -> void:
	for file_name: String in DirAccess.get_files_at(folder):
		into.append(folder.path_join(file_name))
	for sub: String in DirAccess.get_directories_at(folder):
		_list_all(folder.path_join(sub), into)


## The folders under `folder` (itself included), deepest last.
static func folders_under(folder: String) -> PackedStringArray:
	var folders := PackedStringArray([folder])
	for sub: String in DirAccess.get_directories_at(folder):
		folders.append_array(folders_under(folder.path_join(sub)))
	return folders


## Removes `files` (then `folders`, deepest first) now and, when their bytes fit the undo budget,
## records one undo step that writes them back. {"undoable": bool} or {"error": envelope}; on a
## failure everything already removed is restored, so nothing is half-deleted.
static func remove(context: RefCounted, description: String, files: PackedStringArray,
		folders: PackedStringArray = PackedStringArray()) -> Dictionary:
	var batch := RemovalBatch.new(files, folders, context)
	var kept := batch.keep_bytes(UNDO_BYTES_LIMIT)
	if not kept.is_empty():
		return {"error": ToolkitError.fail("DELETE_FAILED", kept)}
	var failed := batch.remove_all()
	if not failed.is_empty():
		var hint := "Check the file is not locked by another program and the folder is writable."
		if not batch.undoable:
			return {"error": ToolkitError.fail("DELETE_FAILED",
				"Could not delete %s; files listed before it were deleted (too large to keep for restoring)" % failed, hint)}
		batch.restore_all()
		return {"error": ToolkitError.fail("DELETE_FAILED", "Could not delete %s; nothing was deleted" % failed, hint)}
	if not batch.undoable:
		return {"undoable": false}
	var action: RefCounted = context.edits.create_undo_action(description)
	action.add_do_method(batch, &"remove_all")
	action.add_undo_method(batch, &"restore_all")
	action.add_do_reference(batch)
	action.commit(false)
	return {"undoable": true}


# --- one file's delete (file.delete, scene.delete, script.delete, resource.delete) ----------------

## The input schema of the four single-file deletes (a fresh copy: the registry keeps it).
static func file_schema() -> Dictionary:
	return {"type": "object", "properties": {"file_path": {"type": "string"}}, "required": ["file_path"]}


## Deletes the file `value` names when it is of `kind` (file, scene, script, resource), is not open
## or used by the edited scene, with its sidecars, as one undo step; says who depended on it.
static func delete_file(value: Variant, kind: String, context: RefCounted) -> Dictionary:
	var checked := check_path(value, "file_path")
	if checked.has("error"):
		return checked["error"]
	var path: String = checked["path"]
	var kind_error := _kind_error(path, kind)
	if not kind_error.is_empty():
		return kind_error
	if Folders.exists(path):
		return ToolkitError.fail("INVALID_PARAMS", "%s is a folder" % path, "Delete folders with folder_delete.")
	if not FileAccess.file_exists(path):
		return ToolkitError.fail("NOT_FOUND", "No file at %s" % path, "Check the spelling; list files with asset_list.")
	if path in context.scenes.open_scene_paths():
		return ToolkitError.fail("EDITED_SCENE", "%s is open in the editor" % path,
			"Close it first (scene_close, Godot 4.5+, or by hand), then delete it.")
	var users := scene_users(context.scenes.scene_root(), path)
	if not users.is_empty():
		return ToolkitError.fail("PATH_IN_USE", "The edited scene uses %s: %s" % [path, ", ".join(users)],
			"Remove or change those nodes first (and save), then delete it.")
	var files := PackedStringArray([path])
	for sidecar: String in SIDECARS:
		if FileAccess.file_exists(path + sidecar):
			files.append(path + sidecar)
	var scan := dependents(PackedStringArray([path]))
	var removed := remove(context, "Delete %s" % path.get_file(), files)
	if removed.has("error"):
		return removed["error"]
	var result := {"deleted": path, "also_deleted": Array(files.slice(1)), "undoable": removed["undoable"]}
	return ToolkitSuccess.ok(with_dependents(result, scan))


## The UNSUPPORTED_FILE_TYPE envelope when `path` is not of the kind the tool deletes; {} when it is.
static func _kind_error(path: String, kind: String) -> Dictionary:
	var extension := path.get_extension().to_lower()
	match kind:
		"scene":
			if not extension in SCENE_EXTENSIONS:
				return ToolkitError.fail("UNSUPPORTED_FILE_TYPE", "%s is not a scene (.tscn/.scn)" % path,
					"Use file_delete, script_delete or resource_delete for other files.")
		"script":
			if not extension in SCRIPT_EXTENSIONS:
				return ToolkitError.fail("UNSUPPORTED_FILE_TYPE", "%s is not a script (.gd/.cs)" % path,
					"Use file_delete for other files.")
		"resource":
			if extension in SCENE_EXTENSIONS or extension in SCRIPT_EXTENSIONS:
				return ToolkitError.fail("UNSUPPORTED_FILE_TYPE", "%s is a %s, not a resource" % [
					path, "scene" if extension in SCENE_EXTENSIONS else "script"],
					"Use scene_delete or script_delete.")
			if not extension in ResourceLoader.get_recognized_extensions_for_type("Resource"):
				return ToolkitError.fail("UNSUPPORTED_FILE_TYPE", "%s is not a resource file Godot loads" % path,
					"Use file_delete for other files.")
	return {}


## Adds who depended on what was deleted (and what the scan could not see) to a delete's result.
static func with_dependents(result: Dictionary, scan: Dictionary) -> Dictionary:
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


## The files and folders of one delete, with their bytes for undo.
class RemovalBatch:
	extends RefCounted

	var undoable := true
	var _files: PackedStringArray
	var _folders: PackedStringArray
	var _bytes: Dictionary = {}
	## Weak, so the context's undo history holding this batch is not a reference cycle.
	var _context: WeakRef

	func _init(files: PackedStringArray, folders: PackedStringArray, context: RefCounted) -> void:
		_files = files
		_folders = folders
		_context = weakref(context)

	## Tells the editor's filesystem what changed.
	func refresh() -> void:
		var context: Variant = _context.get_ref()
		if context != null:
			var paths := _files.duplicate()
			paths.append_array(_folders)
			context.project.refresh_files(paths)

	## "" or why a file could not be read (then nothing is touched). Over `limit` bytes nothing is
	## kept and the delete is not undoable.
	func keep_bytes(limit: int) -> String:
		var total := 0
		for file: String in _files:
			var handle := FileAccess.open(file, FileAccess.READ)
			if handle == null:
				return "Could not read %s (%s); nothing was deleted" % [file, error_string(FileAccess.get_open_error())]
			total += handle.get_length()
		if total > limit:
			undoable = false
			return ""
		for file: String in _files:
			_bytes[file] = FileAccess.get_file_as_bytes(file)
		return ""

	## The paths that could not be removed ("" when all went).
	func remove_all() -> String:
		for file: String in _files:
			if ProjectWrites.remove_file(file) != OK:
				return file
		var deepest_first := _folders.duplicate()
		deepest_first.reverse()
		for folder: String in deepest_first:
			if Folders.exists(folder) and ProjectWrites.remove_dir(folder) != OK:
				return folder
		refresh()
		return ""

	func restore_all() -> void:
		for folder: String in _folders:
			ProjectWrites.make_dir(folder)
		for file: String in _bytes:
			if not FileAccess.file_exists(file):
				ProjectWrites.write_bytes(file, _bytes[file])
		refresh()
