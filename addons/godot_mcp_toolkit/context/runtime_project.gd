@tool
extends "res://addons/godot_mcp_toolkit/context/project_role.gd"
## The runtime context's project: files handed to the (absent) editor index and rescans are
## recorded, a busy countdown stands in for a scan, settings live in a dictionary, and the project
## folder is one a test points at a scratch project. Runtime-safe.

## What was asked, in order, for tests to assert on.
var refreshed_files := PackedStringArray()
var scans := 0
## Frames is_busy() still answers true (a test sets it to simulate a scan).
var busy_polls := 0
## The folder test commands treat as the project (tests point it at a scratch project).
var project_dir := "res://"

var _settings: Dictionary = {}


func refresh_files(paths: PackedStringArray) -> void:
	refreshed_files.append_array(paths)


func scan_files() -> void:
	scans += 1


func is_busy() -> bool:
	if busy_polls > 0:
		busy_polls -= 1
		return true
	return false


func project_root() -> String:
	return project_dir


func get_editor_setting(name: String, default: Variant = null) -> Variant:
	return _settings.get(name, default)


func set_editor_setting(name: String, value: Variant) -> void:
	_settings[name] = value
