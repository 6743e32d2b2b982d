extends RefCounted
## The command domains the running game serves (Mode B): each one a `commands/*.gd` with
## `static func register(registry: RefCounted, context: RefCounted) -> void`, registered by the
## in-game server with a runtime context over the game's current scene. Tests register them with a
## runtime context over a test scene. RUNTIME-REACHABLE: every domain listed here is loaded by the
## game, so none may name an Editor* class.

const DOMAINS: Array[String] = [
	"res://addons/godot_mcp_toolkit/commands/runtime/runtime_node_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/signal/runtime_signal_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/runtime/input_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/animation/animation_player_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/runtime/runtime_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/game_time/game_time_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/performance/performance_commands.gd",
]


static func register_all(registry: RefCounted, context: RefCounted) -> void:
	for path: String in DOMAINS:
		var script := load(path) as Script
		if script == null:
			push_error("MCP toolkit runtime: command domain %s does not load; its commands are off" % path)
			continue
		script.call("register", registry, context)
