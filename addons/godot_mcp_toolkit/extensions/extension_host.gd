@tool
extends RefCounted
## Loads, tracks and unloads extension scripts (contract C13, C14).
##
## One record per script path: the live instance, the guarded registry it was handed and the
## content fingerprint it was loaded from. Engine-side but editor-free, so headless tests can
## drive it with a fake command registry.

const ExtensionBase := preload("mcp_toolkit_extension.gd")
const ExtensionProxy := preload("extension_registry_proxy.gd")
const ExtensionNames := preload("extension_names.gd")
const ExtensionCatalog := preload("extension_catalog.gd")
const ExtensionDiscovery := preload("extension_discovery.gd")

const SOURCE_PREFIX := "extension:"

var _registry: Object = null
var _server: Object = null
## path -> {"instance": ExtensionBase, "proxy": ExtensionProxy, "fingerprint": String}
var _records := {}
## path -> reason the last load attempt failed (shown by the dock, cleared on success).
var _errors := {}


func _init(command_registry: Object, server: Object) -> void:
	_registry = command_registry
	_server = server


## Brings the loaded set in line with `paths`: unloads vanished or modified scripts, loads new or
## modified ones. Returns the listing diff (extension_catalog.diff) so the caller can broadcast.
func sync_to(paths: PackedStringArray) -> Dictionary:
	var before := listing()
	var wanted := {}
	for path: String in paths:
		wanted[path] = ExtensionDiscovery.fingerprint(path)
	for path: String in _records.keys():
		if not wanted.has(path) or wanted[path] != _records[path]["fingerprint"]:
			unload_script(path)
	for path: String in paths:
		if not _records.has(path):
			load_script(path, String(wanted[path]))
	for path: String in _errors.keys():
		if not wanted.has(path):
			_errors.erase(path)
	return ExtensionCatalog.diff(before, listing())


## Loads one script; returns "" or the reason it was skipped.
func load_script(path: String, fingerprint: String = "") -> String:
	var script := ResourceLoader.load(path, "", ResourceLoader.CACHE_MODE_REPLACE) as Script
	var reason := ""
	if script == null:
		reason = "could not be loaded"
	else:
		_sync_source(script, path)
		if not script.can_instantiate():
			reason = _not_instantiable_reason(script)
	if not reason.is_empty():
		return _fail(path, reason)
	var instance: Variant = script.new()
	if not instance is ExtensionBase:
		if instance is Object and not instance is RefCounted:
			(instance as Object).free()
		return _fail(path, "does not extend MCPToolkitExtension")
	var proxy := ExtensionProxy.new(_registry, SOURCE_PREFIX + path, builtin_domains())
	(instance as ExtensionBase).register(proxy, _server)
	_records[path] = {
		"instance": instance,
		"proxy": proxy,
		"fingerprint": fingerprint if not fingerprint.is_empty() else ExtensionDiscovery.fingerprint(path),
	}
	_errors.erase(path)
	return ""


## For a path it has compiled before, the GDScript loader hands back its cached copy even with
## CACHE_MODE_REPLACE (only CACHE_MODE_IGNORE re-reads the file), so an edited extension would
## come back with its old code. Push the text on disk into the script ourselves.
static func _sync_source(script: Script, path: String) -> void:
	var on_disk := FileAccess.get_file_as_string(path)
	if on_disk.is_empty() or script.source_code == on_disk:
		return
	script.source_code = on_disk
	script.reload(true)


## In the editor a script without @tool is never instantiable, however correct it is; say so
## rather than blaming the compiler.
static func _not_instantiable_reason(script: Script) -> String:
	if Engine.is_editor_hint() and not script.is_tool():
		return "does not compile, or lacks @tool (extensions run inside the editor, so the script must start with @tool)"
	return "does not compile (see the Output panel) or cannot be instantiated"


func unload_script(path: String) -> void:
	if not _records.has(path):
		return
	var record: Dictionary = _records[path]
	(record["instance"] as ExtensionBase).unregister()
	(record["proxy"] as ExtensionProxy).withdraw_all()
	_records.erase(path)


func unload_all() -> void:
	for path: String in _records.keys():
		unload_script(path)
	_errors.clear()


## Wire listing of every extension command currently registered (extensions.list shape).
func listing() -> Array:
	var descriptors: Array = []
	for method: String in owned_methods():
		if bool(_registry.has_command(method)):
			var descriptor: Dictionary = _registry.get_command(method)
			descriptor["method"] = method
			descriptors.append(descriptor)
	return ExtensionCatalog.describe_all(descriptors)


func owned_methods() -> PackedStringArray:
	var out := PackedStringArray()
	for path: String in _records:
		out.append_array((_records[path]["proxy"] as ExtensionProxy).registered_methods())
	return out


func loaded_paths() -> PackedStringArray:
	var out := PackedStringArray(_records.keys())
	out.sort()
	return out


## path -> reason, for scripts that were found but not loaded.
func load_errors() -> Dictionary:
	return _errors.duplicate()


## Domains of built-in commands registered right now, on top of the static reserved list.
func builtin_domains() -> Array:
	var domains: Array = []
	if _registry == null or not _registry.has_method("list_commands"):
		return domains
	for descriptor: Variant in _registry.list_commands("builtin"):
		if descriptor is Dictionary:
			var domain := ExtensionNames.domain_of(String(descriptor.get("method", "")))
			if not domain.is_empty() and not domain in domains:
				domains.append(domain)
	return domains


func _fail(path: String, reason: String) -> String:
	_errors[path] = reason
	push_warning("MCP toolkit: extension %s skipped: %s" % [path, reason])
	return reason
