@tool
extends RefCounted
## Nodes of the edited scene: read and set properties (verified, undoable), list them, attach a
## script, call a method, rename/reparent/reorder/duplicate, and group memberships. Handlers read
## and check the params here; the work sits in commands/node/*.gd and the shared scene_tree/ helpers.
## Runtime-safe: names no Editor* class (the context is the seam).

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const ToolkitSuccess := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_success.gd")
const Params := preload("res://addons/godot_mcp_toolkit/contract/params.gd")
const Pagination := preload("res://addons/godot_mcp_toolkit/contract/pagination.gd")
const AnswerBudget := preload("res://addons/godot_mcp_toolkit/contract/answer_budget.gd")
const FileGuard := preload("res://addons/godot_mcp_toolkit/security/file_guard.gd")
const NodeTarget := preload("res://addons/godot_mcp_toolkit/commands/node/node_target.gd")
const PropertyAccess := preload("res://addons/godot_mcp_toolkit/scene_tree/property_access.gd")
const PropertyWrite := preload("res://addons/godot_mcp_toolkit/commands/node/property_write.gd")
const PropertyList := preload("res://addons/godot_mcp_toolkit/commands/node/property_list.gd")
const MethodCall := preload("res://addons/godot_mcp_toolkit/commands/node/method_call.gd")
const NodeManage := preload("res://addons/godot_mcp_toolkit/commands/node/node_manage.gd")
const NodeGroups := preload("res://addons/godot_mcp_toolkit/commands/node/node_groups.gd")

## See meta_commands.gd for why handlers are reached through the script path.
const SELF_PATH := "res://addons/godot_mcp_toolkit/commands/node/node_commands.gd"
const MANAGE_ACTIONS := ["rename", "reparent", "reorder", "duplicate"]
const GROUP_ACTIONS := ["add", "remove", "list"]
## One batch is one undo action and one reply; past this, split the work.
const MAX_BATCH := 200
const LIST_HINT := "Continue with offset next_offset while has_more. Values too large to list are shown by " \
	+ "size (omitted): read one with node_get_property."
const BATCH_HINT := "Results of batch[%d] on are not shown (one answer's size); every item was tried and is " \
	+ "counted in applied and failed. failed_indexes names the failed ones: resend those for their errors."
const TOO_LARGE_HINT := "%s takes %d bytes as JSON, more than one answer; read a part of it (a sub-property " \
	+ "path such as \"name:sub\", or the scene file's text with script_read). Given back as shown, it is kept."


static func register(registry: RefCounted, context: RefCounted) -> void:
	var script: Script = load(SELF_PATH)
	registry.register_command("node.get_property", Callable(script, "_cmd_get_property").bind(context),
		registry.create_options().read_only())
	registry.register_command("node.set_property", Callable(script, "_cmd_set_property").bind(context),
		registry.create_options())
	registry.register_command("node.get_property_list", Callable(script, "_cmd_get_property_list").bind(context),
		registry.create_options().read_only())
	registry.register_command("node.set_script", Callable(script, "_cmd_set_script").bind(context),
		registry.create_options())
	registry.register_command("node.call_method", Callable(script, "_cmd_call_method").bind(context),
		registry.create_options())
	registry.register_command("node.manage", Callable(script, "_cmd_manage").bind(context),
		registry.create_options())
	registry.register_command("node.groups", Callable(script, "_cmd_groups").bind(context),
		registry.create_options())


static func _cmd_get_property(params: Dictionary, context: RefCounted) -> Dictionary:
	var missing := Params.require(params, ["node_path", "property"])
	if not missing.is_empty():
		return missing
	var found := NodeTarget.find(context, params["node_path"])
	if not found["ok"]:
		return found["error"]
	var property: Variant = params["property"]
	if not property is String or (property as String).is_empty():
		return ToolkitError.fail("INVALID_PARAMS", "property must be a non-empty string")
	var read := PropertyAccess.read(found["node"], property)
	if not read["ok"]:
		return read["error"]
	var result := {"node_path": found["path"], "property": property, "value": null, "type": read["type"],
		"hint": TOO_LARGE_HINT % [property, 0]}
	var shown: Variant = AnswerBudget.within(read["value"], AnswerBudget.room_beside(result))
	result["value"] = shown
	if AnswerBudget.is_stand_in(shown):
		result["hint"] = TOO_LARGE_HINT % [property, shown["json_bytes"]]
	else:
		result.erase("hint")
	return ToolkitSuccess.ok(result)


