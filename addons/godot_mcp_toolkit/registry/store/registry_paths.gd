@tool
extends RefCounted
## Where the machine-wide registry lives (contract C16).
##
## Deliberately NOT user://: every editor and every bridge on the machine must agree on one
## directory regardless of which project they belong to. The recipe mirrors the bridge's reader
## (godot_bridge/editor/registry.py data_dir) so the two sides meet. Export-clean.

const APP_DIR := "godot-mcp-toolkit"
const ENTRIES_DIR := "entries"
const PROJECTS_FILE := "projects.json"
const LOCK_NAME := "projects.lock"
## Environment variables the recipe consults; read once so the pure function can be tested.
const ENV_KEYS := ["APPDATA", "XDG_DATA_HOME", "HOME", "USERPROFILE"]


## Pure: the per-OS data dir + APP_DIR for `os_name` (an OS.get_name() value) and `env`.
## Windows: %APPDATA%; macOS: ~/Library/Application Support; others: $XDG_DATA_HOME or
## ~/.local/share. Always uses `/` separators, no trailing `/`.
static func data_dir_for(os_name: String, env: Dictionary) -> String:
	var base := ""
	if os_name == "Windows":
		base = _env(env, "APPDATA")
		if base.is_empty():
			base = _env(env, "USERPROFILE").path_join("AppData/Roaming")
	elif os_name == "macOS":
		base = _env(env, "HOME").path_join("Library/Application Support")
	else:
		base = _env(env, "XDG_DATA_HOME")
		if base.is_empty():
			base = _env(env, "HOME").path_join(".local/share")
	base = base.replace("\\", "/")
	while base.length() > 1 and base.ends_with("/"):
		base = base.left(base.length() - 1)
	return base.path_join(APP_DIR)


static func registry_dir() -> String:
	var env := {}
	for key: String in ENV_KEYS:
		env[key] = OS.get_environment(key)
	return data_dir_for(OS.get_name(), env)


static func entries_dir(root: String = "") -> String:
	return _root(root).path_join(ENTRIES_DIR)


static func projects_json(root: String = "") -> String:
	return _root(root).path_join(PROJECTS_FILE)


static func lock_path(root: String = "") -> String:
	return _root(root).path_join(LOCK_NAME)


## The editor's entry file for a project hash.
static func entry_file(project_hash: String, root: String = "") -> String:
	return entries_dir(root).path_join(project_hash + ".json")


## The game process's runtime overlay for a project hash (kept apart from the editor's entry so
## the two processes never read-modify-write the same file).
static func runtime_file(project_hash: String, root: String = "") -> String:
	return entries_dir(root).path_join(project_hash + ".runtime.json")


static func _root(root: String) -> String:
	return root if not root.is_empty() else registry_dir()


static func _env(env: Dictionary, key: String) -> String:
	var value: Variant = env.get(key, "")
	return String(value) if value is String else ""
