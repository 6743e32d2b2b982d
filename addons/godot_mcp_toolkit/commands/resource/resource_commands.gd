@tool
extends RefCounted
## Resource files (group resource_io): resource.load reads a .tres/.res as its class and stored
## properties in the C7 tagged JSON form (contract/coerce.gd, through scene_tree/property_access.gd),
## string values untrusted-wrapped, paged (offset / limit, or the named properties) so a reply
## fits one answer (contract/answer_budget.gd; a value larger than that alone is shown by its
## size); resource.write creates one from a class name or updates the named properties of an
## existing one, verified after set, saved, and undoable (the in-memory resource and the file
## both go back). What resource.load gives, resource.write takes back
## as it is (wrapped strings included) and stores the same resource; a value resource.load showed
## by its size only is kept as stored (`kept`), never written as that stand-in. Runtime-safe.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const ToolkitSuccess := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_success.gd")
const Params := preload("res://addons/godot_mcp_toolkit/contract/params.gd")
const Coerce := preload("res://addons/godot_mcp_toolkit/contract/coerce.gd")
const FileGuard := preload("res://addons/godot_mcp_toolkit/security/file_guard.gd")
const ClassNames := preload("res://addons/godot_mcp_toolkit/commands/classdb/class_names.gd")
const Untrusted := preload("res://addons/godot_mcp_toolkit/security/untrusted.gd")
const PropertyAccess := preload("res://addons/godot_mcp_toolkit/scene_tree/property_access.gd")
const ScriptFiles := preload("res://addons/godot_mcp_toolkit/commands/script/script_files.gd")
const FileBytes := preload("res://addons/godot_mcp_toolkit/files/file_bytes.gd")
const FileRemoval := preload("res://addons/godot_mcp_toolkit/commands/filesystem/file_removal.gd")
const ProjectWrites := preload("res://addons/godot_mcp_toolkit/checkpoints/project_writes.gd")
const Folders := preload("res://addons/godot_mcp_toolkit/base/folders.gd")
const Pagination := preload("res://addons/godot_mcp_toolkit/contract/pagination.gd")
const AnswerBudget := preload("res://addons/godot_mcp_toolkit/contract/answer_budget.gd")

const SELF_PATH := "res://addons/godot_mcp_toolkit/commands/resource/resource_commands.gd"
const RESOURCE_EXTENSIONS := ["tres", "res"]
## Stored, but said elsewhere in the reply (file_path, script) or engine bookkeeping.
const SKIPPED_PROPERTIES := ["resource_path", "script", "resource_scene_unique_id"]

const PAGE_HINT := "Stopped before %s to fit one answer; continue with offset %d."
const OMITTED_HINT := "A value larger than one answer is shown by its size (omitted): script_read reads " \
	+ "the file's text in pages; resource_write given it back keeps the value."
const NO_STORED_VALUE := "%s is the stand-in for a value too large to show; a new file has no stored value " \
	+ "to keep (nothing was written)"
const MAX_LIMIT := 1000

const STATUS_CREATED := "created"
const STATUS_UPDATED := "updated"
const STATUS_UNCHANGED := "unchanged"


static func register(registry: RefCounted, context: RefCounted) -> void:
	var script: Script = load(SELF_PATH)
	registry.register_command("resource.load", Callable(script, "_cmd_load").bind(context),
		registry.create_options()
		.read_only().scene_independent())
	registry.register_command("resource.write", Callable(script, "_cmd_write").bind(context),
		registry.create_options()
		.scene_independent())
	registry.register_command("resource.delete", Callable(script, "_cmd_delete").bind(context),
		registry.create_options()
		.with_input_schema(FileRemoval.file_schema()).scene_independent())