static func _cmd_set_property(params: Dictionary, context: RefCounted) -> Dictionary:
	if params.has("batch") and params["batch"] != null:
		return _set_batch(params["batch"], context)
	var missing := Params.require(params, ["node_path", "property"])
	if not missing.is_empty():
		return ToolkitError.fail("INVALID_PARAMS", missing["error"] + " (or pass batch)")
	if not params.has("value"):
		return ToolkitError.fail("INVALID_PARAMS", "Missing required parameter(s): value",
			"Pass value (null clears an object property).")
	var item := {"node_path": params["node_path"], "property": params["property"], "value": params["value"],
		"make_unique": params.get("make_unique", false)}
	var outcome := _set_items([item], context)
	if not outcome["ok"]:
		return outcome["error"]
	var single: Dictionary = outcome["results"][0]
	if not single["success"]:
		return ToolkitError.fail(single["code"], single["error"], single.get("hint", ""))
	single.erase("success")
	return ToolkitSuccess.ok(single)


## Every item is checked and written on its own; the writes that took form one undo action.
static func _set_batch(batch: Variant, context: RefCounted) -> Dictionary:
	if not batch is Array or (batch as Array).is_empty():
		return ToolkitError.fail("INVALID_PARAMS", "batch must be a non-empty list of {node_path, property, value}")
	if (batch as Array).size() > MAX_BATCH:
		return ToolkitError.fail("INVALID_PARAMS", "batch has %d items; at most %d per call" % [
			(batch as Array).size(), MAX_BATCH])
	for index in (batch as Array).size():
		var item: Variant = batch[index]
		if not item is Dictionary or not (item as Dictionary).has("value") \
				or Params.require(item, ["node_path", "property"]).size() > 0:
			return ToolkitError.fail("INVALID_PARAMS", "batch[%d] must be an object with node_path, property and value" % index,
				"Nothing was set; fix that item and resend the batch.")
		var unknown := Params.reject_unknown_keys(item, ["node_path", "property", "value", "make_unique"],
			"batch[%d]" % index)
		if not unknown.is_empty():
			return unknown
	var outcome := _set_items(batch, context)
	if not outcome["ok"]:
		return outcome["error"]
	var results: Array = outcome["results"]
	var applied: int = outcome["applied"]
	if applied == 0:
		var first: Dictionary = results[0]
		var failed := ToolkitError.fail(first["code"], "No property in the batch was set; batch[0]: %s" % first["error"],
			"See results for each item's error.")
		failed.merge(_batch_results(results, failed), true)
		return failed
	var answer := {"applied": applied, "failed": results.size() - applied}
	answer.merge(_batch_results(results, answer))
	return ToolkitSuccess.ok(answer)


## The per-item results as one answer beside `beside` holds them: all, or (a batch whose results
## outgrow it) the first ones in batch order with the paging fields, and the indexes of the failed
## items after them, since a failure is what the caller has to act on. Every item was written
## already, so there is no page to ask for: the hint says how to learn the rest.
static func _batch_results(results: Array, beside: Dictionary) -> Dictionary:
	var whole := {"results": results}
	whole.merge(beside)
	if AnswerBudget.size_of(whole) <= AnswerBudget.BYTES - AnswerBudget.RESERVE:
		return {"results": results}
	var failed_indexes: Array = []
	for index in results.size():
		if not results[index]["success"]:
			failed_indexes.append(index)
	var page := {"results": [], "failed_indexes": failed_indexes, "hint": BATCH_HINT % results.size()}
	page.merge(Pagination.fields(0, results.size(), "results"))
	var room := AnswerBudget.room_beside(page) - AnswerBudget.size_of(beside)
	var shown := results.slice(0, AnswerBudget.fitting(results, room))
	page["results"] = shown
	page["failed_indexes"] = failed_indexes.filter(func(index: int) -> bool: return index >= shown.size())
	page["hint"] = BATCH_HINT % shown.size()
	page.merge(Pagination.fields(shown.size(), results.size(), "results"), true)
	# Not an offset to call again with: the batch is done.
	page.erase("next_offset")
	return page


