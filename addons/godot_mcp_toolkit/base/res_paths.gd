@tool
extends RefCounted
## A path a project file names (a script's preload, a shader's #include), as the engine resolves
## it: relative ones against the naming file's folder, "." and ".." folded, since the engine keys
## what it loads by exact path ("a/../b.gd" would not be found as "b.gd"). Pure; runtime-safe.


## `path` read from a file in the res:// `folder`: itself when it has a scheme (res://, uid://).
static func resolved(path: String, folder: String) -> String:
	if path.contains("://"):
		return path
	var parts: Array[String] = []
	parts.assign(folder.trim_prefix("res://").split("/", false))
	for part: String in path.split("/", false):
		if part == "..":
			if not parts.is_empty():
				parts.pop_back()
		elif part != ".":
			parts.append(part)
	return "res://" + "/".join(PackedStringArray(parts))
