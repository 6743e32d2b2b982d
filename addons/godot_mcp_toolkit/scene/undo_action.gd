@tool
extends RefCounted
## One undoable editor action, built up and then committed (contract C13: the undo builder
## extensions rely on). Operations are buffered and handed to the EditorUndoRedoManager only in
## commit(), so a handler that bails out half-way leaves no half-open action in the history.
##
## The manager is passed in untyped (the plugin's get_undo_redo(); EditorInterface's getter is
## 4.4+ only). Without one (headless tests, a game process) commit() still applies the do
## operations, it just records no history.

var _manager: Object = null
var _description := ""
var _context: Object = null
## [kind, target, name, args] in call order; kind is "do" or "undo".
var _methods: Array = []
## [kind, target, property, value]
var _properties: Array = []
var _references: Array = []
var _committed := false


func _init(manager: Object, description: String, context_object: Object = null) -> void:
	_manager = manager
	_description = description
	_context = context_object


func add_do_method(target: Object, method: StringName, args: Array = []) -> RefCounted:
	_methods.append(["do", target, method, args])
	return self


func add_undo_method(target: Object, method: StringName, args: Array = []) -> RefCounted:
	_methods.append(["undo", target, method, args])
	return self


func add_do_property(target: Object, property: StringName, value: Variant) -> RefCounted:
	_properties.append(["do", target, property, value])
	return self


func add_undo_property(target: Object, property: StringName, value: Variant) -> RefCounted:
	_properties.append(["undo", target, property, value])
	return self


## Keeps `object` alive while the do side of the action is in the history (a newly created node).
func add_do_reference(object: Object) -> RefCounted:
	_references.append(["do", object])
	return self


## Keeps `object` alive while the undo side is in the history (a removed node).
func add_undo_reference(object: Object) -> RefCounted:
	_references.append(["undo", object])
	return self


## True when commit() will record history, false when it will only apply.
func is_recording() -> bool:
	return _manager != null and is_instance_valid(_manager)


## Records and (when `execute`) runs the action. Returns false when already committed.
func commit(execute: bool = true) -> bool:
	if _committed:
		push_warning("MCP toolkit: undo action '%s' committed twice" % _description)
		return false
	_committed = true
	if not is_recording():
		if execute:
			_apply_do_side()
		return true
	# 4.2's create_action takes (name, merge_mode, custom_context, backward_undo_ops); later
	# versions only append parameters, so these three work everywhere.
	_manager.create_action(_description, UndoRedo.MERGE_DISABLE, _context)
	for entry: Array in _methods:
		_manager.callv("add_%s_method" % entry[0], [entry[1], entry[2]] + entry[3])
	for entry: Array in _properties:
		_manager.call("add_%s_property" % entry[0], entry[1], entry[2], entry[3])
	for entry: Array in _references:
		_manager.call("add_%s_reference" % entry[0], entry[1])
	_manager.commit_action(execute)
	return true


func _apply_do_side() -> void:
	for entry: Array in _methods:
		if entry[0] == "do":
			(entry[1] as Object).callv(entry[2], entry[3])
	for entry: Array in _properties:
		if entry[0] == "do":
			(entry[1] as Object).set(entry[2], entry[3])