## {"ok": true, "results": [per item], "applied": n} or {"ok": false, "error": envelope} when no
## scene is open. Items that took are recorded as one undo action.
static func _set_items(items: Array, context: RefCounted) -> Dictionary:
	var root: Node = context.scenes.scene_root()
	if root == null:
		return {"ok": false, "error": NodeTarget.no_scene()}
	var action: RefCounted = context.edits.create_undo_action("MCP: Set properties" if items.size() > 1 else
		"MCP: Set %s" % str(items[0]["property"]), root)
	var results: Array = []
	var applied := 0
	var changed := 0
	PropertyAccess.batch_begin()
	for item: Dictionary in items:
		var outcome := _set_one(context, item, action)
		if outcome["success"]:
			applied += 1
			if outcome["status"] != "unchanged":
				changed += 1
		results.append(outcome)
	PropertyAccess.batch_end()
	# Writes of the value a property already holds change nothing: no undo step, nothing to save.
	if changed > 0:
		action.commit(false)
		context.scenes.mark_modified()
	return {"ok": true, "results": results, "applied": applied}


## One verified write; the value is already on the node when it succeeds (the action is committed
## without executing), and a dropped write has been put back by PropertyAccess.
static func _set_one(context: RefCounted, item: Dictionary, action: RefCounted) -> Dictionary:
	var found := NodeTarget.find(context, item["node_path"])
	if not found["ok"]:
		return _item_failure(item, found["error"])
	var property: Variant = item["property"]
	if not property is String or (property as String).is_empty():
		return _item_failure(item, ToolkitError.fail("INVALID_PARAMS", "property must be a non-empty string"))
	var make_unique: Variant = item.get("make_unique", false)
	if make_unique == null:
		make_unique = false
	if not make_unique is bool:
		return _item_failure(item, ToolkitError.fail("INVALID_PARAMS", "make_unique must be true or false"))
	var written := PropertyWrite.write(found["node"], property, item["value"], action, make_unique)
	if not written["ok"]:
		return _item_failure(item, written["error"])
	var outcome := {"success": true, "status": written["status"], "node_path": found["path"], "property": property,
		"value": _echo(written["value"]), "previous": _echo(written["previous"])}
	if written.has("warning"):
		outcome["warnings"] = [written["warning"]]
	if written.has("made_unique"):
		outcome["made_unique"] = written["made_unique"]
	if written.get("kept", false):
		outcome["kept"] = [property]
	return outcome


## A stored or replaced value as a write's answer shows it: itself when small, else its size.
static func _echo(serialized: Variant) -> Variant:
	return AnswerBudget.within(serialized, AnswerBudget.ECHO_BYTES)


static func _item_failure(item: Dictionary, envelope: Dictionary) -> Dictionary:
	var failure := {"success": false, "node_path": str(item.get("node_path")), "property": str(item.get("property")),
		"error": envelope["error"], "code": envelope["code"]}
	if envelope.has("hint"):
		failure["hint"] = envelope["hint"]
	return failure


