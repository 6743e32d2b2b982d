@tool
extends RefCounted
## Scene files for the scene domain: scene.create (idempotent, C6), scene.open and
## editor.save_scene, all through the file guard and the context. Runtime-safe.
##
## scene.create writes a file, not an edit of an open scene, so it records no undo step (the
## editor's own "New Scene" + save is not undoable either); it never touches an open scene
## except to reload it when replaced.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const ToolkitSuccess := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_success.gd")
const Idempotency := preload("res://addons/godot_mcp_toolkit/contract/idempotency.gd")
const FileGuard := preload("res://addons/godot_mcp_toolkit/security/file_guard.gd")
const ClassFactory := preload("res://addons/godot_mcp_toolkit/commands/scene/class_factory.gd")
const ProjectWrites := preload("res://addons/godot_mcp_toolkit/checkpoints/project_writes.gd")
const Folders := preload("res://addons/godot_mcp_toolkit/base/folders.gd")

const SCENE_EXTENSIONS := ["tscn", "scn"]


## `request`: file_path, root_type, root_name, if_exists, passed (the request's keys).
static func create(request: Dictionary, context: RefCounted) -> Dictionary:
	var checked := _scene_path(request["file_path"], "file_path")
	if checked.has("error"):
		return checked["error"]
	var path: String = checked["path"]
	var mode := Idempotency.read_mode({"if_exists": request["if_exists"]})
	if not mode["ok"]:
		return mode["error"]
	for key: String in ["root_type", "root_name"]:
		if not request[key] is String:
			return ToolkitError.fail("INVALID_PARAMS", "%s must be a string" % key)
	var root_name: String = request["root_name"]
	if root_name.is_empty():
		root_name = path.get_file().get_basename()
	if root_name != root_name.validate_node_name():
		return ToolkitError.fail("INVALID_PARAMS", "root_name '%s' has characters a node name cannot hold" % root_name,
			"Use '%s' instead." % root_name.validate_node_name())
	if not Folders.exists(path.get_base_dir()):
		return ToolkitError.fail("PARENT_NOT_FOUND", "The folder %s does not exist" % path.get_base_dir(),
			"Create it first with folder_create, or pick an existing folder.")
	var exists := FileAccess.file_exists(path)
	var previous := _root_of(path) if exists else {}
	match Idempotency.decide(mode["mode"], exists):
		Idempotency.ACTION_FAIL:
			return Idempotency.already_exists(path)
		Idempotency.ACTION_RETURN:
			return _returned(path, previous, request["passed"])
	var made := ClassFactory.instantiate_node(request["root_type"])
	if made.has("error"):
		return made["error"]
	var root: Node = made["node"]
	root.name = root_name
	var written := _write_packed(root, path)
	root.free()
	if not written.is_empty():
		return written
	context.project.refresh_files(PackedStringArray([path]))
	var result := {"path": path, "root_name": root_name, "root_type": request["root_type"]}
	if exists:
		Idempotency.with_status(result, Idempotency.STATUS_REPLACED)
		result["previous_root_type"] = previous.get("type", "")
		if path in context.scenes.open_scene_paths():
			context.scenes.reload_scene(path)
			result["reloaded"] = true
	else:
		Idempotency.with_status(result, Idempotency.STATUS_CREATED)
	return ToolkitSuccess.ok(result)


static func open(file_path: Variant, context: RefCounted) -> Dictionary:
	if file_path == null:
		return ToolkitError.fail("INVALID_PARAMS", "Missing required parameter(s): file_path")
	var checked := _scene_path(file_path, "file_path")
	if checked.has("error"):
		return checked["error"]
	var path: String = checked["path"]
	if not ResourceLoader.exists(path):
		return ToolkitError.fail("NOT_FOUND", "No scene at %s" % path, "scene_create makes one; check the path's spelling.")
	var was_open: bool = path in context.scenes.open_scene_paths()
	var error: Error = context.scenes.open_scene(path)
	if error == ERR_FILE_NOT_FOUND:
		return ToolkitError.fail("NOT_FOUND", "No scene at %s" % path)
	if error != OK:
		return ToolkitError.fail("LOAD_FAILED", "The editor could not open %s (%s)" % [path, error_string(error)],
			"Check the file parses (open it in the editor) and that its dependencies exist.")
	var root := _root_of(path)
	var result := {
		"path": path, "root_name": root.get("name", ""), "root_type": root.get("type", ""),
		"node_count": root.get("node_count", 0), "already_open": was_open,
	}
	if checked.has("uid"):  # opened by its uid: the answer names the path and the uid
		result["uid"] = checked["uid"]
	return ToolkitSuccess.ok(result)


