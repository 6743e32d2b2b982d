extends RefCounted
## commands/signal/signal_commands.gd through the command registry with a runtime context over a throwaway
## scene (Main with Emitter, Receiver and an unowned Helper): listing, persistent connections that
## pack into the scene file, refusals, and undo/redo.
## Not covered here (editor only): the Node dock's Signals tab showing the connection, and
## the editor holding non-@tool scripts as placeholders (method lookup then goes through the script).

const Assert := preload("assert.gd")
const DomainFixture := preload("domain_fixture.gd")
const ResultExamples := preload("result_examples.gd")
const CommandRegistry := preload("res://addons/godot_mcp_toolkit/transport/mcp_toolkit_command_registry.gd")
const CommandDomains := preload("res://addons/godot_mcp_toolkit/commands/command_domains.gd")
const RuntimeContext := preload("res://addons/godot_mcp_toolkit/context/runtime_context.gd")

const DOMAIN := "res://addons/godot_mcp_toolkit/commands/signal/signal_commands.gd"
const DIR := "res://tmp_tests/signal"

var _root := Node.new()
var _emitter := Node.new()
var _receiver := Node.new()
var _fx: DomainFixture = null


func _init() -> void:
	DirAccess.make_dir_recursive_absolute(DIR)
	_root.name = "Main"
	_emitter.name = "Emitter"
	_emitter.set_script(_script("emitter.gd", "extends Node\nsignal hit(amount: int)\n"))
	_receiver.name = "Receiver"
	_receiver.set_script(_script("receiver.gd",
		"extends Node\nvar total := 0\n\nfunc _on_hit(amount: int) -> void:\n\ttotal += amount\n\n"
		+ "func _on_nothing() -> void:\n\tpass\n"))
	var helper := Node.new()
	helper.name = "Helper"
	for node: Node in [_emitter, _receiver]:
		_root.add_child(node)
		node.owner = _root
	_root.add_child(helper)
	var domains: Array[String] = [DOMAIN]
	_fx = DomainFixture.new(domains, "signal", _root, DIR, "4.6.0")


func cleanup() -> void:
	_fx.cleanup()


func test_registered_with_the_reference_lanes() -> void:
	Assert.is_true(DOMAIN in CommandDomains.DOMAINS, "listed in command_domains.gd")
	Assert.is_true(_fx.registry.dispatch_info("signal.list")["read_only"], "list is a read")
	Assert.is_false(_fx.registry.dispatch_info("signal.manage")["read_only"], "manage mutates")
	for method: String in ["signal.list", "signal.manage"]:
		Assert.is_false(_fx.registry.dispatch_info(method)["scene_independent"],
			"%s works on the edited scene" % method)


func test_list_names_script_signals_and_their_arguments() -> void:
	var result := _fx.invoke("signal.list", ResultExamples.params("signal", "signal.list", 0))
	ResultExamples.check("signal", "signal.list", result, 0)
	var hit := _entry(result["signals"], "hit")
	Assert.eq(hit, {"name": "hit", "args": [{"name": "amount", "type": "int"}], "source": "script"}, "the script's")
	Assert.eq(_entry(result["signals"], "ready")["source"], "Node", "an engine signal is named by its class")
	Assert.eq(result["count"], (result["signals"] as Array).size(), "count")
	Assert.eq(_fx.invoke("signal.list", {"node_path": "Nope"})["code"], "NOT_FOUND", "missing node")
	Assert.eq(_fx.invoke("signal.list", {})["node_path"], ".", "no path lists the root")


func test_connect_is_persistent_packs_into_the_scene_and_undoes() -> void:
	var result := _fx.invoke("signal.manage", ResultExamples.params("signal", "signal.manage", 0))
	ResultExamples.check("signal", "signal.manage", result, 0)
	var callable := Callable(_receiver, "_on_hit")
	Assert.is_true(_emitter.is_connected("hit", callable), "connected")
	Assert.eq(_fx.context.runtime_scenes.modified_count, 1, "scene marked modified")
	_emitter.emit_signal("hit", 5)
	Assert.eq(_receiver.get("total"), 5, "and it delivers")
	var listed := _fx.invoke("signal.list", ResultExamples.params("signal", "signal.list", 1))
	ResultExamples.check("signal", "signal.list", listed, 1)
	Assert.eq(_entry(listed["signals"], "hit")["connections"],
		[{"target_path": "Receiver", "method_name": "_on_hit", "persistent": true}], "listed with its connection")
	Assert.contains(_packed_text(), "[connection signal=\"hit\" from=\"Emitter\" to=\"Receiver\" method=\"_on_hit\"]",
		"saved into the scene file")
	var again := _fx.invoke("signal.manage", ResultExamples.params("signal", "signal.manage", 0))
	Assert.eq(again["status"], "already_connected", "connecting twice is a no-op")
	Assert.is_true(_fx.context.edits.undo(), "undo")
	Assert.is_false(_emitter.is_connected("hit", callable), "undo disconnects")
	Assert.is_false(_fx.context.edits.undo(), "the no-op recorded nothing")
	Assert.is_true(_fx.context.edits.redo(), "redo")
	Assert.is_true(_emitter.is_connected("hit", callable), "redo connects again")


