@tool
extends RefCounted
## Every ProjectSettings key the toolkit reads (contract C22), with its default and bounds.
## The single place a key string appears: code reads through get_int()/get_bool() with the
## constants below, and a CI check holds "settings read" to this list. Runtime-safe: the game
## process reads its own project's values through the same defaults.

const WS_BUFFER_KB := "mcp_toolkit/limits/ws_buffer_kb"
const SAVE_READ_CAP_KB := "mcp_toolkit/limits/save_read_cap_kb"
const SCRIPT_READ_CAP_KB := "mcp_toolkit/limits/script_read_cap_kb"
const SCAN_IDLE_TIMEOUT_MS := "mcp_toolkit/concurrency/scan_idle_timeout_ms"
const MUTATION_WATCHDOG_GRACE_MS := "mcp_toolkit/concurrency/mutation_watchdog_grace_ms"
const AUDIT_ENABLED := "mcp_toolkit/audit/enabled"

const ProjectWrites := preload("res://addons/godot_mcp_toolkit/checkpoints/project_writes.gd")

## key -> {default, min, max}; limits are clamped to [min, max] on read so a hand-edited
## project.godot cannot starve or flood the transport.
const DEFINITIONS := {
	WS_BUFFER_KB: {"default": 1024, "min": 64, "max": 65536},
	SAVE_READ_CAP_KB: {"default": 256, "min": 1, "max": 65536},
	SCRIPT_READ_CAP_KB: {"default": 256, "min": 1, "max": 65536},
	SCAN_IDLE_TIMEOUT_MS: {"default": 5000, "min": 100, "max": 600000},
	MUTATION_WATCHDOG_GRACE_MS: {"default": 5000, "min": 0, "max": 3600000},
	AUDIT_ENABLED: {"default": true},
}

## How set_int makes a change last; empty means _save_project_settings. Tests swap in a fake so
## they never rewrite the project file.
static var _persister := Callable()


## Adds every key (keeping a value the user already set) with its default as the initial value,
## so the engine leaves project.godot untouched until someone changes one.
static func register_all() -> void:
	for key: String in DEFINITIONS:
		var definition: Dictionary = DEFINITIONS[key]
		var default_value: Variant = definition["default"]
		if not ProjectSettings.has_setting(key):
			ProjectSettings.set_setting(key, default_value)
		ProjectSettings.set_initial_value(key, default_value)
		ProjectSettings.add_property_info(_property_info(key, definition))


## Removes the keys still at their default; a value the user chose survives disabling the plugin.
static func unregister_unchanged() -> void:
	for key: String in DEFINITIONS:
		if not ProjectSettings.has_setting(key):
			continue
		var current: Variant = ProjectSettings.get_setting(key)
		var default_value: Variant = DEFINITIONS[key]["default"]
		# Typed compare first: == between unrelated Variant types is a runtime error in Godot 4.
		if typeof(current) == typeof(default_value) and current == default_value:
			ProjectSettings.set_setting(key, null)


static func keys() -> PackedStringArray:
	return PackedStringArray(DEFINITIONS.keys())


static func default_of(key: String) -> Variant:
	return DEFINITIONS[key]["default"] if DEFINITIONS.has(key) else null


## The value of an integer key, clamped; the default when unset or not a number.
static func get_int(key: String) -> int:
	assert(DEFINITIONS.has(key), "MCP toolkit: setting %s is not registered" % key)
	var definition: Dictionary = DEFINITIONS[key]
	var value: Variant = ProjectSettings.get_setting(key, definition["default"])
	if not (value is int or value is float):
		value = definition["default"]
	return clampi(int(value), int(definition["min"]), int(definition["max"]))


static func get_bool(key: String) -> bool:
	assert(DEFINITIONS.has(key), "MCP toolkit: setting %s is not registered" % key)
	var value: Variant = ProjectSettings.get_setting(key, DEFINITIONS[key]["default"])
	return value if value is bool else bool(DEFINITIONS[key]["default"])


## [min, max] of an integer key, for callers that validate before writing.
static func bounds_of(key: String) -> Vector2i:
	var definition: Dictionary = DEFINITIONS.get(key, {})
	return Vector2i(int(definition.get("min", 0)), int(definition.get("max", 0)))


static func set_persister(persister: Callable) -> void:
	_persister = persister


## Writes an integer key, clamped, and saves the project settings when the value changed, so a
## limit set through meta.set_limits survives an editor restart; returns the value stored. The
## key's default is declared as its initial value first: the engine's writer leaves out any
## setting equal to its initial value, so a key at its default never lands in project.godot.
static func set_int(key: String, value: int) -> int:
	var bounds := bounds_of(key)
	var stored := clampi(value, bounds.x, bounds.y)
	var changed := stored != get_int(key)
	if not changed and ProjectSettings.has_setting(key):
		return stored
	ProjectSettings.set_setting(key, stored)
	ProjectSettings.set_initial_value(key, DEFINITIONS[key]["default"])
	if not changed:
		return stored
	# Called directly, not taken as a Callable: static functions as Callables inside static
	# functions do not resolve on 4.2.0/4.2.1.
	var error: int = _persister.call() if _persister.is_valid() else _save_project_settings()
	if error != OK:
		push_warning("MCP toolkit: %s set to %d for this session only; saving project settings failed (%s)"
			% [key, stored, error_string(error)])
	return stored


## project.godot belongs to the editor: outside it (a running game, a headless test) a change
## lasts for the session only and the project file is never written.
static func _save_project_settings() -> Error:
	if not Engine.is_editor_hint():
		return OK
	return ProjectWrites.save_project_settings()


static func _property_info(key: String, definition: Dictionary) -> Dictionary:
	if definition["default"] is bool:
		return {"name": key, "type": TYPE_BOOL}
	return {
		"name": key,
		"type": TYPE_INT,
		"hint": PROPERTY_HINT_RANGE,
		"hint_string": "%d,%d" % [definition["min"], definition["max"]],
	}
