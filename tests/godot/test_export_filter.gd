extends RefCounted
## editor/export_filter.gd: what an export keeps of the addon (only the inert autoload stub).

const Assert := preload("assert.gd")
const ExportFilter := preload("res://addons/godot_mcp_toolkit/editor/export_filter.gd")


func test_everything_but_the_autoload_stub_is_stripped() -> void:
	Assert.is_true(ExportFilter.should_strip("res://addons/godot_mcp_toolkit/runtime/mcp_runtime_server.gd"), "server")
	Assert.is_true(ExportFilter.should_strip("res://addons/godot_mcp_toolkit/plugin.gd"), "plugin")
	Assert.is_false(ExportFilter.should_strip("res://addons/godot_mcp_toolkit/runtime/mcp_runtime_autoload.gd"), "stub")
	Assert.is_false(ExportFilter.should_strip("res://addons/godot_mcp_toolkit/runtime/mcp_runtime_autoload.gd.uid"),
		"its uid")
	Assert.is_false(ExportFilter.should_strip("res://scenes/main.tscn"), "game files")
	Assert.is_false(ExportFilter.should_strip("res://addons/other_addon/x.gd"), "other addons")
