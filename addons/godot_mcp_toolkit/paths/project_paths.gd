@tool
extends RefCounted
## Where this project's per-instance files live (contract C17, C18).
##
## The instance dir sits under user:// so it follows a relocated user dir; the bridge never derives
## it, it only checks the `project_instance_<12 hex>/` shape of the token path it is handed.
## Export-clean.

const ProjectKey := preload("project_key.gd")
const Folders := preload("res://addons/godot_mcp_toolkit/base/folders.gd")

const INSTANCE_ROOT := "user://addons/godot_mcp_toolkit"
const INSTANCE_PREFIX := "project_instance_"


## `user://addons/godot_mcp_toolkit/project_instance_<hash>/` for `project_path`
## (the running project when empty). Always ends with `/`.
static func instance_dir(project_path: String = "") -> String:
	var root := project_path if not project_path.is_empty() else ProjectKey.current_project_root()
	return "%s/%s%s/" % [INSTANCE_ROOT, INSTANCE_PREFIX, ProjectKey.project_hash(root)]


static func instance_file(file_name: String, project_path: String = "") -> String:
	return instance_dir(project_path) + file_name


## Creates the instance dir if needed; returns the engine error code.
static func ensure_instance_dir(project_path: String = "") -> Error:
	var absolute := ProjectSettings.globalize_path(instance_dir(project_path))
	if Folders.exists(absolute):
		return OK
	return DirAccess.make_dir_recursive_absolute(absolute)