static func _cmd_load(params: Dictionary, _context: RefCounted) -> Dictionary:
	var missing := Params.require(params, ["file_path"])
	if not missing.is_empty():
		return missing
	var window := Pagination.window(params, MAX_LIMIT, MAX_LIMIT)
	if not window["ok"]:
		return window["error"]
	var checked := FileGuard.check(params["file_path"])
	if not checked["ok"]:
		var error: Dictionary = checked["error"]
		return error if error["code"] == "PATH_DENIED" else ToolkitError.fail("INVALID_PARAMS", error["error"])
	var path: String = checked["path"]
	if not ResourceLoader.exists(path):
		return ToolkitError.fail("NOT_FOUND", "No resource at %s" % path, "List resources with asset_list.")
	var resource := ResourceLoader.load(path)
	if resource == null:
		return ToolkitError.fail("LOAD_FAILED", "%s exists but does not load" % path,
			"Open it in the editor to see the loader's error (a missing dependency or a bad file).")
	var names := _selected_names(resource, params.get("properties"))
	if not names["ok"]:
		return names["error"]
	var result := {"file_path": path, "class": resource.get_class(), "properties": {}}
	var script: Variant = resource.get_script()
	if script is Script:
		result["script"] = (script as Script).resource_path
	result.merge(Pagination.fields(0, names["names"].size(), "properties", names["names"].size()))
	result["hint"] = PAGE_HINT % ["a_property_name", names["names"].size()] + " " + OMITTED_HINT
	var page := _page(resource, path, names["names"], window["offset"], window["limit"],
		AnswerBudget.room_beside(result))
	result["properties"] = page["properties"]
	result.erase("hint")
	result.merge(Pagination.fields(page["properties"].size(), names["names"].size(), "properties", window["offset"]), true)
	var hints := PackedStringArray()
	if page["cut"]:
		hints.append(PAGE_HINT % [page["next"], result["next_offset"]])
	if (page["properties"] as Dictionary).values().any(AnswerBudget.is_stand_in):
		hints.append(OMITTED_HINT)
	if not hints.is_empty():
		result["hint"] = " ".join(hints)
	return ToolkitSuccess.ok(result)


## The stored property names resource.load shows, in order: all, or the ones `wanted` names.
static func _selected_names(resource: Resource, wanted: Variant) -> Dictionary:
	var stored: Array = []
	for entry: Dictionary in resource.get_property_list():
		var name: String = entry["name"]
		if entry["usage"] & PROPERTY_USAGE_STORAGE and not name in SKIPPED_PROPERTIES and not name.begins_with("_"):
			stored.append(name)
	if wanted == null:
		return {"ok": true, "names": stored}
	if not wanted is Array or (wanted as Array).is_empty():
		return {"ok": false, "error": ToolkitError.fail("INVALID_PARAMS", "properties must be a non-empty list of names")}
	for name: Variant in wanted:
		if not name is String or not name in stored:
			return {"ok": false, "error": ToolkitError.fail("PROPERTY_NOT_FOUND",
				"%s has no stored property %s" % [resource.get_class(), JSON.stringify(name)],
				"Leave properties out to list them all (paged with offset).")}
	return {"ok": true, "names": wanted}


## {"properties": name -> tagged value, "cut": bool, "next": name} for names[offset ..], at most
## `limit` of them and as many as fit `room` bytes; a value larger than the room alone is shown
## by its size (AnswerBudget.stand_in). Strings (project content) are untrusted-wrapped.
static func _page(resource: Resource, path: String, names: Array, offset: int, limit: int, room: int) -> Dictionary:
	var out := {}
	var used := 2
	for name: String in names.slice(offset, offset + limit):
		var value: Variant = resource.get(name)
		var shown: Variant = Coerce.serialize_value(value)
		if value is String or value is StringName:
			shown = Untrusted.wrap(str(value), "resource_property", "%s:%s" % [path, name])
		shown = AnswerBudget.within(shown, room - AnswerBudget.size_of(name) - 3)
		var length := AnswerBudget.size_of(shown) + AnswerBudget.size_of(name) + 2
		if used + length > room and not out.is_empty():
			return {"properties": out, "cut": true, "next": name}
		out[name] = shown
		used += length
	return {"properties": out, "cut": false, "next": ""}