static func _cmd_get_property_list(params: Dictionary, context: RefCounted) -> Dictionary:
	var missing := Params.require(params, ["node_path"])
	if not missing.is_empty():
		return missing
	var mask: Variant = params.get("mask", "common")
	if not mask in PropertyList.MASKS:
		return ToolkitError.fail("INVALID_PARAMS", "mask must be common, all, groups or script")
	var visibility: Variant = params.get("visibility", "all")
	if not visibility in PropertyList.VISIBILITIES:
		return ToolkitError.fail("INVALID_PARAMS", "visibility must be public, private or all")
	var found := NodeTarget.find(context, params["node_path"])
	if not found["ok"]:
		return found["error"]
	var node: Node = found["node"]
	var window := Pagination.window(params, 1, 1)
	if not window["ok"]:
		return window["error"]
	var entries := PropertyList.select(node, mask, visibility)
	var offset := mini(int(window["offset"]), entries.size())
	var result := {"node_path": found["path"], "class": node.get_class(), "mask": mask, "visibility": visibility}
	result.merge(Pagination.fields(0, entries.size(), "properties", offset))
	result["hint"] = LIST_HINT
	var room := AnswerBudget.room_beside(result)
	var rest := entries.slice(offset)
	for entry: Dictionary in rest:
		if entry.has("value"):
			entry["value"] = AnswerBudget.within(entry["value"], AnswerBudget.ECHO_BYTES * 2)
	var shown := rest.slice(0, AnswerBudget.fitting(rest, room))
	result["groups" if mask == "groups" else "properties"] = shown
	result.merge(Pagination.fields(shown.size(), entries.size(), "properties", offset), true)
	if not result["has_more"]:
		result.erase("next_offset")
	if not result["has_more"] and not shown.any(func(entry: Dictionary) -> bool:
			return AnswerBudget.is_stand_in(entry.get("value"))):
		result.erase("hint")
	return ToolkitSuccess.ok(result)


static func _cmd_set_script(params: Dictionary, context: RefCounted) -> Dictionary:
	var missing := Params.require(params, ["node_path", "script_path"])
	if not missing.is_empty():
		return missing
	var script_path: Variant = params["script_path"]
	if not script_path is String:
		return ToolkitError.fail("INVALID_PARAMS", "script_path must be a string (\"\" detaches the script)")
	var script: Script = null
	if not (script_path as String).is_empty():
		var loaded := _load_script(script_path)
		if not loaded["ok"]:
			return loaded["error"]
		script = loaded["script"]
		script_path = loaded["path"]
	var found := NodeTarget.find(context, params["node_path"])
	if not found["ok"]:
		return found["error"]
	var node: Node = found["node"]
	if script != null and not node.is_class(script.get_instance_base_type()):
		return ToolkitError.fail("CLASS_MISMATCH", "%s extends %s, but %s is a %s" % [script_path,
			script.get_instance_base_type(), found["path"], node.get_class()],
			"Attach it to a %s, or change the script's extends line." % script.get_instance_base_type())
	var previous: Script = node.get_script()
	var previous_path := previous.resource_path if previous != null else ""
	if previous == script:
		return ToolkitSuccess.ok({"node_path": found["path"], "status": "unchanged", "script_path": script_path})
	var action: RefCounted = context.edits.create_undo_action("MCP: Set script on %s" % node.name, found["root"])
	action.add_do_property(node, &"script", script)
	action.add_undo_property(node, &"script", previous)
	action.commit()
	if node.get_script() != script:
		context.edits.undo()
		return ToolkitError.fail("LOAD_FAILED", "Godot did not attach %s to %s" % [script_path, found["path"]],
			"Check the script compiles (script_check) and extends %s." % node.get_class())
	context.scenes.mark_modified()
	return ToolkitSuccess.ok({"node_path": found["path"], "status": "detached" if script == null else "attached",
		"script_path": script_path, "previous_script_path": previous_path})


## {"ok": true, "script", "path"} or {"ok": false, "error"}: guarded, existing, a loadable Script.
static func _load_script(path: String) -> Dictionary:
	var guarded := FileGuard.check(path)
	if not guarded["ok"]:
		return {"ok": false, "error": guarded["error"]}
	var normalized: String = guarded["path"]
	if not ResourceLoader.exists(normalized):
		return {"ok": false, "error": ToolkitError.fail("NOT_FOUND", "No script at %s" % normalized,
			"Create it first with script_write, or check the path.")}
	var script := load(normalized) as Script
	if script == null:
		return {"ok": false, "error": ToolkitError.fail("LOAD_FAILED", "%s is not a script Godot can load" % normalized,
			"Fix its errors (script_check) and retry.")}
	return {"ok": true, "script": script, "path": normalized}


