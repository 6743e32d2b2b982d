extends RefCounted
## Every refusal tells the caller what to do next. Each tool of the catalogue (catalogue/tools/*.json)
## whose method the toolkit serves, in the editor or in the game, is called through its handler with
## its parameters wrongly typed: one at a time, and all required ones at once. Each answer must be a
## refusal with a known code and a non-empty hint; a wrongly typed parameter accepted in silence
## fails the test too. The bridge validates types before sending, but the reference bridge does
## not, so the toolkit must refuse on its own.
##
## Not covered here: refusals that need a well-formed call to reach (a missing node, a file that
## does not parse); the domain tests cover those with their own scenes.

const Assert := preload("assert.gd")
const CommandDomains := preload("res://addons/godot_mcp_toolkit/commands/command_domains.gd")
const RuntimeDomains := preload("res://addons/godot_mcp_toolkit/runtime/runtime_domains.gd")
const CommandRegistry := preload("res://addons/godot_mcp_toolkit/transport/mcp_toolkit_command_registry.gd")
const RuntimeContext := preload("res://addons/godot_mcp_toolkit/context/runtime_context.gd")
const DomainFixture := preload("domain_fixture.gd")
const ToolkitError := preload("res://addons/godot_mcp_toolkit/contract/mcp_toolkit_error.gd")

const CATALOGUE_DIR := "res://catalogue/tools"
## A value of the wrong JSON type for each schema type.
const WRONG := {"string": 12345, "number": "twelve", "integer": "twelve", "boolean": "yes",
	"array": "not a list", "object": "not an object"}
## Parameters the bridge takes out before the call reaches the toolkit.
const BRIDGE_ONLY := ["thumbnail"]

var _root: Node2D = null
var _registries: Array[CommandRegistry] = []


func _init() -> void:
	_root = Node2D.new()
	_root.name = "Main"
	var player := Node2D.new()
	player.name = "Player"
	_root.add_child(player)
	player.owner = _root
	(Engine.get_main_loop() as SceneTree).root.add_child(_root)
	var context := RuntimeContext.new(_root)
	var editor := CommandRegistry.new()
	CommandDomains.register_all(editor, context)
	var game := CommandRegistry.new()
	RuntimeDomains.register_all(game, context)
	_registries = [editor, game]


func cleanup() -> void:
	if is_instance_valid(_root):
		_root.get_parent().remove_child(_root)
		_root.free()


func test_every_wrongly_typed_parameter_is_refused_with_a_hint() -> void:
	var tools := _catalogue_tools()
	Assert.is_true(tools.size() > 100, "the catalogue was read (%d tools)" % tools.size())
	var probed := 0
	var silent := PackedStringArray()
	var bare := PackedStringArray()
	for tool: Dictionary in tools:
		var info := _dispatch_info(str(tool.get("method", "")))
		if info.is_empty():
			continue
		for params: Dictionary in _probes(tool["input_schema"]):
			var result: Variant = DomainFixture.call_handler(info, params.duplicate(true))
			if not result is Dictionary:
				continue  # a coroutine that got past its checks: not a refusal to judge
			probed += 1
			var where := "%s %s" % [tool["name"], JSON.stringify(params)]
			if not ToolkitError.is_failure(result):
				silent.append(where)
				continue
			var envelope: Dictionary = result
			if not ToolkitError.is_known_code(envelope.get("code")) or str(envelope.get("hint", "")).is_empty():
				bare.append("%s -> %s" % [where, JSON.stringify(envelope)])
	Assert.is_true(probed > 300, "the sweep called the handlers (%d calls)" % probed)
	Assert.eq(Array(bare), [], "refusals without a known code and a hint")
	Assert.eq(Array(silent), [], "wrongly typed parameters accepted in silence")


## Each property alone with a wrong value, then every required property wrong at once.
static func _probes(schema: Dictionary) -> Array[Dictionary]:
	var properties: Dictionary = schema.get("properties", {})
	var probes: Array[Dictionary] = []
	var all_required := {}
	for name: String in properties:
		var wrong: Variant = _wrong_value(properties[name])
		if wrong == null or name in BRIDGE_ONLY:
			continue
		probes.append({name: wrong})
		if name in schema.get("required", []):
			all_required[name] = wrong
	if all_required.size() > 1:
		probes.append(all_required)
	return probes


## null when the schema takes any value (no type, or several forms).
static func _wrong_value(property: Variant) -> Variant:
	if not property is Dictionary or (property as Dictionary).has("anyOf"):
		return null
	var type: Variant = property.get("type")
	return WRONG.get(type) if type is String else null


func _dispatch_info(method: String) -> Dictionary:
	for registry: CommandRegistry in _registries:
		if registry.is_dispatchable(method):
			return registry.dispatch_info(method)
	return {}


static func _catalogue_tools() -> Array[Dictionary]:
	var tools: Array[Dictionary] = []
	for file_name: String in DirAccess.get_files_at(CATALOGUE_DIR):
		if not file_name.ends_with(".json"):
			continue
		var parsed: Variant = JSON.parse_string(FileAccess.get_file_as_string(CATALOGUE_DIR.path_join(file_name)))
		if parsed is Dictionary:
			for tool: Variant in (parsed as Dictionary).get("tools", []):
				if tool is Dictionary and (tool as Dictionary).get("input_schema") is Dictionary:
					tools.append(tool)
	return tools
