extends RefCounted
## registry/store/registry_projection.gd and paths/project_key.gd against
## tests/fixtures/toolkit/registry_projection.json (shared with the Python tests).

const Assert := preload("assert.gd")
const RegistryProjection := preload("res://addons/godot_mcp_toolkit/registry/store/registry_projection.gd")
const ProjectKey := preload("res://addons/godot_mcp_toolkit/paths/project_key.gd")
const RegistryPaths := preload("res://addons/godot_mcp_toolkit/registry/store/registry_paths.gd")
const FIXTURE := "res://tests/fixtures/toolkit/registry_projection.json"


func test_projection_cases() -> void:
	for case: Dictionary in _fixture()["cases"]:
		var result := RegistryProjection.merge_by_path(case["entries"], case["overlays"])
		Assert.eq(result, case["expected"], String(case["name"]))


func test_numbers_come_back_as_ints() -> void:
	var result := RegistryProjection.merge_by_path([{"_key": "/p", "port": 6550.0, "pid": 12.0}])
	Assert.is_true(result["by_path"]["/p"]["port"] is int, "port is an int")
	Assert.is_true(result["by_path"]["/p"]["pid"] is int, "pid is an int")


func test_project_key_cases() -> void:
	for case: Dictionary in _fixture()["project_key"]:
		var label := "%s on %s" % [case["path"], case["os"]]
		Assert.eq(ProjectKey.canonical(String(case["path"]), String(case["os"])), case["key"], label)
		Assert.eq(ProjectKey.project_hash(String(case["path"]), String(case["os"])), case["hash"], label + " hash")


func test_registry_dir_per_os() -> void:
	var env := {"APPDATA": "C:\\Users\\Ana\\AppData\\Roaming", "HOME": "/home/ana", "XDG_DATA_HOME": ""}
	Assert.eq(RegistryPaths.data_dir_for("Windows", env), "C:/Users/Ana/AppData/Roaming/godot-mcp-toolkit", "windows")
	Assert.eq(RegistryPaths.data_dir_for("macOS", {"HOME": "/Users/ana"}),
		"/Users/ana/Library/Application Support/godot-mcp-toolkit", "macos")
	Assert.eq(RegistryPaths.data_dir_for("Linux", env), "/home/ana/.local/share/godot-mcp-toolkit", "linux default")
	Assert.eq(RegistryPaths.data_dir_for("Linux", {"XDG_DATA_HOME": "/data/", "HOME": "/home/ana"}),
		"/data/godot-mcp-toolkit", "linux xdg")


func _fixture() -> Dictionary:
	return JSON.parse_string(FileAccess.get_file_as_string(FIXTURE))
