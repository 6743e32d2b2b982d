@tool
extends RefCounted
## Autoload entries in ProjectSettings ("autoload/<name>" = "[*]res://path", the star making it
## a global variable) and the checks before registering one. Pure over ProjectSettings reads;
## the writes and their undo live in project_commands.gd. Runtime-safe.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const FileGuard := preload("res://addons/godot_mcp_toolkit/security/file_guard.gd")

const PREFIX := "autoload/"
const EXTENSIONS := ["gd", "tscn", "scn"]


static func key_of(name: String) -> String:
	return PREFIX + name


static func value_of(path: String, enabled: bool) -> String:
	return ("*" if enabled else "") + path


## {name, path, enabled} from a stored value.
static func entry_of(name: String, value: String) -> Dictionary:
	return {"name": name, "path": value.trim_prefix("*"), "enabled": value.begins_with("*")}


## Every autoload in load order.
static func list() -> Array[Dictionary]:
	var keys: Array[String] = []
	for property: Dictionary in ProjectSettings.get_property_list():
		var key := str(property["name"])
		if key.begins_with(PREFIX) and ProjectSettings.has_setting(key):
			keys.append(key)
	keys.sort_custom(func(a: String, b: String) -> bool:
		return ProjectSettings.get_order(a) < ProjectSettings.get_order(b))
	var entries: Array[Dictionary] = []
	for key: String in keys:
		entries.append(entry_of(key.trim_prefix(PREFIX), str(ProjectSettings.get_setting(key))))
	return entries


## {"ok": true, "path": normalized} when `name`, `path` and `enabled` make a valid new autoload.
static func check_registration(name: String, path: Variant, enabled: Variant) -> Dictionary:
	var problem := ""
	if not name.is_valid_identifier():
		problem = "name must be a valid identifier (letters, digits, _), got '%s'" % name
	elif ClassDB.class_exists(name) or _is_global_class(name):
		problem = "%s is already a class name; an autoload of that name would hide it" % name
	elif not enabled is bool:
		problem = "enabled must be true or false"
	elif path == null:
		problem = "register needs script_path (.gd or .tscn)"
	if not problem.is_empty():
		return {"ok": false, "error": ToolkitError.fail("INVALID_PARAMS", problem)}
	var checked := FileGuard.check(path)
	if not checked["ok"]:
		return checked
	return _check_file(checked["path"])


## A stored autoload of this name: the registration is not applied (C6 "return"), and the reply
## names what differs from the request.
static func returned(name: String, requested: Dictionary) -> Dictionary:
	var current := entry_of(name, str(ProjectSettings.get_setting(key_of(name))))
	var result := current.duplicate()
	result.merge({"action": "register", "status": "returned"})
	var ignored := PackedStringArray()
	for field: String in ["path", "enabled"]:
		if current[field] != requested[field]:
			ignored.append("%s (asked %s, kept %s)" % [field, requested[field], current[field]])
	if not ignored.is_empty():
		result["warnings"] = PackedStringArray([
			"%s is already registered; not applied: %s. Unregister it first to change it." % [name, ", ".join(ignored)]])
	return result


static func _check_file(path: String) -> Dictionary:
	var error := {}
	if not path.get_extension().to_lower() in EXTENSIONS:
		error = FileGuard.wrong_extension("path", path, EXTENSIONS)
	elif not FileAccess.file_exists(path):
		error = ToolkitError.fail("NOT_FOUND", "No file at %s" % path, "Write the script first with script_write.")
	elif path.get_extension().to_lower() == "gd" and not _extends_node(path):
		error = ToolkitError.fail("INVALID_PARAMS", "%s does not extend Node; autoloads are added to the scene tree" % path,
			"Make the script extend Node (or a Node type).")
	return {"ok": true, "path": path} if error.is_empty() else {"ok": false, "error": error}


static func _extends_node(path: String) -> bool:
	var script := load(path) as Script
	if script == null:
		return false
	var base := String(script.get_instance_base_type())
	return base == "Node" or ClassDB.is_parent_class(base, "Node")


static func _is_global_class(name: String) -> bool:
	for entry: Dictionary in ProjectSettings.get_global_class_list():
		if String(entry.get("class", "")) == name:
			return true
	return false
