extends RefCounted
## registry/registry_client.gd end to end against a scratch registry dir: entry files, the
## runtime overlay and the projects.json projection.

const Assert := preload("assert.gd")
const RegistryClient := preload("res://addons/godot_mcp_toolkit/registry/registry_client.gd")
const RegistryPaths := preload("res://addons/godot_mcp_toolkit/registry/store/registry_paths.gd")
const AtomicFile := preload("res://addons/godot_mcp_toolkit/registry/store/atomic_file.gd")
const ProjectKey := preload("res://addons/godot_mcp_toolkit/paths/project_key.gd")

const PROJECT := "/tmp/mcp-toolkit-test-project"

var _root := ""


func test_register_publishes_entry() -> void:
	var client := RegistryClient.new(_scratch())
	client.register(PROJECT, 6550, "/abs/mcp_token", "4.2.2", "127.0.0.1", 6005)
	var entry := _by_path().get(ProjectKey.canonical(PROJECT), {}) as Dictionary
	Assert.eq(entry.get("port"), 6550, "port published")
	Assert.eq(entry.get("token_path"), "/abs/mcp_token", "token path published")
	Assert.eq(entry.get("pid"), OS.get_process_id(), "pid published")
	Assert.eq(entry.get("lsp_port"), 6005, "lsp port published")
	Assert.eq(entry.get("godot_path"), OS.get_executable_path(), "the editor binary published for editor_launch")
	Assert.eq(entry.get("runtime_port"), null, "no game yet")
	Assert.is_false(DirAccess.dir_exists_absolute(RegistryPaths.lock_path(_root)), "lock released")
	client.unregister()
	Assert.is_false(_by_path().has(ProjectKey.canonical(PROJECT)), "unregister withdraws the entry")


func test_started_at_restarts_only_on_a_new_port() -> void:
	var client := RegistryClient.new(_scratch())
	client.register(PROJECT, 6550, "/t", "4.2.2", "127.0.0.1", 6005)
	var first := float(_by_path()[ProjectKey.canonical(PROJECT)]["started_at"])
	client.update_lsp_endpoint("127.0.0.1", 6010)
	var entry: Dictionary = _by_path()[ProjectKey.canonical(PROJECT)]
	Assert.eq(entry["lsp_port"], 6010, "LSP change re-published")
	Assert.eq(float(entry["started_at"]), first, "same bind keeps started_at")
	client.unregister()


func test_runtime_overlay() -> void:
	var editor := RegistryClient.new(_scratch())
	editor.register(PROJECT, 6550, "/t", "4.2.2", "127.0.0.1", 6005)
	var game := RegistryClient.new(_root, PROJECT)
	game.set_runtime(6570, 4242)
	var entry: Dictionary = _by_path()[ProjectKey.canonical(PROJECT)]
	Assert.eq(entry["runtime_port"], 6570, "runtime port overlaid")
	Assert.eq(entry["runtime_pid"], 4242, "runtime pid overlaid")
	editor.republish()
	Assert.eq(_by_path()[ProjectKey.canonical(PROJECT)]["runtime_port"], 6570, "editor re-publish keeps the game")
	game.clear_runtime()
	Assert.eq(_by_path()[ProjectKey.canonical(PROJECT)]["runtime_port"], null, "cleared on stop")
	editor.unregister()


func test_atomic_write_replaces_and_cleans_up() -> void:
	var path := _scratch().path_join("file.json")
	Assert.eq(AtomicFile.write_json(path, {"a": 1}), OK, "first write")
	Assert.eq(AtomicFile.write_json(path, {"a": 2}), OK, "replacing write")
	Assert.eq(AtomicFile.read_json_object(path), {"a": 2}, "new content")
	Assert.is_false(FileAccess.file_exists(path + ".bak"), "backup removed")
	Assert.is_false(FileAccess.file_exists(path + ".tmp"), "temp removed")


func cleanup() -> void:
	if _root.is_empty():
		return
	_remove_tree(_root)


func _scratch() -> String:
	if _root.is_empty():
		_root = OS.get_user_data_dir().path_join("registry_test_%d" % randi())
		DirAccess.make_dir_recursive_absolute(_root)
	return _root


func _by_path() -> Dictionary:
	return AtomicFile.read_json_object(RegistryPaths.projects_json(_root)).get("by_path", {})


func _remove_tree(dir: String) -> void:
	for sub: String in DirAccess.get_directories_at(dir):
		_remove_tree(dir.path_join(sub))
	for file_name: String in DirAccess.get_files_at(dir):
		DirAccess.remove_absolute(dir.path_join(file_name))
	DirAccess.remove_absolute(dir)
