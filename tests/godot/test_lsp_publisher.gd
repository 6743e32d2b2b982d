extends RefCounted
## paths/lsp_publisher.gd against a stand-in for EditorSettings: the endpoint it publishes, and
## endpoint_changed only when host or port really moved.

const Assert := preload("assert.gd")
const LspPublisher := preload("res://addons/godot_mcp_toolkit/paths/lsp_publisher.gd")


## Has what the publisher uses of EditorSettings: has_setting, get_setting, settings_changed.
class FakeSettings:
	extends RefCounted
	signal settings_changed
	var values: Dictionary = {}

	func has_setting(setting_name: String) -> bool:
		return values.has(setting_name)

	func get_setting(setting_name: String) -> Variant:
		return values[setting_name]


func test_endpoint_from_settings_and_defaults() -> void:
	var settings := FakeSettings.new()
	Assert.eq(LspPublisher.resolve_lsp_endpoint(null), {"host": "127.0.0.1", "port": 6005}, "no editor settings")
	Assert.eq(LspPublisher.resolve_lsp_endpoint(settings), {"host": "127.0.0.1", "port": 6005}, "unset")
	settings.values = {LspPublisher.HOST_SETTING: " 10.0.0.2 ", LspPublisher.PORT_SETTING: 7007}
	Assert.eq(LspPublisher.resolve_lsp_endpoint(settings), {"host": "10.0.0.2", "port": 7007}, "from settings")
	settings.values[LspPublisher.PORT_SETTING] = 70000
	Assert.eq(LspPublisher.resolve_lsp_endpoint(settings)["port"], 6005, "an impossible port falls back")


func test_changes_are_announced_once_and_stop_disconnects() -> void:
	var settings := FakeSettings.new()
	var publisher := LspPublisher.new()
	var seen: Array = []
	publisher.endpoint_changed.connect(func(host: String, port: int) -> void: seen.append([host, port]))
	publisher.start(settings)
	Assert.eq(publisher.current(), {"host": "127.0.0.1", "port": 6005}, "starts from the settings")
	settings.settings_changed.emit()
	Assert.eq(seen, [], "an unrelated change is not announced")
	settings.values[LspPublisher.PORT_SETTING] = 6010
	settings.settings_changed.emit()
	Assert.eq(seen, [["127.0.0.1", 6010]], "a port change is")
	publisher.stop()
	settings.values[LspPublisher.PORT_SETTING] = 6011
	settings.settings_changed.emit()
	Assert.eq(seen.size(), 1, "nothing after stop")
