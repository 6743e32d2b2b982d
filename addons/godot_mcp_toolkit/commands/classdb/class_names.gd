@tool
extends RefCounted
## Class names as a caller types them: is there an engine class (ClassDB) or a project script class
## (`class_name`) by that name, and if not, the one refusal every tool gives (UNKNOWN_CLASS with the
## close names as the hint). Script classes come from ProjectSettings.get_global_class_list()
## (Script.get_global_name is 4.3+). Runtime-safe.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const Params := preload("res://addons/godot_mcp_toolkit/contract/params.gd")

const SUGGESTION_LIMIT := 5


## True for an engine class or a script class_name.
static func exists(name: String) -> bool:
	return ClassDB.class_exists(name) or not script_class(name).is_empty()


## The global class list entry ({class, path, base, ...}) declaring `class_name name`, or {}.
static func script_class(name: String) -> Dictionary:
	for entry: Dictionary in ProjectSettings.get_global_class_list():
		if String(entry["class"]) == name:
			return entry
	return {}


## UNKNOWN_CLASS for `name`, its hint the closest engine and script classes (only those deriving
## from `base` when given: a node filter suggests nodes).
static func unknown(name: String, base: String = "") -> Dictionary:
	var close := suggestions(name, base)
	var hint := "classdb_search finds class names."
	if not close.is_empty():
		hint = "Did you mean %s? %s" % [", ".join(close), hint]
	return ToolkitError.fail("UNKNOWN_CLASS", "No engine or script class named '%s'" % name, hint)


## Up to SUGGESTION_LIMIT names like `name`, closest first (Params.ranked); a different case
## alone ("Sprite2d") ranks first.
static func suggestions(name: String, base: String = "") -> PackedStringArray:
	var candidates: Array = Array(ClassDB.get_class_list())
	for entry: Dictionary in ProjectSettings.get_global_class_list():
		candidates.append(String(entry["class"]))
	if not base.is_empty():
		candidates = candidates.filter(func(candidate: String) -> bool: return _derives(candidate, base))
	return Params.ranked(name, candidates, SUGGESTION_LIMIT)


static func _derives(candidate: String, base: String) -> bool:
	if ClassDB.class_exists(candidate):
		return ClassDB.class_exists(base) and (candidate == base or ClassDB.is_parent_class(candidate, base))
	var entry := script_class(candidate)
	var parent := String(entry.get("base", ""))
	return parent == base or (ClassDB.class_exists(parent) and ClassDB.class_exists(base)
		and ClassDB.is_parent_class(parent, base))
