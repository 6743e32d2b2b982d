@tool
extends RefCounted
## Finds extension scripts (contract C13).
##
## Looked at, one level deep, in sorted order:
##   <root>/mcp_extensions/*.gd
##   <root>/addons/<addon>/mcp_extensions/*.gd
## Only the folder itself is scanned, so helper scripts can live in its subfolders without being
## mistaken for extensions. The toolkit's own examples sit in a .gdignore'd folder and are
## never picked up.

const Folders := preload("res://addons/godot_mcp_toolkit/base/folders.gd")

const FOLDER := "mcp_extensions"
const ADDONS := "addons"


static func find(root: String = "res://") -> PackedStringArray:
	var found := PackedStringArray()
	_collect(root.path_join(FOLDER), found)
	var addons_dir := root.path_join(ADDONS)
	if Folders.exists(addons_dir):
		var addons := DirAccess.get_directories_at(addons_dir)
		addons.sort()
		for addon: String in addons:
			_collect(addons_dir.path_join(addon).path_join(FOLDER), found)
	return found


static func _collect(dir: String, into: PackedStringArray) -> void:
	if not Folders.exists(dir):
		return
	var files := DirAccess.get_files_at(dir)
	files.sort()
	for file_name: String in files:
		if file_name.get_extension() == "gd":
			into.append(dir.path_join(file_name))


## A content fingerprint: a re-saved but unchanged file must not count as a modification.
static func fingerprint(path: String) -> String:
	return FileAccess.get_md5(path)
