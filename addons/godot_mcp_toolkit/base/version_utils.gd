@tool
extends RefCounted
## Engine and plugin version facts for the auth ack and the version gate (contract C2, C5).
## Runtime-safe: names no Editor* class.

const PLUGIN_CFG := "res://addons/godot_mcp_toolkit/plugin.cfg"


## "M.m.p" of the running engine.
static func engine_version() -> String:
	var info := Engine.get_version_info()
	return "%d.%d.%d" % [int(info.get("major", 0)), int(info.get("minor", 0)), int(info.get("patch", 0))]


static func plugin_version() -> String:
	var config := ConfigFile.new()
	if config.load(PLUGIN_CFG) != OK:
		return "0.0.0"
	return str(config.get_value("plugin", "version", "0.0.0"))


static func is_headless() -> bool:
	return DisplayServer.get_name() == "headless"


## Compares `version` with `bound` on the components the bound names, so "4.5" covers 4.5.x:
## -1 below, 0 within, 1 above.
static func compare(version: String, bound: String) -> int:
	var have := version.split(".")
	var want := bound.split(".")
	for index in range(want.size()):
		var left := have[index].to_int() if index < have.size() else 0
		var right := want[index].to_int()
		if left != right:
			return -1 if left < right else 1
	return 0


## Inclusive; an empty bound is open.
static func within(version: String, min_version: String, max_version: String) -> bool:
	if not min_version.is_empty() and compare(version, min_version) < 0:
		return false
	return max_version.is_empty() or compare(version, max_version) <= 0
