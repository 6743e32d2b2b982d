@tool
extends RefCounted
## The scene_inheritance domain: scene.create_inherited writes a new .tscn whose root is an
## instance of a base scene (Godot's "New Inherited Scene"), then loads it back to prove it
## inherits. The file is written as text, since PackedScene's inherited edit state exists only in
## editor builds; the format is the one every Godot 4 writes (format=3). Runtime-safe.
##
## Writing a file is not an edit of an open scene, so there is no undo step (as for scene.create);
## an existing file is never overwritten: one already inheriting the same base is returned (C6).

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const ToolkitSuccess := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_success.gd")
const Params := preload("res://addons/godot_mcp_toolkit/contract/params.gd")
const Idempotency := preload("res://addons/godot_mcp_toolkit/contract/idempotency.gd")
const FileGuard := preload("res://addons/godot_mcp_toolkit/security/file_guard.gd")
const ProjectWrites := preload("res://addons/godot_mcp_toolkit/checkpoints/project_writes.gd")
const Folders := preload("res://addons/godot_mcp_toolkit/base/folders.gd")

const SELF_PATH := "res://addons/godot_mcp_toolkit/commands/scene/scene_inheritance_commands.gd"
const BASE_EXTENSIONS := ["tscn", "scn"]


static func register(registry: RefCounted, context: RefCounted) -> void:
	var script: Script = load(SELF_PATH)
	registry.register_command("scene.create_inherited", Callable(script, "_cmd_create_inherited").bind(context),
		registry.create_options()
		.with_input_schema({"type": "object", "required": ["file_path", "base_scene"], "properties": {
			"file_path": {"type": "string"}, "base_scene": {"type": "string"}, "root_name": {"type": "string"},
		}})
		.scene_independent())


static func _cmd_create_inherited(params: Dictionary, context: RefCounted) -> Dictionary:
	var missing := Params.require(params, ["file_path", "base_scene"])
	if not missing.is_empty():
		return missing
	for key: String in ["file_path", "base_scene", "root_name"]:
		if params.has(key) and not params[key] is String:
			return ToolkitError.fail("INVALID_PARAMS", "%s must be a string" % key)
	var paths := _paths(params["file_path"], params["base_scene"])
	if paths.has("error"):
		return paths["error"]
	var path: String = paths["path"]
	var base: String = paths["base"]
	var base_root := _root_of(base)
	if base_root.is_empty():
		return ToolkitError.fail("INVALID_PARAMS", "base_scene %s does not load as a scene" % base,
			"Open it in the editor to see what is broken.")
	var root_name: String = params.get("root_name", "")
	if root_name.is_empty():
		root_name = path.get_file().get_basename().validate_node_name()
	if root_name != root_name.validate_node_name():
		return ToolkitError.fail("INVALID_PARAMS", "root_name '%s' has characters a node name cannot hold" % root_name,
			"Use '%s' instead." % root_name.validate_node_name())
	if FileAccess.file_exists(path):
		return _existing(path, base, params)
	var error := _write(path, base, root_name)
	if error != OK:
		return ToolkitError.fail("INTERNAL", "Could not write %s (%s)" % [path, error_string(error)],
			"Check the folder is writable.")
	var written := _root_of(path)
	if written.get("inherits", "") != base:
		ProjectWrites.remove_file(path)
		return ToolkitError.fail("INTERNAL", "%s did not load back as inheriting %s; it was removed" % [path, base])
	context.project.refresh_files(PackedStringArray([path]))
	return ToolkitSuccess.ok(Idempotency.with_status({
		"path": path, "base_scene": base, "root_name": root_name, "root_type": base_root["type"],
		"inherited_nodes": base_root["node_count"],
	}, Idempotency.STATUS_CREATED))


## {"path", "base"} (normalized) or {"error": envelope}: guarded, of the right kind, base present,
## the new file's folder present.
static func _paths(file_path: String, base_scene: String) -> Dictionary:
	var checked := {}
	for entry: Array in [["path", file_path], ["base", base_scene]]:
		var verdict := FileGuard.check(entry[1])
		if not verdict["ok"]:
			return {"error": verdict["error"]}
		checked[entry[0]] = verdict["path"]
	var path: String = checked["path"]
	var base: String = checked["base"]
	if path.get_extension().to_lower() != "tscn":
		return {"error": FileGuard.wrong_extension("file_path", path, ["tscn"])}
	if not base.get_extension().to_lower() in BASE_EXTENSIONS:
		return {"error": FileGuard.wrong_extension("base_scene", base, BASE_EXTENSIONS)}
	if path == base:
		return {"error": ToolkitError.fail("INVALID_PARAMS", "A scene cannot inherit itself: %s" % path)}
	if not FileAccess.file_exists(base):
		return {"error": ToolkitError.fail("NOT_FOUND", "No scene at %s" % base, "Check base_scene's spelling.")}
	if not Folders.exists(path.get_base_dir()):
		return {"error": ToolkitError.fail("PARENT_NOT_FOUND", "The folder %s does not exist" % path.get_base_dir(),
			"Create it first with folder_create.")}
	return checked


## An existing file: returned when it already inherits `base` (naming root_name if not applied),
## else ALREADY_EXISTS; never overwritten.
static func _existing(path: String, base: String, params: Dictionary) -> Dictionary:
	var existing := _root_of(path)
	if existing.get("inherits", "") != base:
		return ToolkitError.fail("ALREADY_EXISTS", "%s already exists and does not inherit %s" % [path, base],
			"Pick another file_path, or delete it first with scene_delete.")
	var result := {"path": path, "base_scene": base, "root_name": existing["name"], "root_type": existing["type"]}
	if params.has("root_name") and params["root_name"] != existing["name"]:
		result["warnings"] = ["Not applied, the file already exists: root_name. Rename the root with node_rename."]
	return ToolkitSuccess.ok(Idempotency.with_status(result, Idempotency.STATUS_RETURNED))


static func _write(path: String, base: String, root_name: String) -> Error:
	var text := "[gd_scene load_steps=2 format=3]\n\n"
	text += "[ext_resource type=\"PackedScene\" path=\"%s\" id=\"1_base\"]\n\n" % base.c_escape()
	text += "[node name=\"%s\" instance=ExtResource(\"1_base\")]\n" % root_name.c_escape()
	return ProjectWrites.write_text(path, text)


## {name, type, node_count, inherits} of a scene's root from its packed state; {} when unreadable.
## `type` of an inheriting root is its base's root type.
static func _root_of(path: String) -> Dictionary:
	var packed := ResourceLoader.load(path, "PackedScene", ResourceLoader.CACHE_MODE_IGNORE) as PackedScene
	if packed == null or packed.get_state().get_node_count() == 0:
		return {}
	var state := packed.get_state()
	var info := {"name": String(state.get_node_name(0)), "type": String(state.get_node_type(0)),
		"node_count": state.get_node_count(), "inherits": ""}
	var base := state.get_node_instance(0)
	if base != null:
		info["inherits"] = base.resource_path
		if (info["type"] as String).is_empty():
			info["type"] = _root_of(base.resource_path).get("type", "")
	return info
