@tool
extends RefCounted
## One verified property write for node.set_property (and runtime.set_property): the previous
## value, make_unique for a shared sub-resource, and the undo steps added to the caller's action
## only when the write took. Verification itself is scene_tree/property_access.gd's. Runtime-safe.

const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const AnswerBudget := preload("res://addons/godot_mcp_toolkit/contract/answer_budget.gd")
const PropertyAccess := preload("res://addons/godot_mcp_toolkit/scene_tree/property_access.gd")


## Buffers the steps PropertyAccess.write adds, so a failed write leaves the real action untouched
## and a make_unique copy can wrap them (copy in first on do, original back last on undo).
class Steps:
	extends RefCounted
	var do_steps: Array = []
	var undo_steps: Array = []

	func add_do_property(target: Object, property: StringName, value: Variant) -> RefCounted:
		do_steps.append([false, target, property, value])
		return self

	func add_undo_property(target: Object, property: StringName, value: Variant) -> RefCounted:
		undo_steps.append([false, target, property, value])
		return self

	func add_do_method(target: Object, method: StringName, args: Array = []) -> RefCounted:
		do_steps.append([true, target, method, args])
		return self

	func add_undo_method(target: Object, method: StringName, args: Array = []) -> RefCounted:
		undo_steps.append([true, target, method, args])
		return self


## {"ok": true, "status", "value", "previous"[, "warning"]} or {"ok": false, "error": envelope}.
## "status" is "updated", or "unchanged" when the property already held the value (no undo steps
## then). The value is on the object when this returns ok; `action` (may be null) gets the steps.
## The stand-in a read showed for a value too large for one answer, given back, leaves the value as
## it is: "unchanged" with "kept" true (and the value shown by its size).
static func write(object: Object, property: String, raw_value: Variant, action: RefCounted,
		make_unique: bool) -> Dictionary:
	if AnswerBudget.is_stand_in(raw_value):
		return _kept(object, property)
	var before := PropertyAccess.read(object, property) if make_unique else {"ok": true}
	if not before["ok"]:
		return before
	var unique := _unique_copy(object, property) if make_unique else {}
	if unique.has("error"):
		return {"ok": false, "error": unique["error"]}
	if unique.has("copy"):
		object.set(unique["base"], unique["copy"])
	var steps := Steps.new()
	var outcome := PropertyAccess.write(object, property, raw_value, steps)
	if outcome["status"] == PropertyAccess.STATUS_FAILED:
		if unique.has("copy"):
			object.set(unique["base"], unique["original"])
		return {"ok": false, "error": PropertyAccess.failure_envelope(outcome)}
	var unchanged: bool = outcome["status"] == PropertyAccess.STATUS_UNCHANGED and not unique.has("copy")
	if action != null and not unchanged:
		if unique.has("copy"):
			action.add_do_property(object, unique["base"], unique["copy"])
		_replay(action, steps)
		if unique.has("copy"):
			action.add_undo_property(object, unique["base"], unique["original"])
	# make_unique swapped the resource in before the write: the previous value is the one before that.
	var result := {"ok": true, "status": "unchanged" if unchanged else "updated", "value": outcome["value"],
		"previous": before["value"] if unique.has("copy") else outcome["previous"]}
	if outcome.has("warning"):
		result["warning"] = outcome["warning"]
	if unique.has("copy"):
		result["made_unique"] = String(unique["base"])
	return result


static func _kept(object: Object, property: String) -> Dictionary:
	var read := PropertyAccess.read(object, property)
	if not read["ok"]:
		return read
	var shown: Variant = AnswerBudget.within(read["value"], AnswerBudget.ECHO_BYTES)
	return {"ok": true, "status": "unchanged", "value": shown, "previous": shown, "kept": true}


## For "material:albedo_color": {"base": &"material", "original", "copy"} (a duplicate of the
## resource, so the edit does not reach every user of the shared one); {} when there is nothing
## to copy; {"error"} when make_unique cannot apply.
static func _unique_copy(object: Object, property: String) -> Dictionary:
	if not property.contains(":"):
		return {"error": ToolkitError.fail("INVALID_PARAMS",
			"make_unique applies to a sub-resource path like material:albedo_color, not '%s'" % property)}
	var base := StringName(property.get_slice(":", 0))
	var original: Variant = object.get(base)
	if not original is Resource:
		return {"error": ToolkitError.fail("INVALID_PARAMS", "make_unique: %s holds no resource to copy" % base)}
	return {"base": base, "original": original, "copy": (original as Resource).duplicate()}


static func _replay(action: RefCounted, steps: Steps) -> void:
	for step: Array in steps.do_steps:
		if step[0]:
			action.add_do_method(step[1], step[2], step[3])
		else:
			action.add_do_property(step[1], step[2], step[3])
	for step: Array in steps.undo_steps:
		if step[0]:
			action.add_undo_method(step[1], step[2], step[3])
		else:
			action.add_undo_property(step[1], step[2], step[3])
