@tool
extends EditorExportPlugin
## Keeps the toolkit out of exported games (contract C20): every file of the addon is skipped
## except the autoload stub, which must stay because project.godot still names it. The stub finds
## no server to load in an export, and its own feature check keeps it inert regardless.
## Editor-only.

const ADDON_DIR := "res://addons/godot_mcp_toolkit/"
const KEEP := ["res://addons/godot_mcp_toolkit/runtime/mcp_runtime_autoload.gd"]


func _get_name() -> String:
	return "GodotMcpToolkitStripper"


func _export_file(path: String, _type: String, _features: PackedStringArray) -> void:
	if should_strip(path):
		skip()


## Pure, for tests: true for addon files other than the autoload stub (and its .uid sidecar).
static func should_strip(path: String) -> bool:
	if not path.begins_with(ADDON_DIR):
		return false
	for kept: String in KEEP:
		if path == kept or path == kept + ".uid":
			return false
	return true
