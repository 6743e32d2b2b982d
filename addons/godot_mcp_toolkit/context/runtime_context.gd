@tool
extends "res://addons/godot_mcp_toolkit/context/toolkit_context.gd"
## The context outside the editor: plain UndoRedo histories over a given scene root. Used by the
## GDScript tests (so command logic and its undo run in any engine, the web build included) and by
## anything in the running game. Its roles record what was asked so a test can assert it
## (runtime_scenes.gd, runtime_project.gd, runtime_game.gd, runtime_debugger.gd,
## runtime_viewport.gd, runtime_host.gd); the same objects are held below under their own types,
## so a test reads and sets them without a cast.

const UndoHistories := preload("res://addons/godot_mcp_toolkit/context/undo_histories.gd")
const RuntimeHost := preload("res://addons/godot_mcp_toolkit/context/runtime_host.gd")
const RuntimeScenes := preload("res://addons/godot_mcp_toolkit/context/runtime_scenes.gd")
const RuntimeEdits := preload("res://addons/godot_mcp_toolkit/context/runtime_edits.gd")
const RuntimeProject := preload("res://addons/godot_mcp_toolkit/context/runtime_project.gd")
const RuntimeGame := preload("res://addons/godot_mcp_toolkit/context/runtime_game.gd")
const RuntimeDebugger := preload("res://addons/godot_mcp_toolkit/context/runtime_debugger.gd")
const RuntimeViewport := preload("res://addons/godot_mcp_toolkit/context/runtime_viewport.gd")

var runtime_host: RuntimeHost = RuntimeHost.new()
var runtime_scenes: RuntimeScenes = null
var runtime_project: RuntimeProject = RuntimeProject.new()
var runtime_game: RuntimeGame = RuntimeGame.new()
var runtime_debugger: RuntimeDebugger = RuntimeDebugger.new()
var runtime_viewport: RuntimeViewport = RuntimeViewport.new()

var _histories := UndoHistories.new()


func _init(root: Node = null) -> void:
	runtime_scenes = RuntimeScenes.new(_histories, root)
	host = runtime_host
	scenes = runtime_scenes
	edits = RuntimeEdits.new(_histories, runtime_scenes)
	project = runtime_project
	game = runtime_game
	debugger = runtime_debugger
	viewport = runtime_viewport
	person = PersonRole.new(runtime_host)


func _notification(what: int) -> void:
	# UndoRedo is an Object, not reference-counted: free them with their owner.
	if what == NOTIFICATION_PREDELETE:
		_histories.free_all()
