@tool
extends "res://addons/godot_mcp_toolkit/context/role.gd"
## The project's files and the editor's settings: telling the editor's file index about files
## written outside it, rescans, whether it is busy, the folder test commands treat as the project,
## and the editor settings. This base is a context without an editor: nothing to tell, nothing
## busy, no settings to change. Runtime-safe.


## Tells the editor's filesystem about files written outside it (no-op without an editor).
func refresh_files(_paths: PackedStringArray) -> void:
	pass


## Asks the editor to rescan the whole project (files changed outside it).
func scan_files() -> void:
	pass


## True while the editor's filesystem scans or imports.
func is_busy() -> bool:
	return false


## The project folder the test commands read (frameworks, suites): res:// in the editor.
func project_root() -> String:
	return "res://"


## The editor's filesystem (EditorFileSystem), for the extension loader's change watch; null
## where there is none to watch.
func filesystem() -> Object:
	return null


## The editor's settings (EditorSettings), for the language-server publisher; null outside the
## editor (the publisher then uses the engine defaults).
func editor_settings() -> Object:
	return null


func get_editor_setting(_name: String, default: Variant = null) -> Variant:
	return default


func set_editor_setting(_name: String, _value: Variant) -> void:
	_unavailable("set_editor_setting")