static func _cmd_call_method(params: Dictionary, context: RefCounted) -> Dictionary:
	var missing := Params.require(params, ["node_path", "method_name"])
	if not missing.is_empty():
		return missing
	var method_name: Variant = params["method_name"]
	if not method_name is String or (method_name as String).is_empty():
		return ToolkitError.fail("INVALID_PARAMS", "method_name must be a non-empty string")
	var args: Variant = params.get("args", [])
	if args == null:
		args = []
	if not args is Array:
		return ToolkitError.fail("INVALID_PARAMS", "args must be a list")
	var found := NodeTarget.find(context, params["node_path"])
	if not found["ok"]:
		return found["error"]
	var checked := MethodCall.check(found["node"], method_name, args)
	if not checked["ok"]:
		return checked["error"]
	var result := {"node_path": found["path"], "method_name": method_name}
	result.merge(MethodCall.invoke(context, found["root"], found["node"], method_name, checked["args"]))
	return ToolkitSuccess.ok(result)


static func _cmd_manage(params: Dictionary, context: RefCounted) -> Dictionary:
	var missing := Params.require(params, ["action", "node_path"])
	if not missing.is_empty():
		return missing
	var action: Variant = params["action"]
	if not action in MANAGE_ACTIONS:
		return ToolkitError.fail("INVALID_PARAMS", "action must be one of %s" % ", ".join(PackedStringArray(MANAGE_ACTIONS)))
	var found := NodeTarget.find(context, params["node_path"])
	if not found["ok"]:
		return found["error"]
	var root: Node = found["root"]
	var node: Node = found["node"]
	match action:
		"rename":
			var new_name: Variant = params.get("new_name")
			if not new_name is String:
				return ToolkitError.fail("INVALID_PARAMS", "rename needs new_name as a string")
			return NodeManage.rename(context, root, node, new_name)
		"reparent":
			var keep: Variant = params.get("keep_global_transform", true)
			if not keep is bool:
				return ToolkitError.fail("INVALID_PARAMS", "keep_global_transform must be true or false")
			var parent := _parent(context, params.get("new_parent_path"), "reparent needs new_parent_path")
			if not parent["ok"]:
				return parent["error"]
			return NodeManage.reparent(context, root, node, parent["node"], keep)
		"reorder":
			var index: Variant = params.get("new_index")
			if not Params.is_whole_number(index):
				return ToolkitError.fail("INVALID_PARAMS", "reorder needs new_index as a whole number")
			return NodeManage.reorder(context, root, node, int(index))
	return _duplicate(params, context, root, node)


static func _duplicate(params: Dictionary, context: RefCounted, root: Node, node: Node) -> Dictionary:
	var new_name: Variant = params.get("new_name", "")
	if not new_name is String:
		return ToolkitError.fail("INVALID_PARAMS", "new_name must be a string")
	var properties: Variant = params.get("properties", {})
	if not properties is Dictionary:
		return ToolkitError.fail("INVALID_PARAMS", "properties must be an object of property: value")
	var parent_node: Node = node.get_parent()
	if params.get("parent_path") != null:
		var parent := _parent(context, params["parent_path"], "parent_path must be a node path")
		if not parent["ok"]:
			return parent["error"]
		parent_node = parent["node"]
	if parent_node == null:
		return ToolkitError.fail("INVALID_PARAMS", "The scene root cannot be duplicated")
	var apply := func(copy: Node) -> Dictionary: return _apply_properties(copy, properties)
	if (properties as Dictionary).is_empty():
		apply = Callable()
	return NodeManage.duplicate_node(context, root, node, parent_node, new_name, apply)


