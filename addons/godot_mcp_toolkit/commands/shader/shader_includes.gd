@tool
extends RefCounted
## An include file (.gdshaderinc) is no shader: the engine compiles it only inside a shader that
## includes it. This picks that shader's type (the one asked for, else that of a project shader
## including the file, else spatial) and has the engine compile the include in such a shader.
## Runtime-safe.

const ShaderText := preload("res://addons/godot_mcp_toolkit/commands/shader/shader_text.gd")
const ShaderCompile := preload("res://addons/godot_mcp_toolkit/commands/shader/shader_compile.gd")

const DEFAULT_TYPE := "spatial"
## Files and folders looked at when searching the project for the shaders that include a file.
const MAX_SCANNED := 5000


## ShaderCompile.check_include's report for the include at `path`, with "included_by" when a
## project shader including it chose the type. `type` "" lets the project choose.
static func check(path: String, type: String, messages: bool = true) -> Dictionary:
	var chosen := type
	var by := ""
	if chosen.is_empty():
		for shader_path: String in includers(path):
			var declared := ShaderText.declaration(FileAccess.get_file_as_string(shader_path))
			if declared.has("type"):
				chosen = declared["type"]
				by = shader_path
				break
	var report := ShaderCompile.check_include(path, chosen if not chosen.is_empty() else DEFAULT_TYPE, messages)
	if not by.is_empty():
		report["included_by"] = by
	return report


## The project's .gdshader files whose #include names `path`, in path order (hidden folders and
## .godot/ are not searched; the search stops after MAX_SCANNED entries).
static func includers(path: String) -> PackedStringArray:
	var found := PackedStringArray()
	var folders: Array[String] = ["res://"]
	var scanned := 0
	while not folders.is_empty() and scanned < MAX_SCANNED:
		var folder: String = folders.pop_front()
		var subfolders := DirAccess.get_directories_at(folder)
		subfolders.sort()
		for name: String in subfolders:
			if not name.begins_with("."):
				folders.append(folder.path_join(name))
		var files := DirAccess.get_files_at(folder)
		files.sort()
		scanned += subfolders.size() + files.size()
		for name: String in files:
			if name.get_extension().to_lower() == "gdshader" and _includes(folder.path_join(name), path):
				found.append(folder.path_join(name))
	found.sort()
	return found


static func _includes(shader_path: String, path: String) -> bool:
	var text := FileAccess.get_file_as_string(shader_path)
	return text.contains(path.get_file()) and path in ShaderText.include_paths(text, shader_path.get_base_dir())
