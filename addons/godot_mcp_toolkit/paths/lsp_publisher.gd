@tool
extends RefCounted
## Resolves the GDScript language-server endpoint this editor advertises (contract C19).
##
## Editor-only: it reads EditorSettings, so nothing the game process loads may preload it. The
## registry client stays export-clean by receiving host/port as plain values from here.
## The bridge verifies the endpoint and reports the verdict back (C15); this file only publishes
## the intended one and tells its owner when the user edits it.

signal endpoint_changed(host: String, port: int)

const HOST_SETTING := "network/language_server/remote_host"
const PORT_SETTING := "network/language_server/remote_port"
const DEFAULT_HOST := "127.0.0.1"
const DEFAULT_PORT := 6005

var _last: Dictionary = {}
var _settings: Object = null


## {host, port} from the editor settings, defaults where unset or unusable.
static func resolve_lsp_endpoint() -> Dictionary:
	var settings := EditorInterface.get_editor_settings()
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


static func _read(settings: EditorSettings, setting_name: String) -> Variant:
	if not settings.has_setting(setting_name):
		return null
	return settings.get_setting(setting_name)


## Starts watching the editor settings; emits endpoint_changed only when host or port moved.
func start() -> void:
	_last = resolve_lsp_endpoint()
	var settings := EditorInterface.get_editor_settings()
	if settings != null and not settings.settings_changed.is_connected(_on_settings_changed):
		settings.settings_changed.connect(_on_settings_changed)
		_settings = settings


func stop() -> void:
	var settings := _settings as EditorSettings
	if settings != null and settings.settings_changed.is_connected(_on_settings_changed):
		settings.settings_changed.disconnect(_on_settings_changed)
	_settings = null


func current() -> Dictionary:
	if _last.is_empty():
		_last = resolve_lsp_endpoint()
	return _last.duplicate()


func _on_settings_changed() -> void:
	var now := resolve_lsp_endpoint()
	if now == _last:
		return
	_last = now
	endpoint_changed.emit(String(now["host"]), int(now["port"]))
