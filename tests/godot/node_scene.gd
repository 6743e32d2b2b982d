extends RefCounted
## The throwaway scene the node command tests share, with a registry holding the node and control
## domains over a runtime context; saving writes SCENE_PATH so a test can reload what was saved.

const Assert := preload("assert.gd")
const ResultExamples := preload("result_examples.gd")
const CommandRegistry := preload("res://addons/godot_mcp_toolkit/transport/mcp_toolkit_command_registry.gd")
const RuntimeContext := preload("res://addons/godot_mcp_toolkit/context/runtime_context.gd")
const CommandDomains := preload("res://addons/godot_mcp_toolkit/commands/command_domains.gd")

const DIR := "res://tmp_tests/node"
const SCENE_PATH := DIR + "/main.tscn"
const SCRIPT_PATH := DIR + "/mover.gd"
const DOMAINS: Array[String] = [
	"res://addons/godot_mcp_toolkit/commands/node/node_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/node/control_commands.gd",
]

var _root: Node2D = null
var _context: RuntimeContext = null
var _registry: CommandRegistry = null
## Scenes instantiated from the saved file, freed in cleanup().
var _reloaded: Array[Node] = []


## Main (Node2D, saved at SCENE_PATH)
##   Player (Node2D, position 10,20) / Sprite (Sprite2D)
##   Enemy (Node2D, position 100,0)
##   UI (Control 200x100) / Panel (Control)
func _init() -> void:
	DirAccess.make_dir_recursive_absolute(DIR)
	_root = Node2D.new()
	_root.name = "Main"
	_root.scene_file_path = SCENE_PATH
	var player := _add(_root, Node2D.new(), "Player")
	(player as Node2D).position = Vector2(10, 20)
	_add(player, Sprite2D.new(), "Sprite")
	(_add(_root, Node2D.new(), "Enemy") as Node2D).position = Vector2(100, 0)
	var ui := _add(_root, Control.new(), "UI") as Control
	ui.size = Vector2(200, 100)
	_add(ui, Control.new(), "Panel")
	Engine.get_main_loop().root.add_child(_root)
	_context = RuntimeContext.new(_root)
	_registry = CommandRegistry.new()
	CommandDomains.register_all(_registry, _context, DOMAINS)


func cleanup() -> void:
	for instance: Node in _reloaded:
		instance.free()
	if is_instance_valid(_root):
		_root.get_parent().remove_child(_root)
		_root.free()
	for file_name: String in DirAccess.get_files_at(DIR):
		DirAccess.remove_absolute(DIR.path_join(file_name))
	DirAccess.remove_absolute(DIR)


func _call(method: String, params: Dictionary) -> Dictionary:
	var handler: Callable = _registry.dispatch_info(method)["handler"]
	# Through JSON, as the wire delivers it (numbers become floats).
	return handler.callv([JSON.parse_string(JSON.stringify(params))])


func _add(parent: Node, child: Node, child_name: String) -> Node:
	child.name = child_name
	parent.add_child(child)
	child.owner = _root
	return child


func _write_script(source: String, path: String = SCRIPT_PATH) -> void:
	var file := FileAccess.open(path, FileAccess.WRITE)
	file.store_string(source)
	file.close()


## Saves the scene through the context and instantiates the file it wrote.
func _save_and_reload() -> Node:
	Assert.eq(_context.scenes.save_scene(""), OK, "saved")
	var packed := ResourceLoader.load(SCENE_PATH, "", ResourceLoader.CACHE_MODE_IGNORE) as PackedScene
	var instance := packed.instantiate()
	_reloaded.append(instance)
	return instance


func _names(entries: Array) -> Array:
	var out := []
	for entry: Dictionary in entries:
		out.append(entry["name"])
	return out


func _child_names(node: Node) -> Array:
	var out := []
	for child: Node in node.get_children():
		out.append(String(child.name))
	return out