## The properties given for a duplicate, verified on the copy: how many took, which did not, and
## what the engine adjusted.
static func _apply_properties(copy: Node, properties: Dictionary) -> Dictionary:
	var outcome := PropertyAccess.write_many(copy, properties)
	# As scene.create_node reports inline properties (C3): a count of the writes that took.
	var fields := {"properties_set": outcome["properties_set"]}
	if not (outcome["properties_failed"] as Array).is_empty():
		fields["properties_failed"] = outcome["properties_failed"]
	if not (outcome["warnings"] as Array).is_empty():
		fields["warnings"] = outcome["warnings"]
	return fields


static func _parent(context: RefCounted, path: Variant, missing_message: String) -> Dictionary:
	if not path is String:
		return {"ok": false, "error": ToolkitError.fail("INVALID_PARAMS", missing_message)}
	return NodeTarget.find(context, path, "PARENT_NOT_FOUND")


static func _cmd_groups(params: Dictionary, context: RefCounted) -> Dictionary:
	var missing := Params.require(params, ["action"])
	if not missing.is_empty():
		return missing
	var action: Variant = params["action"]
	if not action in GROUP_ACTIONS:
		return ToolkitError.fail("INVALID_PARAMS", "action must be add, remove or list")
	var root: Node = context.scenes.scene_root()
	if root == null:
		return NodeTarget.no_scene()
	if action == "list":
		return _list_groups(params.get("node_path"), context, root)
	var persistent: Variant = params.get("persistent", true)
	if not persistent is bool:
		return ToolkitError.fail("INVALID_PARAMS", "persistent must be true or false")
	var entries: Variant = params.get("entries")
	var single := entries == null
	if single:
		entries = [{"node_path": params.get("node_path"), "group": params.get("group")}]
	var items := _group_items(entries, context)
	if not items["ok"]:
		return items["error"]
	var outcome := NodeGroups.change(context, root, action, items["items"], persistent)
	if single:
		var only: Dictionary = outcome["results"][0]
		only["action"] = action
		return ToolkitSuccess.ok(only)
	return ToolkitSuccess.ok({"action": action, "results": outcome["results"], "changed": outcome["changed"]})


## Every entry resolved before anything changes: one bad entry refuses the whole call.
static func _group_items(entries: Variant, context: RefCounted) -> Dictionary:
	if not entries is Array or (entries as Array).is_empty():
		return {"ok": false, "error": ToolkitError.fail("INVALID_PARAMS",
			"entries must be a non-empty list of {node_path, group}")}
	var items: Array = []
	for index in (entries as Array).size():
		var entry: Variant = entries[index]
		var where := "entries[%d]" % index if (entries as Array).size() > 1 else "the call"
		if not entry is Dictionary or not entry.get("group") is String or (entry["group"] as String).strip_edges().is_empty():
			return {"ok": false, "error": ToolkitError.fail("INVALID_PARAMS", "%s needs group as a non-empty string" % where)}
		var unknown := Params.reject_unknown_keys(entry, ["node_path", "group"], where)
		if not unknown.is_empty():
			return {"ok": false, "error": unknown}
		if not entry.get("node_path") is String:
			return {"ok": false, "error": ToolkitError.fail("INVALID_PARAMS", "%s needs node_path as a string" % where)}
		var found := NodeTarget.find(context, entry["node_path"])
		if not found["ok"]:
			return found
		items.append({"node": found["node"], "group": entry["group"]})
	return {"ok": true, "items": items}


static func _list_groups(node_path: Variant, context: RefCounted, root: Node) -> Dictionary:
	if node_path == null:
		var groups := NodeGroups.scene_groups(root)
		return ToolkitSuccess.ok({"action": "list", "groups": groups})
	if not node_path is String:
		return ToolkitError.fail("INVALID_PARAMS", "node_path must be a string")
	var found := NodeTarget.find(context, node_path)
	if not found["ok"]:
		return found["error"]
	var groups := NodeGroups.groups_of(root, found["node"])
	return ToolkitSuccess.ok({"action": "list", "node_path": found["path"], "groups": groups})
