@tool
extends RefCounted
## The project's files as asset.list and asset.get_dependencies see them: a walk of res:// that
## skips what is not an asset (hidden folders such as .godot, .gdignore'd folders, .import/.uid
## sidecars), each file's resource type read cheaply (a text resource's header, an imported file's
## .import remap) rather than by loading it, and dependency strings parsed across Godot versions.
## Runtime-safe: needs no EditorFileSystem, so it answers the same in the editor and in tests.

const SIDECAR_EXTENSIONS := ["import", "uid", "mcp_tmp"]
const FIXED_TYPES := {"tscn": "PackedScene", "scn": "PackedScene", "gd": "GDScript", "gdshader": "Shader",
	"gdshaderinc": "ShaderInclude", "cs": "CSharpScript"}
## Plugins: listed after the project's own files.
const ADDONS_FOLDER := "res://addons/"
const HEADER_TYPE_PATTERN := "^\\[gd_resource[^\\]]*\\btype=\"([A-Za-z0-9_]+)\""


## Every asset file under `folder` (recursive), in listing_order; the `skipped` folders (paths
## without a trailing slash, lower case: compared case-insensitively) are not entered.
static func files_under(folder: String, skipped: Array = []) -> PackedStringArray:
	var found := PackedStringArray()
	_walk(folder, found, skipped)
	return listing_order(found)


static func _walk(folder: String, found: PackedStringArray, skipped: Array) -> void:
	if FileAccess.file_exists(folder.path_join(".gdignore")) or folder.to_lower() in skipped:
		return
	for file_name: String in DirAccess.get_files_at(folder):
		if not file_name.get_extension().to_lower() in SIDECAR_EXTENSIONS:
			found.append(folder.path_join(file_name))
	for sub: String in DirAccess.get_directories_at(folder):
		if not sub.begins_with("."):
			_walk(folder.path_join(sub), found, skipped)


## `paths` in the order a listing shows them, so its first page is the game: the project's own
## files before the plugins under res://addons/, a folder's files before those of its subfolders
## (fewer folders deep first), then by path.
static func listing_order(paths: PackedStringArray) -> PackedStringArray:
	var keyed: Array = []
	for path: String in paths:
		keyed.append([1 if path.begins_with(ADDONS_FOLDER) else 0, path.count("/"), path])
	keyed.sort_custom(func(a: Array, b: Array) -> bool:
		if a[0] != b[0]:
			return a[0] < b[0]
		if a[1] != b[1]:
			return a[1] < b[1]
		return (a[2] as String) < (b[2] as String))
	var ordered := PackedStringArray()
	for key: Array in keyed:
		ordered.append(key[2])
	return ordered


## The resource class a file loads as, "" when it is not a resource the engine knows.
static func type_of(path: String) -> String:
	var extension := path.get_extension().to_lower()
	if FIXED_TYPES.has(extension):
		return FIXED_TYPES[extension]
	if extension == "tres":
		return _header_type(path)
	if FileAccess.file_exists(path + ".import"):
		var config := ConfigFile.new()
		if config.load(path + ".import") == OK:
			return str(config.get_value("remap", "type", ""))
	if extension == "res":
		return "Resource"
	return ""


static func _header_type(path: String) -> String:
	var file := FileAccess.open(path, FileAccess.READ)
	if file == null:
		return ""
	var match := RegEx.create_from_string(HEADER_TYPE_PATTERN).search(file.get_line())
	return "Resource" if match == null else match.get_string(1)


## True when `type` is `wanted` or inherits it.
static func is_of_class(type: String, wanted: String) -> bool:
	if type.is_empty():
		return false
	if type == wanted:
		return true
	return ClassDB.class_exists(type) and ClassDB.class_exists(wanted) and ClassDB.is_parent_class(type, wanted)


## {"path", "type"} from one ResourceLoader.get_dependencies entry. The format changed across
## versions ("path::type" in 4.2, "uid::type::path" from 4.3), so the slices are recognised by
## their scheme rather than by position.
static func parse_dependency(entry: String) -> Dictionary:
	var path := ""
	var uid := ""
	var type := ""
	for slice: String in entry.split("::"):
		if slice.begins_with("res://"):
			path = slice
		elif slice.begins_with("uid://"):
			uid = slice
		elif not slice.is_empty():
			type = slice
	if path.is_empty() and not uid.is_empty():
		var id := ResourceUID.text_to_id(uid)
		if ResourceUID.has_id(id):
			path = ResourceUID.get_id_path(id)
	if path.is_empty():
		path = uid
	return {"path": path, "type": type}
