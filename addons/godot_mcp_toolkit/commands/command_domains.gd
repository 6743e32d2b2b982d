@tool
extends RefCounted
## The command domains that run against the editor seam (context/toolkit_context.gd): each one a
## `commands/*.gd` with `static func register(registry: RefCounted, context: RefCounted) -> void`.
## The plugin registers them with its editor context; tests register them with a runtime context.
## Add a domain here, in one line, and both pick it up.

const DOMAINS: Array[String] = [
	"res://addons/godot_mcp_toolkit/commands/scene_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/node_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/control_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/script_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/project_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/signal_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/console_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/execute_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/game_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/user_data_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/resource_io_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/asset_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/input_map_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/layer_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/audio_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/classdb_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/placeholder_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/procedural_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/three_d_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/theme_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/particles_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/path_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/navigation_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/tilemap_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/spriteframes_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/tileset_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/tileset_edit_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/cleanup_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/scene_advanced_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/scene_inheritance_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/debug_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/editor_advanced_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/animation_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/scene_stats_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/checkpoint_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/testing_commands.gd",
]


## Registers every domain in `domains` (default: DOMAINS; tests pass their own).
static func register_all(registry: RefCounted, context: RefCounted, domains: Array[String] = DOMAINS) -> void:
	for path: String in domains:
		var script := load(path) as Script
		if script == null:
			push_error("MCP toolkit: command domain %s does not load; its commands are off" % path)
			continue
		script.call("register", registry, context)
