@tool
extends RefCounted
## Resolves the GDScript language-server endpoint this editor advertises (contract C19).
##
## The editor's settings object arrives untyped (has_setting/get_setting/settings_changed are all
## it needs), so this file names no Editor* class and its logic is tested in any engine. The
## registry client stays export-clean by receiving host/port as plain values from here.
## The bridge verifies the endpoint and reports the verdict back (C15); this file only publishes
## the intended one and tells its owner when the user edits it.

signal endpoint_changed(host: String, port: int)

const HOST_SETTING := "network/language_server/remote_host"
const PORT_SETTING := "network/language_server/remote_port"
const DEFAULT_HOST := "127.0.0.1"
## Godot's own default for PORT_SETTING; the bridge reads this figure too.
const DEFAULT_PORT := 6005

var _last: Dictionary = {}
var _settings: Object = null


## {host, port} from the editor settings (EditorSettings or anything with has_setting and
## get_setting), defaults where unset or unusable.
static func resolve_lsp_endpoint(settings: Object) -> Dictionary:
	if settings == null:
		return endpoint_from(null, null)
	return endpoint_from(_read(settings, HOST_SETTING), _read(settings, PORT_SETTING))


## Pure: turns raw setting values into {host, port}. An empty host or a port outside 1..65535
## falls back to the engine default rather than publishing something the bridge cannot dial.
static func endpoint_from(host_value: Variant, port_value: Variant) -> Dictionary:
	var host := DEFAULT_HOST
	if host_value is String and not (host_value as String).strip_edges().is_empty():
		host = (host_value as String).strip_edges()
	var port := DEFAULT_PORT
	if (port_value is int or port_value is float) and int(port_value) >= 1 and int(port_value) <= 65535:
		port = int(port_value)
	return {"host": host, "port": port}


static func _read(settings: Object, setting_name: String) -> Variant:
	if not settings.call("has_setting", setting_name):
		return null
	return settings.call("get_setting", setting_name)


## Starts watching `settings` (the editor's EditorSettings); emits endpoint_changed only when host
## or port moved.
func start(settings: Object) -> void:
	_settings = settings
	_last = resolve_lsp_endpoint(settings)
	if settings != null and not settings.is_connected("settings_changed", _on_settings_changed):
		settings.connect("settings_changed", _on_settings_changed)


func stop() -> void:
	if is_instance_valid(_settings) and _settings.is_connected("settings_changed", _on_settings_changed):
		_settings.disconnect("settings_changed", _on_settings_changed)
	_settings = null


func current() -> Dictionary:
	if _last.is_empty():
		_last = resolve_lsp_endpoint(_settings)
	return _last.duplicate()


func _on_settings_changed() -> void:
	var now := resolve_lsp_endpoint(_settings)
	if now == _last:
		return
	_last = now
	endpoint_changed.emit(String(now["host"]), int(now["port"]))
