@tool
extends RefCounted
## What an export keeps of the addon (contract C20): every file is stripped except the autoload
## stub, which must stay because project.godot still names it. Pure, so it is tested in any
## engine; editor/export_stripper.gd is the thin EditorExportPlugin that applies it.

const ADDON_DIR := "res://addons/godot_mcp_toolkit/"
const KEEP := ["res://addons/godot_mcp_toolkit/runtime/mcp_runtime_autoload.gd"]


## True for addon files other than the autoload stub (and its .uid sidecar).
static func should_strip(path: String) -> bool:
	if not path.begins_with(ADDON_DIR):
		return false
	for kept: String in KEEP:
		if path == kept or path == kept + ".uid":
			return false
	return true