func test_disconnect_and_undo_restores_the_flags() -> void:
	var callable := Callable(_receiver, "_on_hit")
	_emitter.connect("hit", callable, CONNECT_PERSIST | CONNECT_DEFERRED)
	var result := _fx.invoke("signal.manage", ResultExamples.params("signal", "signal.manage", 1))
	ResultExamples.check("signal", "signal.manage", result, 1)
	Assert.is_false(_emitter.is_connected("hit", callable), "disconnected")
	Assert.is_true(_fx.context.edits.undo(), "undo")
	var flags := -1
	for connection: Dictionary in _emitter.get_signal_connection_list("hit"):
		flags = connection["flags"]
	Assert.eq(flags, CONNECT_PERSIST | CONNECT_DEFERRED, "reconnected with the flags it had")
	_emitter.disconnect("hit", callable)
	var absent := _fx.invoke("signal.manage", ResultExamples.params("signal", "signal.manage", 1))
	Assert.eq(absent["code"], "NOT_FOUND", "disconnecting what is not connected")


func test_refusals_change_nothing() -> void:
	var unknown := _fx.invoke("signal.manage", ResultExamples.params("signal", "signal.manage", 2))
	ResultExamples.check("signal", "signal.manage", unknown, 2)
	var base := {"action": "connect", "node_path": "Emitter", "signal_name": "hit", "target_path": "Receiver",
		"method_name": "_on_hit"}
	var cases := [
		["NOT_FOUND", {"method_name": "_on_missing"}],
		["NOT_FOUND", {"node_path": "Ghost"}],
		["NOT_FOUND", {"target_path": "Ghost"}],
		["INVALID_PARAMS", {"action": "toggle"}],
		["INVALID_PARAMS", {"signal_name": 3}],
	]
	for case: Array in cases:
		var params := base.duplicate()
		params.merge(case[1], true)
		Assert.eq(_fx.invoke("signal.manage", params)["code"], case[0], JSON.stringify(case[1]))
	var no_method := base.duplicate()
	no_method.erase("method_name")
	Assert.eq(_fx.invoke("signal.manage", no_method)["code"], "INVALID_PARAMS", "method_name missing")
	Assert.eq(_emitter.get_signal_connection_list("hit").size(), 0, "nothing connected")
	Assert.eq(_fx.context.runtime_scenes.modified_count, 0, "scene not marked modified")
	Assert.is_false(_fx.context.edits.undo(), "nothing recorded")
	var no_scene := RuntimeContext.new()
	var registry := CommandRegistry.new()
	var domains: Array[String] = [DOMAIN]
	CommandDomains.register_all(registry, no_scene, domains)
	var handler: Callable = registry.dispatch_info("signal.manage")["handler"]
	Assert.eq(handler.callv([base])["code"], "NO_SCENE", "no scene open")


func test_warnings_for_unsaved_nodes_and_argument_counts() -> void:
	var unsaved := _fx.invoke("signal.manage", {"action": "connect", "source_path": "Helper", "signal_name": "ready",
		"target_path": "Receiver", "method_name": "_on_nothing"})
	Assert.eq([unsaved["status"], unsaved["node_path"]], ["connected", "Helper"], "source_path is read as node_path")
	Assert.contains(unsaved["warnings"][0], "not saved with the scene", "an unowned node is flagged")
	var mismatch := _fx.invoke("signal.manage", {"action": "connect", "node_path": "Emitter", "signal_name": "hit",
		"target_path": "Receiver", "method_name": "_on_nothing"})
	Assert.contains(mismatch["warnings"][0], "sends 1 argument", "an arity mismatch is flagged")


func test_emit_in_the_edited_scene_reaches_a_connected_method() -> void:
	# The reference serves signal.emit in the editor too (signal_emit's default channel).
	Assert.is_false(_fx.registry.dispatch_info("signal.emit")["read_only"], "emit is not a read")
	_emitter.connect("hit", Callable(_receiver, "_on_hit"))
	var result := _fx.invoke("signal.emit", {"node_path": "Emitter", "signal_name": "hit", "args": [3]})
	Assert.is_true(result.get("success", false), "emitted: %s" % JSON.stringify(result))
	Assert.eq(_receiver.get("total"), 3, "the connected method ran with the argument")
	_emitter.disconnect("hit", Callable(_receiver, "_on_hit"))
	Assert.eq(_fx.invoke("signal.emit", {"node_path": "Nope", "signal_name": "hit"})["code"], "NOT_FOUND",
		"missing node")


func _entry(signals: Array, signal_name: String) -> Dictionary:
	for entry: Dictionary in signals:
		if entry["name"] == signal_name:
			return entry
	return {}


func _script(file_name: String, source: String) -> Script:
	var path := DIR.path_join(file_name)
	var file := FileAccess.open(path, FileAccess.WRITE)
	file.store_string(source)
	file.close()
	return load(path) as Script


func _packed_text() -> String:
	var packed := PackedScene.new()
	packed.pack(_root)
	var path := DIR.path_join("main.tscn")
	ResourceSaver.save(packed, path)
	return FileAccess.get_file_as_string(path)
