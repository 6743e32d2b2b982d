extends RefCounted
## The extension services (names, catalog, discovery, host) with a stand-in command registry and
## extension scripts written to a scratch folder.

const Assert := preload("assert.gd")
const Names := preload("res://addons/godot_mcp_toolkit/extensions/extension_names.gd")
const Catalog := preload("res://addons/godot_mcp_toolkit/extensions/extension_catalog.gd")
const Discovery := preload("res://addons/godot_mcp_toolkit/extensions/extension_discovery.gd")
const Host := preload("res://addons/godot_mcp_toolkit/extensions/extension_host.gd")
const BASE := "res://addons/godot_mcp_toolkit/extensions/mcp_toolkit_extension.gd"

var _root := ""


## Stands in for the toolkit's command registry: just enough surface for the host and proxy.
class FakeRegistry:
	extends RefCounted
	var commands := {}

	func register_command(method: String, _handler: Callable, _options: Object = null,
			source: String = "builtin") -> bool:
		if commands.has(method):
			return false
		commands[method] = {"method": method, "description": "d " + method, "source": source}
		return true

	func unregister_command(method: String) -> void:
		commands.erase(method)

	func has_command(method: String) -> bool:
		return commands.has(method)

	func get_command(method: String) -> Dictionary:
		return (commands[method] as Dictionary).duplicate()

	func list_commands(source: String = "") -> Array:
		var out: Array = []
		for method: String in commands:
			if source.is_empty() or commands[method]["source"] == source:
				out.append(commands[method])
		return out


func test_names() -> void:
	Assert.eq(Names.refusal("mygame.spawn"), "", "own domain accepted")
	Assert.contains(Names.refusal("scene.create"), "built-in domain", "scene. reserved")
	Assert.contains(Names.refusal("extensions.list"), "built-in domain", "extensions. reserved")
	Assert.contains(Names.refusal("custom.x", ["custom"]), "built-in domain", "run-time built-in domain")
	Assert.contains(Names.refusal("Bad.Name"), "domain.verb", "shape enforced")
	Assert.contains(Names.refusal("nodot"), "domain.verb", "needs a dot")
	Assert.contains(Names.refusal("_cancel"), "transport", "underscore names are transport's")
	Assert.contains(Names.refusal("mygame.spawn", [], true), "already registered", "collision")


func test_catalog_describe_drops_unset_fields() -> void:
	var shaped := Catalog.describe({"method": "a.b", "description": "", "group": "g", "timeout_ms": 0,
		"input_schema": {}, "annotations": {"readOnlyHint": true}, "min_godot_version": "4.3"})
	Assert.eq(shaped, {"method": "a.b", "group": "g", "annotations": {"readOnlyHint": true},
		"min_godot_version": "4.3"}, "only set fields")


func test_catalog_diff() -> void:
	var before := Catalog.describe_all([{"method": "a.one"}, {"method": "a.two", "description": "x"}])
	var after := Catalog.describe_all([{"method": "a.two", "description": "y"}, {"method": "a.three"}])
	var change := Catalog.diff(before, after)
	Assert.eq(change["removed"], ["a.one"], "removed names")
	Assert.eq(change["commands"], [{"method": "a.three"}, {"method": "a.two", "description": "y"}], "added + modified")
	Assert.is_true(Catalog.is_empty_diff(Catalog.diff(after, after)), "no change, no broadcast")


func test_discovery_order_and_scope() -> void:
	var root := _scratch()
	_write(root.path_join("mcp_extensions/b.gd"), _extension_source("bb.one"))
	_write(root.path_join("mcp_extensions/a.gd"), _extension_source("aa.one"))
	_write(root.path_join("mcp_extensions/helpers/h.gd"), "extends RefCounted\n")
	_write(root.path_join("addons/zed/mcp_extensions/z.gd"), _extension_source("zz.one"))
	_write(root.path_join("addons/zed/other/ignored.gd"), "extends RefCounted\n")
	Assert.eq(Discovery.find(root), PackedStringArray([
		root.path_join("mcp_extensions/a.gd"), root.path_join("mcp_extensions/b.gd"),
		root.path_join("addons/zed/mcp_extensions/z.gd")]), "top level of each mcp_extensions folder")


func test_host_loads_guards_and_reloads() -> void:
	var root := _scratch()
	var registry := FakeRegistry.new()
	registry.register_command("scene.create", Callable(), null, "builtin")
	var host := Host.new(registry, null)
	var good := root.path_join("mcp_extensions/good.gd")
	var greedy := root.path_join("mcp_extensions/greedy.gd")
	var plain := root.path_join("mcp_extensions/plain.gd")
	_write(good, _extension_source("mygame.spawn"))
	_write(greedy, _extension_source("scene.delete_everything"))
	_write(plain, "extends RefCounted\n")
	var change := host.sync_to(Discovery.find(root))
	Assert.eq(change["commands"], [{"method": "mygame.spawn", "description": "d mygame.spawn"}], "one command added")
	Assert.is_false(registry.has_command("scene.delete_everything"), "built-in domain refused")
	Assert.contains(String(host.load_errors().get(plain, "")), "MCPToolkitExtension", "non-extension reported")
	Assert.eq(registry.get_command("mygame.spawn")["source"], "extension:" + good, "source tagged")

	_write(good, _extension_source("mygame.despawn"))
	change = host.sync_to(Discovery.find(root))
	Assert.eq(change["removed"], ["mygame.spawn"], "old command withdrawn on edit")
	Assert.eq((change["commands"] as Array).size(), 1, "new command announced")
	Assert.is_true(registry.has_command("mygame.despawn"), "new command registered")

	DirAccess.remove_absolute(good)
	change = host.sync_to(Discovery.find(root))
	Assert.eq(change["removed"], ["mygame.despawn"], "deleted file withdraws its commands")
	host.unload_all()
	Assert.eq(registry.commands.keys(), ["scene.create"], "only the built-in remains")


func cleanup() -> void:
	if not _root.is_empty():
		_remove_tree(_root)


func _extension_source(method: String) -> String:
	return "\n".join([
		"extends \"%s\"" % BASE,
		"",
		"func register(registry: Object, _server: Object) -> void:",
		"\tregistry.register_command(\"%s\", func(_p: Dictionary) -> Dictionary: return {})" % method,
		"",
	])


func _scratch() -> String:
	if _root.is_empty():
		_root = OS.get_user_data_dir().path_join("ext_test_%d" % randi())
		DirAccess.make_dir_recursive_absolute(_root)
	return _root


func _write(path: String, text: String) -> void:
	DirAccess.make_dir_recursive_absolute(path.get_base_dir())
	var file := FileAccess.open(path, FileAccess.WRITE)
	file.store_string(text)
	file.close()


func _remove_tree(dir: String) -> void:
	for sub: String in DirAccess.get_directories_at(dir):
		_remove_tree(dir.path_join(sub))
	for file_name: String in DirAccess.get_files_at(dir):
		DirAccess.remove_absolute(dir.path_join(file_name))
	DirAccess.remove_absolute(dir)
