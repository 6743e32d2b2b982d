@tool
extends Node
## Editor-side owner of project extensions (contract C13, C14).
##
## Thin on purpose: discovery, guarding and diffing live in the extension_* files beside it. This
## node wires them to the editor: it registers extensions.list / extensions.refresh, loads
## extensions at setup, and re-syncs (debounced) when the filesystem or the project settings
## change, broadcasting `extensions.changed` with the diff so a connected bridge can update its
## tool list.
## The editor's filesystem arrives untyped (`filesystem_changed` is all it needs), so this file
## names no Editor* class and compiles anywhere; only the plugin wires it up.

const ExtensionHost := preload("extension_host.gd")
const ExtensionDiscovery := preload("extension_discovery.gd")
const ExtensionCatalog := preload("extension_catalog.gd")

const LIST_METHOD := "extensions.list"
const REFRESH_METHOD := "extensions.refresh"
const CHANGED_NOTIFICATION := "extensions.changed"
## Saving a script fires several filesystem signals in a burst; wait for the burst to end.
const DEBOUNCE_SECONDS := 0.6

var _registry: Object = null
var _server: Object = null
var _host: ExtensionHost = null
var _timer: Timer = null
var _root := "res://"
var _filesystem: Object = null


## `command_registry` is the toolkit's command registry, `server` the editor server, `filesystem`
## the editor's EditorFileSystem (null: no filesystem watch). `scan_root` only exists so tests can
## point discovery at a scratch project.
func setup(command_registry: Object, server: Object, scan_root: String = "res://",
		filesystem: Object = null) -> void:
	_registry = command_registry
	_filesystem = filesystem
	_server = server
	_root = scan_root
	_host = ExtensionHost.new(command_registry, server)
	_register_meta_commands()
	_host.sync_to(ExtensionDiscovery.find(_root))
	_timer = Timer.new()
	_timer.one_shot = true
	_timer.wait_time = DEBOUNCE_SECONDS
	_timer.timeout.connect(_on_debounce_timeout)
	add_child(_timer)
	_connect_watchers()


func teardown() -> void:
	_disconnect_watchers()
	if _timer != null:
		_timer.stop()
		_timer.queue_free()
		_timer = null
	if _host != null:
		_host.unload_all()
	if _registry != null:
		for method: String in [LIST_METHOD, REFRESH_METHOD]:
			if bool(_registry.has_command(method)):
				_registry.unregister_command(method)
	_host = null
	_registry = null
	_server = null


## Re-scans now and broadcasts what changed. Returns the diff.
func refresh() -> Dictionary:
	if _host == null:
		return {"commands": [], "removed": []}
	var change := _host.sync_to(ExtensionDiscovery.find(_root))
	if not ExtensionCatalog.is_empty_diff(change) and _server != null:
		_server.broadcast_notification(CHANGED_NOTIFICATION, change)
	return change


## path -> reason for scripts found but not loaded (the dock lists them).
func load_errors() -> Dictionary:
	return _host.load_errors() if _host != null else {}


func _register_meta_commands() -> void:
	_registry.register_command(LIST_METHOD, _cmd_list,
		_meta_options(true, "List commands provided by project extensions."))
	_registry.register_command(REFRESH_METHOD, _cmd_refresh,
		_meta_options(false, "Re-scan project extensions now and list their commands."))


## Builds options through the registry's own builder; read-only matters for lane routing (C5).
func _meta_options(read_only: bool, description: String) -> Object:
	if not _registry.has_method("create_options"):
		return null
	var options: Object = _registry.create_options()
	if options == null:
		return null
	for setter: Array in [["with_description", description], ["with_read_only", read_only],
			["with_idempotent", true], ["with_scene_independent", true]]:
		if options.has_method(String(setter[0])):
			options.call(String(setter[0]), setter[1])
	return options


func _cmd_list(_params: Dictionary) -> Dictionary:
	return {"success": true, "commands": _host.listing()}


func _cmd_refresh(_params: Dictionary) -> Dictionary:
	refresh()
	var result := {"success": true, "commands": _host.listing(), "refreshed": true}
	var errors := _host.load_errors()
	if not errors.is_empty():
		result["hint"] = "Some extension scripts were skipped: %s" % ", ".join(PackedStringArray(errors.keys()))
	return result


func _connect_watchers() -> void:
	if _filesystem != null and not _filesystem.is_connected("filesystem_changed", _schedule_refresh):
		_filesystem.connect("filesystem_changed", _schedule_refresh)
	if not ProjectSettings.settings_changed.is_connected(_schedule_refresh):
		ProjectSettings.settings_changed.connect(_schedule_refresh)


func _disconnect_watchers() -> void:
	if is_instance_valid(_filesystem) and _filesystem.is_connected("filesystem_changed", _schedule_refresh):
		_filesystem.disconnect("filesystem_changed", _schedule_refresh)
	_filesystem = null
	if ProjectSettings.settings_changed.is_connected(_schedule_refresh):
		ProjectSettings.settings_changed.disconnect(_schedule_refresh)


func _schedule_refresh() -> void:
	if _timer != null and is_inside_tree():
		_timer.start()


func _on_debounce_timeout() -> void:
	refresh()