static func _cmd_write(params: Dictionary, context: RefCounted) -> Dictionary:
	var target := _write_target(params)
	if not target["ok"]:
		return target["error"]
	var path: String = target["path"]
	var opened := _target_resource(path, params.get("type"))
	if not opened["ok"]:
		return opened["error"]
	var resource: Resource = opened["resource"]
	var properties := _unwrapped(params.get("properties", {}) if params.get("properties") != null else {})
	var kept := _kept(resource, properties, opened["created"])
	if kept.has("error"):
		return kept["error"]
	for name: String in kept["names"]:
		properties.erase(name)
	var action: RefCounted = context.edits.create_undo_action("MCP: write %s" % path.get_file(), resource)
	var old := _values_of(resource, properties)
	var written := PropertyAccess.write_many(resource, properties, action)
	if not (written["properties_failed"] as Array).is_empty():
		_put_back(resource, old)
		return _first_failure(written)
	var status := STATUS_UNCHANGED
	if opened["created"] or _changed_any(written):
		var saved := _save(resource, path, opened["created"], action, context)
		if saved.has("error"):
			_put_back(resource, old)
			return saved["error"]
		status = saved["status"]
	var stored := {}
	for name: String in written["stored"]:
		stored[name] = AnswerBudget.within(PropertyAccess.read(resource, name)["value"], AnswerBudget.ECHO_BYTES)
	var result := {"file_path": path, "class": resource.get_class(), "status": status,
		"properties_set": written["properties_set"], "properties": stored}
	if not (kept["names"] as Array).is_empty():
		result["kept"] = kept["names"]
	if not (written["warnings"] as Array).is_empty():
		result["warnings"] = written["warnings"]
	return ToolkitSuccess.ok(result)


## {"names": the properties given as the stand-in resource.load showed for a value too large for one
## answer, which stay as stored} or {"error"}: an unknown name, or a new file (nothing stored to keep).
static func _kept(resource: Resource, properties: Dictionary, created: bool) -> Dictionary:
	var names: Array = []
	for key: Variant in properties:
		if not AnswerBudget.is_stand_in(properties[key]):
			continue
		var read := PropertyAccess.read(resource, str(key))
		if not read["ok"]:
			return {"error": read["error"]}
		if created:
			return {"error": ToolkitError.fail("INVALID_VALUE", NO_STORED_VALUE % str(key),
				"Pass its value, or leave %s out for the class default." % str(key))}
		names.append(str(key))
	return {"names": names}


## Whether any write changed a value: writing back what the file holds saves nothing (the editor's
## own save may lay the same resource out in other bytes).
static func _changed_any(written: Dictionary) -> bool:
	for outcome: Dictionary in written["outcomes"]:
		if outcome["status"] != PropertyAccess.STATUS_UNCHANGED:
			return true
	return false


## Saves `resource` at `path` as one undo step: {"status"} or {"error": SAVE_FAILED envelope}.
static func _save(resource: Resource, path: String, created: bool, action: RefCounted,
		context: RefCounted) -> Dictionary:
	var before: Variant = FileBytes.snapshot(path)
	var error := ProjectWrites.save_resource(resource, path)
	if error != OK:
		return {"error": ToolkitError.fail("SAVE_FAILED", "Could not save %s: %s" % [path, error_string(error)],
			"Nothing was changed. Check that the folder is writable.")}
	if created:
		resource.take_over_path(path)
	var after: Variant = FileBytes.snapshot(path)
	if before == after:
		return {"status": STATUS_UNCHANGED}
	FileBytes.add_steps(action, context, path, before, after)
	action.commit(false)
	context.project.refresh_files(PackedStringArray([path]))
	return {"status": STATUS_CREATED if created else STATUS_UPDATED}


## {"ok": true, "path"} for a writable .tres/.res path in an existing folder, with usable
## properties and type params; else {"ok": false, "error"}.
static func _write_target(params: Dictionary) -> Dictionary:
	var missing := Params.require(params, ["file_path"])
	if not missing.is_empty():
		return {"ok": false, "error": missing}
	if params.get("properties") != null and not params["properties"] is Dictionary:
		return {"ok": false, "error": ToolkitError.fail("INVALID_PARAMS", "properties must be an object")}
	if params.get("properties") is Dictionary and (params["properties"] as Dictionary).has("resource_path"):
		return {"ok": false, "error": ToolkitError.fail("INVALID_PARAMS",
			"resource_path is set by file_path, not as a property")}
	if params.get("type") != null and not params["type"] is String:
		return {"ok": false, "error": ToolkitError.fail("INVALID_PARAMS", "type must be a class name string")}
	var checked := ScriptFiles.check_path(params["file_path"], true)
	if not checked["ok"]:
		return checked
	var path: String = checked["path"]
	if not path.get_extension().to_lower() in RESOURCE_EXTENSIONS:
		return {"ok": false, "error": FileGuard.wrong_extension("file_path", path, RESOURCE_EXTENSIONS)}
	if not Folders.exists(path.get_base_dir()):
		return {"ok": false, "error": ToolkitError.fail("PARENT_NOT_FOUND",
			"The folder %s does not exist" % path.get_base_dir(), "Create it first with folder_create.")}
	return checked


