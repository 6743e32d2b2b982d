@tool
extends RefCounted
## The command files that run against the editor seam (context/toolkit_context.gd), by domain:
## `commands/<domain>/*_commands.gd`, each with
## `static func register(registry: RefCounted, context: RefCounted) -> void`; <domain> is the name
## of the catalogue file `catalogue/tools/<domain>.json` that holds those commands' tools. The
## plugin registers them with its editor context; tests register them with a runtime context. Add a
## command file here, in one line, and both pick it up. The game's own command files are listed in
## runtime/runtime_domains.gd; meta/ and editor/lsp_status_commands.gd serve the wire itself and
## are registered by core/toolkit_app.gd.

const DOMAINS: Array[String] = [
	"res://addons/godot_mcp_toolkit/commands/3d/3d_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/animation/animation_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/asset/asset_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/audio/audio_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/checkpoints/checkpoint_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/classdb/classdb_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/debug/debug_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/editor/confirm_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/editor/console_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/editor/editor_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/filesystem/filesystem_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/game/game_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/generate/generate_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/history/history_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/navigation/navigation_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/node/control_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/node/node_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/particles/particles_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/path/path_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/performance/scene_stats_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/procedural/procedural_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/project/input_map_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/project/layer_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/project/project_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/resource/resource_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/runtime/execute_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/runtime/game_log_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/save/save_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/scene/scene_advanced_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/scene/scene_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/scene/scene_file_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/scene/scene_inheritance_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/script/script_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/shader/shader_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/signal/signal_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/spriteframes/spriteframes_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/testing/testing_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/theme/theme_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/tilemap/tilemap_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/tileset/tileset_commands.gd",
	"res://addons/godot_mcp_toolkit/commands/tileset/tileset_edit_commands.gd",
]


## Registers every domain in `domains` (default: DOMAINS; tests pass their own).
static func register_all(registry: RefCounted, context: RefCounted, domains: Array[String] = DOMAINS) -> void:
	for path: String in domains:
		var script := load(path) as Script
		if script == null:
			push_error("MCP toolkit: command domain %s does not load; its commands are off" % path)
			continue
		script.call("register", registry, context)