## Saves the edited scene ("" file_path), an open scene by its path, or a copy of the edited
## scene at a new path (the editor keeps editing the original: said in the result).
static func save(file_path: Variant, context: RefCounted) -> Dictionary:
	if not file_path is String:
		return ToolkitError.fail("INVALID_PARAMS", "file_path must be a string")
	var root: Node = context.scenes.scene_root()
	if root == null:
		return ToolkitError.fail("NO_SCENE", "No scene is open in the editor", "Open one with scene_open first.")
	var requested: String = file_path
	if requested.is_empty():
		if context.scenes.edited_scene_path().is_empty():
			return ToolkitError.fail("INVALID_PARAMS", "The edited scene was never saved, so it has no path",
				"Pass file_path (res://....tscn) to save it.")
		return _save_open(context.scenes.edited_scene_path(), context, root)
	var checked := _scene_path(requested, "file_path")
	if checked.has("error"):
		return checked["error"]
	var path: String = checked["path"]
	if path in context.scenes.open_scene_paths():
		return _save_open(path, context, root)
	if not Folders.exists(path.get_base_dir()):
		return ToolkitError.fail("SAVE_FAILED", "The folder %s does not exist" % path.get_base_dir(),
			"Create it first with folder_create.")
	var written := _write_packed(root, path)
	if not written.is_empty():
		return written
	context.project.refresh_files(PackedStringArray([path]))
	var result := {"path": path, "saved": true, "copy_of": context.scenes.edited_scene_path()}
	result["hint"] = "Saved a copy; the editor still edits %s. Open the copy with scene_open to edit it." % (
		context.scenes.edited_scene_path() if not context.scenes.edited_scene_path().is_empty() else "the unsaved scene")
	return ToolkitSuccess.ok(result)


static func _save_open(path: String, context: RefCounted, root: Node) -> Dictionary:
	var error: Error = context.scenes.save_scene(path)
	if error == ERR_DOES_NOT_EXIST:
		return ToolkitError.fail("NO_SCENE", "%s is not open in the editor" % path, "Open it with scene_open first.")
	if error != OK:
		return ToolkitError.fail("SAVE_FAILED", "Saving %s failed (%s)" % [path, error_string(error)],
			"Check the file is writable and the scene has no nodes from missing scripts.")
	var result := {"path": path, "saved": true}
	if root.scene_file_path == path:
		result["root_name"] = String(root.name)
	return ToolkitSuccess.ok(result)


## {"path": normalized res:// scene path} or {"error": envelope}.
static func _scene_path(value: Variant, key: String) -> Dictionary:
	return FileGuard.param(value, key, SCENE_EXTENSIONS)


## {name, type, node_count} of a saved scene's root, read from its packed state; {} if unreadable.
static func _root_of(path: String) -> Dictionary:
	var packed := ResourceLoader.load(path, "PackedScene", ResourceLoader.CACHE_MODE_IGNORE) as PackedScene
	if packed == null:
		return {}
	var state := packed.get_state()
	if state.get_node_count() == 0:
		return {}
	var type := String(state.get_node_type(0))
	if type.is_empty() and state.get_node_instance(0) != null:
		type = "instance of %s" % state.get_node_instance(0).resource_path
	return {"name": String(state.get_node_name(0)), "type": type, "node_count": state.get_node_count()}


static func _returned(path: String, previous: Dictionary, passed: Array) -> Dictionary:
	var result := {"path": path, "root_name": previous.get("name", ""), "root_type": previous.get("type", "")}
	Idempotency.with_status(result, Idempotency.STATUS_RETURNED)
	var ignored := PackedStringArray()
	for key: String in ["root_type", "root_name"]:
		if key in passed:
			ignored.append(key)
	if not ignored.is_empty():
		result["warnings"] = ["Not applied, the file already exists: %s. Pass if_exists:'replace' to overwrite it."
			% ", ".join(ignored)]
	return ToolkitSuccess.ok(result)


## {} on success, else the error envelope (PACK_FAILED / SAVE_FAILED).
static func _write_packed(root: Node, path: String) -> Dictionary:
	var packed := PackedScene.new()
	var error := packed.pack(root)
	if error != OK:
		return ToolkitError.fail("PACK_FAILED", "Could not pack the scene (%s)" % error_string(error))
	error = ProjectWrites.save_resource(packed, path)
	if error != OK:
		return ToolkitError.fail("SAVE_FAILED", "Could not write %s (%s)" % [path, error_string(error)],
			"Check the folder exists and is writable.")
	return {}
