extends RefCounted
## transport/port_config.gd: default bands, pins, moved bands, and loud errors for bad values.

const Assert := preload("assert.gd")
const PortConfig := preload("res://addons/godot_mcp_toolkit/transport/port_config.gd")


func test_default_bands() -> void:
	var editor := PortConfig.resolve(_env({}), PortConfig.MODE_EDITOR)
	Assert.is_true(editor["ok"], "resolves")
	Assert.is_false(editor["pinned"], "a band")
	Assert.eq(editor["ports"].front(), 6550, "editor band start")
	Assert.eq(editor["ports"].back(), 6560, "editor band end")
	Assert.eq(editor["ports"].size(), 11, "inclusive")
	var runtime := PortConfig.resolve(_env({}), PortConfig.MODE_RUNTIME)
	Assert.eq([runtime["ports"].front(), runtime["ports"].back()], [6570, 6585], "runtime band")


func test_pin_is_exact() -> void:
	var pinned := PortConfig.resolve(_env({"GODOT_MCP_EDITOR_PORT": " 7001 ", "GODOT_MCP_EDITOR_PORT_MIN": "9000"}),
		PortConfig.MODE_EDITOR)
	Assert.eq(pinned["ports"], [7001], "only the pinned port")
	Assert.is_true(pinned["pinned"], "pinned")
	Assert.eq(pinned["source"], "GODOT_MCP_EDITOR_PORT", "names its source")
	var runtime := PortConfig.resolve(_env({"GODOT_MCP_RUNTIME_PORT": "7100"}), PortConfig.MODE_RUNTIME)
	Assert.eq(runtime["ports"], [7100], "runtime pin")


func test_band_can_move() -> void:
	var moved := PortConfig.resolve(_env({"GODOT_MCP_EDITOR_PORT_MIN": "7000", "GODOT_MCP_EDITOR_PORT_MAX": "7002"}),
		PortConfig.MODE_EDITOR)
	Assert.eq(moved["ports"], [7000, 7001, 7002], "moved band")
	var raised := PortConfig.resolve(_env({"GODOT_MCP_RUNTIME_PORT_MIN": "6580"}), PortConfig.MODE_RUNTIME)
	Assert.eq(raised["ports"].front(), 6580, "only MIN moved")
	Assert.eq(raised["ports"].back(), 6585, "MAX kept")


func test_bad_values_fail_loudly() -> void:
	var cases := {
		"GODOT_MCP_EDITOR_PORT": "65536",
		"GODOT_MCP_EDITOR_PORT_MIN": "abc",
		"GODOT_MCP_EDITOR_PORT_MAX": "0",
	}
	for variable: String in cases:
		var result := PortConfig.resolve(_env({variable: cases[variable]}), PortConfig.MODE_EDITOR)
		Assert.is_false(result["ok"], "%s=%s refused" % [variable, cases[variable]])
		Assert.eq(result["ports"], [], "no fallback ports")
		Assert.contains(result["error"], variable, "error names the variable")
	var inverted := PortConfig.resolve(_env({"GODOT_MCP_EDITOR_PORT_MIN": "7000", "GODOT_MCP_EDITOR_PORT_MAX": "6999"}),
		PortConfig.MODE_EDITOR)
	Assert.is_false(inverted["ok"], "MIN > MAX refused")
	Assert.is_false(PortConfig.resolve(_env({}), "both")["ok"], "unknown mode")


func _env(values: Dictionary) -> Callable:
	return func(name: String) -> String: return str(values.get(name, ""))
