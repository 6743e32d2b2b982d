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

## key -> {default, min, max}; limits are clamped to [min, max] on read so a hand-edited
## project.godot cannot starve or flood the transport.
const DEFINITIONS := {
	WS_BUFFER_KB: {"default": 1024, "min": 64, "max": 65536},
	SAVE_READ_CAP_KB: {"default": 256, "min": 1, "max": 65536},
	SCRIPT_READ_CAP_KB: {"default": 256, "min": 1, "max": 65536},
	SCAN_IDLE_TIMEOUT_MS: {"default": 5000, "min": 100, "max": 600000},
	MUTATION_WATCHDOG_GRACE_MS: {"default": 60000, "min": 0, "max": 3600000},
	AUDIT_ENABLED: {"default": true},
}


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


## Writes an integer key for this editor session, clamped; returns the value stored. The editor
## persists it with the rest of the project settings.
static func set_int(key: String, value: int) -> int:
	var bounds := bounds_of(key)
	var stored := clampi(value, bounds.x, bounds.y)
	ProjectSettings.set_setting(key, stored)
	return stored


static func _property_info(key: String, definition: Dictionary) -> Dictionary:
	if definition["default"] is bool:
		return {"name": key, "type": TYPE_BOOL}
	return {
		"name": key,
		"type": TYPE_INT,
		"hint": PROPERTY_HINT_RANGE,
		"hint_string": "%d,%d" % [definition["min"], definition["max"]],
	}
