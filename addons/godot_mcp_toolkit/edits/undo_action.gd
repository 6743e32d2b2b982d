@tool
extends RefCounted
## One undoable action, built up and then committed (contract C13: the undo builder extensions
## rely on). Steps are buffered and handed to the undo manager only in commit(), so a handler that
## bails out half-way leaves no half-open action in the history.
##
## Every step (method, property, reference) goes into ONE list in the order it was added, and is
## handed over in that order: methods and properties interleave exactly as written, so "add_child,
## then set owner" stays in that order on both sides. As in Godot's own UndoRedo, the undo steps
## run in the order they were added (not reversed): add them in the order they should undo.
##
## The action is recorded through a seam (a toolkit context, context/toolkit_context.gd): it says
## which history the action goes to (each open scene has its own, plus the global one, routed by
## the context object or else the first step's target, as the editor routes it) and which undo
## manager takes it, the editor's EditorUndoRedoManager (the plugin's get_undo_redo();
## EditorInterface's getter is 4.4+ only) or a plain UndoRedo (runtime context, tests). The two
## take methods differently (object + name + varargs versus one Callable); this file is the only
## place that knows. The seam's edit ledger (edits/edit_ledger.gd) names the action (tagged as the
## assistant's while a tool call runs) and hears of the commit, so every edit reaches the
## assistant's history through here. Without a seam commit() still applies the do steps,
## recording nothing.

const SIDE_DO := "do"
const SIDE_UNDO := "undo"
const KIND_METHOD := "method"
const KIND_PROPERTY := "property"
const KIND_REFERENCE := "reference"

var _seam: Object = null
var _description := ""
var _context: Object = null
## [side, kind, target, name, payload] in the order added; payload is the args Array of a method
## or the value of a property (null for a reference).
var _steps: Array = []
var _committed := false


func _init(seam: Object, description: String, context_object: Object = null) -> void:
	_seam = seam
	_description = description
	_context = context_object


func add_do_method(target: Object, method: StringName, args: Array = []) -> RefCounted:
	_steps.append([SIDE_DO, KIND_METHOD, target, method, args])
	return self


func add_undo_method(target: Object, method: StringName, args: Array = []) -> RefCounted:
	_steps.append([SIDE_UNDO, KIND_METHOD, target, method, args])
	return self


func add_do_property(target: Object, property: StringName, value: Variant) -> RefCounted:
	_steps.append([SIDE_DO, KIND_PROPERTY, target, property, value])
	return self


func add_undo_property(target: Object, property: StringName, value: Variant) -> RefCounted:
	_steps.append([SIDE_UNDO, KIND_PROPERTY, target, property, value])
	return self


## Keeps `object` alive while the do side of the action is in the history (a newly created node).
func add_do_reference(object: Object) -> RefCounted:
	_steps.append([SIDE_DO, KIND_REFERENCE, object, &"", null])
	return self


## Keeps `object` alive while the undo side is in the history (a removed node).
func add_undo_reference(object: Object) -> RefCounted:
	_steps.append([SIDE_UNDO, KIND_REFERENCE, object, &"", null])
	return self


## True when commit() will record history, false when it will only apply.
func is_recording() -> bool:
	return _manager_for(_routing()) != null


## Records and (when `execute`) runs the action. Returns false when already committed.
func commit(execute: bool = true) -> bool:
	if _committed:
		push_warning("MCP toolkit: undo action '%s' committed twice" % _description)
		return false
	_committed = true
	if _steps.is_empty():
		# The editor's manager drops an empty action too: nothing to record, nothing to step back.
		return true
	var routing := _routing()
	var manager := _manager_for(routing)
	if manager == null:
		if execute:
			_apply_do_side()
		return true
	var history_id: int = _seam.call("history_id_for", routing)
	var ledger: RefCounted = _seam.call("edit_ledger")
	var name: String = ledger.call("tag", _description)
	if manager is UndoRedo:
		_commit_to_undo_redo(manager as UndoRedo, execute, name)
	else:
		_commit_to_editor_manager(manager, execute, name)
	ledger.call("committed", history_id, name)
	return true


## The object that picks the history: the context object, else the first step's target.
func _routing() -> Object:
	if _context != null:
		return _context
	return _steps[0][2] if not _steps.is_empty() else null


func _manager_for(routing: Object) -> Object:
	if _seam == null or not is_instance_valid(_seam):
		return null
	var manager: Object = _seam.call("undo_manager_for", routing)
	return manager if manager != null and is_instance_valid(manager) else null


func _commit_to_undo_redo(undo_redo: UndoRedo, execute: bool, name: String) -> void:
	undo_redo.create_action(name, UndoRedo.MERGE_DISABLE)
	for step: Array in _steps:
		var do_side: bool = step[0] == SIDE_DO
		match step[1]:
			KIND_METHOD:
				var call := Callable(step[2], step[3]).bindv(step[4])
				if do_side:
					undo_redo.add_do_method(call)
				else:
					undo_redo.add_undo_method(call)
			KIND_PROPERTY:
				if do_side:
					undo_redo.add_do_property(step[2], step[3], step[4])
				else:
					undo_redo.add_undo_property(step[2], step[3], step[4])
			KIND_REFERENCE:
				if do_side:
					undo_redo.add_do_reference(step[2])
				else:
					undo_redo.add_undo_reference(step[2])
	undo_redo.commit_action(execute)


## EditorUndoRedoManager, reached by name so this file stays runtime-safe. 4.2's create_action
## takes (name, merge_mode, custom_context, backward_undo_ops); later versions only append.
func _commit_to_editor_manager(manager: Object, execute: bool, name: String) -> void:
	manager.call("create_action", name, UndoRedo.MERGE_DISABLE, _context)
	for step: Array in _steps:
		var target: Object = step[2]
		match step[1]:
			KIND_METHOD:
				manager.callv("add_%s_method" % step[0], [target, step[3]] + (step[4] as Array))
			KIND_PROPERTY:
				manager.call("add_%s_property" % step[0], target, step[3], step[4])
			KIND_REFERENCE:
				manager.call("add_%s_reference" % step[0], target)
	manager.call("commit_action", execute)


func _apply_do_side() -> void:
	for step: Array in _steps:
		if step[0] != SIDE_DO:
			continue
		if step[1] == KIND_METHOD:
			(step[2] as Object).callv(step[3], step[4])
		elif step[1] == KIND_PROPERTY:
			(step[2] as Object).set(step[3], step[4])
