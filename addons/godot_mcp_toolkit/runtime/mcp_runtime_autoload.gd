extends Node
## Mode B entry point (contract C20), registered by the plugin as the MCPToolkitRuntime autoload.
##
## The one toolkit file an exported game still loads, so it must stay tiny and export-clean
## (no Editor* names, nothing preloaded): it starts the runtime server only in a game launched
## from the editor (OS.has_feature("editor") is false in export templates), and never inside the
## editor itself. The export plugin also strips the server from exports; the feature check is what
## keeps a stray autoload inert even when it is not.

const SERVER_PATH := "res://addons/godot_mcp_toolkit/runtime/mcp_runtime_server.gd"

var _server: Node = null


func _ready() -> void:
	if Engine.is_editor_hint() or not OS.has_feature("editor") or is_script_run(OS.get_cmdline_args()):
		return
	if not ResourceLoader.exists(SERVER_PATH):
		return
	var script := load(SERVER_PATH) as Script
	if script == null:
		return
	_server = script.new() as Node
	if _server == null:
		return
	_server.name = "MCPRuntimeServer"
	add_child(_server)


## A process started with --script is not a game: test_run's GUT / gdUnit4 processes (started from
## the editor's binary, so with the editor feature) would otherwise publish a runtime port that the
## bridge takes for the game's.
static func is_script_run(args: PackedStringArray) -> bool:
	return "-s" in args or "--script" in args
