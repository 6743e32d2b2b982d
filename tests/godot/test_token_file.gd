extends RefCounted
## security/auth.gd writes the token only this OS account may read: the file 0600 (also when an
## older, readable one was there), the per-project folder 0700, an operator's override folder left
## alone; the registry entry names the token's path, never the token. Read back with
## FileAccess.get_unix_permissions, so this runs wherever the engine's file system keeps Unix modes
## (the web engine's in-memory one does) and skips itself where it does not.

const Assert := preload("assert.gd")
const Auth := preload("res://addons/godot_mcp_toolkit/security/auth.gd")
const RegistryEntry := preload("res://addons/godot_mcp_toolkit/registry/store/registry_entry.gd")

const PROJECT := "/tmp_tests/token_file/project"
const OVERRIDE_DIR := "user://tmp_tests_token_override"
const OLD_TOKEN := "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
## A folder and a file anyone may read (octal 755 and 644), as the process umask made them before.
const OPEN_FOLDER := 0x1ED
const OPEN_FILE := 0x1A4

var _env := {}
var _auth: Auth = null


static func skip_reason() -> String:
	var probe := "user://tmp_tests_mode_probe"
	var file := FileAccess.open(probe, FileAccess.WRITE)
	file.store_string("x")
	file.close()
	var absolute := ProjectSettings.globalize_path(probe)
	var set_error := FileAccess.set_unix_permissions(absolute, Auth.PRIVATE_FILE)
	var kept := FileAccess.get_unix_permissions(absolute) & 0x1FF
	DirAccess.remove_absolute(absolute)
	if set_error != OK or kept != Auth.PRIVATE_FILE:
		return "this file system keeps no Unix permissions (set: %s, read back: %o)" % [error_string(set_error), kept]
	return ""


func _init() -> void:
	_auth = Auth.new(func(name: String) -> String: return str(_env.get(name, "")), PROJECT)


func cleanup() -> void:
	_auth.stop()
	var folder := _auth.get_published_token_path().get_base_dir()
	DirAccess.remove_absolute(folder)
	if not DirAccess.dir_exists_absolute(OVERRIDE_DIR):
		return
	for file_name: String in DirAccess.get_files_at(OVERRIDE_DIR):
		DirAccess.remove_absolute(OVERRIDE_DIR.path_join(file_name))
	DirAccess.remove_absolute(OVERRIDE_DIR)


func test_the_token_file_is_private_in_a_private_folder() -> void:
	Assert.eq(_auth.start(), OK, "written")
	var path := _auth.get_published_token_path()
	Assert.eq(FileAccess.get_file_as_string(path), _auth.get_token(), "the token, raw")
	Assert.eq(_mode(path), Auth.PRIVATE_FILE, "the file is 0600")
	Assert.eq(_mode(path.get_base_dir()), Auth.PRIVATE_FOLDER, "its project_instance folder is 0700")
	Assert.is_true(path.get_base_dir().get_file().begins_with("project_instance_"), "that is the instance folder")


func test_a_readable_token_left_by_an_older_plugin_is_replaced_privately() -> void:
	var path := _auth.get_published_token_path()
	DirAccess.make_dir_recursive_absolute(path.get_base_dir())
	FileAccess.set_unix_permissions(path.get_base_dir(), OPEN_FOLDER)
	var old := FileAccess.open(path, FileAccess.WRITE)
	old.store_string(OLD_TOKEN)
	old.close()
	FileAccess.set_unix_permissions(path, OPEN_FILE)
	Assert.eq(_mode(path), OPEN_FILE, "set up: readable by everyone")
	Assert.eq(_auth.start(), OK, "rotated")
	Assert.eq([_mode(path), _mode(path.get_base_dir())], [Auth.PRIVATE_FILE, Auth.PRIVATE_FOLDER], "both made private")
	Assert.eq(FileAccess.get_file_as_string(path), _auth.get_token(), "the new token replaced the old one")
	Assert.is_false(FileAccess.get_file_as_string(path).contains(OLD_TOKEN), "nothing of the old one left")
	var beside := DirAccess.get_files_at(path.get_base_dir())
	Assert.eq(beside, PackedStringArray([Auth.TOKEN_FILE]), "no temporary copy beside it: %s" % [beside])


func test_an_operators_folder_is_theirs_the_file_still_private() -> void:
	DirAccess.make_dir_recursive_absolute(OVERRIDE_DIR)
	var folder := ProjectSettings.globalize_path(OVERRIDE_DIR)
	FileAccess.set_unix_permissions(folder, OPEN_FOLDER)
	_env[Auth.ENV_TOKEN_PATH] = folder.path_join("token")
	Assert.eq(_auth.start(), OK, "written")
	Assert.eq(_mode(folder.path_join("token")), Auth.PRIVATE_FILE, "the file is 0600")
	Assert.eq(_mode(folder), OPEN_FOLDER, "the operator's folder keeps its mode")


func test_the_registry_entry_names_the_path_never_the_token() -> void:
	_auth.start()
	var entry := RegistryEntry.build_entry("/p", 6550, _auth.get_published_token_path(), 1, 0.0, "4.6.0", "", 0)
	Assert.is_false(JSON.stringify(entry).contains(_auth.get_token()), "no secret in the registry")
	Assert.eq(entry["token_path"], _auth.get_published_token_path(), "only where to read it")


static func _mode(path: String) -> int:
	return FileAccess.get_unix_permissions(path) & 0x1FF
