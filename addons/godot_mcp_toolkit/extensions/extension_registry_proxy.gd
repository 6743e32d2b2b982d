@tool
extends RefCounted
## The registry an extension sees (contract C13): the command registry's facade plus a guarded
## register_command. It records what its extension registered so a reload can withdraw exactly
## that, and tags each command with the extension's source so listings can tell them apart.

const ExtensionNames := preload("extension_names.gd")

var _registry: Object = null
var _source := ""
var _reserved: Array = []
var _methods := PackedStringArray()
var _refusals := PackedStringArray()


func _init(command_registry: Object, source: String, extra_reserved: Array) -> void:
	_registry = command_registry
	_source = source
	_reserved = extra_reserved


## Guarded registration: a built-in domain, a malformed name or a name someone already holds is
## refused with a warning, never an error, so one bad extension cannot abort the others.
func register_command(method: String, handler: Callable, options: Object = null) -> bool:
	var taken := bool(_registry.has_command(method))
	var reason := ExtensionNames.refusal(method, _reserved, taken)
	# is_null(), not is_valid(): on 4.2 a static handler bound through its script,
	# Callable(script, "name"), reports invalid although it calls fine (the registry does the same).
	if reason.is_empty() and handler.is_null():
		reason = "'%s' has no handler" % method
	if not reason.is_empty():
		_refusals.append(reason)
		push_warning("MCP toolkit: extension %s: %s" % [_source, reason])
		return false
	if not bool(_registry.register_command(method, handler, options, _source)):
		_refusals.append("'%s' was rejected by the command registry" % method)
		return false
	_methods.append(method)
	return true


## Extensions may withdraw only their own commands.
func unregister_command(method: String) -> void:
	var index := _methods.find(method)
	if index < 0:
		return
	_registry.unregister_command(method)
	_methods.remove_at(index)


func has_command(method: String) -> bool:
	return bool(_registry.has_command(method))


func create_options() -> Object:
	return _registry.create_options()


func create_extension_options(description: String) -> Object:
	return _registry.create_extension_options(description)


func create_undo_action(description: String, context_object: Object = null) -> Variant:
	return _registry.create_undo_action(description, context_object)


func queue_save(path: String = "") -> Variant:
	return _registry.queue_save(path)


func check_save(save_id: Variant, clear: bool = false) -> Variant:
	return _registry.check_save(save_id, clear)


func fail(code: String, message: String, hint: String = "") -> Dictionary:
	return _registry.fail(code, message, hint)


func require(parameters: Dictionary, required: Array) -> Variant:
	return _registry.require(parameters, required)


func registered_methods() -> PackedStringArray:
	return _methods.duplicate()


func refusals() -> PackedStringArray:
	return _refusals.duplicate()


## Withdraws everything this extension registered.
func withdraw_all() -> void:
	for method: String in _methods:
		_registry.unregister_command(method)
	_methods.clear()
