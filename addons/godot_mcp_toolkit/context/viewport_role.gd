@tool
extends "res://addons/godot_mcp_toolkit/context/role.gd"
## What the person sees: the editor's 2D/3D viewport as an image, and making it able to draw a
## frame first. This base has no viewport. Runtime-safe.

const SceneRole := preload("res://addons/godot_mcp_toolkit/context/scene_role.gd")

## The open scenes: the edited one is what the viewport shows (null where nothing is edited).
var _scenes: SceneRole = null


func _init(scenes: SceneRole = null) -> void:
	_scenes = scenes


## The editor's 2D/3D viewport as an Image, `focus` (a node of the edited scene, or null) framed
## when the editor can; null when there is no viewport to capture (headless, or no editor).
func capture_viewport(_focus: Node) -> Image:
	return null


## False when the viewport cannot draw a usable frame (window minimized); `force` restores it
## first. {"ok": bool, "remediation": PackedStringArray}.
func prepare_viewport(_force: bool) -> Dictionary:
	return {"ok": false, "remediation": PackedStringArray()}
