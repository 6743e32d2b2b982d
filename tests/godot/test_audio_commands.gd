extends RefCounted
## commands/audio/audio_commands.gd through the command registry with a runtime context: buses and
## effects changed on AudioServer, the layout saved to res://default_bus_layout.tres and loaded back,
## and undo/redo of the whole layout. The layout and the file are put back in cleanup().
## Not covered here (editor only): the Audio bottom panel redrawing; no sound is played.

const Assert := preload("assert.gd")
const DomainFixture := preload("domain_fixture.gd")
const ResultExamples := preload("result_examples.gd")
const CommandDomains := preload("res://addons/godot_mcp_toolkit/commands/command_domains.gd")

const DOMAIN := "res://addons/godot_mcp_toolkit/commands/audio/audio_commands.gd"
const LAYOUT := "res://default_bus_layout.tres"

var _layout_before := AudioServer.generate_bus_layout()
var _file_existed := FileAccess.file_exists(LAYOUT)
var _fx: DomainFixture = null


func _init() -> void:
	var domains: Array[String] = [DOMAIN]
	_fx = DomainFixture.new(domains, "audio", null, "", "4.6.0")


func cleanup() -> void:
	AudioServer.set_bus_layout(_layout_before)
	if not _file_existed:
		DirAccess.remove_absolute(LAYOUT)
	_fx.cleanup()


func test_registered_with_the_reference_lanes() -> void:
	Assert.is_true(DOMAIN in CommandDomains.DOMAINS, "listed in command_domains.gd")
	Assert.is_true(_fx.registry.dispatch_info("audiobus.list")["read_only"], "list is a read")
	Assert.is_false(_fx.registry.dispatch_info("audiobus.edit")["read_only"], "edit mutates")
	Assert.is_true(_fx.registry.dispatch_info("audiobus.edit")["scene_independent"], "needs no scene")


func test_list_the_default_layout() -> void:
	ResultExamples.check("audio", "audiobus.list", _fx.invoke("audiobus.list", {}), 0)


func test_add_bus_and_effect_saved_and_undone() -> void:
	var added := _fx.invoke("audiobus.edit", ResultExamples.params("audio", "audiobus.edit", 0))
	ResultExamples.check("audio", "audiobus.edit", added, 0)
	Assert.eq(AudioServer.get_bus_index("Music"), 1, "the bus exists")
	var reverb := _fx.invoke("audiobus.edit", ResultExamples.params("audio", "audiobus.edit", 1))
	ResultExamples.check("audio", "audiobus.edit", reverb, 1)
	Assert.eq((AudioServer.get_bus_effect(1, 0) as AudioEffectReverb).room_size, 0.5, "the property is set")
	var saved := ResourceLoader.load(LAYOUT, "", ResourceLoader.CACHE_MODE_IGNORE) as AudioBusLayout
	Assert.is_true(saved != null, "the layout file loads")
	Assert.eq(saved.get("bus/1/name"), &"Music", "with the new bus")
	Assert.eq(saved.get("bus/1/effect/0/effect").get_class(), "AudioEffectReverb", "and its effect")
	Assert.eq(_fx.context.runtime_project.refreshed_files[-1], LAYOUT, "the editor is told about the file")
	var again := _fx.invoke("audiobus.edit", {"action": "add_bus", "bus_name": "Music"})
	Assert.eq(again["status"], "returned", "adding an existing bus returns it")
	Assert.is_true(_fx.context.edits.undo(), "undo the effect")
	Assert.eq(AudioServer.get_bus_effect_count(1), 0, "the effect is gone")
	Assert.is_true(_fx.context.edits.undo(), "undo the bus")
	Assert.eq(AudioServer.bus_count, 1, "only Master again")
	Assert.eq(FileAccess.file_exists(LAYOUT), _file_existed, "the layout file is as it was")
	Assert.is_true(_fx.context.edits.redo(), "redo the bus")
	Assert.eq(AudioServer.get_bus_name(1), "Music", "the bus is back")


func test_set_remove_and_refusals() -> void:
	_fx.invoke("audiobus.edit", {"action": "add_bus", "bus_name": "Sfx"})
	_fx.invoke("audiobus.edit", {"action": "add_bus", "bus_name": "Ui", "send_to": "Sfx"})
	Assert.eq(AudioServer.get_bus_send(2), &"Sfx", "send_to applied on add")
	var changed := _fx.invoke("audiobus.edit", {"action": "set_bus", "bus_index": 1, "mute": true, "volume_db": -3})
	Assert.eq([changed["bus"]["mute"], changed["bus"]["volume_db"]], [true, -3.0], "set_bus changes the fields")
	var before := AudioServer.generate_bus_layout()
	var unknown := _fx.invoke("audiobus.edit", ResultExamples.params("audio", "audiobus.edit", 2))
	ResultExamples.check("audio", "audiobus.edit", unknown, 2)
	Assert.eq(_fx.invoke("audiobus.edit", {"action": "remove_bus", "bus_index": 0})["code"], "INVALID_PARAMS",
		"Master stays")
	Assert.eq(_fx.invoke("audiobus.edit", {"action": "add_effect", "bus_name": "Sfx",
		"effect": {"type": "Node"}})["code"],
		"INVALID_PARAMS", "only AudioEffect classes")
	Assert.eq(_fx.invoke("audiobus.edit", {"action": "add_effect", "bus_name": "Sfx",
		"effect": {"type": "AudioEffectDelay",
			"properties": {"nope": 1}}})["code"], "INVALID_PARAMS", "unknown property")
	Assert.eq(_fx.invoke("audiobus.edit", {"action": "remove_effect", "bus_name": "Sfx",
		"effect": {"type": "AudioEffectDelay"}})["code"], "NOT_FOUND", "no such effect")
	Assert.eq(_fx.invoke("audiobus.edit", {"action": "set_bus", "bus_name": "Sfx", "send_to": "Gone"})["code"],
		"NOT_FOUND",
		"send_to must exist")
	Assert.eq(_fx.invoke("audiobus.edit", {"action": "set_bus", "bus_name": "Sfx", "volume_db": 99})["code"],
		"INVALID_PARAMS",
		"volume out of range")
	Assert.eq(AudioServer.generate_bus_layout().get("bus/1/mute"), before.get("bus/1/mute"), "refusals change nothing")
	Assert.eq(AudioServer.bus_count, 3, "no bus added or removed")
	var removed := _fx.invoke("audiobus.edit", {"action": "remove_bus", "bus_name": "Sfx"})
	Assert.eq([removed["removed"]["name"], AudioServer.bus_count], ["Sfx", 2], "remove_bus names what it removed")
	Assert.is_true(_fx.context.edits.undo(), "undo the removal")
	Assert.eq([AudioServer.get_bus_name(1), AudioServer.is_bus_mute(1)], ["Sfx", true], "the bus is back as it was")

