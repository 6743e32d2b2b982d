@tool
extends EditorExportPlugin
## Keeps the toolkit out of exported games (contract C20) by applying editor/export_filter.gd to
## every exported file. Editor glue (scripts/gd_common.py EDITOR_GLUE): the rule lives in the
## filter; the autoload stub it keeps finds no server in an export and stays inert regardless.

const ExportFilter := preload("res://addons/godot_mcp_toolkit/editor/export_filter.gd")


func _get_name() -> String:
	return "GodotMcpToolkitStripper"


func _export_file(path: String, _type: String, _features: PackedStringArray) -> void:
	if ExportFilter.should_strip(path):
		skip()
