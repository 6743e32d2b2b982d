extends RefCounted
## commands/project/layer_commands.gd through the command registry with a runtime context: layer names
## written to ProjectSettings (saved to the engine's in-memory project.godot), read back wrapped,
## and undo/redo. Every layer name touched is cleared in cleanup().
## Not covered here (editor only): the inspector's layer grid tooltips picking up the names.

const Assert := preload("assert.gd")
const DomainFixture := preload("domain_fixture.gd")
const ResultExamples := preload("result_examples.gd")
const CommandDomains := preload("res://addons/godot_mcp_toolkit/commands/command_domains.gd")

const DOMAIN := "res://addons/godot_mcp_toolkit/commands/project/layer_commands.gd"
const KEYS := ["layer_names/2d_physics/layer_1", "layer_names/2d_physics/layer_2", "layer_names/3d_render/layer_5"]

var _fx: DomainFixture = null


func _init() -> void:
	var domains: Array[String] = [DOMAIN]
	_fx = DomainFixture.new(domains, "layer", null, "", "4.6.0")


func cleanup() -> void:
	for key: String in KEYS:
		ProjectSettings.set_setting(key, "")
	ProjectSettings.save()
	_fx.cleanup()


func test_registered_with_the_reference_lanes() -> void:
	Assert.is_true(DOMAIN in CommandDomains.DOMAINS, "listed in command_domains.gd")
	Assert.is_true(_fx.registry.dispatch_info("project.get_layer_names")["read_only"], "get is a read")
	Assert.is_false(_fx.registry.dispatch_info("project.set_layer_names")["read_only"], "set mutates")
	Assert.is_true(_fx.registry.dispatch_info("project.set_layer_names")["scene_independent"], "needs no scene")


func test_set_then_get_saves_and_undoes() -> void:
	var result := _fx.invoke("project.set_layer_names", ResultExamples.params("layer", "project.set_layer_names", 0))
	ResultExamples.check("layer", "project.set_layer_names", result, 0)
	Assert.eq(ProjectSettings.get_setting(KEYS[0]), "player", "layer 1 named")
	Assert.contains(_project_file(), "2d_physics/layer_2=\"walls\"", "saved to project.godot")
	var read := _fx.invoke("project.get_layer_names", ResultExamples.params("layer", "project.get_layer_names", 0))
	ResultExamples.check("layer", "project.get_layer_names", read, 0)
	var lines: PackedStringArray = read["layers"].split("\n")
	Assert.is_true(lines[0].begins_with("<untrusted-"), "names read back are wrapped")
	Assert.eq(JSON.parse_string(lines[1]), {"1": "player", "2": "walls"}, "the names by number")
	var same := _fx.invoke("project.set_layer_names", {"category": "2d_physics", "layers": {"1": "player"}})
	Assert.eq([same["saved"], same["unchanged"]], [false, PackedStringArray(["1"])],
		"an unchanged name is not rewritten")
	Assert.is_true(_fx.context.edits.undo(), "undo")
	Assert.eq([ProjectSettings.get_setting(KEYS[0]), ProjectSettings.get_setting(KEYS[1])], ["", ""],
		"undo clears both")
	Assert.is_false(_project_file().contains("walls"), "and saves")
	Assert.is_true(_fx.context.edits.redo(), "redo")
	Assert.eq(ProjectSettings.get_setting(KEYS[1]), "walls", "redo names it again")
	var cleared := _fx.invoke("project.set_layer_names", {"category": "2d_physics", "layers": {"2": ""}})
	Assert.eq(cleared["changed"], {"2": {"from": "walls", "to": ""}}, "an empty name clears the layer")


func test_refusals_change_nothing() -> void:
	var before := _project_file()
	ResultExamples.check("layer", "project.set_layer_names",
		_fx.invoke("project.set_layer_names", ResultExamples.params("layer", "project.set_layer_names", 1)), 1)
	ResultExamples.check("layer", "project.get_layer_names",
		_fx.invoke("project.get_layer_names", ResultExamples.params("layer", "project.get_layer_names", 1)), 1)
	var mixed := _fx.invoke("project.set_layer_names", {"category": "3d_render", "layers": {"5": "sky", "0": "bad"}})
	Assert.eq(mixed["code"], "INVALID_PARAMS", "one bad layer refuses the whole call")
	Assert.eq(ProjectSettings.get_setting(KEYS[2]), "", "so layer 5 stays unnamed")
	Assert.eq(_fx.invoke("project.set_layer_names", {"category": "3d_render", "layers": {"5": 7}})["code"],
		"INVALID_PARAMS", "a name must be text")
	Assert.eq(_fx.invoke("project.set_layer_names", {"category": "3d_render"})["code"], "INVALID_PARAMS",
		"layers required")
	Assert.eq(_project_file(), before, "project.godot untouched")


func _project_file() -> String:
	return FileAccess.get_file_as_string("res://project.godot")
