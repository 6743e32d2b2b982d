extends RefCounted
## transport/mcp_toolkit_command_registry.gd: registration rules, listings, version bounds,
## dispatch info, and the extension facade (options, undo, saves, fail, require).

const Assert := preload("assert.gd")
const CommandRegistry := preload("res://addons/godot_mcp_toolkit/transport/mcp_toolkit_command_registry.gd")
const CommandOptions := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_command_options.gd")
const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")
const RuntimeContext := preload("res://addons/godot_mcp_toolkit/context/runtime_context.gd")

var _registry: CommandRegistry = null
var _saved: Array[String] = []


func _init() -> void:
	_registry = CommandRegistry.new()
	_registry.configure("4.2.2", null)
	_registry.get_save_queue().set_saver(_fake_save)


func test_register_and_describe() -> void:
	var options := _registry.create_options().with_description("Make a thing.").with_group("things") \
		.with_input_schema({"type": "object"}).with_timeout_ms(5000).read_only().idempotent()
	Assert.is_true(_registry.register_command("thing.make", _handler, options), "registered")
	Assert.is_true(_registry.has_command("thing.make"), "known")
	Assert.eq(_registry.get_command("thing.make"), {
		"method": "thing.make", "description": "Make a thing.", "input_schema": {"type": "object"},
		"annotations": {"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true},
		"group": "things", "timeout_ms": 5000, "min_godot_version": "", "max_godot_version": "",
		"source": "builtin",
	}, "full description")
	_registry.unregister_command("thing.make")
	Assert.is_false(_registry.has_command("thing.make"), "unregistered")
	Assert.eq(_registry.get_command("thing.make"), {}, "unknown gives {}")


func test_collisions_keep_the_incumbent() -> void:
	Assert.is_true(_registry.register_command("thing.make", _handler), "first")
	var second := _registry.register_command("thing.make", _other_handler, null, "extension:res://x.gd")
	Assert.is_false(second, "second refused")
	Assert.eq(_registry.get_command("thing.make")["source"], "builtin", "incumbent kept")
	Assert.is_false(_registry.register_command("", _handler), "empty name refused")
	Assert.is_false(_registry.register_command("bad name", _handler), "spaces refused")
	Assert.is_false(_registry.register_command("thing.none", Callable()), "empty handler refused")


func test_reserved_names_for_non_builtins() -> void:
	for method: String in ["scene.hijack", "editor.x", "echo", "ping", "_cancel", "extensions.list"]:
		Assert.is_false(_registry.register_command(method, _handler, null, "extension:res://e.gd"), "%s refused" % method)
	Assert.is_true(_registry.register_command("wordtools.count", _handler, null, "extension:res://e.gd"), "own domain")
	Assert.is_true(_registry.register_command("scene.fine", _handler), "built-ins may use built-in domains")


func test_listing_filters_by_source_and_sorts() -> void:
	_registry.register_command("b.two", _handler)
	_registry.register_command("a.one", _handler)
	_registry.register_command("ext.cmd", _handler, _registry.create_extension_options("Ext."), "extension:res://e.gd")
	var methods := _registry.list_commands().map(func(entry: Dictionary) -> String: return entry["method"])
	Assert.eq(methods, ["a.one", "b.two", "ext.cmd"], "all, sorted")
	var extension := _registry.list_commands("extension")
	Assert.eq(extension.size(), 1, "prefix filter 'extension' matches 'extension:...'")
	Assert.eq(extension[0]["description"], "Ext.", "create_extension_options sets the description")
	Assert.is_false(extension[0].has("source"), "listing items carry exactly the contract keys")
	Assert.eq(_registry.list_commands("builtin").size(), 2, "exact source")


func test_version_bounds_gate_dispatch_but_not_listing() -> void:
	_registry.register_command("scene.close", _handler, CommandOptions.new().with_min_godot_version("4.5"))
	_registry.register_command("old.thing", _handler, CommandOptions.new().with_max_godot_version("4.2"))
	Assert.is_false(_registry.is_dispatchable("scene.close"), "4.5+ command blocked on 4.2.2")
	Assert.eq(_registry.dispatch_info("scene.close"), {}, "no dispatch info")
	Assert.eq(_registry.get_command("scene.close")["min_godot_version"], "4.5", "bounds still published")
	Assert.is_true(_registry.is_dispatchable("old.thing"), "max 4.2 covers 4.2.2")
	_registry.configure("4.5.0", null)
	Assert.is_true(_registry.is_dispatchable("scene.close"), "allowed on 4.5")
	Assert.is_false(_registry.is_dispatchable("old.thing"), "above max")


func test_malformed_version_bound_is_dropped() -> void:
	Assert.eq(CommandOptions.new().with_min_godot_version("4.x").min_godot_version, "", "ignored, not compared as 4.0")


func test_dispatch_info_carries_the_routing_flags() -> void:
	var options := CommandOptions.new().read_only().exclusive().cancellable().scene_independent().leases_scene()
	_registry.register_command("game.start", _handler, options.with_timeout_ms(123))
	var info := _registry.dispatch_info("game.start")
	for flag: String in ["read_only", "exclusive", "cancellable", "scene_independent", "leases_scene"]:
		Assert.is_true(info[flag], flag)
	Assert.eq(info["timeout_ms"], 123, "timeout")
	Assert.is_true(info["handler"] == Callable(_handler), "handler")
	var defaults := CommandOptions.new()
	Assert.eq(defaults.annotations(), {"readOnlyHint": false, "destructiveHint": false, "idempotentHint": false},
		"unannotated means mutating")
	Assert.is_true(defaults.with_read_only().with_idempotent(true).with_scene_independent().is_read_only(), "aliases")


func test_facade_fail_and_require() -> void:
	Assert.eq(_registry.fail("NOT_FOUND", "gone"), {"success": false, "error": "gone", "code": "NOT_FOUND",
		"hint": ToolkitError.DEFAULT_HINTS["NOT_FOUND"]}, "fail")
	Assert.eq(_registry.require({"a": 1}, ["a"]), {}, "ok")
	Assert.eq(_registry.require({}, ["a"])["code"], "INVALID_PARAMS", "missing")


func test_undo_action_without_manager_applies_do_side() -> void:
	var target := Node.new()
	var action := _registry.create_undo_action("Rename", target)
	action.add_do_property(target, &"name", "After").add_undo_property(target, &"name", "Before")
	action.add_do_method(target, &"set_meta", ["touched", true])
	Assert.is_false(action.is_recording(), "no manager: nothing recorded")
	Assert.is_true(action.commit(), "committed")
	Assert.eq(String(target.name), "After", "do property applied")
	Assert.eq(target.get_meta("touched", false), true, "do method applied")
	Assert.is_false(action.commit(), "a second commit is refused")
	target.free()


func test_undo_action_records_into_the_context_history() -> void:
	var target := Node.new()
	target.name = "Before"
	var context := RuntimeContext.new(target)
	var registry := CommandRegistry.new()
	registry.configure("4.2.2", context)
	var action := registry.create_undo_action("Rename", target)
	action.add_do_property(target, &"name", "After").add_undo_property(target, &"name", "Before")
	Assert.is_true(action.is_recording(), "the context's history records it")
	Assert.is_true(action.commit(), "committed")
	Assert.eq(String(target.name), "After", "done")
	Assert.is_true(context.edits.undo(), "undone through the context")
	Assert.eq(String(target.name), "Before", "restored")
	target.free()


func test_queue_save_and_check_save() -> void:
	var first := _registry.queue_save()
	var second := _registry.queue_save("res://levels/a.tscn")
	var refused := _registry.queue_save("res://../escape.tscn")
	Assert.eq(_registry.check_save(first)["status"], "queued", "queued until the next tick")
	Assert.eq(_registry.check_save(refused)["status"], "failed", "a refused path fails at once")
	_registry.get_save_queue().process()
	Assert.eq(_saved, ["", "res://levels/a.tscn"], "saver called in order, refused path never saved")
	Assert.eq(_registry.check_save(second)["status"], "saved", "saved")
	Assert.eq(_registry.check_save(first, true)["status"], "saved", "read and cleared")
	Assert.eq(_registry.check_save(first)["status"], "unknown", "cleared")
	Assert.eq(_registry.check_save(999)["status"], "unknown", "never queued")


func _handler(_params: Dictionary) -> Dictionary:
	return {"success": true}


func _other_handler(_params: Dictionary) -> Dictionary:
	return {"success": true, "other": true}


func _fake_save(path: String) -> Error:
	_saved.append(path)
	return OK


func test_queued_save_of_the_edited_scene_is_pinned_to_its_path() -> void:
	var root := Node.new()
	root.scene_file_path = "res://levels/edited.tscn"
	var context := RuntimeContext.new(root)
	var registry := CommandRegistry.new()
	registry.configure("4.2.2", context)
	var saved: Array[String] = []
	registry.get_save_queue().set_saver(func(path: String) -> Error:
		saved.append(path)
		return OK)
	var id := registry.queue_save()
	# The user switches tabs before the next tick: the queued save must still name the first scene.
	root.scene_file_path = "res://levels/other.tscn"
	registry.get_save_queue().process()
	Assert.eq(saved, ["res://levels/edited.tscn"], "the scene edited when the save was queued")
	Assert.eq(registry.check_save(id)["path"], "res://levels/edited.tscn", "check_save names it")
	root.free()
