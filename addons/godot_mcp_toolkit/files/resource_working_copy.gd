@tool
extends RefCounted
## Edits of a resource saved in its own .tres file (Gradient, Curve, FastNoiseLite, Theme): open
## it (or start a new one), let the caller change a working copy, then save and record the change
## for undo. The working copy means a refused edit never touches the live resource; the undo steps
## copy the stored properties back and save again, so undo restores the file as well as the
## resource the editor has loaded. Runtime-safe.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const ProjectWrites := preload("res://addons/godot_mcp_toolkit/checkpoints/project_writes.gd")

const SELF_PATH := "res://addons/godot_mcp_toolkit/files/resource_working_copy.gd"


## {"resource": the live resource (or a new `type_name`), "work": a copy to edit, "created": bool}
## or {"error"} when the file holds another class (INVALID_CLASS) or does not load.
static func open(path: String, type_name: String) -> Dictionary:
	if not FileAccess.file_exists(path):
		var fresh: Resource = ClassDB.instantiate(type_name)
		return {"resource": fresh, "work": fresh, "created": true}
	var loaded := ResourceLoader.load(path, "", ResourceLoader.CACHE_MODE_REUSE)
	if loaded == null:
		return {"error": ToolkitError.fail("INVALID_CLASS", "%s does not load as a resource" % path,
			"Pick a new file_path, or fix the file in the editor.")}
	if not loaded.is_class(type_name):
		return {"error": ToolkitError.fail("INVALID_CLASS", "%s holds a %s, not a %s" % [
			path, loaded.get_class(), type_name], "Pick a file_path for a new %s." % type_name)}
	return {"resource": loaded, "work": loaded.duplicate(true), "created": false}


## Saves `opened["work"]` at `path` as the resource's new state: {} or a SAVE_FAILED envelope (the
## resource and file are then as before). An existing file's change is recorded for undo.
static func commit(opened: Dictionary, path: String, context: RefCounted, description: String) -> Dictionary:
	var resource: Resource = opened["resource"]
	if opened["created"]:
		var error := ProjectWrites.save_resource(resource, path)
		if error != OK:
			return _save_failed(path, error)
		resource.take_over_path(path)
		context.project.refresh_files(PackedStringArray([path]))
		return {}
	var before := snapshot(resource)
	var after := snapshot(opened["work"])
	var saved := restore(resource, after, path)
	if saved != OK:
		restore(resource, before, path)
		return _save_failed(path, saved)
	var script: Script = load(SELF_PATH)
	var action: RefCounted = context.edits.create_undo_action(description, resource)
	action.add_do_method(script, &"restore", [resource, after, path])
	action.add_undo_method(script, &"restore", [resource, before, path])
	action.commit(false)
	context.project.refresh_files(PackedStringArray([path]))
	return {}


## The stored (serialized) properties of `resource`, deep-copied.
static func snapshot(resource: Resource) -> Dictionary:
	var values := {}
	for property: Dictionary in resource.get_property_list():
		if property["usage"] & PROPERTY_USAGE_STORAGE == 0 or property["name"] in ["resource_path", "script"]:
			continue
		var value: Variant = resource.get(property["name"])
		values[property["name"]] = value.duplicate() if value is Array or value is Dictionary else value
	return values


## Puts `values` back on `resource` and saves it at `path` (the undo/redo step).
static func restore(resource: Resource, values: Dictionary, path: String) -> Error:
	if resource is Theme:
		# A theme's items are dynamic properties: ones added since the snapshot must go too.
		(resource as Theme).clear()
	for name: String in values:
		resource.set(name, values[name])
	resource.emit_changed()
	return ProjectWrites.save_resource(resource, path)


static func _save_failed(path: String, error: Error) -> Dictionary:
	return ToolkitError.fail("SAVE_FAILED", "Could not save %s (%s)" % [path, error_string(error)],
		"Check the folder is writable and the file is not locked.")