## The resource to write: the loaded one at `path` (checked against `type` when given), or a new
## instance of `type`. {"ok", "resource", "created"} or {"ok": false, "error"}.
static func _target_resource(path: String, type: Variant) -> Dictionary:
	if FileAccess.file_exists(path):
		var loaded := ResourceLoader.load(path)
		if loaded == null:
			return {"ok": false, "error": ToolkitError.fail("NOT_A_RESOURCE",
				"%s exists but does not load as a resource; it was left as it was" % path)}
		if type is String and not (type as String).is_empty() and not loaded.is_class(type):
			return {"ok": false, "error": ToolkitError.fail("INVALID_CLASS",
				"%s is a %s, not a %s" % [path, loaded.get_class(), type],
				"Leave type out to update it, or write a new file for a %s." % type)}
		return {"ok": true, "resource": loaded, "created": false}
	if not type is String or (type as String).is_empty():
		return {"ok": false, "error": ToolkitError.fail("INVALID_PARAMS",
			"type is required to create %s (no file there yet)" % path, "Pass a Resource class name, e.g. \"Gradient\".")}
	if not ClassDB.class_exists(type):
		return {"ok": false, "error": ClassNames.unknown(type, "Resource")}
	if not ClassDB.is_parent_class(type, "Resource"):
		return {"ok": false, "error": ToolkitError.fail("NOT_A_RESOURCE", "%s is not a Resource class" % type)}
	if not ClassDB.can_instantiate(type):
		return {"ok": false, "error": ToolkitError.fail("INVALID_CLASS", "%s cannot be instantiated (abstract)" % type,
			"Pick a concrete subclass.")}
	return {"ok": true, "resource": ClassDB.instantiate(type), "created": true}


## The properties with resource.load's untrusted envelopes taken off their strings, so what it
## read can be written back as it was.
static func _unwrapped(properties: Dictionary) -> Dictionary:
	var out := {}
	for key: Variant in properties:
		var value: Variant = properties[key]
		out[key] = Untrusted.unwrap(value) if value is String else value
	return out


static func _values_of(resource: Resource, properties: Dictionary) -> Dictionary:
	var old := {}
	for key: Variant in properties:
		if not PropertyAccess.find_property(resource, str(key)).is_empty():
			old[str(key)] = resource.get_indexed(NodePath(str(key)))
	return old


## Undoes the writes of a refused call so the loaded resource is exactly as it was.
static func _put_back(resource: Resource, old: Dictionary) -> void:
	for name: String in old:
		resource.set_indexed(NodePath(name), old[name])


static func _first_failure(written: Dictionary) -> Dictionary:
	for outcome: Dictionary in written["outcomes"]:
		if outcome["status"] == PropertyAccess.STATUS_FAILED:
			var failure := PropertyAccess.failure_envelope(outcome)
			var count: int = (written["properties_failed"] as Array).size()
			if count > 1:
				failure["error"] = "%s (and %d more refused; nothing was written)" % [failure["error"], count - 1]
			else:
				failure["error"] = "%s (nothing was written)" % failure["error"]
			# The same code node.set_property gives the same mistake (contract C4).
			return failure
	return ToolkitError.fail("INVALID_PARAMS", "A property was refused (nothing was written)")


## The delete every file kind shares (commands/filesystem/file_removal.gd), for resources only.
static func _cmd_delete(params: Dictionary, context: RefCounted) -> Dictionary:
	return FileRemoval.delete_file(params.get("file_path"), "resource", context)
